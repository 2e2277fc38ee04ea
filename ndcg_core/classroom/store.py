"""Where a live classroom is kept: rooms, students, activities, answers, rate limits, wrong join codes and
short links, through SQLAlchemy 2 Core with one code path for two databases.

- An embedded SQLite file by default (``classroom.sqlite3`` in ``NDCG_LAB_DATA_DIR``), in WAL mode with a busy
  timeout; write transactions start with ``BEGIN IMMEDIATE`` so a read-then-write cannot be overtaken.
- PostgreSQL when ``NDCG_LAB_DATABASE_URL`` is set (``postgresql+psycopg://user@host/db``); a conditional
  ``UPDATE`` and ``SELECT ... FOR UPDATE`` take the row locks that ``BEGIN IMMEDIATE`` gives SQLite.

Nothing a second app process would need is held in this one: rate limits, the slowing of wrong join codes and
every room's state live in the database. The schema is created on first use and carries a version (``meta``).
Every bad input is an ``InputError``.

Faults: every public method runs through ``_resilient``, which retries a call that lost its connection or met a
database that is restarting, with exponential backoff and jitter for at most ``DatabaseSettings.retry_seconds``,
then raises ``StoreUnavailable`` (``store.unavailable``); a read-only database or a full disk is a
``StoreUnavailable`` at once (``store.read_only``, ``store.full``). A transaction that fails rolls back whole. Since
a retried write may have committed before its connection was lost, every write is idempotent: an answer equal to
the one stored is stored once (and spends no rate-limit token), joining again is the same student, an activity
opened ``after`` a revision is not opened twice, ending an ended room is nothing, short links go by their digest.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ..errors import InputError, StoreUnavailable, shown
from . import rules
from .kinds import Activity, answer_from_json, answer_to_json, from_payload
from .kinds.base import Answer
from .lessons import Lesson, Step, Wording, lesson_to_toml, read_lesson
from .results import ActivityOutcome, Member, RoomResults, Taken, outcome, room_results
from .rules import Limits

SCHEMA_VERSION = 1
STEP_KEY = "lesson"  # a lesson step's own wording and time limit, kept in its activity's payload
TIME_GRACE_SECONDS = 1.0  # an answer sent as the countdown reaches zero is still taken (network and clocks)
PHASES = ("open", "locked", "revealed")
SHORT_LINK_PAGES = ("playground", "learn", "practice")
MAX_LINK_PARAMS = 25_000  # characters of a short link's saved parameters
ENV_URL = "NDCG_LAB_DATABASE_URL"
ENV_DATA_DIR = "NDCG_LAB_DATA_DIR"
SQLITE_FILE = "classroom.sqlite3"
BUSY_TIMEOUT_SECONDS = 15

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class DatabaseSettings:
    """How this process talks to the database; each can be set by ``NDCG_LAB_DB_<NAME>`` (seconds for times).

    The pool is per process: N processes hold up to N x (``pool_size`` + ``max_overflow``) connections, which must
    stay under PostgreSQL's ``max_connections`` (100 by default, 3 of them kept for superusers): 5 + 10 lets six
    processes share a default server. The timeouts apply on PostgreSQL (SQLite has its busy timeout).
    """

    pool_size: int = 5  # connections kept open
    max_overflow: int = 10  # more opened under load, closed when returned
    pool_timeout: float = 10.0  # waiting for a free connection of the pool
    connect_timeout: int = 5  # opening a connection to the server
    statement_timeout: float = 15.0  # one statement; a class's queries take milliseconds
    lock_timeout: float = 10.0  # waiting for a row lock
    idle_in_transaction_timeout: float = 60.0  # a transaction left open by a stuck process is ended by the server
    retry_seconds: float = 8.0  # retrying a lost connection or a restarting server, in all, before giving up

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> DatabaseSettings:
        """The settings, with any ``NDCG_LAB_DB_POOL_SIZE``-style variable applied (a bad one is an ``InputError``
        naming it). Counts are whole numbers; ``max_overflow`` may be 0, every other one must be above 0."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for field in fields(cls):
            name = f"NDCG_LAB_DB_{field.name.upper()}"
            if name not in environ:
                continue
            whole = field.type in ("int", int)
            low = 0 if field.name == "max_overflow" else 1
            try:
                value = int(environ[name]) if whole else float(environ[name])
            except ValueError:
                value = None
            if whole and (value is None or value < low):
                raise InputError("store.setting", name=name, value=shown(environ[name]), low=low)
            if not whole and (value is None or not 0 < value < float("inf")):
                raise InputError("room.setting", name=name, value=shown(environ[name]))
            values[field.name] = value
        return cls(**values)


