"""Drawing at projector size: the classroom's projector view is laid out for a 1280x720 screen and drawn larger on a
larger one, the same view filling a 720p and a 4K projector alike: every chart label and table text at 20 px or more
at 720p (and as large a share of the screen's height at any size), chart text in the theme's ink on white; elsewhere
the same calls draw as usual."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ui.charts import category_axis, group_colours

# Chart text on the classroom's projector view: 20 px or more at 720p, as every other text there.
PROJECTOR_FONT = 20
# A chart's height on the projector view at 720p: low enough that the join bar, the count, the chart and the
# reveal's sentence all fit a 1280x720 projector.
PROJECTOR_CHART_HEIGHT = 250
# The screen the projector view is laid out for. On another screen every size is multiplied by its scale: its height
# over 720, or its width over 1280 where that is less (a 4:3 projector), never under 1. The page's CSS scales its
# text and spacing (``ui/views/classroom/screen.py``); a chart scales by a Vega signal of that name, ``SCALE``.
DESIGN_WIDTH, DESIGN_HEIGHT = 1280, 720
SCALE = "projector_scale"
# Vega reads the window's size when an expression runs; "+ 0 * width" runs this one again whenever the chart's width
# changes, so the chart follows a window moved to the projector and resized there.
SCALE_EXPR = f"max(1, min(windowSize()[0] / {DESIGN_WIDTH}, windowSize()[1] / {DESIGN_HEIGHT})) + 0 * width"
# Chart text on the projector: the theme's text colour on white, 15.5:1 (WCAG); Streamlit's grey #808495 was 3.7:1.
INK = "#1f2430"
PAPER = "#ffffff"
# A mark's sizes in pixels at 720p that grow with the screen.
MARK_SIZES = ("fontSize", "dx", "dy")


def luminance(colour: str) -> float:
    """A ``#rrggbb`` colour's relative luminance (WCAG 2.2)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two ``#rrggbb`` colours (WCAG 2.2): 1 to 21, text wants 4.5 or more."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (one of them at 4.6:1 or more on any colour): a count
    written inside a bar."""
    return max(("#000000", PAPER), key=lambda ink: contrast(ink, colour))


def scaled(px: float) -> alt.ExprRef:
    """``px`` pixels at 720p, as a Vega expression of the screen's scale."""
    return alt.ExprRef(f"{px:g} * {SCALE}")


def _scale_marks(chart: Any) -> None:
    """Every mark's text size and offsets and every axis's label width in ``chart`` (a copy), from pixels at 720p to
    the screen's."""
    layers = getattr(chart, "layer", None)
    if isinstance(layers, list):
        for layer in layers:
            _scale_marks(layer)
        return
    encoding = getattr(chart, "encoding", alt.Undefined)
    for channel in ("x", "y"):
        # A channel's properties by item: as attributes Altair gives its setters (``alt.Y(...).axis(...)``).
        axis = getattr(getattr(encoding, channel, None), "_kwds", {}).get("axis")
        if isinstance(axis, alt.Axis) and isinstance(axis._kwds.get("labelLimit"), int | float):
            axis.labelLimit = scaled(axis._kwds["labelLimit"])
    mark = getattr(chart, "mark", alt.Undefined)
    if isinstance(mark, alt.MarkDef):
        for key in MARK_SIZES:
            value = getattr(mark, key, alt.Undefined)
            if isinstance(value, int | float) and not isinstance(value, bool):
                setattr(mark, key, scaled(value))


def sized(chart: Any, screen: bool, height: int | None = None) -> Any:
    """An Altair chart as ``big_chart`` draws it: on the projector view every label and number at 20 px or more at
    720p and larger on a larger screen, in ``INK`` on white, and ``height`` pixels tall at 720p if given (or the
    chart's own height), the screen's scale times that on another screen."""
    if not screen:
        return chart
    chart = chart.copy(deep=True)
    _scale_marks(chart)
    if height is not None:
        chart = chart.properties(height=height)
    tall = getattr(chart, "height", alt.Undefined)
    params = [alt.param(name=SCALE, expr=SCALE_EXPR)]
    if isinstance(tall, int | float):
        params.append(alt.param(name="height", expr=f"{tall:g} * {SCALE}"))
    font = scaled(PROJECTOR_FONT)
    return (
        chart.add_params(*params)
        .configure(background=PAPER)
        .configure_axis(
            labelFontSize=font,
            titleFontSize=font,
            labelLimit=scaled(600),
            labelColor=INK,
            titleColor=INK,
            domainColor=INK,
            tickColor=INK,
        )
        .configure_legend(
            labelFontSize=font,
            titleFontSize=font,
            labelColor=INK,
            titleColor=INK,
            symbolSize=alt.ExprRef(f"200 * {SCALE} * {SCALE}"),
        )
        .configure_text(fontSize=font, color=INK)
    )


def big_chart(chart: Any, screen: bool, height: int | None = None) -> None:
    """Draw an Altair chart as wide as its column, sized for the page (``sized``); a Vega-Lite spec (a dict, made
    once and kept) is drawn as it is."""
    if isinstance(chart, dict):
        st.vega_lite_chart(chart, width="stretch")
    else:
        st.altair_chart(sized(chart, screen, height), width="stretch")


