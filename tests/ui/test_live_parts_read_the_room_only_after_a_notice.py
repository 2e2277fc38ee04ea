"""The projector's and the control page's live part (``ui/views/classroom/live.py``), which runs every second, reads
the database only when the process's hub of notices has heard of a change in the room since it last read (an
answer, a join, the teacher's action, from any process); otherwise it draws again what it read. After answers alone,
it reads only the answers of the students the notices named (on PostgreSQL, whose notices say whose; a SQLite
file's watcher sees only that answers changed, so it reads the class's again). On SQLite and on PostgreSQL (where
the notice comes through ``LISTEN``)."""

import pyarrow as pa
import pytest
from test_classroom_page import open_activity, start_room
from test_the_projector_speaks_to_the_class import projector

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage.answers import Answers
from support import wait_until


@pytest.fixture
def data_dir(classroom_db_both):
    return classroom_db_both


def answered(screen):
    return next(m for m in screen.metric if m.label == "Answered").value


def histogram_counts(screen):
    """The projector histogram's bars that have answers (lower edge: count), from the chart's data as sent."""
    chart = screen.get("vega_lite_chart")[-1]
    [data] = chart.proto.datasets
    rows = pa.ipc.open_stream(data.data.data).read_all().to_pylist()
    return {row["low"]: row["count"] for row in rows if row["count"]}


def test_the_projector_reads_the_room_again_only_after_a_notice(data_dir, monkeypatch):
    from ui.database import db, notices

    teacher, code = start_room(data_dir)
    open_activity(teacher, "predict", _w_cr_source="preset", _w_cr_preset="five")
    assert wait_until(lambda: notices().live)
    screen = projector(teacher, code)
    # The class's answers are read by the live part alone (the page around it reads the room for itself: in a
    # fragment's own run, every second, only the live part runs).
    reads = []
    original = Answers.book

    def book(self, activity, only=None):  # each read as (activity, only): only=None is the whole class's answers
        reads.append((activity, only))
        return original(self, activity, only)

    monkeypatch.setattr(Answers, "book", book)
    for _ in range(3):
        screen.run()
    assert answered(screen) == "0 / 0"
    assert reads == []  # nothing happened in the room: drawn again from memory

    student = rules.new_student_id()
    before = notices().mark(code)
    db().students.join(code, student, "Ana", source="test")
    db().answers.submit(code, student, db().rooms.get(code).current.id, [(0, "0.5")])
    assert wait_until(lambda: notices().mark(code).answers > before.answers)  # heard (on PostgreSQL a moment later)
    reads.clear()
    screen.run()
    activity = db().rooms.get(code).current.id
    assert reads == [(activity, None)]  # a join too: the whole class's answers
    assert answered(screen) == "1 / 1"
    reads.clear()
    screen.run()
    assert reads == []

    # Two more answers, one from a student who answered before: only theirs are read on PostgreSQL, and the class's
    # other answers stay as they were read; on SQLite the file's watcher names them as of its look, and the class's
    # answers are read again, so that an answer stored since the look shows at this run, not the next.
    other, third = rules.new_student_id(), rules.new_student_id()
    db().students.join(code, other, "Bo", source="test")
    db().students.join(code, third, "Cy", source="test")
    db().answers.submit(code, third, activity, [(0, "0.9")])
    joins = 2 if data_dir.startswith("sqlite") else 3  # the file's watcher may see two joins in one look
    assert wait_until(lambda: notices().mark(code).joins >= before.joins + joins)
    assert wait_until(lambda: notices().mark(code).answers >= before.answers + 2)
    screen.run()
    before = notices().mark(code)
    db().answers.submit(code, other, activity, [(0, "0.7")])
    db().answers.submit(code, student, activity, [(0, "0.25")])
    assert wait_until(lambda: notices().mark(code).answers >= before.answers + 2)  # one notice each, in one look too
    reads.clear()
    screen.run()
    assert reads == ([(activity, None)] if data_dir.startswith("sqlite") else [(activity, {student, other})])
    assert answered(screen) == "3 / 3"
    assert histogram_counts(screen) == {0.25: 1, 0.7: 1, 0.9: 1}
