"""What PostgreSQL is sent where SQLite would take anything alike (it takes no row lock, any conflict target, and
hears notices through its own process), so only the statements as PostgreSQL compiles them tell. No server is
needed: the statements are compiled, not run (the PostgreSQL tests run them; the mutation run leaves those out).

- The answered activity's row is read under a share lock (``FOR SHARE``): the answers of many students go in side
  by side, and only the teacher's lock or next activity waits for them.
- An answer sent again replaces the one stored under its own key (activity, student, part), and a room's doors
  setting the room's one row (room): each named in lower case, as the tables' columns are.
- A notice is ``pg_notify`` on the rooms' channel with its payload; several notices of one write are one
  statement, each payload a row of ``unnest`` of one text array."""

import re

import pytest
import sqlalchemy as sa
from storage_support import Clock

from ndcg_core.classroom.notices import CHANNEL, Notice
from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.storage import Classroom
from ndcg_core.classroom.storage.answers import answer_statements
from ndcg_core.classroom.storage.engine import Database


@pytest.fixture
def postgres():
    return Database(engine=sa.create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none"))  # never connected


def compiled(statement, db):
    done = statement.compile(dialect=db.engine.dialect)
    return " ".join(str(done).split()), done.params


class Sent:
    """A write transaction's connection that keeps each statement it is given, as PostgreSQL would be sent it."""

    def __init__(self, db):
        self.db, self.sent, self.info = db, [], {}

    def execute(self, statement, parameters=None):
        self.sent.append(compiled(statement, self.db))


def test_the_answered_activity_is_read_under_a_share_lock(postgres):
    sql, _ = compiled(answer_statements(postgres, Limits()).activity, postgres)
    assert sql.startswith("SELECT activities.id, activities.room")
    assert sql.endswith("WHERE activities.id = %(activity)s::INTEGER FOR SHARE")


def test_an_answer_sent_again_replaces_the_one_under_its_activity_student_and_part(postgres):
    sql, _ = compiled(answer_statements(postgres, Limits()).upsert, postgres)
    assert sql.startswith("INSERT INTO answers (activity_id, student_id, part, room, value, created_at, updated_at)")
    assert sql.endswith(
        "ON CONFLICT (activity_id, student_id, part) DO UPDATE SET value = excluded.value, "
        "updated_at = excluded.updated_at"
    )


def test_a_room_s_doors_set_its_one_row_by_room(tmp_path):
    store = Classroom(f"sqlite:///{tmp_path / 'classroom.sqlite3'}", limits=Limits(), clock=Clock())
    sent = []
    sa.event.listen(store.engine, "before_cursor_execute", lambda _c, _cur, sql, *_: sent.append(sql))
    try:
        room, key = store.rooms.create()
        store.doors.set_closed(room.code, key, True)
        store.doors.set_seats(room.code, key, 3)
    finally:
        store.close()
    upserts = [" ".join(sql.split()) for sql in sent if sql.startswith("INSERT INTO room_doors")]
    assert upserts == [
        "INSERT INTO room_doors (room, seats, closed) VALUES (?, ?, ?) ON CONFLICT (room) DO UPDATE SET closed = ?",
        "INSERT INTO room_doors (room, seats, closed) VALUES (?, ?, ?) ON CONFLICT (room) DO UPDATE SET seats = ?",
    ]


def test_a_notice_is_pg_notify_on_the_rooms_channel_with_its_payload(postgres):
    conn = Sent(postgres)
    postgres.tell(conn, Notice("ABC123", revision=4))
    [(sql, params)] = conn.sent
    assert re.fullmatch(r"SELECT pg_notify\(%\((\w+)\)s::VARCHAR, %\((\w+)\)s::VARCHAR\) AS \w+", sql)
    assert list(params.values()) == [CHANNEL, "ABC123:4"] and CHANNEL == "ndcg_lab_rooms"
    assert conn.info == {}  # nothing left for this process to tell after the commit: PostgreSQL tells every one


def test_the_notices_of_one_write_are_one_statement_a_payload_a_row(postgres):
    conn = Sent(postgres)
    postgres.tell_all(conn, [])  # nothing to tell: nothing sent
    told = [Notice("ABC123", activity=9, student="s1"), Notice("ABC123", activity=9), Notice("ABC123", joined=True)]
    postgres.tell_all(conn, told)
    [(sql, params)] = conn.sent
    assert re.fullmatch(
        r"SELECT pg_notify\(%\(\w+\)s::VARCHAR, payload\) AS \w+ FROM unnest\(%\(payloads\)s::TEXT\[\]\) AS payload",
        sql,
    )
    assert list(params.values()) == [CHANNEL, ["ABC123:answer:9:s1", "ABC123:answer:9", "ABC123:joined"]]
    assert conn.info == {}
