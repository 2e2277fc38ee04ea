"""A class moving items at random keeps coming back to changes the server has drawn: the charts and the table of a
change (the list before it and the list now) stay in ``ui.live``'s caches for the few thousand changes a five-item
list has, and a chart or table built from the breakdown's columns as lists is the one built from its frame."""

import random

import pytest

from ndcg_core.lists.items import list_breakdown, make_items, move
from support import playground_list
from ui import charts, live
from ui.columns import Columns
from ui.i18n import Translator
from ui.views.playground.figures import chart_texts
from ui.widgets.table import COLUMNS, table_data

ITEMS = make_items(list("ABCDE"), [3, 2, 3, 0, 1])
KINDS = ("contribution", "cumulative", "order", "every_k")


def random_changes(count, seed=7):
    """``count`` single moves at random, each from the list the last one left."""
    rng = random.Random(seed)
    now, changes = playground_list(ITEMS), []
    for _ in range(count):
        source = rng.randrange(5)
        target = rng.choice([i for i in range(5) if i != source])
        after = now.with_items(move(list(now.items), source, target))
        changes.append((now, after))
        now = after
    return changes


def draw(changes, texts, headers):
    for before, after in changes:
        live.figures(
            after.items, after.scoring, after.extra, top=3, texts=texts, presenter=False, change=(before, after)
        )
        live.table(
            after.items,
            after.scoring,
            after.extra,
            headers=headers,
            caption="",
            beyond="",
            large=False,
            change=(before, after),
        )


def test_two_hundred_random_moves_are_all_found_again():
    t = Translator("en")
    texts, headers = chart_texts(t, 4), {c: t(f"table.{c}") for c in COLUMNS}
    changes = random_changes(200)
    draw(changes, texts, headers)  # 200 changes' charts and tables: more than a cache per list would hold
    charts_missed, tables_missed = live._figures.cache_info().misses, live._table.cache_info().misses
    draw(changes, texts, headers)
    assert live._figures.cache_info().misses == charts_missed
    assert live._table.cache_info().misses == tables_missed


@pytest.mark.parametrize("kind", KINDS)
def test_a_chart_from_the_columns_is_the_chart_from_the_frame(kind):
    """The image downloads' Vega-Lite charts (the page's are the figure charts' component)."""
    after = random_changes(1, seed=3)[0][1]
    now = list_breakdown(after.items, after.scoring, after.extra)
    every_k = now["ndcg"].tolist() if kind == "every_k" else ()
    from_frame = charts.chart_spec(kind, now, top=3, k=4, every_k=every_k)
    from_columns = charts.chart_spec(kind, Columns.of(now), top=3, k=4, every_k=every_k)
    assert from_columns == from_frame


def test_a_table_from_the_columns_is_the_table_from_the_frame():
    before, after = random_changes(1, seed=3)[0]
    now, was = (list_breakdown(s.items, s.scoring, s.extra) for s in (after, before))
    headers = {c: c for c in COLUMNS}
    from_frame = table_data(now, headers, "", "", before=was, changed=frozenset({1, 2}), change=5)
    from_columns = table_data(
        Columns.of(now), headers, "", "", before=Columns.of(was), changed=frozenset({1, 2}), change=5
    )
    assert from_columns == from_frame


def test_the_shared_template_is_not_changed_by_a_chart_built_from_it():
    frame = list_breakdown(ITEMS, playground_list(ITEMS).scoring)
    first = charts.chart_spec("contribution", frame, top=3, k=4)
    first["datasets"]["changed by a caller"] = []
    again = charts.chart_spec("contribution", frame, top=3, k=4)
    assert "changed by a caller" not in again["datasets"]
