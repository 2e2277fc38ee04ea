"""Where a live classroom is kept: rooms, students, activities, answers, rate limits, wrong join codes and
short links, through SQLAlchemy 2 Core with one code path for two databases.

- An embedded SQLite file by default (``classroom.sqlite3`` in ``NDCG_LAB_DATA_DIR``), in WAL mode with a busy
  timeout; write transactions start with ``BEGIN IMMEDIATE`` so a read-then-write cannot be overtaken.
- PostgreSQL when ``NDCG_LAB_DATABASE_URL`` is set (``postgresql+psycopg://user@host/db``); a conditional
  ``UPDATE`` and ``SELECT ... FOR UPDATE`` take the row locks that ``BEGIN IMMEDIATE`` gives SQLite.

Nothing a second app process would need is held in this one: rate limits, the slowing of wrong join codes and
every room's state live in the database. The schema is created on first use and carries a version (``meta``).
Every bad input is an ``InputError``.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ..errors import InputError, shown
from . import rules
from .activities import (
    Activity,
    ActivityOutcome,
    Answer,
    Member,
    RoomResults,
    Taken,
    from_payload,
    outcome,
    room_results,
)
from .rules import Limits

SCHEMA_VERSION = 1
PHASES = ("open", "locked", "revealed")
SHORT_LINK_PAGES = ("playground", "learn", "practice")
MAX_LINK_PARAMS = 25_000  # characters of a short link's saved parameters
ENV_URL = "NDCG_LAB_DATABASE_URL"
ENV_DATA_DIR = "NDCG_LAB_DATA_DIR"
SQLITE_FILE = "classroom.sqlite3"
BUSY_TIMEOUT_SECONDS = 15

metadata = sa.MetaData()

meta = sa.Table(
    "meta",
    metadata,
    sa.Column("name", sa.String(40), primary_key=True),
    sa.Column("value", sa.Integer, nullable=False),
)
rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("code", sa.String(6), primary_key=True),
    sa.Column("key_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False, index=True),
    sa.Column("ended_at", sa.Float),
    sa.Column("show_names", sa.Boolean, nullable=False, default=False),
    sa.Column("revision", sa.Integer, nullable=False, default=0),
    sa.Column("current_activity", sa.Integer),
    sa.Column("student_count", sa.Integer, nullable=False, default=0),
    sa.Column("activity_count", sa.Integer, nullable=False, default=0),
)
students = sa.Table(
    "students",
    metadata,
    sa.Column("room", sa.String(6), sa.ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True),
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("nickname", sa.String(rules.MAX_NICKNAME)),
    sa.Column("joined_at", sa.Float, nullable=False),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("tokens_at", sa.Float, nullable=False),
    sa.UniqueConstraint("room", "number"),
)
activities = sa.Table(
    "activities",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("room", sa.String(6), sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("phase", sa.String(10), nullable=False),
    sa.Column("opened_at", sa.Float, nullable=False),
    sa.UniqueConstraint("room", "number"),
)
answers = sa.Table(
    "answers",
    metadata,
    sa.Column("activity_id", sa.Integer, sa.ForeignKey("activities.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("student_id", sa.String(64), primary_key=True),
    sa.Column("part", sa.Integer, primary_key=True),
    sa.Column("room", sa.String(6), nullable=False),
    sa.Column("value", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.ForeignKeyConstraint(["room", "student_id"], ["students.room", "students.id"], ondelete="CASCADE"),
)
join_failures = sa.Table(
    "join_failures",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("source", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_join_failures_source_at", "source", "at"),
)
short_links = sa.Table(
    "short_links",
    metadata,
    sa.Column("code", sa.String(6), primary_key=True),
    sa.Column("digest", sa.String(64), nullable=False, unique=True),
    sa.Column("page", sa.String(16), nullable=False),
    sa.Column("params", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("used_at", sa.Float, nullable=False, index=True),
)


@dataclass(frozen=True)
class ActivityRow:
    """An activity as stored: its id, its number in the room (1, 2, ...), kind, payload and phase, and its round:
    1 plus the number of earlier activities of the room with the same kind and payload (run again, or opened
    again with the same choices). Rounds are worked out, not stored, so older databases need no new column."""

    id: int
    number: int
    kind: str
    payload: dict[str, Any]
    phase: str
    opened_at: float
    round: int = 1

    def activity(self) -> Activity:
        return from_payload(self.kind, self.payload)


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


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """``NDCG_LAB_DATABASE_URL`` if set, else the SQLite file in ``NDCG_LAB_DATA_DIR`` (``data/`` by default)."""
    environ = os.environ if environ is None else environ
    url = environ.get(ENV_URL, "").strip()
    if url:
        return url
    folder = Path(environ.get(ENV_DATA_DIR) or Path(__file__).resolve().parents[2] / "data")
    return f"sqlite:///{folder / SQLITE_FILE}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout, foreign keys, and ``BEGIN IMMEDIATE`` for writes."""
    if not url.startswith("sqlite"):
        return sa.create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)
    path = sa.engine.make_url(url).database
    if not path or path == ":memory:":
        # One database per connection in memory: every thread shares the one connection.
        engine = sa.create_engine(
            url,
            connect_args={"timeout": BUSY_TIMEOUT_SECONDS, "check_same_thread": False},
            poolclass=sa.pool.StaticPool,
        )
    else:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS}, pool_size=10, max_overflow=20)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # pysqlite's own BEGIN comes too late (before the first write); transactions are begun below instead.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_SECONDS * 1000}")
        cursor.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable across an app crash or restart
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("ndcg_write") else "BEGIN")

    return engine


