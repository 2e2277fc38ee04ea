"""The classroom's database: its engine, its tables and their version, and how every call on it runs.

- An embedded SQLite file by default (``classroom.sqlite3`` in ``NDCG_LAB_DATA_DIR``), in WAL mode with a busy
  timeout; write transactions start with ``BEGIN IMMEDIATE`` so a read-then-write cannot be overtaken.
- PostgreSQL when ``NDCG_LAB_DATABASE_URL`` is set (``postgresql+psycopg://user@host/db``); a conditional
  ``UPDATE`` and ``SELECT ... FOR UPDATE`` take the row locks that ``BEGIN IMMEDIATE`` gives SQLite.

The schema is created on first use and carries a version (``meta``); an older one is brought up to date
(``create_schema``), a newer one is refused. Faults: every repository method runs through ``resilient``, which
retries, as a whole, a call that lost its connection or met a database that is restarting, with exponential backoff
and jitter for at most ``DatabaseSettings.retry_seconds``, then raises ``StoreUnavailable`` (``store.unavailable``);
a read-only database or a full disk is a ``StoreUnavailable`` at once (``store.read_only``, ``store.full``). A
transaction that fails rolls back whole. Since a retried write may have committed before its connection was lost,
every write is idempotent.
"""

from __future__ import annotations

import copy
import functools
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

from ...errors import InputError, StoreUnavailable, shown
from .. import rules
from ..lessons import Wording, read_lesson
from ..notices import CHANNEL, Notice
from .rows import StepSettings, step_rows

