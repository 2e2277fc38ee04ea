"""Helpers for the storage tests (tests/core/test_storage_*.py, test_links.py): a hand-moved clock, ids,
an activity, a table's rows, and a connection lost after its commit."""

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
