"""Rank it best: the projector's histogram of NDCG@k reached and the common mistake; the phone's sortable list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import streamlit as st

from ndcg_core.classroom.kinds.rank import TWISTS, Rank, RankSummary, rank_activity
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.lists.spec import ListSpec
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.projector import PROJECTOR_CHART_HEIGHT, big_chart
from ui.state import (
    widget_value,
)
from ui.views.classroom.card import Block, Body, Note, Order, Text, table_of
from ui.views.classroom.common import (
    histogram_spec,
    histogram_text,
    list_details,
    own_question,
    query_line,
    spec_caption,
    unsent_text,
)
from ui.views.classroom.sources import chosen_list, list_form

ROUNDS = False  # a round run again is shown alone: ``present`` leaves ``before`` unused


def rank_question(t: Translator, activity: Rank, own: str = "") -> str:
    """The query and the question: the lesson's own wording, else the standard one with its twist (none for a
    lesson's list ranked as the lesson states it)."""
    question = "classroom.rank_question" if activity.show_grades else "classroom.rank_question_hidden"
    if not activity.twist:
        question += "_plain"
    twist = t(f"classroom.twist.{activity.twist}") if activity.twist else ""
    return query_line(t, activity.spec) + own_question(own, t(question, k=activity.spec.k, twist=twist))


def graded_order(t: Translator, spec: ListSpec, order: list[int]) -> str:
    """An order as "title (grade) > title (grade)", titles escaped: for the reveal."""
    return " > ".join(f"{md_escape(spec.labels[i])} ({metric_text(spec.grades[i], 0)})" for i in order)


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


def card(t: Translator, activity: Rank, current: ActivityRow, mine: Mapping[int, Any]) -> Body:
    """The phone's card: the list to reorder (no grades unless the teacher shows them: the browser is never sent
    them before the reveal); at the reveal, the sent order with its grades, its NDCG@k and the best order."""
    spec = activity.spec
    revealed = current.phase == "revealed"
    blocks: list[Block] = [
        Text(rank_question(t, activity, current.question.get(t.lang))),
        Text(spec_caption(t, spec, activity.show_grades or revealed), small=True),
    ]
    sent = tuple(int(i) for i in mine[0]) if 0 in mine else None
    if not revealed:
        grades = tuple(metric_text(g, 0) for g in spec.grades) if activity.show_grades else ()
        texts = {name: t(f"sortable.{name}") for name in ("up", "down", "handle", "hint_touch", "list", "moved")}
        blocks.append(Order(0, tuple(spec.labels), grades, spec.k, sent, current.phase != "open", texts))
        if not activity.show_grades:
            blocks.append(Text(t("classroom.grades_hidden"), small=True))
        return Body(tuple(blocks), unsent_text(t, "order", sent is not None), t("classroom.send_order"))
    if sent is not None:
        blocks.append(Text(t("classroom.your_order_graded")))
        blocks.append(table_of(t, [spec.labels[i] for i in sent], [spec.grades[i] for i in sent]))
        result = activity.result(list(sent))
        text = t(
            "classroom.your_rank_result",
            reached=metric_text(result.detail.reached),
            best=metric_text(result.detail.best),
            k=spec.k,
        )
        blocks.append(Note("success" if result.right else "warning", text))
    else:
        blocks.append(Note("info", t("classroom.rank_not_sent", k=spec.k, best=metric_text(activity.maximum()))))
    blocks.append(Text(t("classroom.best_order", order=graded_order(t, spec, spec.best_order())), small=True))
    return Body(tuple(blocks))


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


# --- the results CSV --------------------------------------------------------------------------------------


def csv_details(t: Translator, activity: Rank, part: int) -> str:
    """What the question was: the list (labels:grades), k, gain and ideal, and the twist if any."""
    if not activity.twist:  # a lesson's list, ranked as the lesson states it
        return list_details(t, activity.spec)
    twist = t("classroom.csv.twist", twist=t(f"classroom.twist.{activity.twist}"))
    return list_details(t, activity.spec) + "; " + twist


def csv_answer(t: Translator, activity: Rank, part: int, value: Any) -> str:
    """An order as its labels."""
    return " > ".join(activity.spec.labels[i] for i in value)


def csv_solution(t: Translator, activity: Rank, part: int, solution: Any) -> str:
    """The best order and the NDCG@k it reaches."""
    order = " > ".join(activity.spec.labels[i] for i in activity.spec.best_order())
    return t("classroom.csv.best", order=order, value=metric_text(float(solution)), k=activity.spec.k)


if TYPE_CHECKING:
    from ui.views.classroom.kinds import KindViews
    from ui.views.classroom.kinds import rank as _this

    _VIEWS: KindViews[Rank, RankSummary] = _this  # mypy checks here this module is the views of its own kind
