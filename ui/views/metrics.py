"""Compare metrics: two or more rankings scored by P@k, recall@k, RR, AP, ERR, DCG@k and NDCG@k."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from ndcg_core import validate
from ndcg_core.errors import InputError
from ndcg_core.lists.items import MAX_ITEMS
from ndcg_core.lists.ndcg import validate_grades
from ndcg_core.teaching.metrics import all_metrics
from ui import charts
from ui.editing import typed_tokens
from ui.format import metric_text
from ui.i18n import Translator
from ui.state import app_state, bind, metrics_state, set_widget_value, widget_value

MAX_RANKINGS = 4


UNBOUNDED = ("dcg",)  # not on a 0-1 scale: in the table, not in the chart


def metrics_chart(values: pd.DataFrame, texts: dict[str, str], large: bool = False) -> alt.LayerChart:
    """One row per metric, one bar per ranking, all on the same 0-1 scale (columns ranking, metric, value).

    One chart as wide as its column (a phone's too), rather than a grid of fixed-width panels.
    """
    order = list(dict.fromkeys(values["metric"]))
    rankings = list(dict.fromkeys(values["ranking"]))
    font = charts.PROJECTOR_FONT if large else 13
    position = alt.Chart(values).encode(
        y=alt.Y("metric:N", title=None, sort=order, axis=charts.category_axis(labelLimit=0, labelPadding=6)),
        yOffset=alt.YOffset("ranking:N", sort=rankings),
        x=alt.X(
            "value:Q",
            title=None,
            scale=alt.Scale(domain=[0, 1.15]),
            axis=alt.Axis(values=[0, 0.25, 0.5, 0.75, 1], format=".2f"),
        ),
        tooltip=[
            alt.Tooltip("ranking:N", title=texts["ranking"]),
            alt.Tooltip("metric:N", title=texts["metric"]),
            alt.Tooltip("value:Q", format=".4f"),
        ],
    )
    bars = (
        position.mark_bar()
        .encode(
            color=alt.Color("ranking:N", title=texts["ranking"], sort=rankings, legend=alt.Legend(orient="top")),
        )
        .properties(name="bars")
    )
    # The values in the text colour, not the bar's: a pale bar's colour is too faint to read as text.
    labels = (
        position.mark_text(align="left", dx=3, fontSize=font)
        .encode(text=alt.Text("value:Q", format=".3f"))
        .properties(name="values")
    )
    band = (font + 10) * len(rankings) + 12
    return (
        alt.layer(bars, labels)
        .properties(width="container", height=band * len(order))
        .configure_axis(labelFontSize=font, titleFontSize=font)
        .configure_legend(labelFontSize=font, titleFontSize=font)
    )


def add_ranking() -> None:
    rankings = list(metrics_state().rankings)
    if len(rankings) < MAX_RANKINGS:
        metrics_state().rankings = rankings + [rankings[-1]]


def remove_ranking() -> None:
    rankings = list(metrics_state().rankings)
    if len(rankings) > 2:
        metrics_state().rankings = rankings[:-1]


def _store_ranking(i: int) -> None:
    rankings = list(metrics_state().rankings)
    rankings[i] = widget_value(f"_w_cmp_ranking_{i}")
    metrics_state().rankings = rankings


def parse_ranking(text: str) -> np.ndarray:
    """Grades typed as "3, 2, 0" (or with spaces or Chinese commas); an ``InputError`` names a bad one."""
    grades = validate_grades(typed_tokens(text))
    if not len(grades):
        raise InputError("list.none_typed")
    validate.list_size(len(grades), MAX_ITEMS)
    return grades


def render_page(t: Translator) -> None:
    st.title(t("metrics.title"))
    st.markdown(t("metrics.intro"))
    rankings = metrics_state().rankings
    parsed, problems = {}, []
    for i, text in enumerate(rankings):
        name = chr(ord("A") + i)
        key = f"_w_cmp_ranking_{i}"
        set_widget_value(key, text)
        st.text_input(t("metrics.ranking", name=name), key=key, on_change=_store_ranking, args=(i,))
        try:
            parsed[name] = parse_ranking(text)
        except ValueError as err:
            problems.append(t("metrics.bad_ranking", name=name, message=t.explain(err)))
    a, b, c, d = st.columns(4)
    a.button(t("metrics.add"), on_click=add_ranking, disabled=len(rankings) >= MAX_RANKINGS, key="btn_cmp_add")
    b.button(t("metrics.remove"), on_click=remove_ranking, disabled=len(rankings) <= 2, key="btn_cmp_remove")
    c.number_input(t("metrics.k"), min_value=1, max_value=MAX_ITEMS, step=1, **bind(metrics_state(), "k"))
    d.number_input(
        t("metrics.relevant"),
        min_value=0,
        max_value=10 * MAX_ITEMS,
        step=1,
        help=t("metrics.relevant_help"),
        **bind(metrics_state(), "relevant"),
    )
    for problem in problems:
        st.error(problem)
    if problems:
        return
    k, n_rel = int(metrics_state().k), int(metrics_state().relevant)
    rows = []
    for name, grades in parsed.items():
        found = int((grades >= 1).sum())
        if n_rel < found:
            st.error(t("metrics.too_few_relevant", name=name, found=found, given=n_rel))
            return
        values = all_metrics(grades, k, n_relevant=n_rel, max_grade=max(4.0, float(grades.max())))
        rows += [
            {"ranking": name, "metric": t(f"metrics.name.{m}", k=k), "value": v, "bounded": m not in UNBOUNDED}
            for m, v in values.items()
        ]
    frame = pd.DataFrame(rows)
    table = frame.pivot(index="metric", columns="ranking", values="value").loc[list(dict.fromkeys(frame["metric"]))]
    table.index.name, table.columns.name = t("metrics.metric"), None
    large = app_state().presenter
    if large:  # a plain table, whose type the presenter style can enlarge (the grid draws on a canvas)
        st.table(table.map(metric_text))
    else:
        st.dataframe(
            table,
            width="stretch",
            column_config={c: st.column_config.NumberColumn(format="%.4f") for c in table.columns},
        )
    chart = frame[frame["bounded"]].drop(columns="bounded")
    st.altair_chart(
        metrics_chart(chart, {"ranking": t("metrics.ranking_short"), "metric": t("metrics.metric")}, large=large),
        width="stretch",
    )
    st.caption(t("metrics.chart_alt"))
    st.info(t("metrics.notes", k=k))
