"""Rank it best: the projector's histogram of NDCG@k reached and the common mistake; the phone's sortable list."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ndcg_core.classroom import activities as acts
from ndcg_core.classroom.store import ActivityRow
from ndcg_core.errors import InputError
from ndcg_core.lists.items import Item
from ndcg_core.lists.spec import ListSpec
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.projector import big_chart
from ui.state import (
    ClassroomState,
    classroom_state,
    widget_value,
)
from ui.views.classroom.common import (
    histogram_chart,
    histogram_text,
    list_details,
    list_table,
    own_question,
    query_line,
    spec_caption,
    submit,
    unsent_text,
)
from ui.views.classroom.sources import chosen_list, list_form
from ui.widgets.sortable import apply_action, sortable_list


def rank_question(t: Translator, activity: acts.Rank, own: str = "") -> str:
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
    t: Translator, activity: acts.Rank, summary: acts.RankSummary, revealed: bool, screen: bool = False, own: str = ""
) -> None:
    spec = activity.spec
    st.markdown(rank_question(t, activity, own))
    st.caption(spec_caption(t, spec, activity.show_grades or revealed))
    big_chart(
        histogram_chart(
            t, summary.bins, summary.maximum if revealed else None, t("classroom.reached_axis"), "classroom.best_label"
        ),
        screen,
    )
    st.caption(histogram_text(t, summary.bins))
    if not revealed:
        return
    st.success(t("classroom.rank_reveal", found=summary.found, count=summary.count, best=metric_text(summary.maximum)))
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


def rank_items(spec: ListSpec, order: list[int]) -> list[Item]:
    """The list in a student's order; an item's id is its place in the teacher's list, plus one."""
    return [Item(i + 1, spec.labels[i], spec.grades[i]) for i in order]


def on_rank_action(activity_id: int, spec: ListSpec) -> None:
    """A move on the student's list (drag, buttons or keys), kept in this session until sent."""
    cs = classroom_state()
    action = widget_value(f"cr_rank_{activity_id}").get("action")
    if action is None:
        return
    order = cs.orders.get(activity_id, list(range(len(spec.grades))))
    try:
        moved, _ = apply_action(rank_items(spec, order), action, top=int(max(spec.grades)))
    except InputError:
        return  # a malformed action from the browser changes nothing
    cs.orders[activity_id] = [it.id - 1 for it in moved]


def student(t: Translator, cs: ClassroomState, current: ActivityRow, mine: dict, lead: str) -> str | None:
    """Reorder the list. Unless the teacher chose to show them, the grades stay off the phone (the browser is
    never sent them) until the reveal, which shows the judged grades of the student's order, its NDCG@k and
    the best order."""
    activity = current.activity()
    assert isinstance(activity, acts.Rank)  # the caller chose this view by the activity's kind
    spec = activity.spec
    dealt = list(range(len(spec.grades)))
    order = cs.orders.get(current.id) or list(mine.get(0) or dealt)
    cs.orders[current.id] = order
    revealed = current.phase == "revealed"
    st.markdown(lead + rank_question(t, activity, current.question.get(t.lang)))
    st.caption(spec_caption(t, spec, activity.show_grades or revealed))
    if current.phase == "open":
        sortable_list(
            rank_items(spec, order),
            key=f"cr_rank_{current.id}",
            k=spec.k,
            top=int(max(4, max(spec.grades))),
            texts=t.group("sortable"),
            on_action=lambda: on_rank_action(current.id, spec),
            readonly=True,
            show_grades=activity.show_grades,
        )
        st.button(
            t("classroom.send_order"),
            on_click=lambda: submit(current.id, [(0, list(cs.orders[current.id]))]),
            type="primary",
            key=f"btn_cr_send_{current.id}",
            width="stretch",
        )
        return None
    if not revealed:
        shown_grades = tuple(spec.grades[i] for i in order) if activity.show_grades else None
        list_table(t, tuple(spec.labels[i] for i in order), shown_grades)
        if not activity.show_grades:
            st.caption(t("classroom.grades_hidden"))
    unsent = None
    if order != list(mine.get(0) or dealt):
        unsent = unsent_text(t, "order", 0 in mine)
    if not revealed:
        return unsent
    best = activity.maximum()
    if 0 in mine:
        sent = list(mine[0])
        st.markdown(t("classroom.your_order_graded"))
        list_table(t, tuple(spec.labels[i] for i in sent), tuple(spec.grades[i] for i in sent))
        result = activity.result(sent)
        (st.success if result.right else st.warning)(
            t(
                "classroom.your_rank_result",
                reached=metric_text(result.detail.reached),
                best=metric_text(result.detail.best),
            )
        )
    else:
        st.info(t("classroom.rank_not_sent", k=spec.k, best=metric_text(best)))
    st.caption(t("classroom.best_order", order=graded_order(t, spec, spec.best_order())))
    return unsent


def form(t: Translator, prefix: str) -> None:
    """A list, whether the phones show its grades, its k, and the twist."""
    list_form(t, prefix, grades_box=True, hidden_by_default=True)
    st.radio(
        t("classroom.twist"),
        acts.TWISTS,
        format_func=lambda w: t(f"classroom.twist.{w}"),
        horizontal=True,
        key=f"{prefix}twist",
    )


def build(prefix: str) -> acts.Rank:
    return acts.rank_activity(
        chosen_list(prefix),
        widget_value(f"{prefix}twist", "exponential"),
        bool(widget_value(f"{prefix}show_grades", False)),
    )


# --- the results CSV --------------------------------------------------------------------------------------


def csv_details(t: Translator, activity: acts.Rank, part: int) -> str:
    """What the question was: the list (labels:grades), k, gain and ideal, and the twist if any."""
    if not activity.twist:  # a lesson's list, ranked as the lesson states it
        return list_details(t, activity.spec)
    twist = t("classroom.csv.twist", twist=t(f"classroom.twist.{activity.twist}"))
    return list_details(t, activity.spec) + "; " + twist


def csv_answer(t: Translator, activity: acts.Rank, part: int, value: Any) -> str:
    """An order as its labels."""
    return " > ".join(activity.spec.labels[i] for i in value)


def csv_solution(t: Translator, activity: acts.Rank, part: int, solution: Any) -> str:
    """The best order and the NDCG@k it reaches."""
    order = " > ".join(activity.spec.labels[i] for i in activity.spec.best_order())
    return t("classroom.csv.best", order=order, value=metric_text(float(solution)))
