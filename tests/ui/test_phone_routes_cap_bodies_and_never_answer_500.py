"""The phones' routes of a real ``serve.py`` read at most ``HttpLimits.max_body_bytes`` of a body (a 413 with a JSON
error past it, said by ``Content-Length`` before anything is read, or by what arrives when it is not given), and
whatever a client sends (JSON nested past what a parser reads, ``known=²``, a 5,000-digit ``known``, anything
hypothesis makes up) gets an answer below 500 (issue 46)."""

import http.client
import json
import socket
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serve_support import room_on
from storage_support import predict

from ui.http_limits import HttpLimits

LIMIT = HttpLimits().max_body_bytes


@pytest.fixture(scope="module")
def served(serve_py):
    with room_on(serve_py) as running:
        running.activity = running.store.rooms.open_activity(running.code, running.key, predict())
        yield running


def answer_path(served):
    return f"/api/room/{served.code}/answer"


def test_a_body_over_the_limit_is_a_413_said_in_json(served):
    padding = "x" * LIMIT
    body = {"me": served.me, "lang": "en", "activity": served.activity.id, "values": [[0, "0.5"]], "pad": padding}
    for path in (answer_path(served), f"/api/room/{served.code}/join"):
        assert served.post_json(path, body) == (413, {"error": "too_large"})
    # A body just under the limit is read as ever.
    small = {"me": served.me, "lang": "en", "activity": served.activity.id, "values": [[0, "0.5"]]}
    small["pad"] = "x" * (LIMIT - len(json.dumps({**small, "pad": ""})))
    assert len(json.dumps(small)) == LIMIT
    status, reply = served.post_json(answer_path(served), small)
    assert status == 200 and reply["ok"] is True


def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_sent(served):
    """The reply comes though the client has sent none of the megabyte it announced."""
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    try:
        conn.putrequest("POST", answer_path(served))
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(1_000_000))
        conn.endheaders()
        reply = conn.getresponse()
        assert (reply.status, json.loads(reply.read())) == (413, {"error": "too_large"})
    finally:
        conn.close()


def test_a_chunked_body_with_no_length_is_cut_at_the_limit(served):
    chunks = [b"[" + b"0," * 1000 for _ in range(50)]  # 100 KB, in pieces, with no Content-Length
    head = (
        f"POST {answer_path(served)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        try:
            sock.sendall(head.encode())
            for chunk in chunks:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered at the limit and closed before the body's end: its answer is read below
        reply = http.client.HTTPResponse(sock)
        reply.begin()
        assert (reply.status, json.loads(reply.read())) == (413, {"error": "too_large"})


def test_json_nested_deeper_than_a_parser_reads_is_a_400(served):
    deep = b"[" * (LIMIT - 10)
    assert served.post_json(answer_path(served), deep) == (400, {"error": "json"})
    nested = b'{"a":' + b"[" * 2000 + b"]" * 2000 + b"}"  # a whole object, under the limit, 2,001 deep
    assert served.post_json(f"/api/room/{served.code}/join", nested) == (400, {"error": "json"})


@pytest.mark.parametrize("known", ["²", "٣", "1" * 5000, "-1", "1.5", " 1"])
def test_a_known_revision_that_is_no_ascii_number_is_a_400(served, known):
    for route in ("card", "events"):
        query = urlencode({"me": served.me, "lang": "en", "known": known})
        status, headers, body = served.request("GET", f"/api/room/{served.code}/{route}?{query}")
        assert (status, json.loads(body)) == (400, {"error": "known"}), (route, known)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "me": JSON | st.just("me"),
        "lang": JSON | st.sampled_from(["en", "zh"]),
        "activity": JSON | st.just("activity"),
        "values": JSON | st.lists(st.tuples(st.integers(-3, 12_000), JSON).map(list), max_size=4),
        "nickname": JSON,
        "again": JSON,
    },
)
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def real(served, body):
    """``body`` with the placeholders made real: the student's id and the open activity's."""
    swap = {"me": served.me, "activity": served.activity.id}
    return {key: swap.get(value, value) if isinstance(value, str) else value for key, value in body.items()}


@FUZZ
@given(body=FIELDS, route=st.sampled_from(["answer", "join"]))
def test_no_json_body_gets_a_500(served, body, route):
    status, _ = served.post_json(f"/api/room/{served.code}/{route}", real(served, body))
    assert status < 500


@FUZZ
@given(raw=st.binary(max_size=200), content_type=st.sampled_from(["application/json", "text/plain", ""]))
def test_no_bytes_get_a_500(served, raw, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    status, _, _ = served.request("POST", answer_path(served), raw, headers)
    assert status < 500


@FUZZ
@given(
    route=st.sampled_from(["card", "phone", "join"]),
    code=st.text(max_size=12) | st.just("CODE"),
    params=st.dictionaries(st.sampled_from(["me", "lang", "known"]), st.text(max_size=30) | st.just("me")),
)
def test_no_query_gets_a_500(served, route, code, params):
    code = served.code if code == "CODE" else code
    query = urlencode({k: served.me if v == "me" else v for k, v in params.items()})
    prefix = {"card": "/api/room/{}/card", "phone": "/phone/{}", "join": "/join/{}"}[route]
    status, _, _ = served.request("GET", prefix.format(quote(code, safe="")) + "?" + query)
    assert status < 500
