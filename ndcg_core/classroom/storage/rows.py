"""What the classroom's repositories give back: rooms, activities, students, a lesson's steps and where a room is in
its lesson, as plain frozen values."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..kinds import Activity, from_payload
from ..lessons import Lesson, Wording
from ..numbering import Numbered

STEP_KEY = "lesson"  # a lesson step's own wording, time limit and points, kept in its activity's payload
PHASES = ("open", "locked", "revealed")


@dataclass(frozen=True)
class ActivityRow:
    """An activity as stored: its id, its number as every screen shows it, kind, payload and phase, its round and,
    for a lesson's step or a round of one, the lesson's number of activities (``of``). The number, round and ``of``
    are worked out by ``numbering.numbered``, not stored, so older databases need no new column."""

    id: int
    number: int
    kind: str
    payload: dict[str, Any]
    phase: str
    opened_at: float
    round: int = 1
    of: int | None = None

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
        own = self.payload.get(STEP_KEY, {}).get("question", {})
        return Wording(str(own.get("en", "")), str(own.get("zh", "")))

    @property
    def time_limit(self) -> int | None:
        """Seconds to answer, from a lesson (``None``: no limit)."""
        limit = self.payload.get(STEP_KEY, {}).get("time_limit")
        return None if limit is None else int(limit)

    @property
    def points(self) -> int | None:
        """What the whole activity is worth when its lesson keeps scores, from a lesson (``None``: the usual)."""
        worth = self.payload.get(STEP_KEY, {}).get("points")
        return None if worth is None else int(worth)

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
    """A step of the lesson a room runs, as read once from the lesson: its activity's kind and payload (with what the
    step is worth under ``STEP_KEY`` when the lesson says: kept in the payload, so no column was added), and the
    step's own wording and time limit."""

    kind: str
    payload: dict[str, Any]
    question: Wording = Wording()
    time_limit: int | None = None

    def activity_payload(self) -> str:
        """What the step's activity keeps as its payload: the activity's, with the step's own wording, time limit and
        points when it has them (so a round of the step is one with the same wording too)."""
        extra: dict[str, Any] = dict(self.payload.get(STEP_KEY, {}))
        if self.question.en or self.question.zh:
            extra["question"] = {
                lang: text for lang, text in (("en", self.question.en), ("zh", self.question.zh)) if text
            }
        if self.time_limit is not None:
            extra["time_limit"] = self.time_limit
        return json.dumps({**self.payload, STEP_KEY: extra} if extra else self.payload)


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
        return current.kind == step.kind and current.payload == json.loads(step.activity_payload())


def step_rows(room: str, lesson: Lesson) -> list[dict[str, Any]]:
    """The rows of ``lesson_run_steps`` for a lesson run in ``room``: one per step, numbered from 0."""
    return [
        {
            "room": room,
            "step": number,
            "kind": step.activity.kind,
            "payload": json.dumps(
                step.activity.payload()
                if step.points is None
                else {**step.activity.payload(), STEP_KEY: {"points": step.points}}
            ),
            "question_en": step.question.en,
            "question_zh": step.question.zh,
            "time_limit": step.time_limit,
        }
        for number, step in enumerate(lesson.steps)
    ]
