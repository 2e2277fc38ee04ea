"""Helpers for the storage tests (tests/core/test_storage_*.py, test_links.py): a hand-moved clock, ids,
an activity, a table's rows, a connection lost after its commit, and a database made back into version 2."""

import json
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.errors import StoreUnavailable

T0 = 1_800_000_000.0
HOUR = 3600.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now


def student_id():
    return rules.new_student_id()


def fields(error):
    return error.code, error.fields


def outage_of(call, *args, **kwargs):
    """The ``StoreUnavailable`` a call raises."""
    with pytest.raises(StoreUnavailable) as info:
        call(*args, **kwargs)
    return info.value


def sid(n):
    return f"student-{n:04d}-abcdefgh"


def table(s, name):
    with s.engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(sa.select(sa.Table(name, sa.MetaData(), autoload_with=conn)))]


def predict():
    return Predict(activity_list(("a", "b"), (0, 1), 2))


def lost(statement="COMMIT"):
    """The error SQLAlchemy raises when the server's connection is gone."""
    return sa.exc.OperationalError(statement, {}, ConnectionError("server closed the connection"), True)


def lose_replies(store, count=1):
    """The next ``count`` write transactions commit, then their connection is lost before the caller hears."""
    real, left = store.database.write, [count]

    @contextmanager
    def write():
        with real() as conn:
            yield conn
        if left[0]:
            left[0] -= 1
            raise lost()

    store.database.write = write
    return left


OWN_COLUMNS = ("question_en", "question_zh", "time_limit", "points")  # a step's settings, as version 3 keeps them


def as_version_2(store):
    """The database as version 2 of the schema kept it: a step's wording and time limit (and points) inside its
    activity's payload under ``"lesson"``, a step row's points inside its payload, and no column for any of them."""
    with store.engine.begin() as conn:
        for row in conn.execute(sa.text("SELECT * FROM activities")).mappings().all():
            extra = {}
            if row["points"] is not None:
                extra["points"] = row["points"]
            wording = {lang: row[f"question_{lang}"] for lang in ("en", "zh") if row[f"question_{lang}"]}
            if wording:
                extra["question"] = wording
            if row["time_limit"] is not None:
                extra["time_limit"] = row["time_limit"]
            if extra:
                payload = json.dumps({**json.loads(row["payload"]), "lesson": extra})
                conn.execute(
                    sa.text("UPDATE activities SET payload = :p WHERE id = :id"), {"p": payload, "id": row["id"]}
                )
        for row in conn.execute(sa.text("SELECT * FROM lesson_run_steps")).mappings().all():
            if row["points"] is not None:
                payload = json.dumps({**json.loads(row["payload"]), "lesson": {"points": row["points"]}})
                conn.execute(
                    sa.text("UPDATE lesson_run_steps SET payload = :p WHERE room = :room AND step = :step"),
                    {"p": payload, "room": row["room"], "step": row["step"]},
                )
        for name in OWN_COLUMNS:
            conn.execute(sa.text(f"ALTER TABLE activities DROP COLUMN {name}"))
        conn.execute(sa.text("ALTER TABLE lesson_run_steps DROP COLUMN points"))
        conn.execute(sa.text("UPDATE meta SET value = 2 WHERE name = 'schema_version'"))


# --- a new, empty database per test, without creating the tables each time ------------------------------------------

# What of a PostgreSQL database's shape a test can change: its tables' columns, its indexes and its constraints.
SHAPE = """
SELECT 'c', table_name, column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '')
  FROM information_schema.columns WHERE table_schema = 'public'
UNION ALL SELECT 'i', tablename, indexdef FROM pg_indexes WHERE schemaname = 'public'
UNION ALL SELECT 'k', conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint
  WHERE connamespace = 'public'::regnamespace
ORDER BY 1, 2, 3
"""


def shape(conn):
    return conn.execute(sa.text(SHAPE)).all()


def emptied(conn):
    """Every table's rows deleted, the ids counted from 1 again."""
    names = conn.execute(sa.text("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).scalars()
    conn.execute(sa.text(f"TRUNCATE {', '.join(names)} RESTART IDENTITY CASCADE"))


class FreshPostgres:
    """The session's PostgreSQL as a new classroom's database, for one test after another: the classroom's tables
    of this version, every one empty. Made once (tables dropped, then created by ``make_tables``); for each later
    test emptied by one ``TRUNCATE`` where the database still has the shape it was made with, or made again where a
    test changed it (an older version's tables, a column dropped, a table of its own). Dropping and creating the
    tables for every test took most of a PostgreSQL storage test's time."""

    def __init__(self, url, make_tables):
        self.url, self.make_tables = url, make_tables
        self.engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
        self.made = None

    def __call__(self):
        with self.engine.begin() as conn:
            if self.made is not None and shape(conn) == self.made:
                emptied(conn)
                return
        tables = sa.MetaData()
        tables.reflect(self.engine)
        tables.drop_all(self.engine)
        self.make_tables(self.url)
        with self.engine.begin() as conn:
            self.made = shape(conn)
            emptied(conn)

    def close(self):
        self.engine.dispose()
