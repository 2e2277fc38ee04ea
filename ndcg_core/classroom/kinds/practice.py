"""Practice together: the whole class works through the same seeded exercises of the Practice page, one question
per exercise, each answer marked when it arrives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ... import validate
from ...errors import InputError, Note, Place, shown
from ...teaching.exercises import KINDS as EXERCISE_KINDS
from ...teaching.exercises import NUMERIC, Conventions, Exercise, conventions, exercise, marked, reading_note
from ..lesson_fields import Field, Reader
from .base import POINTS, ActivityKind, Answer, Json, KindBase, KindEntry, Material, Payload, Result, Scale, Solution

MAX_EXERCISES = 10
PRACTICE_KINDS = tuple(k for k in EXERCISE_KINDS if k != "reach")  # reach needs many moves: not in class


@dataclass(frozen=True)
class ExerciseAnswer:
    """A student's answer to a Practice exercise, marked when it arrived: as typed or chosen, and whether it was
    right (an exercise's check accepts forms the answer alone does not say, such as rounding)."""

    answer: str
    right: bool

    def to_json(self) -> dict[str, str | bool]:
        return {"answer": self.answer, "right": self.right}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ExerciseAnswer:
        return cls(str(data["answer"]), bool(data["right"]))


@dataclass(frozen=True)
class Practice(KindBase[ExerciseAnswer]):
    """Practice together: the whole class works through the same seeded exercises."""

    seed: int
    numbers: tuple[int, ...]
    kind: str = "practice"

    def payload(self) -> Payload:
        return {"seed": self.seed, "numbers": list(self.numbers)}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Practice:
        return cls(int(payload["seed"]), tuple(int(n) for n in payload["numbers"]))

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]:
        return (
            Field("seed", "whole", True, description="The exercise set, as on the Practice page."),
            Field(
                "exercises",
                "exercises",
                True,
                PRACTICE_KINDS,
                f'How many exercises (1 to {MAX_EXERCISES}), or which kinds in order, such as ["dcg", "swap"].',
            ),
        )

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Practice:
        """The first n exercises of the seed, or the named kinds in order."""
        seed = r.whole("seed")
        chosen = r.raw("exercises", True)
        if isinstance(chosen, int) and not isinstance(chosen, bool):
            return practice_activity(seed, chosen)
        kinds = r.list("exercises", True) or []
        if not 1 <= len(kinds) <= MAX_EXERCISES:
            place = r.place("exercises")
            raise InputError("lesson.out_of_range", place=place, value=len(kinds), low=1, high=MAX_EXERCISES)
        numbers: list[int] = []
        for position, kind in enumerate(kinds, start=1):
            if kind not in PRACTICE_KINDS:
                raise InputError(
                    "lesson.exercise_kind",
                    place=r.place("exercises"),
                    position=position,
                    value=shown(kind),
                    choices=", ".join(PRACTICE_KINDS),
                )
            # The kinds rotate through the exercise numbers: the next exercise of this kind not taken yet.
            number = EXERCISE_KINDS.index(kind)
            while number in numbers:
                number += len(EXERCISE_KINDS)
            numbers.append(number)
        exercise(seed, numbers[0])  # the seed checked as the Practice page checks it
        return cls(seed, tuple(numbers))

    def lesson_data(self, scale: Scale) -> Payload:
        count = len(self.numbers)
        if practice_activity(self.seed, count).numbers == self.numbers:
            return {"seed": self.seed, "exercises": count}
        return {"seed": self.seed, "exercises": [EXERCISE_KINDS[n % len(EXERCISE_KINDS)] for n in self.numbers]}

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline: the seed and the exercises' kinds."""
        kinds = ", ".join(ex.kind for ex in self.exercises())
        return f"Practice together: seed {self.seed}, {len(self.numbers)} exercises ({kinds})"

    def parts(self) -> int:
        """One question per exercise."""
        return len(self.numbers)

    def solutions(self) -> tuple[Solution, ...]:
        """Each exercise's answer."""
        return tuple(ex.answer for ex in self.exercises())

    def exercises(self) -> list[Exercise]:
        return [exercise(self.seed, n) for n in self.numbers]

    def conventions(self, part: int = 0) -> Conventions:
        """The conventions exercise ``part`` is scored under."""
        return conventions(exercise(self.seed, self.numbers[part]))

    def material(self, part: int = 0) -> Material:
        """The exercise's number and, for one over a list, its grades (and one DCG term's position)."""
        data = exercise(self.seed, self.numbers[part]).data
        grades = tuple(float(g) for g in data["grades"]) if "grades" in data else ()
        position = data.get("position")
        return Material(grades=grades, exercise=part + 1, position=None if position is None else int(position))

    def keeps_readable_parts(self) -> bool:
        return True

    @classmethod
    def answer_to_json(cls, value: ExerciseAnswer) -> Json:
        return value.to_json()

    @classmethod
    def answer_from_json(cls, data: Json) -> ExerciseAnswer:
        return ExerciseAnswer.from_json(data)

    def note(self, raw: object, part: int = 0) -> Note | None:
        """How a number typed for exercise ``part`` was read ("read 0,62 as 0.62"), for its number exercises."""
        if isinstance(part, int) and 0 <= part < len(self.numbers):
            return reading_note(exercise(self.seed, self.numbers[part]), raw)
        return None

    def given(self, value: ExerciseAnswer) -> str:
        """The answer as typed or chosen."""
        return value.answer

    def read(self, value: ExerciseAnswer, part: int = 0) -> float | None:
        """A number exercise's answer as read ("0,68" typed is 0.68); ``None`` for a choice."""
        if exercise(self.seed, self.numbers[part]).kind not in NUMERIC:
            return None
        try:
            return validate.answer(value.answer)
        except InputError:
            return None  # stored before its reading changed: the answer as typed stays in the row

    def check(self, raw: object, part: int = 0) -> ExerciseAnswer:
        return self.read_answer(raw, part)[0]

    def read_answer(self, raw: object, part: int = 0) -> tuple[ExerciseAnswer, Note | None]:
        """``check``'s marked answer and ``note``'s note, from one reading of a typed number (and one making of
        the exercise)."""
        if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < len(self.numbers):
            raise InputError("activity.part", value=shown(part), count=len(self.numbers))
        ex = exercise(self.seed, self.numbers[part])
        if ex.kind not in ("dcg_term", "dcg", "ndcg") and raw not in (None, "") and raw not in choices(ex):
            raise InputError("activity.choice", value=shown(raw), choices=", ".join(choices(ex)))
        right, note = marked(ex, raw)
        return ExerciseAnswer(str(raw).strip(), bool(right)), note

    def summary(self, answers: Sequence[Answer]) -> PracticeSummary:
        students = {a.student for a in answers}
        parts = []
        for part in range(len(self.numbers)):
            mine = [a for a in answers if a.part == part]
            parts.append((len(mine), sum(a.value.right for a in mine)))
        return PracticeSummary(len(students), parts)

    def result(self, value: ExerciseAnswer, part: int = 0) -> Result[PracticeDetail]:
        return Result(
            right=value.right,
            ndcg=None,
            answer=value.answer,
            detail=PracticeDetail(exercise(self.seed, self.numbers[part]).answer),
            points=POINTS if value.right else 0,
        )


