"""The Playground's four figure charts are one component fed with ``ndcg_core``'s numbers: each bar, tile and point
the browser places carries the figure the formula gives for the seeds' list (3, 2, 3, 0, 1), the last change's old
values where it changed them, and each chart its title and reading in the learner's language."""

import json
from math import log2

import pytest

from ndcg_core.lists.items import list_breakdown, make_items, move
from support import ROOT, playground_list
from ui import live
from ui.charts import Link
from ui.columns import Columns
from ui.i18n import Translator
from ui.views.playground.figures import chart_texts
from ui.widgets.figure_charts import KINDS, axis_ticks, figures_data

GRADES = [3, 2, 3, 0, 1]
K = 3
ITEMS = make_items(list("ABCDE"), GRADES)


def dcg_terms(grades):
    return [g / log2(p + 1) for p, g in enumerate(grades, start=1)]


def running(values):
    return [sum(values[: i + 1]) for i in range(len(values))]


def data_of(before_grades=None, lang="en"):
    """The charts' data of the list now (``GRADES``) after the list ``before_grades`` (or no change), as sent."""
    after = playground_list(ITEMS, k=K)
    change = None
    if before_grades is not None:
        change = (after.with_items(make_items(list("ABCDE"), before_grades)), after)
    text = live.figures(
        after.items,
        after.scoring,
        after.extra,
        top=3,
        texts=chart_texts(Translator(lang), after.k),
        presenter=False,
        change=change,
    )
    return after, {chart["kind"]: chart for chart in json.loads(text)["charts"]}, json.loads(text)


def test_each_bar_and_point_is_the_formula_s_figure():
    spec, charts, _ = data_of()
    k = spec.k
    terms = dcg_terms(GRADES)
    ideal = dcg_terms(sorted(GRADES, reverse=True))
    bars = charts["contribution"]["bars"]
    assert [bar["term"] for bar in bars] == pytest.approx(terms)
    assert [bar["gain"] for bar in bars] == GRADES  # the linear gain: a grade is worth itself
    assert [bar["discount"] for bar in bars] == pytest.approx([1 / log2(p + 1) for p in range(1, 6)])
    assert [bar["inside"] for bar in bars] == [p <= k for p in range(1, 6)]
    every_k = charts["every_k"]["points"]
    assert [pt["v"] for pt in every_k] == pytest.approx([sum(terms[:i]) / sum(ideal[:i]) for i in range(1, 6)])
    assert [pt["chosen"] for pt in every_k] == [i == k for i in range(1, 6)]
    this, best = charts["cumulative"]["series"]
    assert [pt["v"] for pt in this["points"]] == pytest.approx(running(terms))
    assert [pt["v"] for pt in best["points"]] == pytest.approx(running(ideal))
    tiles = charts["order"]["tiles"]
    assert [tile["key"] for tile in tiles] == [f"{g}" for g in GRADES + sorted(GRADES, reverse=True)]
    # Nothing changed: no old value differs from the new one, nothing is marked.
    assert all(bar["was"] == bar["term"] and not bar["changed"] for bar in bars)


def test_a_change_keeps_the_old_values_where_it_changed_them():
    before = [3, 3, 2, 0, 1]  # the second 3 moved down to 3: positions 2 and 3 swapped their grades
    _, charts, data = data_of(before)
    old = dcg_terms(before)
    bars = charts["contribution"]["bars"]
    assert [bar["was"] for bar in bars] == pytest.approx(old)
    assert [bar["changed"] for bar in bars] == [False, True, True, False, False]
    this, _ = charts["cumulative"]["series"]
    assert [pt["was"] for pt in this["points"]] == pytest.approx(running(old))
    assert [t["was"] for t in charts["order"]["tiles"][:5]] == ["", "3→", "2→", "", ""]
    assert data["changed"] and isinstance(data["change"], int)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_chart_has_its_title_and_reading_in_the_learner_s_language(lang):
    t = Translator(lang)
    _, charts, _ = data_of(lang=lang)
    assert list(charts) == list(KINDS)
    for kind, chart in charts.items():
        assert chart["title"] == t(f"playground.chart.{kind}")
        assert chart["reading"] == t(f"playground.chart.{kind}_alt", k=K)
    assert charts["cumulative"]["k_label"] == f"{t('chart.k')} = {K}"


def test_the_charts_from_the_columns_are_the_charts_from_the_frame():
    now = list_breakdown(ITEMS, playground_list(ITEMS).scoring)
    moved = make_items(list("ABCDE"), GRADES)
    was = list_breakdown(move(moved, 0, 3), playground_list(ITEMS).scoring)
    texts = chart_texts(Translator("en"), 5)
    from_frame = figures_data(now, top=3, k=5, texts=texts, link=Link(was, frozenset({1, 2}), 5))
    from_columns = figures_data(
        Columns.of(now), top=3, k=5, texts=texts, link=Link(Columns.of(was), frozenset({1, 2}), 5)
    )
    assert from_columns == from_frame


@pytest.mark.parametrize(
    ("top", "expected"),
    [(1.0, [0, 0.2, 0.4, 0.6, 0.8, 1.0]), (3.0, [0, 1, 2, 3]), (7.3, [0, 2, 4, 6, 8])],
)
def test_an_axis_reaches_its_largest_value_in_round_steps(top, expected):
    assert [value for value, _ in axis_ticks(top)] == pytest.approx(expected)


def test_a_label_is_data_never_html():
    hostile = make_items(["<img src=x onerror=alert(1)>", "b"], [3, 0])
    frame = list_breakdown(hostile, playground_list(hostile).scoring)
    data = figures_data(frame, top=3, k=2, texts=chart_texts(Translator("en"), 2))
    tips = [bar["tip"] for bar in data["charts"][1]["bars"]]
    assert "<img src=x onerror=alert(1)>" in tips[0]
    js = "\n".join(
        (ROOT / "ui" / "widgets" / name).read_text(encoding="utf-8") for name in ("svg_drawing.js", "figure_charts.js")
    )
    assert "innerHTML" not in js and "node.textContent = text" in js
