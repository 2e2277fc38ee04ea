"""Where a live classroom is kept, through SQLAlchemy 2 Core with one code path for SQLite and PostgreSQL: one
``Database`` (engine, transactions, retries; ``engine``) and small repositories over it, held by a ``Classroom``:

- ``rooms``: rooms, teacher keys, activities and their phases, rounds, ending and purging (``rooms``);
- ``students``: joining (wrong codes slowed, new students paced per client), a student, the roster (``students``);
- ``doors``: a room's size, joining closed, removing a burst of joins (``doors``);
- ``answers``: answers (a token bucket per student), and the results (``answers``);
- ``lessons``: saved lessons, and a room's lesson run step by step from rows (``lessons``).

Nothing a second app process would need is held in this one: rate limits, the slowing of wrong join codes and
every room's state live in the database. Every bad input is an ``InputError``; a database that cannot serve is a
``StoreUnavailable``. The Playground's short links are not the classroom's: ``ndcg_core.links``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy.engine import Engine

from ..rules import Limits
from .answers import Answers
from .doors import Door, Doors
from .engine import (
    ENV_DATA_DIR,
    ENV_URL,
    SCHEMA_VERSION,
    Database,
    DatabaseSettings,
    Schema,
    database_url,
    fault,
    make_engine,
    metadata,
)
from .lessons import Lessons
from .rooms import Rooms
from .rows import PHASES, ActivityRow, LessonProgress, LessonStep, Room, Student
from .students import Students

__all__ = [
    "ENV_DATA_DIR",
    "ENV_URL",
    "PHASES",
    "SCHEMA_VERSION",
    "ActivityRow",
    "Classroom",
    "Database",
    "DatabaseSettings",
    "Door",
    "LessonProgress",
    "LessonStep",
    "Room",
    "Student",
    "database_url",
    "fault",
    "make_engine",
    "metadata",
]


class Classroom:
    """The live classroom's repositories over one database: ``rooms``, ``students``, ``doors``, ``answers``,
    ``lessons``.

    ``Classroom(url)`` opens the database (``database_url()`` by default) and creates or migrates its tables;
    ``engine`` shares an engine, ``database`` a ``Database`` (its engine, settings and clock). ``limits`` are
    ``Limits.from_environment()`` unless given (the ``NDCG_LAB_<LIMIT>`` variables). ``clock`` gives the
    time (seconds since the epoch); ``passphrase`` is what a lecturer must give to start a room (``None``:
    nothing asked, ``ndcg_core.classroom.clients.teacher_passphrase``)."""

    def __init__(
        self,
        url: str | None = None,
        *,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.time,
        engine: Engine | None = None,
        settings: DatabaseSettings | None = None,
        database: Database | None = None,
        passphrase: str | None = None,
    ) -> None:
        self.database = database or Database(url, engine=engine, settings=settings, clock=clock)
        self.limits = limits or Limits.from_environment()  # as every server process: NDCG_LAB_<LIMIT> applies
        self.schema = Schema(self.database)
        self.rooms = Rooms(self.database, self.limits, passphrase)
        self.students = Students(self.database, self.limits)
        self.doors = Doors(self.database, self.limits, self.rooms)
        self.answers = Answers(self.database, self.limits, self.rooms)
        self.lessons = Lessons(self.database, self.rooms)
        if database is None:
            self.schema.create()

    @property
    def engine(self) -> Engine:
        return self.database.engine

    def close(self) -> None:
        """Close every pooled connection."""
        self.database.close()

    def without_retries(self) -> Classroom:
        """This classroom, on the same engine and pool, trying each call once: for a poll that asks again anyway
        (a class's phones waiting out a restart would otherwise hold the server's threads)."""
        return Classroom(limits=self.limits, database=self.database.without_retries(), passphrase=self.rooms.passphrase)

    def schema_version(self) -> int:
        return self.schema.version()
