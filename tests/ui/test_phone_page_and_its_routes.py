"""A student's phone under ``serve.py``: its own page (``/phone/CODE``), the card it draws (``/api/room/CODE/card``)
and the answers it sends (``/api/room/CODE/answer``), as plain HTTP with no Streamlit session. The card's texts are
runs of plain text: nothing typed by a teacher or a student is ever HTML."""

import json
import re
from math import log, log2
from urllib.parse import urlencode

import pytest
from starlette.requests import Request

from ndcg_core import ndcg_at_k
from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.base import POINTS
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.practice import Practice
from ndcg_core.classroom.kinds.predict import NO_POINTS_OFF, Predict
from ndcg_core.classroom.kinds.rank import TWISTS, Rank
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.storage import Classroom, database_url
from ndcg_core.teaching.exercises import KINDS, exercise
from support import run_coroutine

HOSTILE = "<img src=x>**b</script>"


@pytest.fixture
def room(tmp_path, monkeypatch):
    """A room with two students (one named ``HOSTILE``), its store, key and the students' ids."""
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_LAB_DATABASE_URL", raising=False)
    from ui import database

    monkeypatch.setattr(database, "REVISION_TTL", 0.0)  # every request reads the room as it is now
    store = Classroom(database_url())
    made, key = store.rooms.create()
    ana, bo = rules.new_student_id(), rules.new_student_id()
    store.students.join(made.code, ana, HOSTILE, source="test")
    store.students.join(made.code, bo, None, source="test")
    yield store, made.code, key, ana, bo
    store.close()


