"""Judge the results in words: the question, the phone's grade picker per result and, at the reveal, the teacher's
grade beside the student's; a grade in the results CSV."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.storage import ActivityRow
from ui.classroom_text import own_question, query_line, unsent_text
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.phones.card import Block, Body, Choice, Note, Text


def question(t: Translator, activity: Judge, own: str) -> str:
    scale = activity.scale
    standard = t("classroom.judge_question", low=scale.low, high=scale.high)
    return query_line(t, activity.spec) + own_question(own, standard)


def card(t: Translator, activity: Judge, current: ActivityRow, mine: Mapping[int, Any]) -> Body:
    """The phone's card: one grade picker per result; at the reveal, the teacher's grade beside the student's."""
    spec, scale = activity.spec, activity.scale
    revealed = current.phase == "revealed"
    blocks: list[Block] = [Text(question(t, activity, current.question.get(t.lang)))]
    options = tuple((g, str(g)) for g in scale.grades)
    for part, label in enumerate(spec.labels):
        saved = int(mine[part]) if part in mine else None
        blocks.append(Choice(part, f"**{part + 1}.** {md_escape(label)}", options, saved, current.phase != "open"))
        if revealed:
            text = t(
                "classroom.judge_yours",
                teacher=metric_text(spec.grades[part], 0),
                yours="–" if saved is None else str(saved),
            )
            blocks.append(Note("info", text))  # judging has no right grade: the same as the teacher's is no success
    if revealed:
        blocks.append(
            Text(t("classroom.judge_teacher_ndcg_line", k=spec.k, value=metric_text(spec.ndcg())), small=True)
        )
    return Body(tuple(blocks), unsent_text(t, "grades", bool(mine), numbers="{numbers}"), t("classroom.send_all"))


# --- the results CSV --------------------------------------------------------------------------------------


def csv_details(t: Translator, activity: Judge, part: int) -> str:
    """What the question was: which result of how many, and the scale."""
    return t(
        "classroom.csv.judge",
        number=part + 1,
        count=len(activity.spec.labels),
        label=activity.spec.labels[part],
        low=activity.scale.low,
        high=activity.scale.high,
    )


def csv_answer(t: Translator, activity: Judge, part: int, value: Any) -> str:
    """A grade."""
    return str(int(value))


def csv_solution(t: Translator, activity: Judge, part: int, solution: Any) -> str:
    """The teacher's grade."""
    return t("classroom.csv.teacher_grade", grade=int(solution))


if TYPE_CHECKING:
    from ui.kinds import KindWords
    from ui.kinds import judge as _this

    _WORDS: KindWords[Judge] = _this  # mypy checks here this module is the words of its own kind