def choices(ex: Exercise) -> tuple[str, ...]:
    """The options of a multiple-choice exercise."""
    if ex.kind == "better_order":
        return ("a", "b")
    if ex.kind == "swap":
        return ("up", "down", "same")
    if ex.kind == "gap":
        return tuple(ex.data["queries"])
    return ()


def practice_activity(seed: object, count: object) -> Practice:
    """The first ``count`` exercises of a Practice seed, leaving out the reach exercise (it needs many moves)."""
    seed = validate.seed(seed)
    count = validate.whole(count, Place("activity.count"), high=MAX_EXERCISES)
    numbers = [n for n in range(count + count // 5 + 2) if exercise(seed, n).kind != "reach"][:count]
    return Practice(seed, tuple(numbers))


@dataclass(frozen=True)
class PracticeDetail:
    """A marked exercise: the exercise's answer (a number, or an option such as ``up``)."""

    answer: Solution


@dataclass(frozen=True)
class PracticeSummary:
    count: int
    parts: list[tuple[int, int]]  # per exercise: (answered, right)


if TYPE_CHECKING:

    def _is_a_kind(activity: Practice) -> ActivityKind[ExerciseAnswer, PracticeSummary, PracticeDetail]:
        return activity  # mypy checks here that the class has every hook of the protocol, with these types


KIND = KindEntry(Practice, "Practice together", order=40)