# 2: a lesson run in a room is kept as its steps' rows (``lesson_runs``, ``lesson_run_steps``), no longer as TOML
# text (``room_lessons``). 3: a step's own wording, time limit and points are columns of its row and of the activity
# it opens, no longer kept inside the activity's payload (under a ``"lesson"`` key). An older database is migrated
# once, a version at a time, by the first process that opens it (``_migrate``).
SCHEMA_VERSION = 3
ENV_URL = "NDCG_LAB_DATABASE_URL"
ENV_DATA_DIR = "NDCG_LAB_DATA_DIR"
SQLITE_FILE = "classroom.sqlite3"
BUSY_TIMEOUT_SECONDS = 15
PENDING = "ndcg_notices"  # a SQLite transaction's notices, in its connection's info until it commits

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class DatabaseSettings:
    """How this process talks to the database; each can be set by ``NDCG_LAB_DB_<NAME>`` (seconds for times).

    The pool is per process: N processes hold up to N x (``pool_size`` + ``max_overflow``) connections, which must
    stay under PostgreSQL's ``max_connections`` (100 by default, 3 of them kept for superusers): 15 + 0 lets six
    processes share a default server. The timeouts apply on PostgreSQL (SQLite has its busy timeout).
    """

    # Every connection is kept and none opened beyond them: a connection opened under load and closed when returned
    # costs PostgreSQL a new backend each time (a fork, authentication, its caches filled again), and at a class's
    # rate of answers that churn was most of the server's CPU (issue 36: a round of 2,000 answers took it 10-13
    # CPU-s with 5 + 10, 4.5 with 15 + 0). A request beyond them waits for one (``pool_timeout``).
    pool_size: int = 15  # connections kept open
    max_overflow: int = 0  # more opened under load, closed when returned
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
    # What the lesson's step that opened it set (``rows.StepSettings``); empty and null for a teacher's own.
    sa.Column("question_en", sa.Text, nullable=False, server_default=""),
    sa.Column("question_zh", sa.Text, nullable=False, server_default=""),
    sa.Column("time_limit", sa.Integer),
    sa.Column("points", sa.Integer),
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
# The rooms each client started lately (its address hashed, ``clients.source_key``), for the rooms per client and
# hour; each client's join tokens (``rules.join_tokens``), for the new students per client; each room's door: the
# size its teacher set (``None``: the server's ``max_students``) and whether joining is closed.
room_starts = sa.Table(
    "room_starts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("source", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_room_starts_source_at", "source", "at"),
)
join_tokens = sa.Table(
    "join_tokens",
    metadata,
    sa.Column("source", sa.String(64), primary_key=True),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
room_doors = sa.Table(
    "room_doors",
    metadata,
    sa.Column("room", sa.String(6), sa.ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True),
    sa.Column("seats", sa.Integer),
    sa.Column("closed", sa.Boolean, nullable=False, default=False),
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
# A room run from a lesson: its title, whether it keeps scores and the step shown (-1 before the first); its steps,
# read once from the lesson when the room took it, each what Next opens (kind, the activity's payload, the step's
# own wording, time limit and points, copied to the activity's row as they are); and the activity each step opened
# (Back shows that activity again, with its answers; Next opens a step's activity only the first time).
lesson_runs = sa.Table(
    "lesson_runs",
    metadata,
    sa.Column("room", sa.String(6), sa.ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("scores", sa.Boolean, nullable=False),
    sa.Column("step", sa.Integer, nullable=False),
)
lesson_run_steps = sa.Table(
    "lesson_run_steps",
    metadata,
    sa.Column("room", sa.String(6), sa.ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True),
    sa.Column("step", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("question_en", sa.Text, nullable=False),
    sa.Column("question_zh", sa.Text, nullable=False),
    sa.Column("time_limit", sa.Integer),
    sa.Column("points", sa.Integer),
)
lesson_steps = sa.Table(
    "lesson_steps",
    metadata,
    sa.Column("room", sa.String(6), sa.ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True),
    sa.Column("step", sa.Integer, primary_key=True),
    sa.Column("activity_id", sa.Integer, sa.ForeignKey("activities.id", ondelete="CASCADE"), nullable=False),
)


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """``NDCG_LAB_DATABASE_URL`` if set, else the SQLite file in ``NDCG_LAB_DATA_DIR`` (``data/`` by default)."""
    environ = os.environ if environ is None else environ
    url = environ.get(ENV_URL, "").strip()
    if url:
        return url
    folder = Path(environ.get(ENV_DATA_DIR) or Path(__file__).resolve().parents[3] / "data")
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


class Database:
    """One engine and how calls on it run: read and write transactions, retries, and the time (``clock``, seconds
    since the epoch). Every repository of a process shares one, so they share its pool."""

    def __init__(
        self,
        url: str | None = None,
        *,
        engine: Engine | None = None,
        settings: DatabaseSettings | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings or DatabaseSettings()
        self.engine = engine or make_engine(url or database_url(), self.settings)
        self.clock = clock
        self._writer = self.engine.execution_options(ndcg_write=True)
        self.calls = threading.local()  # whether this thread is inside a call already (retries are the outer's)
        # Who hears this process's own notices on SQLite (its hub, ``ndcg_core.classroom.notices``); on PostgreSQL
        # every process hears them through LISTEN.
        self.sinks: list[Callable[[Notice], None]] = []

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def without_retries(self) -> Database:
        """This database, on the same engine and pool, trying each call once."""
        once = copy.copy(self)
        once.settings = replace(self.settings, retry_seconds=0.0)
        once.calls = threading.local()
        return once

    def attempts(self, call: Callable[[], R]) -> R:
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
    def write(self) -> Iterator[Connection]:
        """A write transaction (``BEGIN IMMEDIATE`` on SQLite), committed at the end or rolled back whole; the
        notices it ``tell``s go out with its commit, and not at all if it rolls back."""
        with self._writer.connect() as conn:
            try:
                with conn.begin():
                    yield conn
            finally:
                pending: list[Notice] = conn.info.pop(PENDING, [])
        for notice in pending:
            for sink in self.sinks:
                sink(notice)

    def tell(self, conn: Connection, notice: Notice) -> None:
        """Send ``notice`` with the write transaction ``conn``: ``pg_notify`` on PostgreSQL (delivered to every
        listening process at commit), else to this process's ``sinks`` after the commit."""
        if self.engine.dialect.name == "postgresql":
            conn.execute(sa.select(sa.func.pg_notify(CHANNEL, notice.payload)))
        else:
            conn.info.setdefault(PENDING, []).append(notice)

    def tell_all(self, conn: Connection, told: Sequence[Notice]) -> None:
        """``tell`` each of ``told`` with the write transaction ``conn``, on PostgreSQL in one statement."""
        if self.engine.dialect.name != "postgresql":
            conn.info.setdefault(PENDING, []).extend(told)
        elif told:
            payloads = sa.bindparam("payloads", [notice.payload for notice in told], type_=sa.ARRAY(sa.Text))
            conn.execute(sa.select(sa.func.pg_notify(CHANNEL, sa.func.unnest(payloads).column_valued("payload"))))

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    def insert(self, table: sa.Table) -> Any:
        """An INSERT with ``on_conflict_do_update``/``do_nothing``: the one place the two dialects differ."""
        from sqlalchemy.dialects import postgresql, sqlite

        insert: Any = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        return insert(table)


def resilient(method: Callable[P, R]) -> Callable[P, R]:
    """A repository method that retries, as a whole, a call whose database was lost or restarting (backoff with
    jitter, ``retry_seconds`` in all), then raises ``StoreUnavailable``; a read-only or full database raises it at
    once. A call inside another (creating a room reads the room it made) runs as part of the outer one's attempt."""

    @functools.wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        db: Database = args[0].db  # type: ignore[attr-defined]
        if getattr(db.calls, "inside", False):
            return method(*args, **kwargs)
        db.calls.inside = True
        try:
            return db.attempts(functools.partial(method, *args, **kwargs))
        finally:
            db.calls.inside = False

    return run


def code_for(db: Database, table: sa.Table, what: str, digest: str, **values: Any) -> str:
    """The code of the row of ``table`` (short links, lessons) with this content digest, marked used now; a row with
    a newly drawn code if there is none. The same content always gets the same code."""
    now = db.clock()
    for _ in range(20):
        with db.write() as conn:
            found = conn.execute(sa.select(table.c.code).where(table.c.digest == digest)).scalar()
            if found is not None:
                conn.execute(sa.update(table).where(table.c.code == found).values(used_at=now))
                return str(found)
        code = rules.new_code()
        try:
            with db.write() as conn:
                conn.execute(table.insert().values(code=code, digest=digest, created_at=now, used_at=now, **values))
            return code
        except IntegrityError:
            continue  # another process saved the same content, or the code is taken: look again
    raise RuntimeError(f"could not draw a free {what} code")


class Schema:
    """The classroom's tables on one database: created if missing, migrated from an older version."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @resilient
    def create(self) -> None:
        """Create the tables if missing and record the schema version; an older one is migrated, a newer one is
        refused (``room.schema``: this process is older than the database)."""
        metadata.create_all(self.db.engine, checkfirst=True)
        with self.db.read() as conn:  # a read first: a read-only database can still show its rooms
            stored = conn.execute(sa.select(meta.c.value).where(meta.c.name == "schema_version")).scalar()
        if stored is None:
            with self.db.write() as conn:
                conn.execute(
                    self.db.insert(meta).values(name="schema_version", value=SCHEMA_VERSION).on_conflict_do_nothing()
                )
                conn.execute(self.db.insert(meta).values(name="room_lock", value=0).on_conflict_do_nothing())
        elif stored > SCHEMA_VERSION:
            raise InputError("room.schema", value=shown(stored), version=SCHEMA_VERSION)
        elif stored < SCHEMA_VERSION:
            with self.db.write() as conn:
                _migrate(conn)

    @resilient
    def version(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute(sa.select(meta.c.value).where(meta.c.name == "schema_version")).scalar_one())


# Version 1's lesson of a room, as TOML text: read once by the migration to version 2, then dropped.
_room_lessons_v1 = sa.table("room_lessons", sa.column("room"), sa.column("text"), sa.column("step"))
STEP_KEY_V2 = "lesson"  # where version 2 kept a step's own wording, time limit and points: in the activity's payload


def _migrate(conn: Connection) -> None:
    """Bring an older database to ``SCHEMA_VERSION`` in one transaction, a version at a time. Each step claims its
    version row first, so of processes starting at once only one migrates (the others' conditional update waits for
    its lock, then finds the version moved on)."""
    while True:
        stored = conn.execute(sa.select(meta.c.value).where(meta.c.name == "schema_version")).scalar_one()
        if stored >= SCHEMA_VERSION:
            return
        claimed = conn.execute(
            sa.update(meta).where(meta.c.name == "schema_version", meta.c.value == stored).values(value=stored + 1)
        ).rowcount
        if not claimed:
            return
        MIGRATIONS[stored](conn)


def _lesson_runs_as_rows(conn: Connection) -> None:
    """Version 1 to 2: each room's lesson, kept as TOML text, becomes its rows."""
    if not sa.inspect(conn).has_table("room_lessons"):
        return
    # The one place a lesson run is read from its TOML text: once, for a room of a version-1 database.
    for held in conn.execute(sa.select(_room_lessons_v1.c.room, _room_lessons_v1.c.text, _room_lessons_v1.c.step)):
        lesson = read_lesson(held.text)
        conn.execute(
            lesson_runs.insert().values(room=held.room, title=lesson.title, scores=lesson.scores, step=held.step)
        )
        conn.execute(lesson_run_steps.insert(), step_rows(held.room, lesson))
    conn.execute(sa.text("DROP TABLE room_lessons"))


def _settings_as_columns(conn: Connection) -> None:
    """Version 2 to 3: a step's wording, time limit and points move out of its payload (``STEP_KEY_V2``) into the
    new columns of ``activities`` and ``lesson_run_steps``; the payload left is the activity's own, as version 3
    writes it."""
    for table in (activities, lesson_run_steps):
        have = {column["name"] for column in sa.inspect(conn).get_columns(table.name)}
        for column in table.columns:
            if column.name not in have:
                # ALTER TABLE ... ADD COLUMN: SQLite and PostgreSQL both take it inside the transaction.
                kind = column.type.compile(dialect=conn.dialect)
                default = " NOT NULL DEFAULT ''" if column.server_default is not None else ""
                conn.execute(sa.text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}{default}"))
    held = sa.select(activities.c.id, activities.c.payload).where(activities.c.payload.contains(f'"{STEP_KEY_V2}"'))
    for row in conn.execute(held).all():
        payload, settings = _settings_of_v2(row.payload)
        if settings is not None:
            conn.execute(
                sa.update(activities).where(activities.c.id == row.id).values(payload=payload, **settings.columns())
            )
    steps = sa.select(lesson_run_steps.c.room, lesson_run_steps.c.step, lesson_run_steps.c.payload).where(
        lesson_run_steps.c.payload.contains(f'"{STEP_KEY_V2}"')
    )
    for planned in conn.execute(steps).all():
        payload, settings = _settings_of_v2(planned.payload)
        if settings is not None:  # version 2 kept only a step's points in its payload here
            conn.execute(
                sa.update(lesson_run_steps)
                .where(lesson_run_steps.c.room == planned.room, lesson_run_steps.c.step == planned.step)
                .values(payload=payload, points=settings.points)
            )


def _settings_of_v2(text: str) -> tuple[str, StepSettings | None]:
    """A version-2 payload's own part (JSON text, as version 3 writes it) and the step's settings kept in it
    (``None``: it kept none)."""
    payload = json.loads(text)
    own = payload.pop(STEP_KEY_V2, None)
    if not isinstance(own, dict):
        return text, None
    wording = own.get("question") or {}
    limit, points = own.get("time_limit"), own.get("points")
    settings = StepSettings(
        Wording(str(wording.get("en", "")), str(wording.get("zh", ""))),
        None if limit is None else int(limit),
        None if points is None else int(points),
    )
    return json.dumps(payload), settings


MIGRATIONS: dict[int, Callable[[Connection], None]] = {1: _lesson_runs_as_rows, 2: _settings_as_columns}
