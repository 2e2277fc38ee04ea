"""The projector's charts, as their Vega-Lite specs (no browser), read from the back of a lecture hall (issue 45):
every label at a contrast of 4.5:1 or more on the chart's background by the WCAG 2.2 formula (Streamlit's theme drew
them #808495 on white, 3.7:1); every bar's count written on it; count axes in whole students, from 0 up to the
class's size; Judge's grades in distinct hues, ordered light to dark (so colour-blind viewers and greyscale keep the
order); and Compare's class pick and metric pick never stacked over one bar."""

import colorsys
import re

import pytest
import vl_convert as vlc

from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.choose import ChooseSummary, choose_activity
from ndcg_core.classroom.kinds.compare import CompareSummary, compare_activity
from ndcg_core.classroom.kinds.judge import Judge, JudgeSummary
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.tally import histogram
from ui.i18n import Translator
from ui.projector import group_bars, sized
from ui.views.classroom.common import histogram_spec
from ui.views.classroom.kinds import choose, compare, judge

CLASS = 30  # students in the room; the charts below count a few of them
# What Streamlit 1.67's chart theme gives a chart that sets no colour of its own: grey labels on its white page.
THEME_LABEL, THEME_BACKGROUND = "#808495", "#ffffff"


def luminance(colour):
    """WCAG 2.2's relative luminance of a #rrggbb colour."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def judge_parts(scale=None):
    """A Judge of five results on ``scale`` (0 to 4 by default), the teacher's grades spread over it, and a
    class's grades: a few of each per result."""
    scale = scale or Scale(0, 4)
    teacher = [scale.grades[(3 * i) % len(scale.grades)] for i in range(5)]
    spec = activity_list([f"Result {i}" for i in range(1, 6)], teacher, 5)
    counts = tuple(tuple((i + g) % 3 + (g == 0) for g in range(len(scale.grades))) for i in range(5))
    summary = JudgeSummary(sum(map(sum, counts)), counts, (2.0,) * 5, 0.7, 0.9, 0.95)
    return Judge(spec, scale), summary


def charts():
    """Every chart the projector draws with counts, sized for it, as Vega-Lite specs: 4 of a class of ``CLASS``
    answered."""
    t = Translator("en")
    values = [0.9, 0.94, 0.94, 0.5]
    compared = compare_activity("seed003", "ndcg")
    chosen = choose_activity(activity_list(["a", "b", "c"], [3, 0, 2], 3))
    letters = [o.letter for o in chosen.options()]
    judged, graded = judge_parts()
    return {
        "histogram": histogram_spec("en", tuple(histogram(values)), 0.9386, "NDCG", screen=True, students=CLASS),
        "groups": sized(
            group_bars(["right", "other"], ["Right", "Other"], [[3], [1]], "Students", students=CLASS), True
        ),
        "compare": sized(
            compare.vote_chart(t, compared, CompareSummary(4, {"a": 3, "b": 1, "same": 0}, {}, 3), True, CLASS), True
        ),
        "choose": sized(
            choose.votes_chart(t, chosen, ChooseSummary(4, {letters[0]: 3, letters[1]: 1}, letters[0], 3), True, CLASS),
            True,
        ),
        "judge": sized(judge.distribution_chart(t, judged, graded, True, CLASS), True),
    }


def as_spec(chart):
    return chart if isinstance(chart, dict) else chart.to_dict()


def layers(spec):
    """Every single view of the spec, each with its mark as a dict."""
    if "layer" in spec:
        for layer in spec["layer"]:
            yield from layers(layer)
    else:
        mark = spec.get("mark", {})
        yield {**spec, "mark": mark if isinstance(mark, dict) else {"type": mark}}


def count_encodings(spec):
    """The encodings that count students: a quantitative axis titled "Students"."""
    for layer in layers(spec):
        for channel in ("x", "y"):
            encoding = layer.get("encoding", {}).get(channel, {})
            if encoding.get("type") == "quantitative" and (encoding.get("axis") or {}).get("title") == "Students":
                yield encoding


@pytest.mark.parametrize("name", ["histogram", "groups", "compare", "choose", "judge"])
def test_every_label_reads_at_4_5_to_1_on_the_chart_s_background(name):
    spec = as_spec(charts()[name])
    config = spec.get("config", {})
    background = config.get("background", THEME_BACKGROUND)
    colours = {
        f"{part}.{key}": config.get(part, {}).get(key, THEME_LABEL)
        for part in ("axis", "legend")
        for key in ("labelColor", "titleColor")
    }
    colours["text"] = config.get("text", {}).get("color", THEME_LABEL)
    for layer in layers(spec):  # a text mark's own colour, where it gives one
        if layer["mark"]["type"] == "text" and isinstance(layer["mark"].get("color"), str):
            colours[f"text mark {layer['encoding']['text']}"] = layer["mark"]["color"]
    low = {what: round(contrast(colour, background), 2) for what, colour in colours.items()}
    assert all(ratio >= 4.5 for ratio in low.values()), low


