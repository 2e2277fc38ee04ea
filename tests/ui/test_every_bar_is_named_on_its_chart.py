"""Every bar of every chart names its category (a result, an exercise, a vote, a position, a query, a metric):
no axis lets the browser drop labels that come close (Streamlit's chart theme turns ``labelOverlap`` on, and a
projected Judge chart named results 1 and 4 only). Checked on the spec and on the chart drawn by Vega
(vl-convert) under Streamlit's axis theme. Compare names its winners in words under their bars, and the histogram's
"best"/"true" label sits above every bar, never over one."""

import re

import pandas as pd
import pytest
import vl_convert as vlc

from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.compare import CompareSummary, compare_activity
from ndcg_core.classroom.kinds.judge import Judge, JudgeSummary
from ndcg_core.classroom.kinds.lists import MAX_LIST, activity_list
from ndcg_core.classroom.kinds.practice import MAX_EXERCISES
from ndcg_core.classroom.kinds.tally import histogram
from ndcg_core.lists.items import list_breakdown, make_items
from ndcg_core.lists.scoring import Scoring
from ui import charts
from ui.i18n import Translator
from ui.projector import PROJECTOR_FONT, share_bars
from ui.views import metrics
from ui.views.classroom.common import histogram_chart
from ui.views.classroom.kinds import compare, judge

# Streamlit 1.67's own axis theme (its frontend's CustomTheme), which every st.altair_chart is drawn under.
STREAMLIT_AXIS = {
    "labelOverlap": True,
    "labelLimit": 100,
    "labelSeparation": 2,
    "labelFlush": True,
    "labelBound": False,
    "labelPadding": 16,
    "ticks": False,
}


def drawn(spec, width=700, height=None):
    """The chart as Vega draws it in the app (Streamlit's theme, the projector's type, fitted to its box): the text
    of every label, and the labels Vega hid (opacity 0)."""
    spec = {**spec, "autosize": {"type": "fit", "contains": "padding"}, "width": width}
    if height is not None:
        spec["height"] = height
    config = dict(spec.get("config", {}))
    config["axis"] = {**STREAMLIT_AXIS, "labelFontSize": PROJECTOR_FONT, **config.get("axis", {})}
    svg = vlc.vegalite_to_svg({**spec, "config": config})
    texts = re.findall(r"<text([^>]*)>([^<]*)</text>", svg)
    lines = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg)  # a text of several lines
    return svg, [text for _, text in texts] + lines, [text for attrs, text in texts if 'opacity="0"' in attrs]


