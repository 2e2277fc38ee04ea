"""Judge the results: each student grades every result of a query on a scale; the class sees each result's grade
distribution, Krippendorff's alpha and NDCG@k under the class's median grades beside the teacher's."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import krippendorff
import numpy as np

from ... import validate
from ...errors import InputError, number_text, shown
from ...lists.spec import ListSpec
from ..lesson_fields import Field, Reader
from .base import ActivityKind, Answer, KindEntry, Payload, Result, Scale, Solution
from .lists import (
    LIST_FIELDS,
    OverAList,
    activity_list,
    list_from_json,
    list_from_lesson,
    list_lesson_data,
    list_to_json,
    outline_ndcg,
    quoted,
)


@dataclass(frozen=True)
class JudgeSummary:
    """What the class's grades add up to. Per result, in list order: how many students gave each grade of the
    scale (``counts[i][g - low]``) and the median grade (``None`` before anyone graded it). ``alpha`` is
    Krippendorff's alpha for ordinal data over every student's grades (``None`` until two students graded the
    same result and the grades vary); ``class_ndcg`` is NDCG@k of the list under the medians (``None`` until
    every result has a grade) and ``teacher_ndcg`` under the teacher's grades."""

    count: int
    counts: tuple[tuple[int, ...], ...]
    medians: tuple[float | None, ...]
    alpha: float | None
    class_ndcg: float | None
    teacher_ndcg: float


@dataclass(frozen=True)
class Judge(OverAList[int]):
    """Judge the results: each student grades every result of a query on the scale (one answer per result,
    its part); the class sees each result's grade distribution, how far the judges agree, and NDCG@k of the
    list under the class's median grades beside the teacher's grades (``spec.grades``). It scores no points:
    a grade is a judgement, and the activity is there to show that judges differ."""

    spec: ListSpec
    scale: Scale = Scale()
    kind: str = "judge"

    def __post_init__(self) -> None:
        for position, grade in enumerate(self.spec.grades, start=1):
            if grade not in self.scale.grades:
                low, high = self.scale.low, self.scale.high
                raise InputError("activity.off_scale", position=position, value=number_text(grade), low=low, high=high)

    def payload(self) -> Payload:
        return {"list": list_to_json(self.spec), "scale": [self.scale.low, self.scale.high]}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Judge:
        low, high = payload["scale"]
        return cls(list_from_json(payload["list"]), Scale(int(low), int(high)))

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]:
        return (
            *(f for f in LIST_FIELDS if f.name != "missed"),
            Field("scale", "scale", description="The grades students judge with, [low, high] (the lesson's)."),
        )

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Judge:
        """The results to judge, on their own scale or the lesson's (``scale``)."""
        return cls(list_from_lesson(r, pool=False), r.scale("scale", scale))

    def lesson_data(self, scale: Scale) -> Payload:
        extra = {} if self.scale == scale else {"scale": [self.scale.low, self.scale.high]}
        return {**list_lesson_data(self.spec, pool=False), **extra}

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline: the scale and NDCG@k under the teacher's grades."""
        spec = self.spec
        return (
            f"Judge the results{quoted(spec.query)}: {len(spec.grades)} results on a scale of "
            f"{self.scale.low} to {self.scale.high}; {outline_ndcg(spec)} under the teacher's grades = "
            f"{spec.ndcg():.4f}"
        )

    def parts(self) -> int:
        """One question per result."""
        return len(self.spec.grades)

    def solutions(self) -> tuple[Solution, ...]:
        """The teacher's grade of each result."""
        return tuple(int(g) for g in self.spec.grades)

    def check(self, raw: object, part: int = 0) -> int:
        """A grade of the scale for result ``part``: a whole number, as typed or chosen."""
        if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < len(self.spec.grades):
            raise InputError("activity.result", value=shown(part), count=len(self.spec.grades))
        if raw in (None, ""):
            raise InputError("answer.no_choice")
        try:
            value = validate.answer(raw)
        except InputError:
            raise InputError("activity.grade", value=shown(raw), low=self.scale.low, high=self.scale.high) from None
        if value not in self.scale.grades:
            raise InputError("activity.grade", value=shown(raw), low=self.scale.low, high=self.scale.high)
        return int(value)

    def summary(self, answers: Sequence[Answer]) -> JudgeSummary:
        n = len(self.spec.grades)
        by_result: list[list[int]] = [[] for _ in range(n)]
        for a in answers:
            by_result[a.part].append(int(a.value))
        counts = tuple(tuple(grades.count(g) for g in self.scale.grades) for grades in by_result)
        medians = tuple(statistics.median(grades) if grades else None for grades in by_result)
        class_ndcg = None
        if all(m is not None for m in medians):
            spec, graded = self.spec, tuple(float(m) for m in medians if m is not None)
            class_ndcg = activity_list(
                spec.labels, graded, spec.k, spec.gain, spec.pool, spec.query, spec.discount
            ).ndcg()
        return JudgeSummary(
            len({a.student for a in answers}),
            counts,
            medians,
            agreement(answers, n, self.scale),
            class_ndcg,
            self.spec.ndcg(),
        )

    def marks_answers(self) -> bool:
        """A grade is neither right nor wrong: judging has no right grade."""
        return False

    def medians(self, answers: Sequence[Answer]) -> tuple[float | None, ...]:
        """Each result's median grade in the class (``None``: nobody graded it)."""
        return self.summary(answers).medians

    def result(self, value: int, part: int = 0) -> Result[JudgeDetail]:
        """A grade is not marked (``right`` is ``None``): judging has no right grade."""
        teacher = self.spec.grades[part]
        return Result(
            right=None,
            ndcg=None,
            answer=str(int(value)),
            detail=JudgeDetail(teacher, abs(int(value) - teacher)),
        )


def agreement(answers: Sequence[Answer], results: int, scale: Scale) -> float | None:
    """Krippendorff's alpha (ordinal) of the students' grades (students as coders, results as units), from the
    ``krippendorff`` package; ``None`` when it is not defined (fewer than two grades of one result, or no variation
    at all)."""
    students = sorted({a.student for a in answers})
    if len(students) < 2:
        return None
    row = {s: i for i, s in enumerate(students)}
    data = np.full((len(students), results), np.nan)
    for a in answers:
        data[row[a.student], a.part] = float(a.value)
    if not any(np.count_nonzero(~np.isnan(data[:, j])) >= 2 for j in range(results)):
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = float(
            krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal", value_domain=scale.grades)
        )
    return None if math.isnan(alpha) else alpha


@dataclass(frozen=True)
class JudgeDetail:
    """A marked grade: the teacher's grade and how far the student's was from it."""

    teacher: float
    off: float


if TYPE_CHECKING:

    def _is_a_kind(activity: Judge) -> ActivityKind[int, JudgeSummary, JudgeDetail]:
        return activity  # mypy checks here that the class has every hook of the protocol, with these types


KIND = KindEntry(Judge, "Judge the results", order=50)
