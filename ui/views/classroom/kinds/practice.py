"""Practice together: the projector's share of right answers per exercise; the phone's exercises."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds.practice import MAX_EXERCISES, Practice, PracticeSummary, choices, practice_activity
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.errors import number_text
from ndcg_core.teaching.exercises import NUMERIC, TOLERANCE, Exercise, conventions, exercise, reading
from ui.exercise_text import choice_text, conventions_text, question_text
from ui.exercise_text import explain as explain_exercise
from ui.format import metric_text
from ui.i18n import Translator
from ui.mistake_text import reading_feedback
from ui.projector import big_chart, share_bars, worked_table
from ui.state import (
    practice_state,
    widget_value,
)
from ui.views.classroom.card import Block, Body, Choice, Note, NumberBox, Table, Text
from ui.views.classroom.common import own_question, unsent_text

ROUNDS = False  # a round run again is shown alone: ``present`` leaves ``before`` unused


def precision_text(t: Translator) -> str:
    """How close a number must be to count as right, from the core's check."""
    return t("classroom.practice_precision", tolerance=number_text(TOLERANCE))


def exercise_panel(t: Translator, part: int, ex: Exercise) -> None:
    """One exercise on the projector as the phones ask it: its question with its list, its table (a "gap"
    exercise's queries) and its conventions, so the class can discuss it."""
    text, table = question_text(ex, t)
    st.markdown(f"**{t('classroom.exercise', number=part + 1, kind=t(f'practice.kind.{ex.kind}'))}**\n\n{text}")
    if table is not None:
        worked_table(pd.DataFrame(table), False)
    st.caption(conventions_text(conventions(ex), t))


def present(
    t: Translator,
    activity: Practice,
    summary: PracticeSummary,
    revealed: bool,
    screen: bool = False,
    own: str = "",
    before: PracticeSummary | None = None,
    round_number: int = 1,
    students: int = 0,
) -> None:
    st.markdown(own_question(own, t("classroom.practice_question", count=len(activity.numbers))))
    if not screen:  # the seed is the teacher's (to run the same set again), not the class's
        st.caption(t("classroom.practice_set", seed=activity.seed))
    names = [
        t("classroom.exercise", number=i + 1, kind=t(f"practice.kind.{ex.kind}"))
        for i, ex in enumerate(activity.exercises())
    ]
    shares = [right / answered if answered else 0.0 for answered, right in summary.parts]
    texts = [t("classroom.share", right=right, answered=answered) for answered, right in summary.parts]
    exercises = activity.exercises()
    if any(ex.kind in NUMERIC for ex in exercises):
        st.markdown(precision_text(t))
    # On the projector, bars close together and no axis title (each bar says "3 right of 4"): the reveal's
    # explanations fit under them at 1280x720.
    axis = "" if screen else t("classroom.share_axis")
    big_chart(share_bars(names, shares, texts, axis), screen, 28 * len(names) + 60)
    if not revealed:
        per_row = 3 if screen else 2
        for start in range(0, len(exercises), per_row):
            for offset, col in enumerate(st.columns(per_row, gap="medium")):
                if start + offset < len(exercises):
                    with col:
                        exercise_panel(t, start + offset, exercises[start + offset])
    if revealed:
        explained = [
            t("classroom.exercise", number=i + 1, kind=t(f"practice.kind.{ex.kind}")) + " · " + explain_exercise(ex, t)
            for i, ex in enumerate(activity.exercises())
        ]
        if screen:  # one list, its lines close together, on the projector
            st.caption("\n".join(f"- {line}" for line in explained))
        else:
            for line in explained:
                st.caption(line)


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


def form(t: Translator, prefix: str) -> None:
    """The Practice seed and how many exercises."""
    a, b = st.columns(2)
    a.number_input(
        t("classroom.practice_seed"),
        min_value=0,
        max_value=10**9,
        value=int(practice_state().seed),
        step=1,
        key=f"{prefix}practice_seed",
    )
    b.number_input(
        t("classroom.practice_count"),
        min_value=1,
        max_value=MAX_EXERCISES,
        value=5,
        step=1,
        key=f"{prefix}practice_count",
    )


def build(prefix: str) -> Practice:
    return practice_activity(widget_value(f"{prefix}practice_seed", 2026), widget_value(f"{prefix}practice_count", 5))


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
    from ui.views.classroom.kinds import KindViews
    from ui.views.classroom.kinds import practice as _this

    _VIEWS: KindViews[Practice, PracticeSummary] = _this  # mypy checks here this module is the views of its own kind
