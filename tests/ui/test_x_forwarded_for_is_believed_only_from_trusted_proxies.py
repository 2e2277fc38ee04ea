"""A client of ``serve.py`` cannot name its own address (issue 46): ``X-Forwarded-For`` is ignored unless the peer
is one of ``NDCG_LAB_TRUSTED_PROXIES`` (none by default), so wrong join codes sent under made-up addresses from one
machine all count against that machine; behind a trusted proxy, the address it forwards is the client's."""

import pytest
import uvicorn.config
from serve_support import LIMITED, room_on

from ndcg_core.classroom.rules import Limits
from support import run_coroutine
from ui.http_limits import trusted_proxies
from ui.server_tuning import trust_forwarded_for_only_from

FREE = LIMITED["NDCG_LAB_FREE_JOIN_FAILURES"]  # wrong codes from one place before joining is slowed, on this server


@pytest.fixture
def served(serve_py_limited):
    """A room on the session's ``serve.py`` with small limits: no test but this one sends it a wrong code."""
    with room_on(serve_py_limited) as running:
        yield running


def wrong_join(served, address):
    """A join with a code that is no room's, claiming to come from ``address``: the message it gets."""
    wrong = "ZZZZZZ" if served.code != "ZZZZZZ" else "YYYYYY"
    status, reply = served.post_json(
        f"/api/room/{wrong}/join", {"lang": "en", "nickname": "x"}, headers={"X-Forwarded-For": address}
    )
    assert status == 200 and reply["ok"] is False
    return reply["message"]


def test_wrong_codes_under_made_up_addresses_count_against_the_machine_that_sent_them(served):
    assert Limits.from_environment({"NDCG_LAB_FREE_JOIN_FAILURES": str(FREE)}).free_join_failures == FREE
    said = [wrong_join(served, f"203.0.113.{n}") for n in range(FREE + 2)]
    assert all(message.startswith("There is no open room") for message in said[: FREE + 1]), said
    assert said[-1].startswith("Too many wrong codes from here"), said


def test_no_proxy_is_trusted_unless_named():
    assert trusted_proxies({}) == ()
    assert trusted_proxies({"NDCG_LAB_TRUSTED_PROXIES": " 127.0.0.1, ::1 ,"}) == ("127.0.0.1", "::1")


def client_seen(peer, forwarded):
    """The client address an app behind uvicorn's proxy middleware (as ``serve.py`` leaves it) sees."""
    seen = {}

    async def app(scope, receive, send):
        seen["client"] = scope["client"][0]

    middleware = uvicorn.config.ProxyHeadersMiddleware(app, trusted_hosts="*")  # what uvicorn's Config passes
    scope = {"type": "http", "client": (peer, 5000), "headers": [(b"x-forwarded-for", forwarded.encode())]}
    run_coroutine(middleware(scope, None, None))  # in a thread: a browser test may have left a loop running here
    return seen["client"]


@pytest.fixture
def uvicorn_restored(monkeypatch):
    monkeypatch.setattr(uvicorn.config, "ProxyHeadersMiddleware", uvicorn.config.ProxyHeadersMiddleware)


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_clients_and_no_one_else_is_believed(uvicorn_restored):
    trust_forwarded_for_only_from(["127.0.0.1"])
    # nginx appends the address it saw to what the client sent: the last one not a trusted proxy is the client.
    assert client_seen("127.0.0.1", "198.51.100.7") == "198.51.100.7"
    assert client_seen("127.0.0.1", "203.0.113.9, 198.51.100.7") == "198.51.100.7"
    assert client_seen("192.0.2.1", "198.51.100.7") == "192.0.2.1"  # not a trusted proxy: its own address
    trust_forwarded_for_only_from([])
    assert client_seen("127.0.0.1", "198.51.100.7") == "127.0.0.1"
