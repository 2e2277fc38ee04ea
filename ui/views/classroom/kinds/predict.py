"""Predict the NDCG: the projector's histogram of estimates and the worked reveal; the phone's estimate box."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ndcg_core.classroom import activities as acts
from ndcg_core.classroom.store import ActivityRow
from ndcg_core.errors import number_text
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.projector import big_chart, worked_table
from ui.state import (
    ClassroomState,
    has_widget_value,
    set_widget_value,
    widget_value,
)
from ui.views.classroom.common import (
    histogram_chart,
    histogram_text,
    list_details,
    list_table,
    own_question,
    query_line,
    same_number,
    spec_caption,
    submit,
    table_markdown,
    typed,
    unsent_text,
)
from ui.views.classroom.sources import chosen_list, list_form


def present(
    t: Translator,
    activity: acts.Predict,
    summary: acts.PredictSummary,
    revealed: bool,
    screen: bool = False,
    own: str = "",
) -> None:
    spec = activity.spec
    st.markdown(query_line(t, spec) + own_question(own, t("classroom.predict_question", k=spec.k)))
    left, right = st.columns([2, 3])
    with left:
        list_table(t, spec.labels, spec.grades)
        st.caption(spec_caption(t, spec))
    with right:
        big_chart(
            histogram_chart(t, summary.bins, summary.truth if revealed else None, t("classroom.guess_axis")), screen
        )
        st.caption(histogram_text(t, summary.bins))
    if not revealed:
        st.caption(t("classroom.truth_hidden"))
        return
    st.success(
        t("classroom.predict_reveal", truth=metric_text(summary.truth), within=summary.within, count=summary.count)
    )
    frame = spec.breakdown()
    columns = ("position", "item", "grade", "term", "cumulative_dcg", "cumulative_idcg")
    worked_table(frame[list(columns)].rename(columns={c: t(f"table.{c}") for c in columns}), screen)


def student(t: Translator, cs: ClassroomState, current: ActivityRow, mine: dict, lead: str) -> str | None:
    activity = current.activity()
    assert isinstance(activity, acts.Predict)  # the caller chose this view by the activity's kind
    spec = activity.spec
    question = own_question(current.question.get(t.lang), t("classroom.predict_question", k=spec.k))
    # The question and its list in one element: one message fewer for each of a class's phones at once.
    st.markdown(lead + query_line(t, spec) + question + "\n\n" + table_markdown(t, spec.labels, spec.grades))
    st.caption(spec_caption(t, spec))
    key = f"_w_cr_estimate_{current.id}"
    unsent = None
    if current.phase != "revealed":
        if not has_widget_value(key) and 0 in mine:
            set_widget_value(key, metric_text(mine[0], 2))
        # Still drawn (disabled) once locked, so what was typed and not sent can be named.
        st.text_input(t("classroom.estimate"), key=key, placeholder="0.75", disabled=current.phase != "open")
    if current.phase == "open":
        st.button(
            t("classroom.send"),
            on_click=lambda: submit(current.id, [(0, widget_value(key, ""))]),
            type="primary",
            key=f"btn_cr_send_{current.id}",
            width="stretch",
        )
    else:
        value = typed(widget_value(key))
        if value and not (0 in mine and same_number(value, mine[0])):
            unsent = unsent_text(t, "estimate", 0 in mine, value=md_escape(value[:20]))
    if 0 in mine:
        st.markdown(t("classroom.your_estimate", value=metric_text(mine[0], 2)))
    if current.phase == "revealed":
        result = activity.result(mine[0]) if 0 in mine else None
        truth = activity.truth()
        if result is None:
            st.info(t("classroom.truth_was", truth=metric_text(truth)))
        else:
            (st.success if result.right else st.warning)(
                t(
                    "classroom.your_predict_result",
                    truth=metric_text(truth),
                    off=metric_text(result.detail.off, 3),
                    verdict=t("classroom.within" if result.right else "classroom.not_within"),
                )
            )
    return unsent


def form(t: Translator, prefix: str) -> None:
    """A list and its k."""
    list_form(t, prefix)


def build(prefix: str) -> acts.Predict:
    return acts.Predict(chosen_list(prefix))


# --- the results CSV --------------------------------------------------------------------------------------


def csv_details(t: Translator, activity: acts.Predict, part: int) -> str:
    """What the question was: the list (labels:grades), k, gain and ideal."""
    return list_details(t, activity.spec)


def csv_answer(t: Translator, activity: acts.Predict, part: int, value: Any) -> str:
    """An estimate as the student typed it."""
    return number_text(float(value))


def csv_solution(t: Translator, activity: acts.Predict, part: int, solution: Any) -> str:
    """The true NDCG@k."""
    return metric_text(float(solution))
