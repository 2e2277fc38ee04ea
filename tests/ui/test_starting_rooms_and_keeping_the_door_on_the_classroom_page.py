"""Issue 46 on the Classroom page (AppTest, on a temporary SQLite file): a server with a lecturer's passphrase asks
for it before starting a room; one client starts only so many rooms an hour; and on the control page the teacher
sets the room's size, closes joining (the join route then says so) and removes a burst of joins, or everyone who
never answered."""

import pytest
import sqlalchemy as sa
from streamlit.proto.TextInput_pb2 import TextInput
from test_classroom_page import button, session, start_room, texts
from test_joins_from_one_address_through_the_join_route import post_join

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage import Classroom
from ndcg_core.classroom.storage.engine import students
from support import run_coroutine


@pytest.fixture
def data_dir(classroom_db):
    return classroom_db


def test_a_server_with_a_passphrase_asks_it_before_starting_a_room(data_dir, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_TEACHER_PASSPHRASE", "lecturers of NDCG")
    at = session()
    box = at.text_input(key="_w_cr_passphrase")
    assert box.proto.type == TextInput.Type.PASSWORD  # hidden as typed
    for typed in ("", "a guess"):
        box.set_value(typed)
        button(at, "btn_cr_start").click().run()
        assert not at.exception and at.session_state["classroom"].room is None
        assert "This server starts rooms for lecturers only: type the lecturer's passphrase" in texts(at)
    at.text_input(key="_w_cr_passphrase").set_value("lecturers of NDCG")
    button(at, "btn_cr_start").click().run()
    assert not at.exception
    code = at.session_state["classroom"].room
    assert code is not None and f"Room {code}" in texts(at)


def test_without_a_passphrase_setting_no_box_is_shown(data_dir, monkeypatch):
    monkeypatch.delenv("NDCG_LAB_TEACHER_PASSPHRASE", raising=False)
    at = session()
    assert not [box for box in at.text_input if box.key == "_w_cr_passphrase"]
    button(at, "btn_cr_start").click().run()
    assert at.session_state["classroom"].room is not None


def test_one_client_starts_only_so_many_rooms_an_hour(data_dir, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_ROOMS_PER_CLIENT_HOUR", "2")
    for _ in range(2):
        start_room(data_dir)
    at = session()
    button(at, "btn_cr_start").click().run()
    assert not at.exception and at.session_state["classroom"].room is None
    assert "2 rooms were started from here within the hour, the most one place may start" in texts(at)


def test_the_teacher_sets_the_size_closes_joining_and_removes_a_burst(data_dir):
    teacher, code = start_room(data_dir)
    store = Classroom(data_dir)
    try:
        for n, name in enumerate(("Ana", "Bo")):
            store.students.join(code, f"student-{n:04d}-abcdefgh", name, source="campus")
        with store.engine.begin() as conn:  # Ana and Bo came ten minutes ago
            conn.execute(sa.update(students).values(joined_at=students.c.joined_at - 600))
        for _ in range(3):
            store.students.join(code, rules.new_student_id(), "bot", source="script")
        assert "Nobody has joined yet" not in texts(teacher.run())

        teacher.number_input(key="_w_cr_seats").set_value(5).run()
        assert store.doors.get(code).seats == 5
        assert store.students.join(code, f"student-{0:04d}-abcdefgh").number == 1  # in already: back
        full = run_coroutine(post_join(code, {"nickname": "Cy"}, "192.0.2.1"))
        assert full == {"ok": False, "message": "The room is full: it holds at most 5 students"}

        teacher.toggle(key="_w_cr_closed").set_value(True).run()
        assert not teacher.exception and store.doors.get(code).closed
        assert "Joining is closed: nobody new can join until you open it again." in texts(teacher)
        closed = run_coroutine(post_join(code, {"nickname": "Cy"}, "192.0.2.1"))
        assert closed == {"ok": False, "message": "The teacher has closed joining this room"}

        button(teacher, "btn_cr_remove_recent").click().run()  # the last minute's joins: the three bots
        assert not teacher.exception and "Students removed: 3." in texts(teacher)
        assert [s.nickname for s in store.students.roster(code)] == ["Ana", "Bo"]

        teacher.toggle(key="_w_cr_closed").set_value(False).run()
        cy = run_coroutine(post_join(code, {"nickname": "Cy"}, "192.0.2.1"))
        assert cy["ok"] and store.students.get(code, cy["me"]).number == 3

        button(teacher, "btn_cr_remove_silent").click().run()  # nobody answered: all three
        assert "Students removed: 3." in texts(teacher) and store.students.roster(code) == []
        assert store.rooms.get(code).students == 0
    finally:
        store.close()


def test_an_empty_rooms_teacher_is_told_when_it_closes_by_itself(data_dir):
    teacher, _ = start_room(data_dir)
    assert "Nobody has joined yet. A room nobody joins closes by itself 30 minutes after it starts" in texts(teacher)