@pytest.mark.parametrize("name", ["histogram", "groups", "compare", "choose", "judge"])
def test_every_bar_has_its_count_written_on_it(name):
    spec = as_spec(charts()[name])
    texts = [layer for layer in layers(spec) if layer["mark"]["type"] == "text"]
    counted = [layer for layer in texts if layer["encoding"]["text"].get("field") in ("count", "text")]
    assert counted, [layer["encoding"]["text"] for layer in texts]
    _, drawn = draw(spec)
    written = {int(text) for text in drawn if text.isdigit()}
    assert {3, 1} <= written, drawn  # the counts themselves, not only the axis's ticks


@pytest.mark.parametrize("name", ["histogram", "groups", "compare", "choose", "judge"])
def test_count_axes_are_whole_students_from_0_up_to_the_class_s_size(name):
    spec = as_spec(charts()[name])
    (encoding,) = list(count_encodings(spec))[:1] or [None]
    assert encoding is not None, "no count axis titled Students"
    axis, domain = encoding["axis"], encoding["scale"]["domain"]
    ticks = axis.get("values")
    assert axis.get("format") == "d" and ticks, axis
    assert all(isinstance(v, int) for v in ticks) and ticks[0] == 0 and ticks[-1] == CLASS, ticks
    assert domain[0] == 0 and domain[1] >= CLASS, domain


@pytest.mark.parametrize("scale", [Scale(0, 4), Scale(0, 3), Scale(1, 5)])
def test_judge_s_grades_are_told_apart_by_hue_and_ordered_light_to_dark(scale):
    activity, summary = judge_parts(scale)
    spec = judge.distribution_chart(Translator("en"), activity, summary, True, CLASS).to_dict()
    colours = next(
        layer["encoding"]["color"]["scale"]["range"] for layer in layers(spec) if "scale" in layer["encoding"]["color"]
    )
    assert len(colours) == len(scale.grades) == len(set(colours)), colours
    hls = [colorsys.rgb_to_hls(*(int(c[i : i + 2], 16) / 255 for i in (1, 3, 5))) for c in colours]
    # Grade 0 may be grey (no hue); every other grade has a hue of its own, 30 degrees or more from the others'.
    chromatic = [(g, h * 360) for g, (h, _, s) in zip(scale.grades, hls, strict=True) if s >= 0.2]
    assert len(chromatic) >= len(scale.grades) - 1, hls
    apart = min(min(abs(a - b), 360 - abs(a - b)) for i, (_, a) in enumerate(chromatic) for _, b in chromatic[i + 1 :])
    assert apart >= 30, chromatic
    # Light to dark as the grade rises: an order every kind of colour vision, and greyscale, keeps.
    shades = [luminance(c) for g, c in zip(scale.grades, colours, strict=True) if g > 0]
    assert shades == sorted(shades, reverse=True) and len(set(shades)) == len(shades), shades
    # Each count written inside its grade's segment reads on it.
    for layer in layers(spec):
        if layer["mark"]["type"] == "text" and layer["encoding"].get("color", {}).get("field") == "ink":
            rows = spec["datasets"][layer["data"]["name"]]
            for row in rows:
                segment = dict(zip([str(g) for g in scale.grades], colours, strict=True))[row["grade"]]
                assert contrast(row["ink"], segment) >= 4.5, row
            break
    else:
        raise AssertionError("no count written in the segments")


def test_compare_never_stacks_the_class_s_and_the_metric_s_picks_over_one_bar():
    t = Translator("en")
    activity = compare_activity("seed003", "ndcg")
    assert activity.verdict("ndcg") == "a"  # seed003: A's relevant results beat B's
    summary = CompareSummary(8, {"a": 5, "b": 2, "same": 1}, {}, 5)  # the class picks A too: both picks on A
    spec = sized(compare.vote_chart(t, activity, summary, True, CLASS), True).to_dict()
    over_bars = [layer["encoding"]["text"]["field"] for layer in layers(spec) if layer["mark"]["type"] == "text"]
    assert over_bars == ["count"], over_bars  # one text over each bar: its count
    svg, drawn = draw(spec)
    # The picks are lines of the vote's own label under its bar, one under the other, never over the bar.
    label = re.search(r"<text[^>]*>(?:<tspan[^>]*>[^<]*</tspan>)+</text>", svg)
    assert label, "no label of several lines"
    lines = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", label.group(0))
    assert lines == ["A", "class's pick", "NDCG@5's pick"], lines


def draw(spec):
    """The chart as Vega draws it (vl-convert, no browser, so the screen's scale is 1): its SVG, and every text."""
    svg = vlc.vegalite_to_svg({**spec, "autosize": {"type": "fit", "contains": "padding"}, "width": 700})
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    return svg, texts + re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg)