# PostgreSQL's SQLSTATEs of a connection lost or a server not (yet) serving: a retry may well succeed. Class 08 is
# every connection exception; 57P01-57P03 an administrator's or a crash's shutdown and "cannot connect now" (the
# server starting); 40001 and 40P01 a serialisation failure and a deadlock, whose transaction was rolled back.
RETRIED_STATES = ("08", "57P01", "57P02", "57P03", "40001", "40P01")
# SQLite's result codes (Python 3.11's ``sqlite_errorname``, extended codes start with these) that no retry mends.
SQLITE_OUTAGES = {
    "SQLITE_READONLY": "store.read_only",
    "SQLITE_CANTOPEN": "store.read_only",
    "SQLITE_FULL": "store.full",
}
# PostgreSQL's: disk full (53100), a read-only server (25006: a hot standby, or default_transaction_read_only),
# and timeouts, the statement's (57014) or a lock's (55P03): the database is too busy now, not gone.
POSTGRES_OUTAGES = {
    "53100": "store.full",
    "25006": "store.read_only",
    "57014": "store.unavailable",
    "55P03": "store.unavailable",
}
BACKOFF_FIRST = 0.1  # seconds before the first retry; each next one waits twice as long...
BACKOFF_MOST = 2.0  # ...up to this, less a random part (jitter, so a class's processes do not retry in step)


def fault(error: BaseException) -> tuple[bool, str | None]:
    """What a database error means: (whether retrying may help, the ``StoreUnavailable`` code to give up with).

    ``(False, None)`` is a bug or bad data (a constraint violated, a table missing): raised as it is.
    """
    if isinstance(error, sa.exc.TimeoutError):  # no free connection in the pool after pool_timeout: too busy
        return False, "store.unavailable"
    if not isinstance(error, sa.exc.DBAPIError) or isinstance(error, IntegrityError):
        return False, None
    if error.connection_invalidated:
        return True, "store.unavailable"
    orig = error.orig
    if isinstance(orig, sqlite3.Error):
        name = str(getattr(orig, "sqlite_errorname", ""))
        for prefix, code in SQLITE_OUTAGES.items():
            if name.startswith(prefix):
                return False, code
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):  # still locked after the busy timeout
            return True, "store.unavailable"
        return False, None
    state = getattr(orig, "sqlstate", None)
    if isinstance(state, str):
        if state in POSTGRES_OUTAGES:
            return False, POSTGRES_OUTAGES[state]
        return state.startswith(RETRIED_STATES), "store.unavailable" if state.startswith(RETRIED_STATES) else None
    # No SQLSTATE: the driver's own failure to reach the server (refused, reset, closed).
    if isinstance(error, (sa.exc.OperationalError, sa.exc.InterfaceError)):
        return True, "store.unavailable"
    return False, None


