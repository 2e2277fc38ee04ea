"""Rank it best in words: the question with its twist, the phone's sortable list and, at the reveal, its order graded
beside the best; an order in the results CSV."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ndcg_core.classroom.kinds.rank import Rank
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.lists.spec import ListSpec
from ui.classroom_text import list_details, own_question, query_line, spec_caption, unsent_text
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.phones.card import Block, Body, Note, Order, Text, table_of


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
    from ui.kinds import KindWords
    from ui.kinds import rank as _this

    _WORDS: KindWords[Rank] = _this  # mypy checks here this module is the words of its own kind
