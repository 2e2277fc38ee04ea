"""The projector's and the control page's live part (``ui/views/classroom/live.py``), which runs every second, reads
the database only when the process's hub of notices has heard of a change in the room since it last read (an
answer, a join, the teacher's action, from any process); otherwise it draws again what it read. On SQLite and on
PostgreSQL (where the notice comes through ``LISTEN``)."""

import threading

import pytest
from test_classroom_page import open_activity, start_room
from test_the_projector_speaks_to_the_class import projector

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage.answers import Answers


@pytest.fixture
def data_dir(classroom_db_both):
    return classroom_db_both


def answered(screen):
    return next(m for m in screen.metric if m.label == "Answered").value


def until(condition):
    pause = threading.Event()
    for _ in range(200):
        if condition():
            return True
        pause.wait(0.05)
    return condition()


def test_the_projector_reads_the_room_again_only_after_a_notice(data_dir, monkeypatch):
    from ui.database import db, notices

    teacher, code = start_room(data_dir)
    open_activity(teacher, "predict", _w_cr_source="preset", _w_cr_preset="five")
    assert until(lambda: notices().live)
    screen = projector(teacher, code)
    # The class's answers are read by the live part alone (the page around it reads the room for itself: in a
    # fragment's own run, every second, only the live part runs).
    reads = []
    original = Answers.for_activity
    monkeypatch.setattr(Answers, "for_activity", lambda self, *args: reads.append(args) or original(self, *args))
    for _ in range(3):
        screen.run()
    assert answered(screen) == "0 / 0"
    assert reads == []  # nothing happened in the room: drawn again from memory

    student = rules.new_student_id()
    before = notices().mark(code)
    db().students.join(code, student, "Ana", source="test")
    db().answers.submit(code, student, db().rooms.get(code).current.id, [(0, "0.5")])
    assert until(lambda: notices().mark(code).answers > before.answers)  # heard (through PostgreSQL, a moment later)
    reads.clear()
    screen.run()
    assert reads == [(db().rooms.get(code).current.id,)]
    assert answered(screen) == "1 / 1"
    reads.clear()
    screen.run()
    assert reads == []
