"""Lessons: saving one under a code (``?lesson=CODE``) and loading it, and running one in a room step by step.

A lesson a room takes is read once: its steps are kept as rows (kind, the activity's payload, and the step's own
wording, time limit and points in columns of their own), so Next and the live panels' progress read rows and never
parse the lesson again; Next copies a step's row into the activity it opens as it is."""

from __future__ import annotations

import hashlib
from typing import Any

import sqlalchemy as sa

from ...errors import InputError, shown
from .. import rules
from ..lessons import Lesson, lesson_to_toml, read_lesson
from .engine import Database, code_for, lesson_run_steps, lesson_runs, lesson_steps, lessons, resilient
from .rooms import Rooms
from .rows import ActivityRow, LessonProgress, LessonStep, StepSettings, step_rows


def _step(row: Any) -> LessonStep:
    return LessonStep(row["kind"], row["payload"], StepSettings.from_row(row))


class Lessons:
    """Saved lessons, and the lesson each room runs."""

    def __init__(self, db: Database, rooms: Rooms) -> None:
        self.db = db
        self.rooms = rooms

    @resilient
    def save(self, lesson: Lesson) -> str:
        """A code for a lesson (``?lesson=CODE``); the same lesson always gets the same code. Saved lessons do not
        expire with rooms."""
        text = lesson_to_toml(lesson)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return code_for(self.db, lessons, "lesson", digest, title=lesson.title, text=text)

    @resilient
    def text(self, code: Any) -> str:
        """The TOML text of the lesson saved under ``code`` (a read: opening a lesson's link writes nothing); an
        ``InputError`` if there is none."""
        code = rules.read_code(code, "lesson.code")
        with self.db.read() as conn:
            text = conn.execute(sa.select(lessons.c.text).where(lessons.c.code == code)).scalar()
        if text is None:
            raise InputError("lesson.unknown", code=code)
        return str(text)

    def load(self, code: Any) -> Lesson:
        """The lesson saved under ``code``; an ``InputError`` if there is none."""
        return read_lesson(self.text(code))

    @resilient
    def use(self, code: str, key: Any, lesson: Lesson) -> None:
        """Run ``lesson`` in the room, step by step (``step``), its steps kept as rows. Taking another lesson
        replaces it; the activities its steps opened keep their answers and stay in the results."""
        with self.rooms.as_teacher(code, key) as (conn, row):
            room = row["code"]
            for table in (lesson_steps, lesson_run_steps, lesson_runs):
                conn.execute(sa.delete(table).where(table.c.room == room))
            conn.execute(lesson_runs.insert().values(room=room, title=lesson.title, scores=lesson.scores, step=-1))
            conn.execute(lesson_run_steps.insert(), step_rows(room, lesson))
            self.rooms.touch(conn, room)

    @resilient
    def step(self, code: str, key: Any, step: int) -> ActivityRow:
        """Show step ``step`` (from 0) of the room's lesson: the activity it opened before, its latest round as it was
        left (Back, or Next after Back: nothing is locked, revealed or scored by going there), or else a new one. Going
        to the step already shown changes nothing, so a second click or a retry after a lost commit opens nothing
        twice."""
        with self.rooms.as_teacher(code, key) as (conn, row):
            room = row["code"]
            shown_now = conn.execute(sa.select(lesson_runs.c.step).where(lesson_runs.c.room == room)).scalar()
            if shown_now is None:
                raise InputError("room.no_lesson")
            count = conn.execute(
                sa.select(sa.func.count()).select_from(lesson_run_steps).where(lesson_run_steps.c.room == room)
            ).scalar_one()
            if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < count:
                raise InputError("room.lesson_step", value=shown(step), count=count)
            opened = conn.execute(
                sa.select(lesson_steps.c.activity_id).where(lesson_steps.c.room == room, lesson_steps.c.step == step)
            ).scalar()
            if opened is None:
                planned = _step(
                    conn.execute(
                        sa.select(lesson_run_steps).where(
                            lesson_run_steps.c.room == room, lesson_run_steps.c.step == step
                        )
                    )
                    .mappings()
                    .one()
                )
                opened_now = self.rooms.open(conn, row, planned.kind, planned.payload, planned.settings, None)
                conn.execute(lesson_steps.insert().values(room=room, step=step, activity_id=opened_now.id))
                shown_row = self.rooms.activity(conn, opened_now.id)  # numbered as the step it now is
            else:
                # The step as the teacher left it: its latest round, in the phase it was left in (an unrevealed one
                # stays unrevealed, and scores nothing until it is revealed).
                first = self.rooms.activity(conn, opened)
                rounds = [a for a in self.rooms.listed(conn, room) if (a.number, a.of) == (first.number, first.of)]
                shown_row = rounds[-1] if rounds else first
                if row["current_activity"] != shown_row.id:
                    self.rooms.touch(conn, room, current_activity=shown_row.id)
            if shown_now != step:
                conn.execute(sa.update(lesson_runs).where(lesson_runs.c.room == room).values(step=step))
            return shown_row

    @resilient
    def progress(self, code: str) -> LessonProgress | None:
        """The room's lesson and where it is (``None``: the room runs no lesson)."""
        with self.db.read() as conn:
            run = conn.execute(
                sa.select(lesson_runs.c.title, lesson_runs.c.scores, lesson_runs.c.step).where(
                    lesson_runs.c.room == code
                )
            ).first()
            if run is None:
                return None
            steps = (
                conn.execute(
                    sa.select(lesson_run_steps).where(lesson_run_steps.c.room == code).order_by(lesson_run_steps.c.step)
                )
                .mappings()
                .all()
            )
            opened = conn.execute(
                sa.select(sa.func.count()).select_from(lesson_steps).where(lesson_steps.c.room == code)
            ).scalar_one()
        return LessonProgress(run.title, bool(run.scores), tuple(_step(s) for s in steps), int(run.step), int(opened))
