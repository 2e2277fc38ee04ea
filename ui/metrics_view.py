"""Compare metrics: two or more rankings scored by P@k, recall@k, RR, AP, ERR, DCG@k and NDCG@k."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from ndcg_core import validate
from ndcg_core.errors import InputError
from ndcg_core.metrics import all_metrics
from ndcg_core.ranked_list import MAX_ITEMS
from ndcg_core.single import validate_grades
from ui.editing import typed_tokens
from ui.i18n import Translator
from ui.state import bind

MAX_RANKINGS = 4


def metrics_chart(values: pd.DataFrame, texts: dict[str, str]) -> alt.FacetChart:
    """One small bar chart per metric, one bar per ranking (columns ranking, metric, value)."""
    base = alt.Chart(values).encode(
        x=alt.X("ranking:N", title=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("value:Q", title=None),
        color=alt.Color("ranking:N", title=texts["ranking"]),
        tooltip=[alt.Tooltip("ranking:N", title=texts["ranking"]), alt.Tooltip("metric:N", title=texts["metric"]),
                 alt.Tooltip("value:Q", format=".4f")],
    )
    bars = base.mark_bar().properties(name="bars", width=110, height=160)
    labels = base.mark_text(dy=-6).encode(text=alt.Text("value:Q", format=".3f")).properties(name="values")
    return alt.layer(bars, labels).facet(
        facet=alt.Facet("metric:N", title=None, sort=list(dict.fromkeys(values["metric"]))), columns=4
    ).resolve_scale(y="independent")


def add_ranking() -> None:
    rankings = list(st.session_state["cmp_rankings"])
    if len(rankings) < MAX_RANKINGS:
        st.session_state["cmp_rankings"] = rankings + [rankings[-1]]


def remove_ranking() -> None:
    rankings = list(st.session_state["cmp_rankings"])
    if len(rankings) > 2:
        st.session_state["cmp_rankings"] = rankings[:-1]


def _store_ranking(i: int) -> None:
    rankings = list(st.session_state["cmp_rankings"])
    rankings[i] = st.session_state[f"_w_cmp_ranking_{i}"]
    st.session_state["cmp_rankings"] = rankings


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
    rankings = st.session_state["cmp_rankings"]
    parsed, problems = {}, []
    for i, text in enumerate(rankings):
        name = chr(ord("A") + i)
        key = f"_w_cmp_ranking_{i}"
        st.session_state[key] = text
        st.text_input(t("metrics.ranking", name=name), key=key, on_change=_store_ranking, args=(i,))
        try:
            parsed[name] = parse_ranking(text)
        except ValueError as err:
            problems.append(t("metrics.bad_ranking", name=name, message=t.explain(err)))
    a, b, c, d = st.columns(4)
    a.button(t("metrics.add"), on_click=add_ranking, disabled=len(rankings) >= MAX_RANKINGS, key="btn_cmp_add")
    b.button(t("metrics.remove"), on_click=remove_ranking, disabled=len(rankings) <= 2, key="btn_cmp_remove")
    c.number_input(t("metrics.k"), min_value=1, max_value=MAX_ITEMS, step=1, **bind("cmp_k"))
    d.number_input(t("metrics.relevant"), min_value=0, max_value=10 * MAX_ITEMS, step=1,
                   help=t("metrics.relevant_help"), **bind("cmp_relevant"))
    for problem in problems:
        st.error(problem)
    if problems:
        return
    k, n_rel = int(st.session_state["cmp_k"]), int(st.session_state["cmp_relevant"])
    rows = []
    for name, grades in parsed.items():
        found = int((grades >= 1).sum())
        if n_rel < found:
            st.error(t("metrics.too_few_relevant", name=name, found=found, given=n_rel))
            return
        values = all_metrics(grades, k, n_relevant=n_rel, max_grade=max(4.0, float(grades.max())))
        rows += [{"ranking": name, "metric": t(f"metrics.name.{m}", k=k), "value": v} for m, v in values.items()]
    frame = pd.DataFrame(rows)
    table = frame.pivot(index="metric", columns="ranking", values="value").loc[list(dict.fromkeys(frame["metric"]))]
    table.index.name, table.columns.name = t("metrics.metric"), None
    st.dataframe(table, width="stretch", column_config={c: st.column_config.NumberColumn(format="%.4f")
                                                        for c in table.columns})
    st.altair_chart(metrics_chart(frame, {"ranking": t("metrics.ranking_short"), "metric": t("metrics.metric")}))
    st.caption(t("metrics.chart_alt"))
    st.info(t("metrics.notes", k=k))
