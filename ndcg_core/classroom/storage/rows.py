"""What the classroom's repositories give back: rooms, activities, students, a lesson's steps and where a room is in
its lesson, as plain frozen values."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..kinds import Activity, from_payload
from ..lessons import Lesson, Step, Wording
from ..numbering import Numbered

PHASES = ("open", "locked", "revealed")


@dataclass(frozen=True)
class StepSettings:
    """What a lesson's step sets for its activity, kept in columns of their own beside the activity's payload (in
    ``lesson_run_steps`` and in ``activities``): its own wording, its time limit (seconds; ``None``: none) and what
    the whole activity is worth when the lesson keeps scores (``None``: ``POINTS``). An activity a teacher opens by
    hand has none of them."""

    question: Wording = Wording()
    time_limit: int | None = None
    points: int | None = None

    @classmethod
    def of(cls, step: Step) -> StepSettings:
        """The settings of a lesson's ``step``."""
        return cls(step.question, step.time_limit, step.points)

    @classmethod
    def from_row(cls, row: Mapping[str, Any] | sa.RowMapping) -> StepSettings:
        """The settings as a row of ``lesson_run_steps`` or ``activities`` keeps them (``columns``)."""
        limit, points = row["time_limit"], row["points"]
        return cls(
            Wording(row["question_en"] or "", row["question_zh"] or ""),
            None if limit is None else int(limit),
            None if points is None else int(points),
        )

    def columns(self) -> dict[str, Any]:
        """The settings as the columns of a row of ``lesson_run_steps`` or ``activities``."""
        return {
            "question_en": self.question.en,
            "question_zh": self.question.zh,
            "time_limit": self.time_limit,
            "points": self.points,
        }


@dataclass(frozen=True)
class ActivityRow:
    """An activity as stored: its id, its number as every screen shows it, kind, payload and phase, its round and,
    for a lesson's step or a round of one, the lesson's number of activities (``of``), and what the step set for it
    (``settings``: its wording, time limit and points; none for a teacher's own). The number, round and ``of`` are
    worked out by ``numbering.numbered``, not stored."""

    id: int
    number: int
    kind: str
    payload: dict[str, Any]
    phase: str
    opened_at: float
    round: int = 1
    of: int | None = None
    settings: StepSettings = StepSettings()

    def activity(self) -> Activity:
        """The activity its payload describes, decoded at the first call and kept (a room read once is shared by a
        process's cards and answers until its next revision; a kind is a frozen value)."""
        kept = self.__dict__.get("_activity")
        if kept is None:
            kept = from_payload(self.kind, self.payload)
            object.__setattr__(self, "_activity", kept)  # a cache of a value fixed by the frozen fields
        return kept

    @property
    def question(self) -> Wording:
        """The question's own wording, from a lesson (empty otherwise)."""
        return self.settings.question

    @property
    def time_limit(self) -> int | None:
        """Seconds to answer, from a lesson (``None``: no limit)."""
        return self.settings.time_limit

    @property
    def points(self) -> int | None:
        """What the whole activity is worth when its lesson keeps scores, from a lesson (``None``: the usual)."""
        return self.settings.points

    @property
    def numbered(self) -> Numbered:
        """Its number, round and lesson's count, as one value."""
        return Numbered(self.number, self.round, self.of)

    @property
    def closes_at(self) -> float | None:
        """When answers close by the time limit (seconds since the epoch), or ``None``."""
        return None if self.time_limit is None else self.opened_at + self.time_limit


def activity_row(row: sa.RowMapping, numbered: Numbered) -> ActivityRow:
    """An activity as read from its table row, with its number and round worked out by the caller."""
    return ActivityRow(
        row["id"],
        numbered.number,
        row["kind"],
        json.loads(row["payload"]),
        row["phase"],
        row["opened_at"],
        numbered.round,
        numbered.of,
        StepSettings.from_row(row),
    )


@dataclass(frozen=True)
class Room:
    """A room as stored, with its current activity."""

    code: str
    created_at: float
    expires_at: float
    ended_at: float | None
    show_names: bool
    revision: int
    students: int
    activities: int
    current: ActivityRow | None

    @property
    def ended(self) -> bool:
        return self.ended_at is not None


@dataclass(frozen=True)
class Student:
    """A student in a room: their random id, their number in the room (1, 2, ...) and optional nickname."""

    room: str
    id: str
    number: int
    nickname: str | None


@dataclass(frozen=True)
class LessonStep:
    """A step of the lesson a room runs, as its row keeps it (read once from the lesson when the room took it): its
    activity's kind and payload (the JSON text, as the step's activity will keep it) and what the step sets for it
    (its wording, time limit and points)."""

    kind: str
    payload: str
    settings: StepSettings = StepSettings()

    @property
    def question(self) -> Wording:
        return self.settings.question

    @property
    def time_limit(self) -> int | None:
        return self.settings.time_limit


@dataclass(frozen=True)
class LessonProgress:
    """Where a room is in its lesson: its title, whether it keeps scores, its steps, the step shown (0-based; -1
    before the first) and the number of steps opened so far (Next opens the next; Back shows earlier ones again)."""

    title: str
    scores: bool
    steps: tuple[LessonStep, ...]
    step: int
    opened: int

    @property
    def count(self) -> int:
        return len(self.steps)

    def shows(self, current: ActivityRow | None) -> bool:
        """Whether ``current`` (the room's current activity) is the one the lesson's step shows, or a round of it
        run again: ``False`` once the teacher opened an activity of their own, off the lesson's plan. Before the
        first step, any activity counts as before the plan (``True``)."""
        if self.step < 0:
            return True
        if current is None:
            return False
        step = self.steps[self.step]
        return (
            current.kind == step.kind
            and current.settings == step.settings
            and current.payload == json.loads(step.payload)
        )


def step_rows(room: str, lesson: Lesson) -> list[dict[str, Any]]:
    """The rows of ``lesson_run_steps`` for a lesson run in ``room``: one per step, numbered from 0."""
    return [
        {
            "room": room,
            "step": number,
            "kind": step.activity.kind,
            "payload": json.dumps(step.activity.payload()),
            **StepSettings.of(step).columns(),
        }
        for number, step in enumerate(lesson.steps)
    ]
