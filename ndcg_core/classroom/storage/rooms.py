"""Rooms: creating one with its teacher's key, reading it (and a cheap revision to poll), the teacher's actions
(open an activity, run it again, lock or reveal, show names, end), the room's activities with their rounds, and
purging expired rooms. Every write is idempotent: an activity opened ``after`` a revision is not opened twice,
ending an ended room is nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ...errors import InputError, shown
from .. import clients, rules
from ..kinds import Activity
from ..notices import Notice
from ..numbering import Opened, numbered
from ..rules import Limits
from .engine import (
    Database,
    activities,
    answers,
    join_failures,
    join_tokens,
    lesson_run_steps,
    lesson_runs,
    lesson_steps,
    meta,
    resilient,
    room_doors,
    room_starts,
    rooms,
    students,
)
from .rows import PHASES, ActivityRow, Room, StepSettings, activity_row


class Rooms:
    """Every read and write of a room itself and its activities."""

    def __init__(self, db: Database, limits: Limits, passphrase: str | None = None) -> None:
        self.db = db
        self.limits = limits
        self.passphrase = passphrase  # what a lecturer gives to start a room (``None``: nothing asked)

    @resilient
    def create(self, *, source: str = "", passphrase: Any = None) -> tuple[Room, str]:
        """A new room and its teacher's key (the key is returned once; only its hash is kept), started by the client
        at ``source`` (its address), with the lecturer's ``passphrase`` when the server asks for one. Refused beyond
        the rooms a client may start in an hour, and beyond the rooms the server holds open; a room nobody joins
        expires soon (``Limits.empty_room_minutes``)."""
        if not clients.passphrase_matches(passphrase, self.passphrase):
            raise InputError("room.passphrase")
        now = self.db.clock()
        self.purge()
        source = clients.source_key(source)
        key = rules.new_key()
        for _ in range(20):
            code = rules.new_code()
            try:
                with self.db.write() as conn:
                    # One row lock serialises room creation across processes (PostgreSQL); SQLite's
                    # BEGIN IMMEDIATE already does.
                    conn.execute(sa.update(meta).where(meta.c.name == "room_lock").values(value=meta.c.value + 1))
                    open_rooms = conn.execute(
                        sa.select(sa.func.count())
                        .select_from(rooms)
                        .where(rooms.c.ended_at.is_(None), rooms.c.expires_at > now)
                    ).scalar_one()
                    if open_rooms >= self.limits.max_open_rooms:
                        raise InputError("room.too_many", limit=self.limits.max_open_rooms)
                    started = conn.execute(
                        sa.select(sa.func.count(), sa.func.min(room_starts.c.at)).where(
                            room_starts.c.source == source, room_starts.c.at > now - 3600
                        )
                    ).one()
                    if started[0] >= self.limits.rooms_per_client_hour:
                        minutes = max(1, int((started[1] + 3600 - now) // 60) + 1)
                        raise InputError("room.started_many", limit=self.limits.rooms_per_client_hour, minutes=minutes)
                    conn.execute(room_starts.insert().values(source=source, at=now))
                    conn.execute(
                        rooms.insert().values(
                            code=code,
                            key_hash=rules.key_hash(key),
                            created_at=now,
                            expires_at=rules.empty_room_expiry(now, now, self.limits),
                            ended_at=None,
                            show_names=False,
                            revision=0,
                            current_activity=None,
                            student_count=0,
                            activity_count=0,
                        )
                    )
            except IntegrityError:
                continue  # the code is taken: draw another
            return self.get(code), key
        raise RuntimeError("could not draw a free room code")  # 887 million codes: not reached in practice

    @resilient
    def get(self, code: str) -> Room:
        """The room ``code`` (read as typed); an ``InputError`` if there is none or it has expired."""
        code = rules.read_code(code)
        with self.db.read() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code)).mappings().first()
            if row is None or row["expires_at"] <= self.db.clock():
                raise InputError("room.unknown", code=code)
            current = None
            if row["current_activity"] is not None:
                current = self.activity(conn, row["current_activity"])
        return Room(
            row["code"],
            row["created_at"],
            row["expires_at"],
            row["ended_at"],
            bool(row["show_names"]),
            row["revision"],
            row["student_count"],
            row["activity_count"],
            current,
        )

    @resilient
    def revision(self, code: str) -> int | None:
        """The room's revision (it changes with every teacher action), or ``None`` if it is gone: a cheap poll."""
        with self.db.read() as conn:
            row = conn.execute(sa.select(rooms.c.revision, rooms.c.expires_at).where(rooms.c.code == code)).first()
        if row is None or row.expires_at <= self.db.clock():
            return None
        return int(row.revision)

    def activity(self, conn: Connection, activity_id: int) -> ActivityRow:
        """The activity ``activity_id`` with its number and round, inside a transaction."""
        room = conn.execute(sa.select(activities.c.room).where(activities.c.id == activity_id)).scalar_one()
        return next(a for a in self.listed(conn, room, only=activity_id) if a.id == activity_id)

    def listed(self, conn: Connection, code: str, only: int | None = None) -> list[ActivityRow]:
        """Every activity of a room in order, each with its number and round (``numbering.numbered``), inside a
        transaction (``only``: just that activity, numbered among them all)."""
        rows = (
            conn.execute(
                sa.select(activities, lesson_steps.c.step)
                .select_from(activities.outerjoin(lesson_steps, lesson_steps.c.activity_id == activities.c.id))
                .where(activities.c.room == code)
                .order_by(activities.c.number)
            )
            .mappings()
            .all()
        )
        steps = conn.execute(
            sa.select(sa.func.count()).select_from(lesson_run_steps).where(lesson_run_steps.c.room == code)
        ).scalar_one()
        opened = [Opened(r["id"], r["kind"], r["payload"], r["step"], StepSettings.from_row(r)) for r in rows]
        numbers = numbered(opened, int(steps))
        return [activity_row(r, numbers[r["id"]]) for r in rows if only is None or r["id"] == only]

    @resilient
    def activity_list(self, code: str) -> list[ActivityRow]:
        """Every activity of a room in order, each with its number and round."""
        with self.db.read() as conn:
            return self.listed(conn, code)

    @resilient
    def earlier_round(self, code: str, current: ActivityRow) -> ActivityRow | None:
        """The round before ``current``: the room's activity with its number and the round before (``None`` for a
        first round)."""
        if current.round <= 1:
            return None
        earlier = [a for a in self.activity_list(code) if a.number == current.number and a.round == current.round - 1]
        return earlier[-1] if earlier else None

    @resilient
    def is_teacher(self, code: str, key: Any) -> bool:
        """Whether ``key`` controls the room (a student link, no key or a forged key: ``False``)."""
        with self.db.read() as conn:
            stored = conn.execute(sa.select(rooms.c.key_hash).where(rooms.c.code == code)).scalar()
        return stored is not None and rules.key_matches(key, stored)

    @contextmanager
    def as_teacher(self, code: str, key: Any, *, ended: bool = False) -> Iterator[tuple[Connection, Any]]:
        """A write transaction on a room whose key was checked (a forged key is an ``InputError``), not ended
        unless ``ended``; the room's row, locked, with it."""
        code = rules.read_code(code)
        with self.db.write() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code).with_for_update()).mappings().first()
            if row is None or row["expires_at"] <= self.db.clock():
                raise InputError("room.unknown", code=code)
            if not rules.key_matches(key, row["key_hash"]):
                raise InputError("room.bad_key")
            if row["ended_at"] is not None and not ended:
                raise InputError("room.ended")
            if row["student_count"] == 0:
                # Nobody has joined yet: the teacher's action keeps the empty room open a while longer.
                expires = rules.empty_room_expiry(row["created_at"], self.db.clock(), self.limits)
                if expires > row["expires_at"]:
                    conn.execute(sa.update(rooms).where(rooms.c.code == code).values(expires_at=expires))
            yield conn, row

    def touch(self, conn: Connection, code: str, **values: Any) -> None:
        """The room's revision moved on by one (a teacher's action), with ``values`` set; every process is told
        (``'<code>:<revision>'``, at commit)."""
        revision = conn.execute(
            sa.update(rooms)
            .where(rooms.c.code == code)
            .values(revision=rooms.c.revision + 1, **values)
            .returning(rooms.c.revision)
        ).scalar_one()
        self.db.tell(conn, Notice(code, revision=int(revision)))

    @resilient
    def open_activity(self, code: str, key: Any, activity: Activity, *, after: int | None = None) -> ActivityRow:
        """Open ``activity`` as the room's next one (the previous one takes no more answers: only the current one
        does; its phase is left as it was).

        ``after`` is the room's revision the teacher's page acted on: if the room is one revision past it and its
        current activity is this one, that opening already happened (a retry after a commit whose answer was lost,
        or a second click) and the activity is returned, not opened again.
        """
        with self.as_teacher(code, key) as (conn, row):
            return self.open(conn, row, activity.kind, json.dumps(activity.payload()), StepSettings(), after)

    @resilient
    def run_again(self, code: str, key: Any, *, after: int | None = None) -> ActivityRow:
        """Open the current activity again as the room's next one, a new round with the same kind, payload and
        settings of its lesson's step: the earlier round keeps its answers and its reveal. ``after`` as for
        ``open_activity``: the round opened one revision past it is not opened twice."""
        with self.as_teacher(code, key) as (conn, row):
            if row["current_activity"] is None:
                raise InputError("room.no_activity")
            current = (
                conn.execute(sa.select(activities).where(activities.c.id == row["current_activity"])).mappings().one()
            )
            return self.open(conn, row, current["kind"], current["payload"], StepSettings.from_row(current), after)

    def open(
        self, conn: Connection, row: Any, kind: str, payload: str, settings: StepSettings, after: int | None
    ) -> ActivityRow:
        """Open an activity of ``kind`` with ``payload`` (JSON text) and its lesson step's ``settings`` in the room of
        ``row``, inside ``as_teacher``."""
        if after is not None and row["revision"] == after + 1 and row["current_activity"] is not None:
            current = (
                conn.execute(sa.select(activities).where(activities.c.id == row["current_activity"])).mappings().one()
            )
            if (current["kind"], current["payload"], StepSettings.from_row(current), current["phase"]) == (
                kind,
                payload,
                settings,
                "open",
            ):  # opened by this very request: its commit happened
                return self.activity(conn, row["current_activity"])
        number = row["activity_count"] + 1
        result = conn.execute(
            activities.insert().values(
                room=row["code"],
                number=number,
                kind=kind,
                payload=payload,
                phase="open",
                opened_at=self.db.clock(),
                **settings.columns(),
            )
        )
        activity_id = int(result.inserted_primary_key[0])  # type: ignore[index]
        self.touch(conn, row["code"], current_activity=activity_id, activity_count=number)
        return self.activity(conn, activity_id)

    @resilient
    def set_phase(self, code: str, key: Any, phase: str) -> None:
        """Lock the current activity's answers (``locked``), reveal it (``revealed``), or take answers again
        (``open``) before the reveal. A reveal is final: the activity can then only be run again as a new round."""
        if phase not in PHASES:
            raise InputError("room.phase", value=shown(phase), choices=", ".join(PHASES))
        with self.as_teacher(code, key) as (conn, row):
            if row["current_activity"] is None:
                raise InputError("room.no_activity")
            now = conn.execute(
                sa.select(activities.c.phase).where(activities.c.id == row["current_activity"]).with_for_update()
            ).scalar_one()
            if now == "revealed" and phase != "revealed":
                raise InputError("room.revealed_final")
            conn.execute(sa.update(activities).where(activities.c.id == row["current_activity"]).values(phase=phase))
            self.touch(conn, row["code"])

    @resilient
    def show_names(self, code: str, key: Any, show: bool) -> None:
        """Show or hide the room's nicknames; an ended room too (its leaderboard shows them)."""
        with self.as_teacher(code, key, ended=True) as (conn, row):
            self.touch(conn, row["code"], show_names=bool(show))

    @resilient
    def end(self, code: str, key: Any) -> None:
        """End the room: no more joining or answering; its results stay until it expires. Ending it again is
        nothing (a retry whose first try did end it)."""
        with self.as_teacher(code, key, ended=True) as (conn, row):
            if row["ended_at"] is None:
                self.touch(conn, row["code"], ended_at=self.db.clock())

    @resilient
    def purge(self) -> int:
        """Delete every expired room with its students, activities, answers and lesson, and old wrong-code
        records (saved lessons stay); the number of rooms deleted."""
        now = self.db.clock()
        with self.db.write() as conn:
            expired = sa.select(rooms.c.code).where(rooms.c.expires_at <= now)
            for table in (lesson_steps, lesson_run_steps, lesson_runs, answers, activities, students, room_doors):
                conn.execute(sa.delete(table).where(table.c.room.in_(expired)))
            count = conn.execute(sa.delete(rooms).where(rooms.c.expires_at <= now)).rowcount
            conn.execute(sa.delete(join_failures).where(join_failures.c.at < now - self.limits.join_window_seconds))
            conn.execute(sa.delete(room_starts).where(room_starts.c.at <= now - 3600))
            # A client's join tokens are full again once this long has passed: its row says nothing more.
            full = self.limits.join_burst / self.limits.joins_per_second
            conn.execute(sa.delete(join_tokens).where(join_tokens.c.at < now - full))
        return count
