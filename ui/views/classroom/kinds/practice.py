"""Practice together: the projector's share of right answers per exercise; the phone's exercises."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds.practice import MAX_EXERCISES, Practice, PracticeSummary, practice_activity
from ndcg_core.teaching.exercises import NUMERIC, Exercise, conventions
from ui.classroom_text import own_question
from ui.exercise_text import conventions_text, question_text
from ui.exercise_text import explain as explain_exercise
from ui.i18n import Translator
from ui.kinds.practice import precision_text
from ui.projector import big_chart, share_bars, worked_table
from ui.state import (
    practice_state,
    widget_value,
)

ROUNDS = False  # a round run again is shown alone: ``present`` leaves ``before`` unused


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


if TYPE_CHECKING:
    from ui.views.classroom.kinds import KindViews
    from ui.views.classroom.kinds import practice as _this

    _VIEWS: KindViews[Practice, PracticeSummary] = _this  # mypy checks here this module is the views of its own kind
