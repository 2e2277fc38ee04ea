"""The home page's "Join a class" box through AppTest: a room code as a student types it takes them to the room's
page; a code that does not read, or no open room, is a message in their language beside what they typed."""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom.storage import Classroom
from support import ROOT, plain, seed_state


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture
def room(data_dir):
    created, _key = Classroom(f"sqlite:///{data_dir}/classroom.sqlite3").rooms.create()
    return created.code


def send(code, lang="en"):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    seed_state(at, lang=lang)
    at.run()
    at.text_input(key="home_join_code").input(code)
    next(b for b in at.button if b.key.startswith("FormSubmitter:home_join")).click().run()
    assert not at.exception
    return at


@pytest.mark.parametrize(
    "lang, heading, label",
    [("en", "Join a class", "Room code from the teacher's screen"), ("zh", "加入课堂", "老师屏幕上的房间码")],
)
def test_the_box_is_on_the_home_page_in_both_languages(lang, heading, label):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    seed_state(at, lang=lang).run()
    assert heading in [s.value for s in at.subheader]
    assert at.text_input(key="home_join_code").label == label


def test_a_code_typed_loosely_takes_the_student_to_the_rooms_page(room):
    typed = f" {room[:3].lower()}-{room[3:].lower()} "
    at = send(typed)
    assert at.query_params["room"] == room
    assert not at.error and "home_join_code" not in [w.key for w in at.text_input]  # the home page is gone
    assert at.session_state["classroom"].room == room
    # The room's own page: it first asks the browser what it keeps for the room (AppTest runs no component script).
    assert [plain(i.value) for i in at.info] == ["Checking who you are…"]


@pytest.mark.parametrize(
    "lang, typed, message",
    [
        ("en", "K7P3", "The room code 'K7P3' does not have 6 characters"),
        ("zh", "K7P3", "房间码 'K7P3' 不是 6 个字符"),
        ("en", "K0P1QL", "The room code 'K0P1QL' has 0, 1, L, which no code uses"),
        ("en", "  ", "The room code is blank"),
    ],
)
def test_a_code_that_does_not_read_is_a_message_and_keeps_what_was_typed(lang, typed, message):
    at = send(typed, lang)
    assert "room" not in at.query_params
    assert len(at.error) == 1 and plain(at.error[0].value).startswith(message), at.error[0].value
    assert at.text_input(key="home_join_code").value == typed


def test_a_code_of_no_open_room_is_a_message_on_the_home_page(room):
    wrong = "ZZZZZZ" if room != "ZZZZZZ" else "YYYYYY"
    at = send(wrong.lower())
    assert "room" not in at.query_params
    assert plain(at.error[0].value) == f"There is no open room {wrong}: check the code on the screen"
    assert at.text_input(key="home_join_code").value == wrong.lower()
