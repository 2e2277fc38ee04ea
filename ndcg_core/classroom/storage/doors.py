"""A room's door, which its teacher keeps: the room's size, joining closed or open, and removing students who came
in a burst (the last minutes' joins, or everyone who never answered), so that a script's joins cannot keep a class
out. Each is a teacher's action: the key is checked and the room's revision moves on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ...errors import InputError, shown
from ..rules import Limits
from .engine import Database, answers, resilient, room_doors, rooms, students
from .rooms import Rooms


@dataclass(frozen=True)
class Door:
    """A room's door: how many students it takes (its teacher's size, else the server's most) and whether joining
    is closed."""

    seats: int
    closed: bool


class Doors:
    """Every read and write of a room's door."""

    def __init__(self, db: Database, limits: Limits, rooms: Rooms) -> None:
        self.db = db
        self.limits = limits
        self.rooms = rooms

    @resilient
    def get(self, code: str) -> Door:
        """Room ``code``'s door (the server's most and open for a room whose teacher set nothing)."""
        with self.db.read() as conn:
            row = conn.execute(
                sa.select(room_doors.c.seats, room_doors.c.closed).where(room_doors.c.room == code)
            ).first()
        if row is None:
            return Door(self.limits.max_students, False)
        seats = self.limits.max_students if row.seats is None else min(row.seats, self.limits.max_students)
        return Door(seats, bool(row.closed))

    def _set(self, code: str, key: Any, **values: Any) -> None:
        with self.rooms.as_teacher(code, key) as (conn, row):
            insert = self.db.insert(room_doors).values(room=row["code"], **{"seats": None, "closed": False, **values})
            conn.execute(insert.on_conflict_do_update(index_elements=["room"], set_=values))
            self.rooms.touch(conn, row["code"])

    @resilient
    def set_seats(self, code: str, key: Any, seats: Any) -> None:
        """Take at most ``seats`` students (a whole number from 1 to the server's most); students already in
        stay."""
        if type(seats) is not int or not 1 <= seats <= self.limits.max_students:
            raise InputError("room.seats", value=shown(seats), limit=self.limits.max_students)
        self._set(code, key, seats=seats)

    @resilient
    def set_closed(self, code: str, key: Any, closed: bool) -> None:
        """Close joining (``closed``), or open it again; students already in stay, and may come back."""
        self._set(code, key, closed=bool(closed))

    @resilient
    def remove(self, code: str, key: Any, *, joined_within: float | None = None, never_answered: bool = False) -> int:
        """Remove the students who joined within the last ``joined_within`` seconds, or who never answered
        (``never_answered``), or both at once (those who are either); their answers go with them and their seats
        are free again. The number removed."""
        if joined_within is None and not never_answered:
            return 0
        now = self.db.clock()
        with self.rooms.as_teacher(code, key) as (conn, row):
            room = row["code"]
            answered = sa.select(answers.c.student_id).where(answers.c.room == room).distinct()
            which = []
            if joined_within is not None:
                which.append(students.c.joined_at >= now - joined_within)
            if never_answered:
                which.append(students.c.id.not_in(answered))
            ids = [
                r.id
                for r in conn.execute(sa.select(students.c.id).where(students.c.room == room, sa.or_(*which))).all()
            ]
            if not ids:
                return 0
            conn.execute(sa.delete(answers).where(answers.c.room == room, answers.c.student_id.in_(ids)))
            conn.execute(sa.delete(students).where(students.c.room == room, students.c.id.in_(ids)))
            conn.execute(
                sa.update(rooms).where(rooms.c.code == room).values(student_count=rooms.c.student_count - len(ids))
            )
            self.rooms.touch(conn, room)
        return len(ids)