def category_axes(spec):
    """Every x or y encoding of a nominal or ordinal field anywhere in the spec, with its axis."""
    if isinstance(spec, dict):
        for channel in ("x", "y"):
            encoding = spec.get("encoding", {}).get(channel)
            if isinstance(encoding, dict) and encoding.get("type") in ("nominal", "ordinal"):
                yield encoding.get("field"), encoding.get("axis") or {}
        for value in spec.values():
            yield from category_axes(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from category_axes(value)


def assert_no_label_dropped(spec):
    axes = [(field, axis) for field, axis in category_axes(spec) if axis.get("labels", True)]
    assert axes, "no category axis found"
    for field, axis in axes:
        assert axis.get("labelOverlap") is False, (field, axis)


def judge_chart(t, n):
    spec = activity_list([f"Result {i}" for i in range(1, n + 1)], [i % 4 for i in range(n)], min(n, 5))
    activity = Judge(spec, Scale(0, 3))
    summary = JudgeSummary(4, tuple((1, 1, 1, 1) for _ in range(n)), (1.5,) * n, None, None, 0.5)
    return judge.distribution_chart(t, activity, summary, True).to_dict()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("n", [3, 4, 6, MAX_LIST])
def test_the_judge_chart_names_every_result(lang, n):
    t = Translator(lang)
    spec = judge_chart(t, n)
    assert_no_label_dropped(spec)
    names = [f"{i}. Result {i}" for i in range(1, n + 1)]
    assert spec["layer"][0]["encoding"]["y"]["sort"] == names
    # Squeezed to 30 px a row (the projector fits the chart to its box), every name is still written.
    _, texts, hidden = drawn(spec, height=30 * n + 80)
    assert set(names) <= set(texts) and not set(names) & set(hidden), hidden


@pytest.mark.parametrize("n", [2, 3, 5, MAX_EXERCISES])
def test_the_practice_chart_names_every_exercise(n):
    t = Translator("en")
    names = [t("classroom.exercise", number=i, kind=t("practice.kind.dcg")) for i in range(1, n + 1)]
    spec = share_bars(names, [0.5] * n, ["1 right of 2"] * n, t("classroom.share_axis")).to_dict()
    assert_no_label_dropped(spec)
    _, texts, hidden = drawn(spec, width=1216, height=28 * n + 80)
    assert set(names) <= set(texts) and not set(names) & set(hidden), hidden
    assert not hidden  # nor is any share on its axis left out


def compare_activity_and_summary(votes, metric="ndcg"):
    activity = compare_activity("seed003", metric)
    summary = CompareSummary(sum(votes.values()), votes, {}, 0)
    return activity, summary


def test_the_compare_chart_names_every_vote():
    t = Translator("en")
    activity, summary = compare_activity_and_summary({"a": 5, "b": 1, "same": 0})
    spec = compare.vote_chart(t, activity, summary, False).to_dict()
    assert_no_label_dropped(spec)
    _, texts, hidden = drawn(spec, width=300, height=160)
    assert {"A", "B", "The same"} <= set(texts) and not {"A", "B", "The same"} & set(hidden)


def test_the_playground_evaluate_and_metrics_charts_name_every_category():
    items = make_items([f"doc {i}" for i in range(1, 13)], [i % 4 for i in range(12)])
    frame = list_breakdown(items, Scoring(k=5))
    for kind in ("contribution", "order"):
        spec = charts.chart_spec(kind, frame, top=3, k=5)
        assert_no_label_dropped(spec)
        _, texts, hidden = drawn(spec, width=360)  # a phone's width: 12 positions
        assert {str(p) for p in range(1, 13)} <= set(texts) and not {str(p) for p in range(1, 13)} & set(hidden)
    differences = [(-1) ** i * i / 100 for i in range(30)]
    queries = pd.DataFrame({"qid": [f"q{i}" for i in range(30)], "difference": differences})
    assert_no_label_dropped(charts.difference_chart(queries).to_dict())
    measures = pd.DataFrame({"qid": ["1", "2"] * 3, "measure": ["NDCG@5"] * 2 + ["NDCG@10"] * 2 + ["NDCG"] * 2})
    assert_no_label_dropped(charts.distribution_chart(measures.assign(value=0.5)).to_dict())
    values = pd.DataFrame({"ranking": ["A", "B"] * 6, "metric": [m for m in "PRSTUV" for _ in "AB"], "value": 0.5})
    assert_no_label_dropped(metrics.metrics_chart(values, {"ranking": "Ranking", "metric": "Metric"}).to_dict())


def test_a_long_list_names_every_fifth_position_never_a_random_few():
    items = make_items([f"doc {i}" for i in range(1, 61)], [i % 4 for i in range(60)])
    spec = charts.chart_spec("contribution", list_breakdown(items, Scoring(k=10)), top=3, k=10)
    axis = spec["layer"][0]["layer"][0]["encoding"]["x"]["axis"]
    assert axis["labelOverlap"] is False and axis["values"] == [1, *range(5, 61, 5)]


def winner_words(spec):
    """Each vote's picks: the lines of its label under its bar after the vote's own name (none over the bar)."""
    rows = spec["datasets"][spec["data"]["name"]]
    texts = [layer["encoding"]["text"]["field"] for layer in spec["layer"] if layer["mark"]["type"] == "text"]
    assert texts == ["count"]
    assert "split(datum.value" in spec["layer"][0]["encoding"]["x"]["axis"]["labelExpr"]
    return {row["vote"]: row["label"].split(compare.LINES)[1:] for row in rows}


def test_compare_names_the_class_choice_and_at_the_reveal_the_metric_verdict_under_their_bars():
    t = Translator("en")
    activity, summary = compare_activity_and_summary({"a": 5, "b": 2, "same": 1})
    assert activity.verdict("ndcg") == "a"  # seed003: A's relevant results beat B's, which has one
    before = compare.vote_chart(t, activity, summary, False).to_dict()
    assert winner_words(before) == {"A": ["class's pick"], "B": [], "The same": []}
    after = compare.vote_chart(t, activity, summary, True).to_dict()
    assert winner_words(after) == {"A": ["class's pick", "NDCG@5's pick"], "B": [], "The same": []}
    _, texts, _ = drawn(after, width=400, height=240)
    assert {"class's pick", "NDCG@5's pick"} <= set(texts)

    split, tie = compare_activity_and_summary({"a": 2, "b": 2, "same": 0}, metric="mrr")
    assert split.verdict("mrr") == "same"  # MRR cannot tell seed003's systems apart
    words = winner_words(compare.vote_chart(Translator("zh"), split, tie, True).to_dict())
    assert words == {"A": [], "B": [], "一样好": ["MRR 之选"]}  # no class choice in a tie


def bars_and_label(svg, label):
    bars = [
        tuple(float(x) for x in m)
        for m in re.findall(r'aria-roledescription="bar" d="M([\d.]+),([\d.]+)h([\d.]+)v([\d.]+)h', svg)
    ]
    (attrs,) = re.findall(rf"<text([^>]*)>{re.escape(label)}</text>", svg)
    x, y = (float(v) for v in re.search(r"translate\(([\d.]+),([\d.]+)\)", attrs).groups())
    width = len(label) * PROJECTOR_FONT * 0.6  # bold sans serif is narrower than this
    left, right = (x - width, x) if 'text-anchor="end"' in attrs else (x, x + width)
    top = y - PROJECTOR_FONT if "dominant-baseline" not in attrs and "top" not in attrs else y
    return bars, (left, right, top, top + PROJECTOR_FONT * 1.2)


@pytest.mark.parametrize("best", [1.0, 0.62, 0.3])
def test_the_best_label_is_over_no_bar(best):
    t = Translator("en")
    # Most of the class found the best order: the tallest bar stands right beside the rule and its label.
    values = [best] * 9 + [max(best - 0.06, 0.0)] * 7 + [0.5, 0.2]
    spec = histogram_chart(t, histogram(values), best, t("classroom.reached_axis"), "classroom.best_label")
    svg, _, _ = drawn(spec.to_dict(), width=800, height=300)
    bars, (left, right, top, bottom) = bars_and_label(svg, t("classroom.best_label", value=f"{best:.4f}"))
    under = [(x, y) for x, y, w, h in bars if h > 0 and x < right and x + w > left]
    assert under, "the label stands over no bar's column: the test would prove nothing"
    assert all(bottom <= y for _, y in under), (bottom, under)