def call(route, path_params, query=None, body=None, content_type="application/json"):
    """Run a route as the server would for one request; its status and body (JSON when it is JSON)."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode() if body is not None else b""
    headers = [(b"content-type", content_type.encode())] if body is not None else []
    sent = False

    async def receive():
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": raw, "more_body": False}

    scope = {
        "type": "http",
        "method": "POST" if body is not None else "GET",
        "path_params": path_params,
        "query_string": urlencode(query or {}).encode(),
        "headers": headers,
    }
    reply = run_coroutine(route(Request(scope, receive)))
    text = reply.body.decode()
    is_json = reply.headers.get("content-type", "").startswith("application/json")
    return reply.status_code, json.loads(text) if is_json else text


def card(code, me, lang="en", **known):
    from ui.phones.routes import phone_card_route

    return call(phone_card_route, {"code": code}, {"me": me, "lang": lang, **known})


def answer(code, me, activity, values, lang="en"):
    from ui.phones.routes import answer_route

    return call(answer_route, {"code": code}, body={"me": me, "lang": lang, "activity": activity, "values": values})


def text_of(blocks):
    """Every text a card shows, joined (runs of paragraphs, table cells, labels, options)."""
    parts = []
    for b in blocks:
        for para in b.get("paragraphs", []) + b.get("label", []):
            parts.append("".join(run for run, _ in para))
        parts += [cell for row in b.get("rows", []) for cell in row] + b.get("head", []) + b.get("labels", [])
        parts += [o[1] for o in b.get("options", [])]
    return "\n".join(parts)


SPEC = activity_list(("doc A", HOSTILE, "doc C"), (2.0, 3.0, 0.0), 3)


# --- the card ----------------------------------------------------------------------------------------------


def test_a_student_waits_then_gets_the_activity_with_its_list_as_plain_text(room):
    store, code, key, ana, _ = room
    status, waiting = card(code, ana)
    assert status == 200 and waiting["activity"] is None and "Wait for the teacher" in text_of(waiting["blocks"])
    # The phone asks every second with its card's revision: "same" until the teacher changes something.
    assert card(code, ana, known=waiting["revision"]) == (200, {"revision": waiting["revision"], "same": True})
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    assert card(code, ana, known=waiting["revision"])[1]["activity"] == row.id  # the news and the card at once
    status, shown = card(code, ana)
    assert (status, shown["activity"], shown["phase"], shown["send"]) == (200, row.id, "open", "Send")
    table = next(b for b in shown["blocks"] if b["type"] == "table")
    assert table["rows"][1] == ["2", HOSTILE, "3"]  # a label as typed: text, drawn with textContent
    [box] = [b for b in shown["blocks"] if b["type"] == "number"]
    assert (box["part"], box["saved"], box["disabled"]) == (0, None, False)
    assert "Activity 1: Predict the NDCG" in text_of(shown["blocks"])


def test_the_card_is_in_the_students_language(room):
    store, code, key, ana, _ = room
    store.rooms.open_activity(code, key, Predict(SPEC))
    _, zh = card(code, ana, "zh")
    assert "活动 1" in text_of(zh["blocks"]) and zh["send"] == "提交"
    assert card(code, ana, "xx")[1]["send"] == "Send"  # an unknown language: English


def test_strangers_get_the_same_404_as_from_the_revision_route(room):
    store, code, key, ana, _ = room
    other, _ = store.rooms.create()
    gone = (404, {"error": "room.unknown"})
    assert card(code, rules.new_student_id()) == gone
    assert card(other.code, ana) == gone
    assert card("AB0", ana) == gone
    assert answer(other.code, ana, 1, [[0, "0.5"]]) == gone


def test_an_answer_is_saved_and_the_card_after_it_shows_it_and_a_lock_closes_it(room):
    store, code, key, ana, bo = room
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    status, reply = answer(code, ana, row.id, [[0, " 0.80 "]])
    assert (status, reply["ok"]) == (200, True) and reply["message"].startswith("Saved.")
    [box] = [b for b in reply["card"]["blocks"] if b["type"] == "number"]
    assert box["saved"] == "0.80" and reply["card"]["answered"] is True
    assert [a.value for a in store.answers.for_activity(row.id)] == [0.8]
    assert card(code, bo)[1]["answered"] is False  # the others' card is the class's, without Ana's answer
    store.rooms.set_phase(code, key, "locked")
    _, locked = card(code, ana)
    assert locked["phase"] == "locked" and locked["send"] == ""
    assert locked["unsent"].startswith("{closed}: your estimate")  # the phone says why: locked, or time up
    assert locked["unsent"].endswith("not sent. What you sent before counts.")
    assert card(code, ana, "zh")[1]["unsent"].endswith("没有提交。以你之前提交的为准。")  # no space between
    status, refused = answer(code, ana, row.id, [[0, "0.9"]])
    assert (status, refused["ok"]) == (200, False) and "locked" in refused["message"]
    assert [a.value for a in store.answers.for_activity(row.id)] == [0.8]


def test_the_reveal_gives_each_student_their_own_result(room):
    store, code, key, ana, bo = room
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    truth = ndcg_at_k([2, 3, 0], 3)  # (2 + 3/log2(3)) / (3 + 2/log2(3))
    answer(code, ana, row.id, [[0, f"{truth:.4f}"]])
    store.rooms.set_phase(code, key, "revealed")
    _, mine = card(code, ana)
    # Typed to 4 decimals: the distance to 5 (one more), so it shows what is left (``distance_places``).
    off = abs(float(f"{truth:.4f}") - truth)
    assert f"The true NDCG is {truth:.4f}; you were {off:.5f} away" in text_of(mine["blocks"])
    assert any(b["type"] == "note" and b["level"] == "success" for b in mine["blocks"])
    _, theirs = card(code, bo)
    assert any(b["type"] == "note" and b["level"] == "info" for b in theirs["blocks"])


def test_rank_sends_no_grade_to_the_phone_before_the_reveal_unless_shown(room):
    store, code, key, ana, _ = room
    store.rooms.open_activity(code, key, Rank(SPEC, next(iter(TWISTS))))
    _, shown = card(code, ana)
    [order] = [b for b in shown["blocks"] if b["type"] == "order"]
    assert order["labels"] == list(SPEC.labels) and order["grades"] == []
    assert "3" not in json.dumps(order["grades"])


def test_a_bad_answer_gets_its_message_in_the_students_language_and_nothing_is_stored(room):
    store, code, key, ana, _ = room
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    assert (
        answer(code, ana, row.id, [[0, "0,6,2"]])[1]["message"]
        == "'0,6,2' has a comma: write decimals with a point, for example 1.5"
    )
    assert answer(code, ana, row.id, [[0, ""]])[1]["message"].startswith("Type a number")
    assert "不是一个回答" in answer(code, ana, row.id, "<b>0.7</b>", lang="zh")[1]["message"]
    assert "not an answer" in answer(code, ana, "1", [[0, "0.7"]])[1]["message"]
    assert answer(code, ana, row.id + 1, [[0, "0.7"]])[1]["ok"] is False  # not the current activity
    assert store.answers.for_activity(row.id) == []


@pytest.mark.parametrize(
    "lang, said",
    [("en", "Read 0,62 as 0.62.\nSaved. You can change it"), ("zh", "已将 0,62 读作 0.62。\n已保存。")],  # a line each
)
def test_a_decimal_comma_estimate_is_saved_as_a_point_and_the_reply_says_so(room, lang, said):
    store, code, key, ana, _ = room
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    _, reply = answer(code, ana, row.id, [[0, "0,62"]], lang=lang)
    assert reply["ok"] is True and reply["message"].startswith(said)
    assert store.answers.of_student(row.id, ana) == {0: 0.62}


def test_a_practice_sets_decimal_comma_is_read_and_said_with_its_exercise_saved(room):
    store, code, key, ana, _ = room
    row = store.rooms.open_activity(code, key, Practice(7, (KINDS.index("ndcg"),)))
    typed = f"{exercise(7, KINDS.index('ndcg')).answer:.4f}".replace(".", ",")
    _, reply = answer(code, ana, row.id, [[0, typed]])
    meant = float(typed.replace(",", "."))
    assert reply["ok"] is True and reply["message"].startswith(f"Read {typed} as {meant:g}.\nSaved.")
    assert store.answers.of_student(row.id, ana)[0].right


def first_line(code, me, lang="en"):
    return text_of(card(code, me, lang)[1]["blocks"][:1])


def test_with_scores_on_each_phone_shows_its_own_points_and_place_during_and_at_the_end(room):
    store, code, key, ana, bo = room
    store.lessons.use(code, key, Lesson("Scored", (Step(Predict(SPEC)), Step(Predict(SPEC))), scores=True))
    truth = ndcg_at_k([2, 3, 0], 3)
    near, far = round(truth, 2), round(truth - 0.2, 2)
    points = {g: round(POINTS * (1 - abs(g - truth) / NO_POINTS_OFF)) for g in (near, far)}
    first = store.lessons.step(code, key, 0)
    answer(code, ana, first.id, [[0, str(near)]])
    answer(code, bo, first.id, [[0, str(far)]])
    assert first_line(code, ana) == first_line(code, bo) == "Your points: 0"  # not counted before the reveal
    store.rooms.set_phase(code, key, "revealed")
    assert first_line(code, ana) == f"Your points: {points[near]} · place 1 of 2"
    assert first_line(code, bo) == f"Your points: {points[far]} · place 2 of 2"
    assert first_line(code, bo, "zh") == f"你的得分：{points[far]} · 第 2 名（共 2 人）"
    second = store.lessons.step(code, key, 1)
    answer(code, bo, second.id, [[0, str(near)]])
    store.rooms.set_phase(code, key, "revealed")  # the last step revealed: the lesson is over
    total = points[far] + points[near]
    assert first_line(code, bo) == f"Your final score: {total} points, place 1 of 2."
    assert first_line(code, ana, "zh") == f"你的最终得分：{points[near]} 分，第 2 名（共 2 人）。"


def test_the_answer_route_takes_json_only(room):
    from ui.phones.routes import answer_route

    store, code, key, ana, _ = room
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    form = urlencode({"me": ana, "activity": row.id}).encode()
    assert call(answer_route, {"code": code}, body=form, content_type="application/x-www-form-urlencoded")[0] == 415
    assert call(answer_route, {"code": code}, body=b"{not json")[0] == 400
    assert call(answer_route, {"code": code}, body=b"[1, 2]")[0] == 400
    assert store.answers.for_activity(row.id) == []


def test_practice_saves_the_readable_answers_and_names_each_unreadable_one(room):
    store, code, key, ana, _ = room
    row = store.rooms.open_activity(code, key, Practice(2026, (1, 2, 3)))
    first, _, third = row.activity().exercises()
    values = [
        [0, f"{first.answer:.3f}"],
        [1, "abc"],
        [2, third.answer if isinstance(third.answer, str) else f"{third.answer:.3f}"],
    ]
    _, reply = answer(code, ana, row.id, values)
    assert reply["ok"] is False and reply["message"].startswith("Exercise 2: 'abc' is not a number")
    assert sorted(a.part for a in store.answers.for_activity(row.id)) == [0, 2]


def test_each_value_sent_is_checked_once_by_its_kind(room, monkeypatch):
    store, code, key, ana, _ = room
    row = store.rooms.open_activity(code, key, Practice(2026, (1, 2, 3)))
    first, second, _ = row.activity().exercises()
    calls = []
    read = Practice.read_answer  # the kind's check and the note of a typed number, from one reading (issue 49)
    monkeypatch.setattr(Practice, "read_answer", lambda self, raw, part=0: calls.append(part) or read(self, raw, part))
    answer(code, ana, row.id, [[0, f"{first.answer:.3f}"], [1, "abc"]])
    assert sorted(calls) == [0, 1]


def test_the_card_closes_by_the_clock_the_store_refuses_answers_by(room, monkeypatch):
    from ui import database

    store, code, key, ana, _ = room
    store.lessons.use(code, key, Lesson("Timed", (Step(Predict(SPEC), time_limit=30),)))
    row = store.lessons.step(code, key, 0)
    later = row.opened_at + 31.5  # past the limit and its grace for an answer sent as the countdown reached zero
    monkeypatch.setattr(database.db().database, "clock", lambda: later)
    _, shown = card(code, ana)
    assert shown["time_up"] is True and shown["send"] == ""
    _, refused = answer(code, ana, row.id, [[0, "0.5"]])
    assert refused["ok"] is False and refused["card"]["time_up"] is True


# --- the page ----------------------------------------------------------------------------------------------


def page(code, me, lang="en"):
    from ui.phones.routes import phone_page_route

    return call(phone_page_route, {"code": code}, {"me": me, "lang": lang})


def test_the_phone_page_holds_its_cards_addresses_and_escapes_everything_a_person_typed(room):
    _, code, _, ana, _ = room
    status, html = page(code, ana)
    assert status == 200
    assert HOSTILE not in html and "<img" not in html  # the nickname is escaped in the text...
    data = json.loads(re.search(r'id="card-data">(.*?)</script>', html, re.S).group(1))
    assert (data["me"], data["lang"], data["card"]) == (
        ana,
        "en",
        f"/api/room/{code}/card?{urlencode({'me': ana, 'lang': 'en'})}",
    )
    assert html.count("</script>") == 2  # ...and in the data: no text closes its script element
    assert 'hreflang="zh"' in html and 'aria-current="true"' in html


def test_the_phone_page_of_no_one_says_to_join_again(room):
    _, code, _, _, _ = room
    status, html = page(code, rules.new_student_id(), "zh")
    assert status == 404 and "请用房间代码重新加入" in html and 'href="/Classroom"' in html


# --- the runs ------------------------------------------------------------------------------------------------


def test_runs_read_bold_escapes_paragraphs_and_line_ends_and_nothing_else():
    from ui.format import md_escape
    from ui.phones.card import plain, runs

    assert runs("**Activity 1:** what\\*s *this*?\n\nnext  \nline") == [
        [("Activity 1:", True), (" what*s *this*?", False)],
        [("next\nline", False)],
    ]
    assert plain(md_escape(HOSTILE)) == HOSTILE


def test_the_phone_cards_script_never_parses_text_as_html():
    from pathlib import Path

    js = (Path(__file__).resolve().parents[2] / "ui" / "widgets" / "phone_card.js").read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert sink not in js, sink
    assert "document.createTextNode(line)" in js and "td.textContent = text" in js


def test_a_practice_sets_wrong_number_is_named_by_its_mistake_at_the_reveal(room):
    store, code, key, ana, _ = room
    ex = exercise(7, KINDS.index("dcg"))
    assert ex.data == {"grades": [1, 2, 3], "k": 3}
    row = store.rooms.open_activity(code, key, Practice(7, (KINDS.index("dcg"),)))
    natural = f"{1 / log(2) + 2 / log(3) + 3 / log(4):.2f}"  # DCG@3 with ln in the discount
    answer(code, ana, row.id, [[0, natural]])
    store.rooms.set_phase(code, key, "revealed")
    shown = text_of(card(code, ana)[1]["blocks"])
    assert "ln for log2" in shown and "natural logs, ln, in the discount instead of log2" in shown
    assert f"1/ln(2) + 2/ln(3) + 3/ln(4) = {natural}" in shown
    assert f"DCG@3 is {1 + 2 / log2(3) + 3 / 2:.2f}" in shown  # beside the right number
