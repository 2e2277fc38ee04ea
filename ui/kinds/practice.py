"""Practice together in words: the phone's exercises, each with its conventions and its answer, right or wrong and why
at the reveal; an exercise's answer in the results CSV."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ndcg_core.classroom.kinds.practice import Practice, choices
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.errors import number_text
from ndcg_core.teaching.exercises import NUMERIC, TOLERANCE, conventions, exercise, reading
from ui.classroom_text import own_question, unsent_text
from ui.exercise_text import choice_text, conventions_text, question_text
from ui.exercise_text import explain as explain_exercise
from ui.format import metric_text
from ui.i18n import Translator
from ui.mistake_text import reading_feedback
from ui.phones.card import Block, Body, Choice, Note, NumberBox, Table, Text


def precision_text(t: Translator) -> str:
    """How close a number must be to count as right, from the core's check."""
    return t("classroom.practice_precision", tolerance=number_text(TOLERANCE))


def card(t: Translator, activity: Practice, current: ActivityRow, mine: Mapping[int, Any]) -> Body:
    """The phone's card: each exercise with its conventions and its answer (a number, or one of its choices); at the
    reveal, right or wrong and why."""
    blocks: list[Block] = []
    own = own_question(current.question.get(t.lang), "")
    if own:
        blocks.append(Text(own))
    disabled = current.phase != "open"
    for part, number in enumerate(activity.numbers):
        ex = exercise(activity.seed, number)
        text, table = question_text(ex, t)
        blocks.append(
            Text(f"**{t('classroom.exercise', number=part + 1, kind=t(f'practice.kind.{ex.kind}'))}**\n\n{text}")
        )
        if table is not None:
            head = tuple(table)
            blocks.append(Table(head, tuple(zip(*table.values(), strict=True)), (False, False)))
        blocks.append(Text(conventions_text(conventions(ex), t), small=True))
        saved = mine[part].answer if part in mine else None
        if ex.kind in NUMERIC:
            blocks.append(Text(precision_text(t), small=True))
            blocks.append(NumberBox(part, t("practice.your_answer"), "0.00", saved, disabled))
        else:
            options = tuple((c, choice_text(ex, c, t)) for c in choices(ex))
            blocks.append(Choice(part, t("practice.your_answer"), options, saved, disabled))
        if current.phase == "revealed":
            if part in mine:
                right = mine[part].right
                why = explain_exercise(ex, t)
                read = reading(ex, mine[part].answer) if not right and ex.kind in NUMERIC else None
                if read is not None:  # a slip located or the mistake named, with the working, as Practice does
                    why = reading_feedback(read, t, answer=mine[part].answer.strip(), working=why)
                blocks.append(
                    Note("success" if right else "error", t("practice.right" if right else "practice.wrong", why=why))
                )
            else:
                blocks.append(Note("info", explain_exercise(ex, t)))
    unsent = unsent_text(t, "practice", bool(mine), numbers="{numbers}")
    return Body(tuple(blocks), unsent, t("classroom.send_all"))


# --- the results CSV --------------------------------------------------------------------------------------


def csv_details(t: Translator, activity: Practice, part: int) -> str:
    """What the question was: the seed, the exercise's number and its kind."""
    ex = exercise(activity.seed, activity.numbers[part])
    return t(
        "classroom.csv.practice",
        seed=activity.seed,
        number=part + 1,
        count=len(activity.numbers),
        kind=t(f"practice.kind.{ex.kind}"),
    )


def csv_answer(t: Translator, activity: Practice, part: int, value: Any) -> str:
    """An exercise's answer as typed, or the option as the phone showed it."""
    ex = exercise(activity.seed, activity.numbers[part])
    return choice_text(ex, str(value), t) if choices(ex) else str(value)


def csv_solution(t: Translator, activity: Practice, part: int, solution: Any) -> str:
    """The exercise's answer in the same words as the answers."""
    ex = exercise(activity.seed, activity.numbers[part])
    return choice_text(ex, str(solution), t) if choices(ex) else metric_text(float(solution))


if TYPE_CHECKING:
    from ui.kinds import KindWords
    from ui.kinds import practice as _this

    _WORDS: KindWords[Practice] = _this  # mypy checks here this module is the words of its own kind
