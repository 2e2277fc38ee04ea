"""Issue 46 through the phones' join route (``POST /api/room/CODE/join``), with the client's address as the server
sees it and the store's clock moved by hand (nothing sleeps): a class of 300 behind one campus address joins within
two minutes; a script's 510 joins from one address are paced, so real students from elsewhere still get in; behind
a trusted proxy each client has its own pace; wrong codes from a campus do not keep its class out, nor its students
coming back."""

import json

import pytest
from starlette.requests import Request
from storage_support import T0, Clock

from ndcg_core.classroom import rules
from ndcg_core.classroom.runtime import ClassroomRuntime
from ndcg_core.classroom.storage import Classroom, database_url
from support import run_coroutine

LIMITS = rules.Limits()


@pytest.fixture
def room(tmp_path, monkeypatch):
    """A room on a store whose clock the test moves (the join route's store), its code, key and clock."""
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_LAB_DATABASE_URL", raising=False)
    monkeypatch.delenv("NDCG_LAB_TRUSTED_PROXIES", raising=False)
    from ui.phones import join_page

    clock = Clock()
    store = Classroom(database_url(), clock=clock)
    monkeypatch.setattr(join_page, "runtime", lambda: ClassroomRuntime(store))
    made, key = store.rooms.create()
    yield store, made.code, key, clock
    store.close()


async def post_join(code, body, peer, forwarded=None):
    """One ``POST /api/room/CODE/join`` from ``peer`` (its ``X-Forwarded-For``, if any): the reply's JSON."""
    from ui.phones.routes import join_route

    raw = json.dumps({"lang": "en", **body}).encode()
    headers = [(b"content-type", b"application/json")]
    if forwarded is not None:
        headers.append((b"x-forwarded-for", forwarded.encode()))

    async def receive():
        return {"type": "http.request", "body": raw, "more_body": False}

    scope = {
        "type": "http",
        "method": "POST",
        "path_params": {"code": code},
        "query_string": b"",
        "headers": headers,
        "client": (peer, 50123),
    }
    reply = await join_route(Request(scope, receive))
    return json.loads(reply.body)


def test_a_class_of_300_behind_one_campus_address_joins_within_two_minutes(room):
    """Phones arrive 10 a second, faster than the pace; a refused phone presses Join again a second later (within
    one second, the phones after a refused one would be refused alike: they are not sent, and wait)."""
    store, code, _, clock = room

    async def arrive():
        waiting, arrived, joined, refusals = [], 0, 0, set()
        while joined < 300:
            while arrived < 300 and arrived <= (clock.now - T0) * 10:
                waiting.append(arrived)
                arrived += 1
            while waiting:
                reply = await post_join(code, {"nickname": f"s{waiting[0]}"}, "203.0.113.5")
                if not reply["ok"]:
                    refusals.add(reply["message"])
                    break
                waiting.pop(0)
                joined += 1
            clock.now += 1.0
        return refusals

    refusals = run_coroutine(arrive())
    assert store.rooms.get(code).students == 300
    assert clock.now - T0 <= 120
    assert refusals <= {"Many are joining from this network at once: wait 1 seconds and press Join again"}


def test_a_scripts_510_joins_from_one_address_are_paced_and_real_students_still_get_in(room):
    """Issue 46's script: 510 joins in 8.2 s from one address. At most the burst and 8.2 s of the rate get in."""
    store, code, _, clock = room

    async def script():
        replies = []
        for n in range(510):
            clock.now = T0 + n * 8.2 / 510
            replies.append(await post_join(code, {"nickname": "bot"}, "198.51.100.66"))
        return replies

    replies = run_coroutine(script())
    taken = sum(r["ok"] for r in replies)
    assert taken <= LIMITS.join_burst + LIMITS.joins_per_second * 8.2 + 1
    assert {r["message"] for r in replies if not r["ok"]} == {
        "Many are joining from this network at once: wait 1 seconds and press Join again"
    }
    assert store.rooms.get(code).students == taken
    real = run_coroutine(post_join(code, {"nickname": "Ana"}, "192.0.2.10"))
    assert real["ok"] and store.students.get(code, real["me"]).number == taken + 1


def test_behind_a_trusted_proxy_each_client_has_its_own_pace(room, monkeypatch):
    store, code, _, clock = room
    small = rules.Limits(join_burst=2)
    paced = Classroom(database_url(), clock=clock, limits=small)
    from ui.phones import join_page

    monkeypatch.setattr(join_page, "runtime", lambda: ClassroomRuntime(paced))
    monkeypatch.setenv("NDCG_LAB_TRUSTED_PROXIES", "127.0.0.1")

    def join(forwarded, peer="127.0.0.1"):
        return run_coroutine(post_join(code, {}, peer, forwarded))

    try:
        assert join("203.0.113.5")["ok"] and join("203.0.113.5")["ok"]
        assert not join("203.0.113.5")["ok"]
        assert join("6.6.6.6, 198.51.100.7")["ok"]  # nginx appended the client's own address to what it sent
        assert join("203.0.113.5, 198.51.100.7")["ok"]  # a client cannot pass for another by writing it...
        assert not join("198.51.100.7")["ok"]  # ...its two joins were its own
        # A peer that is no trusted proxy: its header is not read, and its own pace is its own.
        assert join("203.0.113.5", peer="192.0.2.99")["ok"]
    finally:
        paced.close()


def test_wrong_codes_from_a_campus_keep_neither_its_class_nor_its_students_coming_back_out(room):
    store, code, _, _ = room
    first = run_coroutine(post_join(code, {"nickname": "Ana"}, "203.0.113.5"))
    wrong = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"

    async def typos():
        return [await post_join(wrong, {}, "203.0.113.5") for _ in range(LIMITS.free_join_failures + 5)]

    replies = run_coroutine(typos())
    assert replies[-1]["message"].startswith("Too many wrong codes from here: wait")
    back = run_coroutine(post_join(code, {"me": first["me"], "nickname": "Ana"}, "203.0.113.5"))
    assert back["ok"] and back["me"] == first["me"]
    new = run_coroutine(post_join(code, {"nickname": "Bo"}, "203.0.113.5"))
    assert new["ok"] and store.students.get(code, new["me"]).number == 2
