"""The event streams of a real ``serve.py`` are bounded per client (issue 46): a student has at most
``HttpLimits.streams_per_student`` card streams open, a client address at most
``HttpLimits.watch_streams_per_client`` watch streams (a 429 for one more, a slot given back when one closes); and
the watch route answers a code that is no room's as it answers a room's, so it tells nobody which codes are
rooms."""

import json

import pytest
from serve_support import LIMITED, room_on
from test_phone_card_stream import Stream, events_path

from support import wait_until
from ui.http_limits import HttpLimits, StreamSlots

# The limits of the session's serve.py with small limits (the defaults are larger).
PER_STUDENT, PER_CLIENT = LIMITED["NDCG_LAB_STREAMS_PER_STUDENT"], LIMITED["NDCG_LAB_WATCH_STREAMS_PER_CLIENT"]


@pytest.fixture(scope="module")
def served(serve_py_limited):
    """A room with a student on the session's ``serve.py`` with small limits, for this module's tests."""
    with room_on(serve_py_limited) as running:
        yield running


def refused(stream):
    return stream.response.status == 429 and json.loads(stream.response.read()) == {"error": "streams"}


def opened(stream):
    return stream.response.status == 200 and stream.next() == {"retry": "1000"}


def test_a_student_gets_a_429_for_one_stream_more_than_the_limit_and_a_slot_back_when_one_closes(served):
    streams = [Stream(served.port, events_path(served.code, served.me)) for _ in range(PER_STUDENT)]
    try:
        assert all(opened(s) for s in streams)
        extra = Stream(served.port, events_path(served.code, served.me))
        assert refused(extra)
        extra.close()
        streams.pop().close()

        def another_opens():
            again = Stream(served.port, events_path(served.code, served.me))
            if again.response.status == 200:
                streams.append(again)
                return True
            again.close()
            return False

        assert wait_until(another_opens, seconds=30)  # once the server has seen the close
    finally:
        for s in streams:
            s.close()


def watch(served, code):
    return Stream(served.port, f"/api/room/{code}/watch")


def test_a_client_gets_a_429_for_one_watch_stream_more_than_the_limit(served):
    streams = [watch(served, served.code) for _ in range(PER_CLIENT)]
    try:
        assert all(opened(s) for s in streams)
        extra = watch(served, served.code)
        assert refused(extra)
        extra.close()
    finally:
        for s in streams:
            s.close()


def test_the_watch_route_answers_a_code_that_is_no_rooms_as_a_rooms(served):
    unknown = "ZZZZZZ" if served.code != "ZZZZZZ" else "YYYYYY"
    answers = []
    for code in (served.code, unknown):
        stream = watch(served, code)
        try:
            assert stream.response.status == 200, code
            retry, first = stream.next(), stream.next()
            answers.append((retry, first["event"], first["data"]))
        finally:
            stream.close()
    assert answers[0] == answers[1] == ({"retry": "1000"}, "changed", {})
    status, _, body = served.request("GET", "/api/room/not-a-code/watch")  # the form of a code is public
    assert (status, json.loads(body)) == (404, {"error": "room.unknown"})


def test_slots_are_counted_per_key_and_limits_read_from_the_environment():
    slots = StreamSlots()
    assert [slots.take("a", 2) for _ in range(3)] == [True, True, False]
    assert slots.take("b", 2)
    slots.give_back("a")
    assert slots.take("a", 2) and slots.taken("a") == 2
    assert HttpLimits.from_environment({"NDCG_LAB_MAX_BODY_BYTES": "8192"}).max_body_bytes == 8192
    for bad in ("0", "-1", "1.5", "²", "lots"):
        with pytest.raises(ValueError):
            HttpLimits.from_environment({"NDCG_LAB_STREAMS_PER_STUDENT": bad})
