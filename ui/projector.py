"""Drawing at projector size: the classroom's projector view shows every chart label and table text at 20 px or
more; elsewhere the same calls draw as usual."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ui.charts import category_axis, group_colours

# Chart text on the classroom's projector view: 20 px or more, as every other text there.
PROJECTOR_FONT = 20
# A chart's height on the projector view: low enough that the join bar, the count, the chart and the reveal's
# sentence all fit a 1280x720 projector.
PROJECTOR_CHART_HEIGHT = 250


def sized(chart: Any, screen: bool, height: int | None = None) -> Any:
    """An Altair chart as ``big_chart`` draws it: on the projector view every label and number at 20 px or more,
    and ``height`` pixels tall if given."""
    if screen:
        if height is not None:
            chart = chart.properties(height=height)
        chart = chart.configure_axis(
            labelFontSize=PROJECTOR_FONT, titleFontSize=PROJECTOR_FONT, labelLimit=600
        ).configure_text(fontSize=PROJECTOR_FONT)
    return chart


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
) -> alt.LayerChart:
    """The class's answers by group (right, close, each mistake, other): one bar per group named on its axis, its
    count written beside it, coloured by group (``group_colours``). With ``rounds`` (their names), one bar per
    round in each group, the earlier paler, each written "Round 1: 4": never colour alone."""
    colours = group_colours(codes)
    rows: list[dict[str, Any]] = []
    for name, colour, per_round in zip(names, colours, counts, strict=True):
        for i, count in enumerate(per_round):
            text = f"{rounds[i]}: {count}" if rounds else str(count)
            rows.append({"name": name, "round": i, "count": count, "colour": colour, "text": text})
    frame = pd.DataFrame(rows)
    top = max([3, *(int(r["count"]) for r in rows)])
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
                title=axis_title,
                axis=alt.Axis(tickMinStep=1, format="d"),
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
