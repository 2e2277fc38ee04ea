"""The Playground's charts are linked: each has the parameter ``point`` bound to the page's document (the event the
components send), the swap map too, and with the last change each row keeps its old value (``was``), written here
from the formula, and says whether it changed."""

from math import log2

import numpy as np
import pytest

from ndcg_core.lists.items import list_breakdown, make_items, move
from support import playground_list
from ui import charts

ITEMS = make_items(list("ABCDE"), [3, 2, 3, 0, 1])
BEFORE = playground_list(ITEMS)
AFTER = BEFORE.with_items(move(ITEMS, 2, 1))  # C (a 3) up from 3 to 2: A, C, B, D, E


def frame(spec):
    return list_breakdown(spec.items, spec.scoring, spec.extra)


def linked(kind, link):
    after = frame(AFTER)
    return charts.chart_spec(kind, after, top=3, k=5, every_k=after["ndcg"].tolist(), link=link)


@pytest.mark.parametrize("kind", ["contribution", "cumulative", "order", "every_k"])
def test_every_chart_binds_point_and_tween_to_the_document(kind):
    params = {p["name"]: p for p in linked(kind, charts.Link())["params"]}
    assert params["point"]["bind"] == {"element": "body", "event": charts.POINT_EVENT}
    assert params["tween"]["bind"] == {"element": "html", "event": charts.TWEEN_EVENT}
    unlinked = charts.chart_spec(kind, frame(AFTER), top=3, k=5, every_k=[1.0] * 5)
    assert "params" not in unlinked  # the exports and other pages draw no signal


def test_the_swap_map_outlines_the_pointed_row_and_column():
    spec, _ = charts.swap_map_spec(list("ABCDE"), np.zeros((5, 5)), 5, linked=True)
    assert {p["name"] for p in spec["params"]} == {"swap", "point"}
    assert spec["encoding"]["stroke"]["condition"]["test"] == "datum.i + 1 == point || datum.j + 1 == point"


def test_the_contribution_rows_keep_the_old_terms_and_mark_the_changed_ones():
    link = charts.Link(frame(BEFORE), frozenset({2, 3}), 17)
    rows = linked("contribution", link)["datasets"][charts.ROWS]
    assert [r["was"] for r in rows] == pytest.approx([3, 2 / log2(3), 3 / 2, 0, 1 / log2(6)])
    assert [r["contribution"] for r in rows] == pytest.approx([3, 3 / log2(3), 2 / 2, 0, 1 / log2(6)])
    assert [r["changed"] for r in rows] == [False, True, True, False, False]
    assert {r["change"] for r in rows} == {17}


def test_the_tiles_name_the_old_grade_where_it_changed():
    rows = linked("order", charts.Link(frame(BEFORE), frozenset({2, 3}), 5))["datasets"][charts.ROWS]
    this = [r for r in rows if r["row"] == charts.DEFAULT_TEXTS["this_order"]]
    assert [(r["grade_key"], r["was_text"], r["changed"]) for r in this] == [
        ("3", "3→", False),
        ("3", "2→", True),
        ("2", "3→", True),
        ("0", "0→", False),
        ("1", "1→", False),
    ]
    ideal = [r for r in rows if r["row"] == charts.DEFAULT_TEXTS["ideal_order"]]
    assert not any(r["changed"] for r in ideal)  # a reorder leaves the ideal as it was
