"""A room's activities come back in the order they were opened, each with its number, round and the activity it
describes, however the database happens to scan its rows: SQLite's ``reverse_unordered_selects`` turns around
every scan no ORDER BY fixes (as a PostgreSQL heap may hold an updated row after later ones). And an activity row
decodes its activity once: a room read once is shared by a process's cards and answers until its next revision."""

import pytest
import sqlalchemy as sa
from storage_support import Clock, student_id

from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.storage import Classroom
from ndcg_core.classroom.storage.engine import make_engine
from ndcg_core.classroom.storage.rows import ActivityRow


@pytest.fixture
def reversed_store(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'classroom.sqlite3'}")

    @sa.event.listens_for(engine, "connect")
    def reverse_unordered(dbapi_connection, _record):
        dbapi_connection.execute("PRAGMA reverse_unordered_selects = ON")

    store = Classroom(engine=engine, limits=Limits(), clock=Clock())
    yield store
    store.close()


def test_the_scan_is_reversed_where_no_order_is_asked(reversed_store):
    with reversed_store.engine.connect() as conn:
        conn.execute(sa.text("CREATE TABLE scanned (n INTEGER)"))
        conn.execute(sa.text("INSERT INTO scanned VALUES (1), (2), (3)"))
        assert conn.execute(sa.text("SELECT n FROM scanned")).scalars().all() == [3, 2, 1]


def test_a_room_s_activities_come_in_the_order_they_were_opened(reversed_store):
    store = reversed_store
    room, key = store.rooms.create()
    store.students.join(room.code, student_id(), "Ana")
    opened = [
        Predict(preset_list("five")),
        compare_activity("seed003", "mrr"),
        Predict(preset_list("five")),  # the first one again: its second round
    ]
    for activity in opened:
        store.rooms.open_activity(room.code, key, activity)
    store.rooms.set_phase(room.code, key, "locked")  # the last row updated
    listed = store.rooms.activity_list(room.code)
    assert [(a.number, a.round, a.kind) for a in listed] == [(1, 1, "predict"), (2, 1, "compare"), (1, 2, "predict")]
    assert [a.activity() for a in listed] == opened
    assert listed[-1].phase == "locked"


def test_an_activity_row_decodes_its_activity_once():
    row = ActivityRow(7, 1, "predict", Predict(preset_list("five")).payload(), "open", 0.0)
    first = row.activity()
    assert first == Predict(preset_list("five"))
    assert row.activity() is first and row.activity() is first
