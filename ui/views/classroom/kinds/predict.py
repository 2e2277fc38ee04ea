"""Predict the NDCG: the projector's histogram of estimates and the worked reveal; the phone's estimate box."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from ndcg_core.classroom import activities as acts
from ndcg_core.classroom.store import ActivityRow
from ndcg_core.errors import number_text
from ui.format import metric_text
from ui.i18n import Translator
from ui.projector import PROJECTOR_CHART_HEIGHT, big_chart, worked_table
from ui.views.classroom.card import Block, Body, Note, NumberBox, Text, table_of
from ui.views.classroom.common import (
    histogram_chart,
    histogram_text,
    list_details,
    list_table,
    own_question,
    query_line,
    spec_caption,
    unsent_text,
)
from ui.views.classroom.sources import chosen_list, list_form
from ui.widgets.table import cut_at_k, cut_texts


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
    reveal = t("classroom.predict_reveal", truth=metric_text(summary.truth), within=summary.within, count=summary.count)
    if revealed and screen:  # the answer first: on the projector it must not fall below the fold
        st.success(reveal)
    left, right = st.columns([2, 3])
    with left:
        list_table(t, spec.labels, spec.grades)
        st.caption(spec_caption(t, spec))
    with right:
        big_chart(
            histogram_chart(t, summary.bins, summary.truth if revealed else None, t("classroom.guess_axis")),
            screen,
            PROJECTOR_CHART_HEIGHT,
        )
        st.caption(histogram_text(t, summary.bins))
    if not revealed:
        # The class reads the projector: a neutral line there; the control page says what the teacher does.
        st.caption(t("classroom.truth_hidden_screen" if screen else "classroom.truth_hidden"))
        return
    if not screen:
        st.success(reveal)
    columns = ("position", "item", "grade", "term", "cumulative_dcg", "cumulative_idcg")
    rows, kinds = cut_at_k(spec.breakdown(), columns, cut_texts(t, columns, spec.k))
    worked_table(rows, screen, kinds)


def card(t: Translator, current: ActivityRow, mine: Mapping[int, Any]) -> Body:
    """The phone's card (``ui.views.classroom.card``): the question, the list, the estimate box; the reveal."""
    activity = current.activity()
    assert isinstance(activity, acts.Predict)  # the caller chose this view by the activity's kind
    spec = activity.spec
    question = own_question(current.question.get(t.lang), t("classroom.predict_question", k=spec.k))
    blocks: list[Block] = [Text(query_line(t, spec) + question)]
    saved = metric_text(mine[0], 2) if 0 in mine else None
    # The box right under the question, the list after it: on a phone the box and Send are on the first screen.
    if current.phase != "revealed":
        blocks.append(NumberBox(0, t("classroom.estimate"), "0.75", saved, current.phase != "open"))
    if 0 in mine:
        blocks.append(Text(t("classroom.your_estimate", value=metric_text(mine[0], 2))))
    blocks += [table_of(t, spec.labels, spec.grades), Text(spec_caption(t, spec), small=True)]
    if current.phase == "revealed":
        truth = activity.truth()
        if 0 not in mine:
            blocks.append(Note("info", t("classroom.truth_was", truth=metric_text(truth))))
        else:
            result = activity.result(mine[0])
            verdict = t("classroom.within" if result.right else "classroom.not_within")
            text = t(
                "classroom.your_predict_result",
                truth=metric_text(truth),
                off=metric_text(result.detail.off, 3),
                verdict=verdict,
            )
            blocks.append(Note("success" if result.right else "warning", text))
    return Body(tuple(blocks), unsent_text(t, "estimate", 0 in mine, value="{value}"), t("classroom.send"))


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
