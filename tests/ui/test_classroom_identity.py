"""Who a browser is in a room, through Streamlit's AppTest: a page opened with a room's link shows "Checking who
you are…", not the join form, until the browser's memory has reported (a teacher's browser must not be offered
"Join"); without a report the join form comes after a short wait. (AppTest runs no component script; the
browser's reports are tested in Chromium, tests/browser/test_browser_reconnect.py.)"""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom.storage import Classroom
from support import ROOT, seed_state
from ui.state import ClassroomState
from ui.views.classroom.identity import MEMORY_WAIT_SECONDS

PAGE = "pages/7_Classroom.py"


@pytest.fixture
def room(classroom_db_both):
    store = Classroom(classroom_db_both)  # the database the page uses (SQLite, or PostgreSQL)
    try:
        made, _ = store.rooms.create()
    finally:
        store.close()
    return made.code


def page(code, lang="en", kept=None):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(PAGE)
    seed_state(at, lang=lang)
    at.query_params["room"] = code
    if kept is not None:
        at.session_state["classroom"] = ClassroomState(room=code, memory={"room": code, **kept})
    return at.run()


def keys(at):
    return {w.key for w in (*at.button, *at.text_input)}


@pytest.mark.parametrize(("lang", "text"), [("en", "Checking who you are…"), ("zh", "正在确认你的身份…")])
def test_a_room_link_checks_the_browsers_memory_before_it_offers_join(room, lang, text):
    at = page(room, lang)
    assert not at.exception
    assert [i.value for i in at.info] == [text]
    assert not keys(at) & {"_w_cr_nickname", "btn_cr_join_here"}


def test_without_a_report_the_join_form_comes_after_the_wait(room):
    at = page(room)
    at.session_state["classroom"].memory_wait -= MEMORY_WAIT_SECONDS  # as if the wait were over
    at.run()
    assert not at.exception
    assert {"_w_cr_nickname", "btn_cr_join_here"} <= keys(at)
    assert not at.info


def memory_data(at):
    """What the page sends the browser's memory component: ``{room, remember, forget, known}``."""
    import json

    [element] = [e for e in at.get("bidi_component") if e.proto.component_name == "ndcg_lab.browser_memory"]
    data = json.loads(element.proto.json)
    while isinstance(data, str):
        data = json.loads(data)
    return data


def test_a_student_back_by_their_link_in_a_new_session_is_not_asked_to_report_the_same_id(room, tmp_path):
    from ndcg_core.classroom import rules

    me, stranger = rules.new_student_id(), rules.new_student_id()
    store = Classroom()
    try:
        store.students.join(room, me, "Ann")
    finally:
        store.close()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(PAGE)
    seed_state(at, lang="en")
    at.query_params["room"], at.query_params["me"] = room, me
    at.run()  # a new session, as after a reload or a reconnect to another server process
    assert not at.exception
    # A browser that keeps just this id has nothing to report (no second run of the page); any other memory does.
    assert memory_data(at)["known"] == {"room": room, "me": me, "key": None}
    assert "You are **Ann**." in [c.value for c in at.caption]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(PAGE)
    seed_state(at, lang="en")
    at.query_params["room"], at.query_params["me"] = room, stranger  # an id the room does not know
    at.run()
    assert memory_data(at)["known"] is None