class Store:
    """Every read and write of the live classroom. ``clock`` gives the time (seconds since the epoch)."""

    def __init__(
        self,
        url: str | None = None,
        *,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.time,
        engine: Engine | None = None,
    ) -> None:
        self.engine = engine or make_engine(url or database_url())
        self.limits = limits or Limits()
        self.clock = clock
        self._writer = self.engine.execution_options(ndcg_write=True)
        self.create_schema()

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # --- plumbing ----------------------------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self._writer.begin() as conn:
            yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    def _insert(self, table: sa.Table) -> Any:
        """An INSERT with ``on_conflict_do_update``/``do_nothing``: the one place the two dialects differ."""
        from sqlalchemy.dialects import postgresql, sqlite

        insert: Any = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        return insert(table)

    def create_schema(self) -> None:
        """Create the tables if missing and record the schema version; a newer version is refused."""
        metadata.create_all(self.engine, checkfirst=True)
        with self._write() as conn:
            stored = conn.execute(sa.select(meta.c.value).where(meta.c.name == "schema_version")).scalar()
            if stored is None:
                conn.execute(
                    self._insert(meta).values(name="schema_version", value=SCHEMA_VERSION).on_conflict_do_nothing()
                )
                conn.execute(self._insert(meta).values(name="room_lock", value=0).on_conflict_do_nothing())
            elif stored > SCHEMA_VERSION:
                raise InputError("room.schema", value=shown(stored), version=SCHEMA_VERSION)

    def schema_version(self) -> int:
        with self._read() as conn:
            return int(conn.execute(sa.select(meta.c.value).where(meta.c.name == "schema_version")).scalar_one())

    # --- rooms ---------------------------------------------------------------------------------------

    def create_room(self) -> tuple[Room, str]:
        """A new room and its teacher's key (the key is returned once; only its hash is kept)."""
        now = self.clock()
        self.purge()
        key = rules.new_key()
        for _ in range(20):
            code = rules.new_code()
            try:
                with self._write() as conn:
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
                    conn.execute(
                        rooms.insert().values(
                            code=code,
                            key_hash=rules.key_hash(key),
                            created_at=now,
                            expires_at=now + self.limits.room_hours * 3600,
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
            return self.room(code), key
        raise RuntimeError("could not draw a free room code")  # 887 million codes: not reached in practice

    def room(self, code: str) -> Room:
        """The room ``code`` (read as typed); an ``InputError`` if there is none or it has expired."""
        code = rules.read_code(code)
        with self._read() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code)).mappings().first()
            if row is None or row["expires_at"] <= self.clock():
                raise InputError("room.unknown", code=code)
            current = None
            if row["current_activity"] is not None:
                current = self._activity(conn, row["current_activity"])
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

    def revision(self, code: str) -> int | None:
        """The room's revision (it changes with every teacher action), or ``None`` if it is gone: a cheap poll."""
        with self._read() as conn:
            row = conn.execute(sa.select(rooms.c.revision, rooms.c.expires_at).where(rooms.c.code == code)).first()
        if row is None or row.expires_at <= self.clock():
            return None
        return int(row.revision)

    def _activity(self, conn: Connection, activity_id: int) -> ActivityRow:
        row = conn.execute(sa.select(activities).where(activities.c.id == activity_id)).mappings().one()
        earlier = conn.execute(
            sa.select(sa.func.count())
            .select_from(activities)
            .where(
                activities.c.room == row["room"],
                activities.c.number < row["number"],
                activities.c.kind == row["kind"],
                activities.c.payload == row["payload"],
            )
        ).scalar_one()
        return _activity_row(row, int(earlier) + 1)

    def activity_list(self, code: str) -> list[ActivityRow]:
        """Every activity of a room in order, each with its round."""
        with self._read() as conn:
            rows = (
                conn.execute(sa.select(activities).where(activities.c.room == code).order_by(activities.c.number))
                .mappings()
                .all()
            )
        seen: dict[tuple[str, str], int] = {}
        listed = []
        for row in rows:
            same = (row["kind"], row["payload"])
            seen[same] = seen.get(same, 0) + 1
            listed.append(_activity_row(row, seen[same]))
        return listed

    def is_teacher(self, code: str, key: Any) -> bool:
        """Whether ``key`` controls the room (a student link, no key or a forged key: ``False``)."""
        with self._read() as conn:
            stored = conn.execute(sa.select(rooms.c.key_hash).where(rooms.c.code == code)).scalar()
        return stored is not None and rules.key_matches(key, stored)

    @contextmanager
    def _as_teacher(self, code: str, key: Any) -> Iterator[tuple[Connection, Any]]:
        """A write transaction on a room whose key was checked (a forged key is an ``InputError``)."""
        code = rules.read_code(code)
        with self._write() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code).with_for_update()).mappings().first()
            if row is None or row["expires_at"] <= self.clock():
                raise InputError("room.unknown", code=code)
            if not rules.key_matches(key, row["key_hash"]):
                raise InputError("room.bad_key")
            if row["ended_at"] is not None:
                raise InputError("room.ended")
            yield conn, row

    def _touch(self, conn: Connection, code: str, **values: Any) -> None:
        conn.execute(sa.update(rooms).where(rooms.c.code == code).values(revision=rooms.c.revision + 1, **values))

    def open_activity(self, code: str, key: Any, activity: Activity) -> ActivityRow:
        """Open ``activity`` as the room's next one (the previous one closes)."""
        with self._as_teacher(code, key) as (conn, row):
            return self._open(conn, row, activity.kind, json.dumps(activity.payload()))

    def run_again(self, code: str, key: Any) -> ActivityRow:
        """Open the current activity again as the room's next one, a new round with the same kind and payload:
        the earlier round keeps its answers and its reveal."""
        with self._as_teacher(code, key) as (conn, row):
            if row["current_activity"] is None:
                raise InputError("room.no_activity")
            current = conn.execute(
                sa.select(activities.c.kind, activities.c.payload).where(activities.c.id == row["current_activity"])
            ).one()
            return self._open(conn, row, current.kind, current.payload)

    def _open(self, conn: Connection, row: Any, kind: str, payload: str) -> ActivityRow:
        number = row["activity_count"] + 1
        result = conn.execute(
            activities.insert().values(
                room=row["code"], number=number, kind=kind, payload=payload, phase="open", opened_at=self.clock()
            )
        )
        activity_id = int(result.inserted_primary_key[0])  # type: ignore[index]
        self._touch(conn, row["code"], current_activity=activity_id, activity_count=number)
        return self._activity(conn, activity_id)

    def set_phase(self, code: str, key: Any, phase: str) -> None:
        """Lock the current activity's answers (``locked``), reveal it (``revealed``), or take answers again
        (``open``) before the reveal. A reveal is final: the activity can then only be run again as a new round."""
        if phase not in PHASES:
            raise InputError("room.phase", value=shown(phase), choices=", ".join(PHASES))
        with self._as_teacher(code, key) as (conn, row):
            if row["current_activity"] is None:
                raise InputError("room.no_activity")
            now = conn.execute(
                sa.select(activities.c.phase).where(activities.c.id == row["current_activity"]).with_for_update()
            ).scalar_one()
            if now == "revealed" and phase != "revealed":
                raise InputError("room.revealed_final")
            conn.execute(sa.update(activities).where(activities.c.id == row["current_activity"]).values(phase=phase))
            self._touch(conn, row["code"])

    def show_names(self, code: str, key: Any, show: bool) -> None:
        with self._as_teacher(code, key) as (conn, row):
            self._touch(conn, row["code"], show_names=bool(show))

    def end_room(self, code: str, key: Any) -> None:
        """End the room: no more joining or answering; its results stay until it expires."""
        with self._as_teacher(code, key) as (conn, row):
            self._touch(conn, row["code"], ended_at=self.clock())

    def purge(self) -> int:
        """Delete every expired room with its students, activities and answers, old wrong-code records and
        short links unused for a year; the number of rooms deleted."""
        now = self.clock()
        with self._write() as conn:
            expired = sa.select(rooms.c.code).where(rooms.c.expires_at <= now)
            conn.execute(sa.delete(answers).where(answers.c.room.in_(expired)))
            conn.execute(sa.delete(activities).where(activities.c.room.in_(expired)))
            conn.execute(sa.delete(students).where(students.c.room.in_(expired)))
            count = conn.execute(sa.delete(rooms).where(rooms.c.expires_at <= now)).rowcount
            conn.execute(sa.delete(join_failures).where(join_failures.c.at < now - self.limits.join_window_seconds))
            conn.execute(
                sa.delete(short_links).where(short_links.c.used_at < now - self.limits.short_link_days * 86400)
            )
        return count

    # --- students --------------------------------------------------------------------------------------

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
        with self._write() as conn:
            student = self._join(conn, code, student_id, name)
        if student is None:
            self._join_failed(source)
            raise InputError("room.unknown", code=code)
        return student

    def _join(self, conn: Connection, code: str, student_id: str, name: str | None) -> Student | None:
        """The student joined to an existing room (``None`` if there is no such open room)."""
        now = self.clock()
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
        return Student(code, student_id, number, name)

    def _check_join_wait(self, source: str) -> None:
        now = self.clock()
        with self._read() as conn:
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
        with self._write() as conn:
            conn.execute(join_failures.insert().values(source=source, at=self.clock()))

    def student(self, code: str, student_id: str) -> Student | None:
        with self._read() as conn:
            row = (
                conn.execute(sa.select(students).where(students.c.room == code, students.c.id == student_id))
                .mappings()
                .first()
            )
        return None if row is None else Student(row["room"], row["id"], row["number"], row["nickname"])

    def roster(self, code: str) -> list[Student]:
        with self._read() as conn:
            rows = (
                conn.execute(sa.select(students).where(students.c.room == code).order_by(students.c.number))
                .mappings()
                .all()
            )
        return [Student(r["room"], r["id"], r["number"], r["nickname"]) for r in rows]

    # --- answers ---------------------------------------------------------------------------------------

    def answer(self, code: str, student_id: str, activity_id: int, values: Sequence[tuple[int, Any]]) -> None:
        """Store a student's answer(s) to the current activity: one per part, replacing any earlier one.

        ``values`` are (part, raw answer) pairs, each checked by the activity (an ``InputError`` in the student's
        language on the page). Refused when the room has ended, the activity is not the current one or is locked,
        the student has not joined, or answers come faster than the rate limit.
        """
        now = self.clock()
        with self._write() as conn:
            room = conn.execute(
                sa.select(rooms.c.ended_at, rooms.c.expires_at, rooms.c.current_activity).where(rooms.c.code == code)
            ).first()
            if room is None or room.expires_at <= now:
                raise InputError("room.unknown", code=code)
            if room.ended_at is not None:
                raise InputError("room.ended")
            if room.current_activity != activity_id:
                raise InputError("room.not_current")
            row = (
                conn.execute(sa.select(activities).where(activities.c.id == activity_id).with_for_update(read=True))
                .mappings()
                .one()
            )
            if row["phase"] != "open":
                raise InputError("room.locked")
            activity = from_payload(row["kind"], json.loads(row["payload"]))
            checked = [(part, activity.check(value, part)) for part, value in values]
            self._spend_token(conn, code, student_id, now)
            for part, value in checked:
                stmt = self._insert(answers).values(
                    activity_id=activity_id,
                    student_id=student_id,
                    part=part,
                    room=code,
                    value=json.dumps(value),
                    created_at=now,
                    updated_at=now,
                )
                conn.execute(
                    stmt.on_conflict_do_update(
                        index_elements=["activity_id", "student_id", "part"],
                        set_={"value": stmt.excluded.value, "updated_at": stmt.excluded.updated_at},
                    )
                )

    def _spend_token(self, conn: Connection, code: str, student_id: str, now: float) -> None:
        """Take one answer from the student's bucket (refilled at the limit's rate), in one conditional update."""
        limits = self.limits
        refilled = students.c.tokens + (now - students.c.tokens_at) * limits.answers_per_second
        capped = sa.case((refilled > limits.answer_burst, float(limits.answer_burst)), else_=refilled)
        spent = conn.execute(
            sa.update(students)
            .where(students.c.room == code, students.c.id == student_id, capped >= 1)
            .values(tokens=capped - 1, tokens_at=now)
        ).rowcount
        if spent:
            return
        known = conn.execute(
            sa.select(students.c.id).where(students.c.room == code, students.c.id == student_id)
        ).first()
        raise InputError("room.too_fast" if known else "room.not_joined")

    def answers(self, activity_id: int) -> list[Answer]:
        """Every answer to an activity, with each student's number and nickname."""
        with self._read() as conn:
            rows = conn.execute(
                sa.select(students.c.number, students.c.nickname, answers.c.part, answers.c.value, answers.c.updated_at)
                .join(students, sa.and_(students.c.room == answers.c.room, students.c.id == answers.c.student_id))
                .where(answers.c.activity_id == activity_id)
                .order_by(students.c.number, answers.c.part)
            ).all()
        return [Answer(r.number, r.nickname, r.part, json.loads(r.value), r.updated_at) for r in rows]

    def my_answers(self, activity_id: int, student_id: str) -> dict[int, Any]:
        """One student's answers to an activity, by part."""
        with self._read() as conn:
            rows = conn.execute(
                sa.select(answers.c.part, answers.c.value).where(
                    answers.c.activity_id == activity_id, answers.c.student_id == student_id
                )
            ).all()
        return {r.part: json.loads(r.value) for r in rows}

    def results(self, code: str) -> RoomResults:
        """Every activity of a room marked, one row per student present and question (an unanswered one too),
        and each student's totals. A student counts as present for an activity if they joined before the next
        activity opened."""
        listed = self.activity_list(code)
        with self._read() as conn:
            joined = conn.execute(
                sa.select(students.c.number, students.c.nickname, students.c.joined_at)
                .where(students.c.room == code)
                .order_by(students.c.number)
            ).all()
        taken = []
        for i, row in enumerate(listed):
            closed_at = listed[i + 1].opened_at if i + 1 < len(listed) else float("inf")
            present = tuple(Member(s.number, s.nickname) for s in joined if s.joined_at <= closed_at)
            taken.append(Taken(row.number, row.round, row.activity(), tuple(self.answers(row.id)), present))
        return room_results(taken)

    def class_summary(self, code: str) -> list[ActivityOutcome]:
        """Per activity (number, kind, round): the students present, how many answered, and per question how many
        answered and were right; for the end-of-class summary."""
        return [outcome(result) for result in self.results(code).activities]

    # --- short links -------------------------------------------------------------------------------------

    def save_link(self, page: str, params: Mapping[str, str]) -> str:
        """A short code for a page's link parameters; the same parameters always get the same code."""
        if page not in SHORT_LINK_PAGES:
            raise InputError("go.page", value=shown(page), choices=", ".join(SHORT_LINK_PAGES))
        text = json.dumps(dict(sorted(params.items())), ensure_ascii=False, separators=(",", ":"))
        if len(text) > MAX_LINK_PARAMS:
            raise InputError("link.too_long", count=len(text), limit=MAX_LINK_PARAMS)
        digest = hashlib.sha256(f"{page}\n{text}".encode()).hexdigest()
        now = self.clock()
        for _ in range(20):
            with self._write() as conn:
                found = conn.execute(sa.select(short_links.c.code).where(short_links.c.digest == digest)).scalar()
                if found is not None:
                    conn.execute(sa.update(short_links).where(short_links.c.code == found).values(used_at=now))
                    return str(found)
            code = rules.new_code()
            try:
                with self._write() as conn:
                    conn.execute(
                        short_links.insert().values(
                            code=code, digest=digest, page=page, params=text, created_at=now, used_at=now
                        )
                    )
                return code
            except IntegrityError:
                continue  # another process saved the same link, or the code is taken: look again
        raise RuntimeError("could not draw a free short-link code")

    def load_link(self, code: Any) -> tuple[str, dict[str, str]]:
        """The page and link parameters a short code stands for; an ``InputError`` if there is none."""
        code = rules.read_code(code, "go.code")
        with self._write() as conn:
            row = conn.execute(
                sa.select(short_links.c.page, short_links.c.params).where(short_links.c.code == code)
            ).first()
            if row is None:
                raise InputError("go.unknown", code=code)
            conn.execute(sa.update(short_links).where(short_links.c.code == code).values(used_at=self.clock()))
        return row.page, json.loads(row.params)


def _activity_row(row: sa.RowMapping, round_: int) -> ActivityRow:
    """An activity as read from its table row, with its round worked out by the caller."""
    return ActivityRow(
        row["id"], row["number"], row["kind"], json.loads(row["payload"]), row["phase"], row["opened_at"], round_
    )
