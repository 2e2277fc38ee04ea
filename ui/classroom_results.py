"""A room's results in the teacher's words: the CSV a lecturer downloads, and the end-of-class summary.

The core (``ndcg_core.classroom``) marks every answer and counts; this module only words what it returns, in the
translator's language: option labels as students saw them (a vote "A", a Practice choice "It rises", an order as
its labels), each activity's details, one row per student present and question (an unanswered one too) and one
"Total" row per student. Each row also states what its question is scored under, one value a column (the query,
the position one DCG term asks about, the grades in ranked order, the grades of judged results the list missed, the
metric, k, the gain, the discount and its base, where the ideal comes from), so every figure in the file can be
recomputed from the file alone. A number answer is given as typed ("0,68") and as read (0.68); right and close
are columns apart, as the projector counts them. A Judge row is not right or wrong (judging has no right grade):
it carries the class's median grade of its result and the grade's distance from it.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds import Activity
from ndcg_core.classroom.kinds.tally import Group
from ndcg_core.classroom.results import ActivityOutcome, RoomResults, StudentResult, answer_group, common_mistakes
from ndcg_core.classroom.rules import csv_safe
from ndcg_core.errors import number_text
from ndcg_core.lists.discounts import DISCOUNTS
from ui.classroom_text import activity_title
from ui.format import metric_text
from ui.i18n import Translator
from ui.kinds import WORDS, KindWords
from ui.mistake_text import group_label
from ui.projector import big_chart, share_bars, worked_table

COLUMNS = (
    "activity",
    "round",
    "kind",
    "query",
    "details",
    "exercise",
    "position",
    "grades",
    "missed",
    "metric",
    "k",
    "gain",
    "discount",
    "discount_base",
    "ideal",
    "student",
    "answer",
    "answer_read",
    "solution",
    "right",
    "close",
    "mistake",
    "median",
    "from_median",
    "ndcg",
    "answered_at",
)
# A plain number is safe in a spreadsheet ("-1" is minus one, not a formula): only other cells get ``csv_safe``.
PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def student_name(t: Translator, number: int, nickname: str | None) -> str:
    """A nickname, or "student 3" for a student without one."""
    return nickname if nickname else t("classroom.anonymous", n=number)


def _words(activity: Activity) -> KindWords[Any]:
    return WORDS[activity.kind]


def details(t: Translator, activity: Activity, part: int) -> str:
    """What the question was, in the kind's words (its ``csv_details``, ``ui.kinds``): the list (labels:grades), k,
    gain and ideal; the metric and pair; the twist; the seed and exercise; the result judged."""
    return str(_words(activity).csv_details(t, activity, part))


def answer_text(t: Translator, activity: Activity, part: int, value: Any) -> str:
    """An answer as the student saw it on the phone ("" for no answer)."""
    return "" if value is None else str(_words(activity).csv_answer(t, activity, part, value))


def solution_text(t: Translator, activity: Activity, part: int, solution: Any) -> str:
    """The right answer in the same words as the answers."""
    return str(_words(activity).csv_solution(t, activity, part, solution))


def right_text(t: Translator, row: StudentResult) -> str:
    """Right or not, as the projector's "Right" group counts (a close estimate is not: it has its own column);
    nothing for an answer that is neither (a Judge grade)."""
    if not row.answered:
        return t("classroom.csv.no_answer")
    if row.right_exactly is None:
        return ""
    return t("classroom.csv.yes" if row.right_exactly else "classroom.csv.no")


def close_text(t: Translator, row: StudentResult) -> str:
    """Close or not (within 0.05 and not right to its decimals: a Predict estimate); nothing for no answer and for
    the kinds that group no answers."""
    return "" if row.close is None else t("classroom.csv.yes" if row.close else "classroom.csv.no")


def mistake_cell(t: Translator, activity: Activity, value: Any) -> str:
    """What an answer was, for the kinds that name mistakes: right, close, the mistake it matches, or other (a
    choice: right or its option's mistake); empty for no answer and the other kinds."""
    group = answer_group(activity, value)
    return "" if group is None else group_label(group, t)


def grades_text(grades: Sequence[float]) -> str:
    """Grades in ranked order, one space between: "3 2 3 0 1"."""
    return " ".join(number_text(float(g)) for g in grades)


def scoring(t: Translator, activity: Activity, part: int) -> list[str]:
    """What question ``part`` is scored under, one cell a column from "query" to "ideal" (``COLUMNS``): the query, the
    details, the exercise, the position it asks about (one DCG term's), the grades in ranked order, the grades of judged
    results the list missed, the metric, k, the gain, the discount, its base (Järvelin-Kekäläinen's only) and where the
    ideal comes from."""
    conv, asked = activity.conventions(part), activity.material(part)
    base = ""
    if conv.discount is not None and "base" in DISCOUNTS[conv.discount].params:
        base = number_text(asked.base if asked.base is not None else DISCOUNTS[conv.discount].params["base"])
    return [
        asked.query,
        details(t, activity, part),
        "" if asked.exercise is None else str(asked.exercise),
        "" if asked.position is None else str(asked.position),
        grades_text(asked.grades),
        grades_text(asked.missed),
        t(f"classroom.csv.metric.{conv.metric}"),
        "" if conv.k is None else str(conv.k),
        "" if conv.gain is None else t(f"gain.{conv.gain}.label"),
        "" if conv.discount is None else t(f"discount.{conv.discount}.label"),
        base,
        "" if conv.ideal is None else t(f"classroom.csv.ideal.{conv.ideal}"),
    ]


def when(at: float | None) -> str:
    return "" if at is None else datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


def csv_rows(t: Translator, results: RoomResults, points: bool = False) -> list[list[str]]:
    """The CSV's rows after its header: each activity's rows, then one total row per student; with ``points``,
    each answer's points and each student's total last."""
    rows = []
    for result in results.activities:
        activity = result.activity
        kind = t(f"classroom.kind.{result.kind}")
        scored = {part: scoring(t, activity, part) for part in range(activity.parts())}
        for r in result.rows:
            rows.append(
                [
                    str(result.number),
                    str(result.round),
                    kind,
                    *scored[r.part],
                    student_name(t, r.student, r.nickname),
                    answer_text(t, activity, r.part, r.value),
                    "" if r.read is None else f"{r.read:.12g}",  # every digit typed (number_text keeps six)
                    solution_text(t, activity, r.part, result.solutions[r.part]),
                    right_text(t, r),
                    close_text(t, r),
                    mistake_cell(t, activity, r.value),
                    "" if r.median is None else number_text(r.median),
                    "" if r.from_median is None else number_text(r.from_median),
                    "" if r.ndcg is None else metric_text(r.ndcg),
                    when(r.answered_at),
                    *([] if not points else ["" if r.points is None else str(r.points)]),
                ]
            )
    for total in results.totals:
        rows.append(
            [
                t("classroom.csv.total"),
                *[""] * (COLUMNS.index("student") - 1),
                student_name(t, total.student, total.nickname),
                t("classroom.csv.total_answered", answered=total.answered, questions=total.questions),
                "",
                "",
                t("classroom.csv.total_right", right=total.right),
                t("classroom.csv.total_close", close=total.close),
                "",
                "",
                "",
                "" if total.mean_ndcg is None else metric_text(total.mean_ndcg),
                "",
                *([] if not points else [str(total.points)]),
            ]
        )
    return rows


def results_csv(t: Translator, results: RoomResults, points: bool = False) -> bytes:
    """The results as CSV in UTF-8 with a BOM (so spreadsheets read Chinese right); every cell that a spreadsheet
    would take for a formula (a nickname or label starting with = + - @) starts with a quote. With ``points`` (a
    lesson that keeps scores) a last column holds each answer's points."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([t(f"classroom.csv.{c}") for c in (*COLUMNS, *(("points",) if points else ()))])
    rows = csv_rows(t, results, points)
    writer.writerows([[cell if PLAIN_NUMBER.fullmatch(cell) else csv_safe(cell) for cell in row] for row in rows])
    return out.getvalue().encode("utf-8-sig")


def activity_name(t: Translator, outcome: ActivityOutcome) -> str:
    """The activity's title as every screen shows it ("Activity 2 of 5: Predict the NDCG · Round 2")."""
    return activity_title(t, outcome.numbered, outcome.kind)


def summary_frame(t: Translator, summary: Sequence[ActivityOutcome]) -> pd.DataFrame:
    """The summary as a table: per activity, students present, answered, right answers and the share right (for
    Judge, whose grades are neither right nor wrong, a note instead)."""
    return pd.DataFrame(
        {
            t("classroom.summary.activity"): [activity_name(t, o) for o in summary],
            t("classroom.summary.answered"): [
                t("classroom.summary.of", count=o.answered, total=o.joined) for o in summary
            ],
            t("classroom.summary.right"): [
                t("classroom.summary.of", count=o.right, total=o.answers)
                if o.marked
                else t("classroom.summary.unmarked")
                for o in summary
            ],
            t("classroom.summary.share"): ["" if o.share_right is None else f"{o.share_right:.0%}" for o in summary],
            t("classroom.summary.mistakes"): [mistakes_text(t, o.mistakes) for o in summary],
        }
    )


def mistakes_text(t: Translator, groups: Sequence[Group]) -> str:
    """Mistakes with their counts, the most common first: "DCG given for NDCG (9), Ideal from the list alone (4)"."""
    each = [t("classroom.summary.mistake_count", label=group_label(g.code, t), count=g.count) for g in groups]
    return t("classroom.summary.mistake_separator").join(each)


def render_class_summary(t: Translator, summary: Sequence[ActivityOutcome], screen: bool = False) -> None:
    """The end-of-class summary: participation, the share of right answers and the mistakes named per activity, as
    a table and bars (an activity whose answers are neither right nor wrong, Judge, is in the table only), and the
    class's most common mistakes."""
    st.subheader(t("classroom.summary.heading"))
    if not summary:
        st.caption(t("classroom.summary.none"))
        return
    worked_table(summary_frame(t, summary), screen)
    common = common_mistakes(summary)
    if common:
        st.markdown(t("classroom.summary.common", mistakes=mistakes_text(t, common)))
    summary = [o for o in summary if o.marked]
    if not summary:
        return
    names = [activity_name(t, o) for o in summary]
    texts = [t("classroom.share", right=o.right, answered=o.answers) for o in summary]
    big_chart(share_bars(names, [o.share_right or 0.0 for o in summary], texts, t("classroom.share_axis")), screen)
    st.caption(
        t(
            "classroom.summary.text",
            rows=" · ".join(f"{name}: {text}" for name, text in zip(names, texts, strict=True)),
        )
    )
