"""Students: joining a room by its code (wrong codes slowed per source, new students paced per source, a full or
closed room refused), a student, and the room's roster. Joining again with the same id is the same student (a
retried join changes nothing)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ...errors import InputError
from .. import clients, rules
from ..notices import Notice
from ..rules import Limits
from .engine import Database, join_failures, join_tokens, resilient, room_doors, rooms, students
from .rows import Student


class Students:
    """Every read and write of a room's students."""

    def __init__(self, db: Database, limits: Limits) -> None:
        self.db = db
        self.limits = limits

    @resilient
    def join(self, code: Any, student_id: str, nickname: Any = None, *, source: str = "") -> Student:
        """Join a room by its code (typed, or from a link); joining again with the same id is the same student.

        ``source`` is where the attempt came from (the client's address). A wrong code counts against it; after a
        few, its wrong codes must wait, longer each time; a right code is not slowed by them (a class behind one
        address is let in whatever some of it mistyped), until so many wrong codes came from there that it is
        guessing (``Limits.max_join_failures``). New students from one source are paced by its join tokens
        (``rules.join_tokens``); a student already in the room is never slowed.
        """
        student_id = rules.read_student_id(student_id)
        name = rules.read_nickname(nickname)
        source = clients.source_key(source)
        try:
            code = rules.read_code(code)
        except InputError:
            self._join_failed(source)
            raise
        with self.db.write() as conn:
            student = self._join(conn, code, student_id, name, source)
        if student is None:
            self._join_failed(source)
            raise InputError("room.unknown", code=code)
        return student

    def _join(self, conn: Connection, code: str, student_id: str, name: str | None, source: str) -> Student | None:
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
        self._check_guessing(conn, source, now)
        # The room's row first (every join and every teacher action takes its lock, so the door, the count and the
        # numbers below are read by one join at a time); the first student gives an empty room its whole life.
        count = conn.execute(
            sa.update(rooms)
            .where(rooms.c.code == code)
            .values(
                student_count=rooms.c.student_count + 1, expires_at=rooms.c.created_at + self.limits.room_hours * 3600
            )
            .returning(rooms.c.student_count)
        ).scalar_one()
        door = conn.execute(sa.select(room_doors.c.seats, room_doors.c.closed).where(room_doors.c.room == code)).first()
        if door is not None and door.closed:
            raise InputError("room.closed")
        seats = self.limits.max_students if door is None or door.seats is None else door.seats
        if count > min(seats, self.limits.max_students):
            raise InputError("room.full", limit=min(seats, self.limits.max_students))
        self._spend_join_token(conn, source, now)
        # Numbers go on from the highest in the room: students the teacher removed free their seats, not their
        # numbers' order.
        number = conn.execute(
            sa.select(sa.func.coalesce(sa.func.max(students.c.number), 0) + 1).where(students.c.room == code)
        ).scalar_one()
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

    def _spend_join_token(self, conn: Connection, source: str, now: float) -> None:
        """One of ``source``'s join tokens spent, inside the join's transaction; ``room.join_busy`` when it has
        none (the transaction then rolls back whole)."""
        conn.execute(
            self.db.insert(join_tokens)
            .values(source=source, tokens=float(self.limits.join_burst), at=now)
            .on_conflict_do_nothing()
        )
        held = conn.execute(
            sa.select(join_tokens.c.tokens, join_tokens.c.at).where(join_tokens.c.source == source).with_for_update()
        ).one()
        tokens = rules.join_tokens(held.tokens, now - held.at, self.limits)
        if tokens < 1:
            raise InputError("room.join_busy", seconds=int(rules.join_token_wait(tokens, self.limits)) + 1)
        conn.execute(sa.update(join_tokens).where(join_tokens.c.source == source).values(tokens=tokens - 1, at=now))

    def _failures(self, conn: Connection, source: str, now: float) -> tuple[int, float, float]:
        """The wrong codes from ``source`` in the window: how many, the latest's time and the earliest's."""
        count, last, first = conn.execute(
            sa.select(sa.func.count(), sa.func.max(join_failures.c.at), sa.func.min(join_failures.c.at)).where(
                join_failures.c.source == source, join_failures.c.at > now - self.limits.join_window_seconds
            )
        ).one()
        return int(count), float(last or 0.0), float(first or 0.0)

    def _check_guessing(self, conn: Connection, source: str, now: float) -> None:
        """A right code from ``source`` waits only once so many wrong codes came from there that it is guessing:
        until the earliest of them leaves the window."""
        count, _, first = self._failures(conn, source, now)
        if count >= self.limits.max_join_failures:
            wait = first + self.limits.join_window_seconds - now
            raise InputError("room.join_wait", seconds=int(max(wait, 0.0)) + 1)

    def _join_failed(self, source: str) -> None:
        """A wrong code from ``source``, counted (every one, so that a place guessing while it is told to wait
        still reaches ``max_join_failures``; none beyond it, so the records stay bounded); ``room.join_wait`` when
        the wrong codes before it earned a wait, else the caller's own error stands."""
        now = self.db.clock()
        with self.db.write() as conn:
            count, last, first = self._failures(conn, source, now)
            if count >= self.limits.max_join_failures:
                wait = first + self.limits.join_window_seconds - now
            else:
                conn.execute(join_failures.insert().values(source=source, at=now))
                wait = rules.join_wait(count, now - last, self.limits) if count else 0.0
        if wait > 0:
            raise InputError("room.join_wait", seconds=int(wait) + 1)

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