# How a row of the worked terms is set apart: the totals at k in bold, the rows past k greyed and in italics.
ROW_STYLES = {
    "in": "",
    "total": "font-weight: bold; border-top: 3px solid #888",
    "past": "color: #888; font-style: italic",
}


def worked_table(frame: pd.DataFrame, screen: bool, kinds: Sequence[str] = ()) -> None:
    """A table of figures: a plain table on the projector view (its text scales with the page), else a grid.
    ``kinds`` styles each row (``ROW_STYLES``: the totals at k, the rows past k)."""
    data = frame.set_index(frame.columns[0]) if screen else frame
    shown: Any = data
    if kinds:
        css = pd.DataFrame([[ROW_STYLES[k]] * data.shape[1] for k in kinds], index=data.index, columns=data.columns)
        shown = data.style.apply(lambda _: css, axis=None)
    if screen:
        st.table(shown)
    else:
        st.dataframe(shown, hide_index=True, width="stretch")


def share_bars(names: list[str], shares: list[float], texts: list[str], axis_title: str) -> alt.LayerChart:
    """One bar per name: its share of right answers over [0, 1], with its figures ("3 right of 4") beside it."""
    frame = pd.DataFrame({"name": names, "share": shares, "text": texts})
    y = alt.Y("name:N", sort=None, title=None, axis=category_axis(labelLimit=320))
    bars = (
        alt.Chart(frame)
        .mark_bar(color="#2a9d55")
        .encode(
            y=y,
            x=alt.X(
                "share:Q",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%", values=[0, 0.25, 0.5, 0.75, 1]),
                title=axis_title,
            ),
            tooltip=["name:N", "text:N"],
        )
        # 40 px a bar, and room for the axis's labels and title: at the projector's 20 px they take about 80.
        .properties(height=40 * len(frame) + 80)
    )
    return bars + alt.Chart(frame).mark_text(align="left", dx=4).encode(y=y, x="share:Q", text="text:N")


def group_bars(
    codes: Sequence[str],
    names: Sequence[str],
    counts: Sequence[Sequence[int]],
    axis_title: str,
    rounds: Sequence[str] = (),
    students: int = 0,
) -> alt.LayerChart:
    """The class's answers by group (right, close, each mistake, other): one bar per group named on its axis, its
    count written beside it, coloured by group (``group_colours``), on a count axis of whole students up to the
    class's size ``students``. With ``rounds`` (their names), one bar per round in each group, the earlier paler,
    each written "Round 1: 4": never colour alone."""
    colours = group_colours(codes)
    rows: list[dict[str, Any]] = []
    for name, colour, per_round in zip(names, colours, counts, strict=True):
        for i, count in enumerate(per_round):
            text = f"{rounds[i]}: {count}" if rounds else str(count)
            rows.append({"name": name, "round": i, "count": count, "colour": colour, "text": text})
    frame = pd.DataFrame(rows)
    top = count_top(students, [int(r["count"]) for r in rows])
    y = alt.Y("name:N", sort=None, title=None, axis=category_axis(labelLimit=420))
    offset = {"yOffset": alt.YOffset("round:N")} if rounds else {}
    opacity = alt.Opacity("round:N", scale=alt.Scale(range=[0.6, 1.0]), legend=None) if rounds else alt.value(1.0)
    bars = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=y,
            x=alt.X(
                "count:Q",
                axis=count_axis(axis_title, top),
                # Room beyond the class's size for the longest count written beside its bar.
                scale=alt.Scale(domain=[0, top * (1.6 if rounds else 1.25)], nice=False),
            ),
            color=alt.Color("colour:N", scale=None),
            opacity=opacity,
            tooltip=["name:N", "text:N"],
            **offset,
        )
    )
    labels = alt.Chart(frame).mark_text(align="left", dx=4).encode(y=y, x="count:Q", text="text:N", **offset)
    # Heights that hold the axis and about eight groups (two rounds of five), with the chart and the reveal's sentence
    # on a 1280x720 projector: the bars share the height.
    return (bars + labels).properties(height=GROUPS_HEIGHT[bool(rounds)])


GROUPS_HEIGHT = {False: 290, True: 340}


def count_top(students: int, counts: Sequence[int] = ()) -> int:
    """The top of a chart's count axis: the class's size (everyone in the room can answer), or the largest count if
    larger (a student who has left still counts), at least 1."""
    return max(1, students, *counts)


def count_ticks(top: int) -> list[int]:
    """Whole numbers from 0 up to ``top`` for a count axis, ``top`` the last: about five steps of 1, 2 or 5 times a
    power of ten (a lecture hall of 180 reads 0, 50, 100, 150, 180)."""
    step = 1
    while top / step > 5:
        for factor in (2, 5 / 2, 2):  # 1, 2, 5, 10, 20, 50, ...
            step = round(step * factor)
            if top / step <= 5:
                break
    ticks = list(range(0, top + 1, step))
    if ticks[-1] != top:
        # The class's size ends the axis; a tick closer than half a step before it would crowd its label.
        ticks = ticks[:-1] if top - ticks[-1] <= step / 2 and len(ticks) > 1 else ticks
        ticks.append(top)
    return ticks


def count_axis(title: str | None, top: int) -> alt.Axis:
    """An axis of whole counts from 0 to ``top`` (the class's size): integer ticks only, never 2.5 students."""
    return alt.Axis(title=title, values=count_ticks(top), format="d", tickMinStep=1)
