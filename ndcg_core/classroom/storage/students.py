"""Students: joining a room by its code (wrong codes slowed per source, a full room refused), a student, and the
room's roster. Joining again with the same id is the same student (a retried join changes nothing)."""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ...errors import InputError
from .. import rules
from ..notices import Notice
from ..rules import Limits
from .engine import Database, join_failures, resilient, rooms, students
from .rows import Student


class Students:
    """Every read and write of a room's students."""

    def __init__(self, db: Database, limits: Limits) -> None:
        self.db = db
        self.limits = limits

    @resilient
    def join(self, code: Any, student_id: str, nickname: Any = None, *, source: str = "") -> Student:
        """Join a room by its code (typed, or from a link); joining again with the same id is the same student.

        A wrong code counts against ``source`` (where the attempt came from); after a few, attempts from
        there must wait, longer each time.
        """
        student_id = rules.read_student_id(student_id)
        name = rules.read_nickname(nickname)
        source = hashlib.sha256(str(source).encode("utf-8", "replace")).hexdigest()[:32]
        self._check_join_wait(source)
        try:
            code = rules.read_code(code)
        except InputError:
            self._join_failed(source)
            raise
        with self.db.write() as conn:
            student = self._join(conn, code, student_id, name)
        if student is None:
            self._join_failed(source)
            raise InputError("room.unknown", code=code)
        return student

    def _join(self, conn: Connection, code: str, student_id: str, name: str | None) -> Student | None:
        """The student joined to an existing room (``None`` if there is no such open room)."""
        now = self.db.clock()
        room = conn.execute(sa.select(rooms.c.ended_at, rooms.c.expires_at).where(rooms.c.code == code)).first()
        if room is None or room.expires_at <= now:
            return None
        if room.ended_at is not None:
            raise InputError("room.ended")
        existing = (
            conn.execute(sa.select(students).where(students.c.room == code, students.c.id == student_id))
            .mappings()
            .first()
        )
        if existing is not None:
            if name is not None and name != existing["nickname"]:
                conn.execute(
                    sa.update(students)
                    .where(students.c.room == code, students.c.id == student_id)
                    .values(nickname=name)
                )
                self.db.tell(conn, Notice(code, joined=True, student=student_id))
            return Student(code, student_id, existing["number"], name or existing["nickname"])
        number = conn.execute(
            sa.update(rooms)
            .where(rooms.c.code == code, rooms.c.student_count < self.limits.max_students)
            .values(student_count=rooms.c.student_count + 1)
            .returning(rooms.c.student_count)
        ).scalar()
        if number is None:
            raise InputError("room.full", limit=self.limits.max_students)
        conn.execute(
            students.insert().values(
                room=code,
                id=student_id,
                number=number,
                nickname=name,
                joined_at=now,
                tokens=float(self.limits.answer_burst),
                tokens_at=now,
            )
        )
        # The teacher's count of who joined; whose, so that every process knows the student (a phone moving to
        # another process after its own stopped is let in without a read).
        self.db.tell(conn, Notice(code, joined=True, student=student_id))
        return Student(code, student_id, number, name)

    def _check_join_wait(self, source: str) -> None:
        now = self.db.clock()
        with self.db.read() as conn:
            count, last = conn.execute(
                sa.select(sa.func.count(), sa.func.max(join_failures.c.at)).where(
                    join_failures.c.source == source, join_failures.c.at > now - self.limits.join_window_seconds
                )
            ).one()
        if count:
            wait = rules.join_wait(count, now - last, self.limits)
            if wait > 0:
                raise InputError("room.join_wait", seconds=int(wait) + 1)

    def _join_failed(self, source: str) -> None:
        with self.db.write() as conn:
            conn.execute(join_failures.insert().values(source=source, at=self.db.clock()))

    @resilient
    def joined_of(self, code: str, student_ids: Collection[str]) -> set[str]:
        """Which of ``student_ids`` have joined room ``code``, in one read (a class's phones arriving together)."""
        with self.db.read() as conn:
            rows = conn.execute(
                sa.select(students.c.id).where(students.c.room == code, students.c.id.in_(list(student_ids)))
            ).all()
        return {r.id for r in rows}

    @resilient
    def get(self, code: str, student_id: str) -> Student | None:
        """The student ``student_id`` of room ``code`` (``None``: not joined)."""
        with self.db.read() as conn:
            row = (
                conn.execute(sa.select(students).where(students.c.room == code, students.c.id == student_id))
                .mappings()
                .first()
            )
        return None if row is None else Student(row["room"], row["id"], row["number"], row["nickname"])

    @resilient
    def roster(self, code: str) -> list[Student]:
        """The room's students in joining order."""
        with self.db.read() as conn:
            rows = (
                conn.execute(sa.select(students).where(students.c.room == code).order_by(students.c.number))
                .mappings()
                .all()
            )
        return [Student(r["room"], r["id"], r["number"], r["nickname"]) for r in rows]