def _resilient(method: Callable[P, R]) -> Callable[P, R]:
    """A ``Store`` method that retries, as a whole, a call whose database was lost or restarting (backoff with jitter,
    ``retry_seconds`` in all), then raises ``StoreUnavailable``; a read-only or full database raises it at once.
    A call inside another (``create_room`` reads the room it made) runs as part of the outer one's attempt."""

    @functools.wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        store: Store = args[0]  # type: ignore[assignment]
        if getattr(store._calls, "inside", False):
            return method(*args, **kwargs)
        store._calls.inside = True
        try:
            return store._attempts(functools.partial(method, *args, **kwargs))
        finally:
            store._calls.inside = False

    return run


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
lessons = sa.Table(
    "lessons",
    metadata,
    sa.Column("code", sa.String(6), primary_key=True),
    sa.Column("digest", sa.String(64), nullable=False, unique=True),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("used_at", sa.Float, nullable=False),
)
# A room run from a lesson: the lesson as it was when the room took it, and the activity each step opened (Back
# shows that activity again, with its answers; Next opens a step's activity only the first time).
room_lessons = sa.Table(
    "room_lessons",
    metadata,
    sa.Column("room", sa.String(6), sa.ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
)
lesson_steps = sa.Table(
    "lesson_steps",
    metadata,
    sa.Column("room", sa.String(6), sa.ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True),
    sa.Column("step", sa.Integer, primary_key=True),
    sa.Column("activity_id", sa.Integer, sa.ForeignKey("activities.id", ondelete="CASCADE"), nullable=False),
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
    def closes_at(self) -> float | None:
        """When answers close by the time limit (seconds since the epoch), or ``None``."""
        return None if self.time_limit is None else self.opened_at + self.time_limit


@dataclass(frozen=True)
class LessonProgress:
    """Where a room is in its lesson: the lesson, the step shown (0-based; -1 before the first) and the number of
    steps opened so far (Next opens the next; Back shows earlier ones again)."""

    lesson: Lesson
    step: int
    opened: int

    @property
    def count(self) -> int:
        return len(self.lesson.steps)

    def shows(self, current: ActivityRow | None) -> bool:
        """Whether ``current`` (the room's current activity) is the one the lesson's step shows, or a round of it
        run again: ``False`` once the teacher opened an activity of their own, off the lesson's plan. Before the
        first step, any activity counts as before the plan (``True``)."""
        if self.step < 0:
            return True
        if current is None:
            return False
        step = self.lesson.steps[self.step]
        return current.kind == step.activity.kind and current.payload == json.loads(step_payload(step))


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


def make_engine(url: str, settings: DatabaseSettings | None = None) -> Engine:
    """An engine for ``url`` with the pool of ``settings``; a server gets its timeouts and connections checked
    before use; SQLite gets WAL, a busy timeout, foreign keys, and ``BEGIN IMMEDIATE`` for writes."""
    settings = settings or DatabaseSettings()
    pool = {
        "pool_size": settings.pool_size,
        "max_overflow": settings.max_overflow,
        "pool_timeout": settings.pool_timeout,
    }
    if not url.startswith("sqlite"):
        connect_args: dict[str, Any] = {}
        if url.startswith("postgresql"):
            options = {
                "statement_timeout": settings.statement_timeout,
                "lock_timeout": settings.lock_timeout,
                "idle_in_transaction_session_timeout": settings.idle_in_transaction_timeout,
            }
            connect_args = {
                "connect_timeout": settings.connect_timeout,
                "options": " ".join(f"-c {name}={round(seconds * 1000)}" for name, seconds in options.items()),
            }
        return sa.create_engine(url, pool_pre_ping=True, connect_args=connect_args, **pool)
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
        engine = sa.create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS}, **pool)

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
        settings: DatabaseSettings | None = None,
    ) -> None:
        self.settings = settings or DatabaseSettings()
        self.engine = engine or make_engine(url or database_url(), self.settings)
        self.limits = limits or Limits()
        self.clock = clock
        self._writer = self.engine.execution_options(ndcg_write=True)
        self._calls = threading.local()  # whether this thread is inside a call already (retries are the outer's)
        self.create_schema()

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def without_retries(self) -> Store:
        """This store, on the same engine and pool, trying each call once: for a poll that asks again anyway
        (a class's phones waiting out a restart would otherwise hold the server's threads)."""
        once = copy.copy(self)
        once.settings = replace(self.settings, retry_seconds=0.0)
        once._calls = threading.local()
        return once

    # --- plumbing ----------------------------------------------------------------------------------

    def _attempts(self, call: Callable[[], R]) -> R:
        """``call`` until it succeeds, it fails for good, or ``retry_seconds`` are spent on retryable faults."""
        start, wait = time.monotonic(), BACKOFF_FIRST
        while True:
            try:
                return call()
            except (sa.exc.DBAPIError, sa.exc.TimeoutError) as error:
                retry, code = fault(error)
                if code is None:
                    raise
                pause = wait * random.uniform(0.5, 1.0)
                if not retry or time.monotonic() - start + pause > self.settings.retry_seconds:
                    raise StoreUnavailable(code) from error
            time.sleep(pause)
            wait = min(wait * 2, BACKOFF_MOST)

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

    @_resilient
    def create_schema(self) -> None:
        """Create the tables if missing and record the schema version; a newer version is refused."""
        metadata.create_all(self.engine, checkfirst=True)
        with self._read() as conn:  # a read first: a read-only database can still show its rooms
            stored = conn.execute(sa.select(meta.c.value).where(meta.c.name == "schema_version")).scalar()
        if stored is None:
            with self._write() as conn:
                conn.execute(
                    self._insert(meta).values(name="schema_version", value=SCHEMA_VERSION).on_conflict_do_nothing()
                )
                conn.execute(self._insert(meta).values(name="room_lock", value=0).on_conflict_do_nothing())
        elif stored > SCHEMA_VERSION:
            raise InputError("room.schema", value=shown(stored), version=SCHEMA_VERSION)

    @_resilient
    def schema_version(self) -> int:
        with self._read() as conn:
            return int(conn.execute(sa.select(meta.c.value).where(meta.c.name == "schema_version")).scalar_one())

    # --- rooms ---------------------------------------------------------------------------------------

    @_resilient
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

    @_resilient
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

    @_resilient
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

    @_resilient
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

    @_resilient
    def earlier_round(self, code: str, current: ActivityRow) -> ActivityRow | None:
        """The round before ``current``: the room's latest earlier activity with the same kind and payload
        (``None`` for a first round)."""
        if current.round <= 1:
            return None
        with self._read() as conn:
            row = (
                conn.execute(
                    sa.select(activities)
                    .where(
                        activities.c.room == code,
                        activities.c.number < current.number,
                        activities.c.kind == current.kind,
                        activities.c.payload
                        == sa.select(activities.c.payload).where(activities.c.id == current.id).scalar_subquery(),
                    )
                    .order_by(activities.c.number.desc())
                    .limit(1)
                )
                .mappings()
                .first()
            )
        return None if row is None else _activity_row(row, current.round - 1)

    @_resilient
    def is_teacher(self, code: str, key: Any) -> bool:
        """Whether ``key`` controls the room (a student link, no key or a forged key: ``False``)."""
        with self._read() as conn:
            stored = conn.execute(sa.select(rooms.c.key_hash).where(rooms.c.code == code)).scalar()
        return stored is not None and rules.key_matches(key, stored)

    @contextmanager
    def _as_teacher(self, code: str, key: Any, *, ended: bool = False) -> Iterator[tuple[Connection, Any]]:
        """A write transaction on a room whose key was checked (a forged key is an ``InputError``), not ended
        unless ``ended``."""
        code = rules.read_code(code)
        with self._write() as conn:
            row = conn.execute(sa.select(rooms).where(rooms.c.code == code).with_for_update()).mappings().first()
            if row is None or row["expires_at"] <= self.clock():
                raise InputError("room.unknown", code=code)
            if not rules.key_matches(key, row["key_hash"]):
                raise InputError("room.bad_key")
            if row["ended_at"] is not None and not ended:
                raise InputError("room.ended")
            yield conn, row

    def _touch(self, conn: Connection, code: str, **values: Any) -> None:
        conn.execute(sa.update(rooms).where(rooms.c.code == code).values(revision=rooms.c.revision + 1, **values))

    @_resilient
    def open_activity(self, code: str, key: Any, activity: Activity, *, after: int | None = None) -> ActivityRow:
        """Open ``activity`` as the room's next one (the previous one closes).

        ``after`` is the room's revision the teacher's page acted on: if the room is one revision past it and its
        current activity is this one, that opening already happened (a retry after a commit whose answer was lost,
        or a second click) and the activity is returned, not opened again.
        """
        with self._as_teacher(code, key) as (conn, row):
            return self._open(conn, row, activity.kind, json.dumps(activity.payload()), after)

    @_resilient
    def run_again(self, code: str, key: Any, *, after: int | None = None) -> ActivityRow:
        """Open the current activity again as the room's next one, a new round with the same kind and payload:
        the earlier round keeps its answers and its reveal. ``after`` as for ``open_activity``: the round opened
        one revision past it is not opened twice."""
        with self._as_teacher(code, key) as (conn, row):
            if row["current_activity"] is None:
                raise InputError("room.no_activity")
            current = conn.execute(
                sa.select(activities.c.kind, activities.c.payload).where(activities.c.id == row["current_activity"])
            ).one()
            return self._open(conn, row, current.kind, current.payload, after)

    def _open(self, conn: Connection, row: Any, kind: str, payload: str, after: int | None) -> ActivityRow:
        if after is not None and row["revision"] == after + 1 and row["current_activity"] is not None:
            current = conn.execute(
                sa.select(activities.c.kind, activities.c.payload, activities.c.phase).where(
                    activities.c.id == row["current_activity"]
                )
            ).one()
            if tuple(current) == (kind, payload, "open"):  # opened by this very request: its commit happened
                return self._activity(conn, row["current_activity"])
        number = row["activity_count"] + 1
        result = conn.execute(
            activities.insert().values(
                room=row["code"], number=number, kind=kind, payload=payload, phase="open", opened_at=self.clock()
            )
        )
        activity_id = int(result.inserted_primary_key[0])  # type: ignore[index]
        self._touch(conn, row["code"], current_activity=activity_id, activity_count=number)
        return self._activity(conn, activity_id)

    @_resilient
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

    @_resilient
    def show_names(self, code: str, key: Any, show: bool) -> None:
        """Show or hide the room's nicknames; an ended room too (its leaderboard shows them)."""
        with self._as_teacher(code, key, ended=True) as (conn, row):
            self._touch(conn, row["code"], show_names=bool(show))

    @_resilient
    def end_room(self, code: str, key: Any) -> None:
        """End the room: no more joining or answering; its results stay until it expires. Ending it again is
        nothing (a retry whose first try did end it)."""
        with self._as_teacher(code, key, ended=True) as (conn, row):
            if row["ended_at"] is None:
                self._touch(conn, row["code"], ended_at=self.clock())

    @_resilient
    def purge(self) -> int:
        """Delete every expired room with its students, activities, answers and lesson, old wrong-code records and
        short links unused for a year (saved lessons stay); the number of rooms deleted."""
        now = self.clock()
        with self._write() as conn:
            expired = sa.select(rooms.c.code).where(rooms.c.expires_at <= now)
            conn.execute(sa.delete(lesson_steps).where(lesson_steps.c.room.in_(expired)))
            conn.execute(sa.delete(room_lessons).where(room_lessons.c.room.in_(expired)))
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

    @_resilient
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

    @_resilient
    def student(self, code: str, student_id: str) -> Student | None:
        with self._read() as conn:
            row = (
                conn.execute(sa.select(students).where(students.c.room == code, students.c.id == student_id))
                .mappings()
                .first()
            )
        return None if row is None else Student(row["room"], row["id"], row["number"], row["nickname"])

    @_resilient
    def roster(self, code: str) -> list[Student]:
        with self._read() as conn:
            rows = (
                conn.execute(sa.select(students).where(students.c.room == code).order_by(students.c.number))
                .mappings()
                .all()
            )
        return [Student(r["room"], r["id"], r["number"], r["nickname"]) for r in rows]

    # --- answers ---------------------------------------------------------------------------------------

    @_resilient
    def answer(self, code: str, student_id: str, activity_id: int, values: Sequence[tuple[int, Any]]) -> None:
        """Store a student's answer(s) to the current activity: one per part, replacing any earlier one.

        ``values`` are (part, raw answer) pairs, each checked by the activity (an ``InputError`` in the student's
        language on the page). Refused when the room has ended, the activity is not the current one or is locked,
        the student has not joined, or answers come faster than the rate limit. Answers equal to those stored are
        stored once and spend no token: a resend after a lost connection (whose first try may have committed) is
        never refused as too fast.
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
            payload = json.loads(row["payload"])
            limit = payload.get(STEP_KEY, {}).get("time_limit")
            if limit is not None and now > row["opened_at"] + limit + TIME_GRACE_SECONDS:
                raise InputError("room.time_up")
            activity = from_payload(row["kind"], payload)
            checked = [
                (part, json.dumps(answer_to_json(row["kind"], activity.check(value, part)))) for part, value in values
            ]
            stored = dict(
                conn.execute(
                    sa.select(answers.c.part, answers.c.value).where(
                        answers.c.activity_id == activity_id, answers.c.student_id == student_id
                    )
                ).all()
            )
            if checked and all(stored.get(part) == value for part, value in checked):
                return  # stored already, as sent
            self._spend_token(conn, code, student_id, now)
            for part, value in checked:
                stmt = self._insert(answers).values(
                    activity_id=activity_id,
                    student_id=student_id,
                    part=part,
                    room=code,
                    value=value,
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

    @_resilient
    def answers(self, activity_id: int) -> list[Answer]:
        """Every answer to an activity, with each student's number and nickname, as its kind's typed values."""
        with self._read() as conn:
            rows = conn.execute(
                sa.select(
                    students.c.number,
                    students.c.nickname,
                    answers.c.part,
                    answers.c.value,
                    answers.c.updated_at,
                    activities.c.kind,
                )
                .join(students, sa.and_(students.c.room == answers.c.room, students.c.id == answers.c.student_id))
                .join(activities, activities.c.id == answers.c.activity_id)
                .where(answers.c.activity_id == activity_id)
                .order_by(students.c.number, answers.c.part)
            ).all()
        return [
            Answer(r.number, r.nickname, r.part, answer_from_json(r.kind, json.loads(r.value)), r.updated_at)
            for r in rows
        ]

    @_resilient
    def my_answers(self, activity_id: int, student_id: str) -> dict[int, Any]:
        """One student's answers to an activity, by part, as its kind's typed values."""
        with self._read() as conn:
            rows = conn.execute(
                sa.select(answers.c.part, answers.c.value, activities.c.kind)
                .join(activities, activities.c.id == answers.c.activity_id)
                .where(answers.c.activity_id == activity_id, answers.c.student_id == student_id)
            ).all()
        return {r.part: answer_from_json(r.kind, json.loads(r.value)) for r in rows}

    @_resilient
    def results(self, code: str, *, scored_now: bool = False) -> RoomResults:
        """Every activity of a room marked, one row per student present and question (an unanswered one too),
        and each student's totals. A student counts as present for an activity if they joined before the next
        activity opened. ``scored_now``: without the current activity until it is revealed (its points would tell
        a student how close an answer is before the class sees the truth)."""
        listed = self.activity_list(code)
        unscored = None
        if scored_now and listed:
            current = self.room(code).current
            unscored = current.id if current is not None and current.phase != "revealed" else None
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
            if row.id == unscored:
                continue
            taken.append(Taken(row.number, row.round, row.activity(), tuple(self.answers(row.id)), present))
        return room_results(taken)

    @_resilient
    def class_summary(self, code: str) -> list[ActivityOutcome]:
        """Per activity (number, kind, round): the students present, how many answered, and per question how many
        answered and were right; for the end-of-class summary."""
        return [outcome(result) for result in self.results(code).activities]

    # --- short links -------------------------------------------------------------------------------------

    @_resilient
    def save_link(self, page: str, params: Mapping[str, str]) -> str:
        """A short code for a page's link parameters; the same parameters always get the same code."""
        if page not in SHORT_LINK_PAGES:
            raise InputError("go.page", value=shown(page), choices=", ".join(SHORT_LINK_PAGES))
        text = json.dumps(dict(sorted(params.items())), ensure_ascii=False, separators=(",", ":"))
        if len(text) > MAX_LINK_PARAMS:
            raise InputError("link.too_long", count=len(text), limit=MAX_LINK_PARAMS)
        digest = hashlib.sha256(f"{page}\n{text}".encode()).hexdigest()
        return self._code_for(short_links, "short-link", digest, page=page, params=text)

    @_resilient
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

    # --- lessons -------------------------------------------------------------------------------------------

    @_resilient
    def save_lesson(self, lesson: Lesson) -> str:
        """A code for a lesson (``?lesson=CODE``); the same lesson always gets the same code. Saved lessons do not
        expire with rooms."""
        text = lesson_to_toml(lesson)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return self._code_for(lessons, "lesson", digest, title=lesson.title, text=text)

    def _code_for(self, table: sa.Table, what: str, digest: str, **values: Any) -> str:
        """The code of the row of ``table`` (short links, lessons) with this content digest, marked used now;
        a row with a newly drawn code if there is none. The same content always gets the same code."""
        now = self.clock()
        for _ in range(20):
            with self._write() as conn:
                found = conn.execute(sa.select(table.c.code).where(table.c.digest == digest)).scalar()
                if found is not None:
                    conn.execute(sa.update(table).where(table.c.code == found).values(used_at=now))
                    return str(found)
            code = rules.new_code()
            try:
                with self._write() as conn:
                    conn.execute(table.insert().values(code=code, digest=digest, created_at=now, used_at=now, **values))
                return code
            except IntegrityError:
                continue  # another process saved the same content, or the code is taken: look again
        raise RuntimeError(f"could not draw a free {what} code")

    @_resilient
    def load_lesson(self, code: Any) -> Lesson:
        """The lesson saved under ``code``; an ``InputError`` if there is none."""
        code = rules.read_code(code, "lesson.code")
        with self._write() as conn:
            text = conn.execute(sa.select(lessons.c.text).where(lessons.c.code == code)).scalar()
            if text is None:
                raise InputError("lesson.unknown", code=code)
            conn.execute(sa.update(lessons).where(lessons.c.code == code).values(used_at=self.clock()))
        return read_lesson(text)

    @_resilient
    def use_lesson(self, code: str, key: Any, lesson: Lesson) -> None:
        """Run ``lesson`` in the room, step by step (``lesson_step``). Taking another lesson replaces it; the
        activities its steps opened keep their answers and stay in the results."""
        with self._as_teacher(code, key) as (conn, row):
            stmt = self._insert(room_lessons).values(room=row["code"], text=lesson_to_toml(lesson), step=-1)
            conn.execute(
                stmt.on_conflict_do_update(index_elements=["room"], set_={"text": stmt.excluded.text, "step": -1})
            )
            conn.execute(sa.delete(lesson_steps).where(lesson_steps.c.room == row["code"]))
            self._touch(conn, row["code"])

    @_resilient
    def lesson_step(self, code: str, key: Any, step: int) -> ActivityRow:
        """Show step ``step`` (from 0) of the room's lesson: the activity it opened before, as it was (Back, or Next
        after Back), or else a new one. Going to the step already shown changes nothing, so a second click or a
        retry after a lost commit opens nothing twice."""
        with self._as_teacher(code, key) as (conn, row):
            held = conn.execute(
                sa.select(room_lessons.c.text, room_lessons.c.step).where(room_lessons.c.room == row["code"])
            ).first()
            if held is None:
                raise InputError("room.no_lesson")
            lesson = read_lesson(held.text)
            if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(lesson.steps):
                raise InputError("room.lesson_step", value=shown(step), count=len(lesson.steps))
            opened = conn.execute(
                sa.select(lesson_steps.c.activity_id).where(
                    lesson_steps.c.room == row["code"], lesson_steps.c.step == step
                )
            ).scalar()
            if opened is None:
                shown_row = self._open(
                    conn, row, lesson.steps[step].activity.kind, step_payload(lesson.steps[step]), None
                )
                conn.execute(lesson_steps.insert().values(room=row["code"], step=step, activity_id=shown_row.id))
            else:
                if row["current_activity"] != opened:
                    self._touch(conn, row["code"], current_activity=opened)
                shown_row = self._activity(conn, opened)
            if held.step != step:
                conn.execute(sa.update(room_lessons).where(room_lessons.c.room == row["code"]).values(step=step))
            return shown_row

    @_resilient
    def lesson_progress(self, code: str) -> LessonProgress | None:
        """The room's lesson and where it is (``None``: the room runs no lesson)."""
        with self._read() as conn:
            held = conn.execute(
                sa.select(room_lessons.c.text, room_lessons.c.step).where(room_lessons.c.room == code)
            ).first()
            if held is None:
                return None
            opened = conn.execute(
                sa.select(sa.func.count()).select_from(lesson_steps).where(lesson_steps.c.room == code)
            ).scalar_one()
        return LessonProgress(read_lesson(held.text), int(held.step), int(opened))


def step_payload(step: Step) -> str:
    """What the store keeps of a lesson's step: its activity's payload, with the step's own wording and time limit
    when it has them."""
    payload = step.activity.payload()
    extra: dict[str, Any] = {}
    if step.question.en or step.question.zh:
        extra["question"] = {lang: text for lang, text in (("en", step.question.en), ("zh", step.question.zh)) if text}
    if step.time_limit is not None:
        extra["time_limit"] = step.time_limit
    return json.dumps({**payload, STEP_KEY: extra} if extra else payload)


def _activity_row(row: sa.RowMapping, round_: int) -> ActivityRow:
    """An activity as read from its table row, with its round worked out by the caller."""
    return ActivityRow(
        row["id"], row["number"], row["kind"], json.loads(row["payload"]), row["phase"], row["opened_at"], round_
    )
