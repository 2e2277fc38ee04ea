"""Rank it best: the projector's histogram of NDCG@k reached and the common mistake; the phone's sortable list."""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from ndcg_core.classroom.kinds.rank import TWISTS, Rank, RankSummary, rank_activity
from ui.classroom_text import spec_caption
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.kinds.rank import graded_order, rank_question
from ui.projector import PROJECTOR_CHART_HEIGHT, big_chart
from ui.state import (
    widget_value,
)
from ui.views.classroom.common import histogram_spec, histogram_text
from ui.views.classroom.sources import chosen_list, list_form

ROUNDS = False  # a round run again is shown alone: ``present`` leaves ``before`` unused


def present(
    t: Translator,
    activity: Rank,
    summary: RankSummary,
    revealed: bool,
    screen: bool = False,
    own: str = "",
    before: RankSummary | None = None,
    round_number: int = 1,
    students: int = 0,
) -> None:
    spec = activity.spec
    st.markdown(rank_question(t, activity, own))
    st.caption(spec_caption(t, spec, activity.show_grades or revealed))
    chart_col = reveal_col = st.container()
    if screen and revealed:  # on the projector the reveal sits beside the chart, above the fold
        chart_col, reveal_col = st.columns([3, 2], gap="medium")
    with chart_col:
        best = summary.maximum if revealed else None
        axis = t("classroom.reached_axis")
        big_chart(
            histogram_spec(
                t.lang,
                tuple(summary.bins),
                best,
                axis,
                "classroom.best_label",
                screen,
                PROJECTOR_CHART_HEIGHT,
                students,
            ),
            screen,
        )
        st.caption(histogram_text(t, summary.bins))
    if not revealed:
        return
    with reveal_col:
        st.success(
            t(
                "classroom.rank_reveal",
                found=summary.found,
                count=summary.count,
                best=metric_text(summary.maximum),
                k=spec.k,
            )
        )
        mistake = summary.mistake
        if mistake is not None:
            st.warning(
                t(
                    "classroom.rank_mistake",
                    label=md_escape(mistake.label),
                    position=mistake.position,
                    count=mistake.count,
                    grade=metric_text(mistake.grade, 0),
                    ideal=metric_text(mistake.ideal_grade, 0),
                )
            )
        st.caption(t("classroom.best_order", order=graded_order(t, spec, spec.best_order())))


def form(t: Translator, prefix: str) -> None:
    """A list, whether the phones show its grades, its k, and the twist."""
    list_form(t, prefix, grades_box=True, hidden_by_default=True)
    st.radio(
        t("classroom.twist"),
        TWISTS,
        format_func=lambda w: t(f"classroom.twist.{w}"),
        horizontal=True,
        key=f"{prefix}twist",
    )


def build(prefix: str) -> Rank:
    return rank_activity(
        chosen_list(prefix),
        widget_value(f"{prefix}twist", "exponential"),
        bool(widget_value(f"{prefix}show_grades", False)),
    )


if TYPE_CHECKING:
    from ui.views.classroom.kinds import KindViews
    from ui.views.classroom.kinds import rank as _this

    _VIEWS: KindViews[Rank, RankSummary] = _this  # mypy checks here this module is the views of its own kind
