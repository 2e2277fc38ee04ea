"""Joining from the room's link under ``serve.py``: the phones' own join page (``/join/CODE``) and its route
(``POST /api/room/CODE/join``), as plain HTTP with no Streamlit session. The page is in the student's language and
escapes everything; a join gives the student's phone page; every refusal is a sentence in the student's language,
with what was typed kept (the page only shows the message); a browser that joined before goes back to its phone."""

import pytest
from test_phone_page_and_its_routes import call

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage import Classroom, database_url


@pytest.fixture
def room(tmp_path, monkeypatch):
    """A room, its store and key."""
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_LAB_DATABASE_URL", raising=False)
    store = Classroom(database_url())
    made, key = store.rooms.create()
    yield store, made.code, key
    store.close()


def page(code, lang="en"):
    from ui.phones.routes import join_page_route

    return call(join_page_route, {"code": code}, {"lang": lang} if lang else {})


def join(code, **body):
    from ui.phones.routes import join_route

    return call(join_route, {"code": code}, body={"lang": "en", **body})


def test_the_join_page_asks_for_a_nickname_in_the_students_language(room):
    _, code, _ = room
    status, html = page(code)
    assert status == 200
    assert f"Room {code}" in html and '<label class="label" for="nickname">Nickname (optional)</label>' in html
    assert ">Join</button>" in html and f"At most {rules.MAX_NICKNAME} characters" in html
    assert f'"join": "/api/room/{code}/join"' in html
    status, html = page(code, "zh")
    assert status == 200 and '<html lang="zh-Hans">' in html
    assert "昵称（可不填）" in html and ">加入</button>" in html and f"房间 {code}" in html
    assert f'href="/join/{code}?lang=en"' in html  # the other language, on the same page


@pytest.mark.parametrize(
    "header, lang",
    [("zh-CN,zh;q=0.9,en;q=0.8", "zh"), ("en-GB,en;q=0.9", "en"), ("fr-FR, zh-TW;q=0.5", "zh"), ("", "en")],
)
def test_without_a_language_in_the_link_the_page_speaks_the_browsers_if_the_app_has_it(header, lang):
    from ui.phones.routes import browser_language

    assert browser_language(header) == lang


def test_a_join_gives_the_students_phone_page_and_the_room_knows_the_nickname(room):
    store, code, _ = room
    status, reply = join(code, nickname="  Ana  ")
    assert status == 200 and reply["ok"]
    student = store.students.get(code, reply["me"])
    assert (student.nickname, student.number) == ("Ana", 1)
    assert reply["phone"] == f"/phone/{code}?me={reply['me']}&lang=en"
    status, again = join(code, me=reply["me"], nickname="Ana B")  # the same browser again: the same student
    assert again["me"] == reply["me"] and store.students.get(code, reply["me"]).nickname == "Ana B"
    assert store.students.get(code, reply["me"]).number == 1


def test_a_browser_that_joined_before_goes_back_to_its_phone_and_never_joins_anew(room):
    store, code, _ = room
    _, first = join(code, nickname="Bo")
    _, back = join(code, me=first["me"], again=True)
    assert back == first
    stranger = rules.new_student_id()
    _, unknown = join(code, me=stranger, again=True)
    assert unknown == {"ok": False, "message": ""}  # the form is shown
    assert store.students.get(code, stranger) is None


@pytest.mark.parametrize(
    "lang, nickname, said",
    [
        ("en", "x" * (rules.MAX_NICKNAME + 1), f"at most {rules.MAX_NICKNAME}"),
        ("zh", "x" * (rules.MAX_NICKNAME + 1), f"最多 {rules.MAX_NICKNAME}"),
    ],
)
def test_a_nickname_too_long_is_refused_in_the_students_language(room, lang, nickname, said):
    store, code, _ = room
    status, reply = join(code, nickname=nickname, lang=lang)
    assert status == 200 and not reply["ok"] and said in reply["message"]
    assert store.rooms.get(code).students == 0


def test_a_room_that_is_not_open_is_said_and_a_bad_remembered_id_is_replaced(room):
    store, code, key = room
    status, reply = join("ZZZZZZ", nickname="Cy")
    assert status == 200 and not reply["ok"] and "ZZZZZZ" in reply["message"]
    _, reply = join(code, me="not an id!", nickname="Cy")
    assert reply["ok"] and reply["me"] != "not an id!"
    store.rooms.end(code, key)
    _, ended = join(code, nickname="Di")
    assert not ended["ok"] and ended["message"]


def test_the_join_route_takes_json_only_and_a_code_that_is_no_code_gets_the_no_room_page(room):
    from ui.phones.routes import join_route

    _, code, _ = room
    assert (
        call(join_route, {"code": code}, body=b"nickname=Ana", content_type="application/x-www-form-urlencoded")[0]
        == 415
    )
    assert call(join_route, {"code": code}, body=b"[1]")[0] == 400
    status, html = page("../../etc")
    assert status == 404 and 'href="/Classroom"' in html


def test_a_nickname_with_a_control_character_is_refused_with_what_was_typed_named(room):
    store, code, _ = room
    _, reply = join(code, nickname="Ana\u202eBo")
    assert not reply["ok"] and "Ana" in reply["message"]
    assert store.rooms.get(code).students == 0
