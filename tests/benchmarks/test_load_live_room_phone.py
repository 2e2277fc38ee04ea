"""The load benchmark's phones read the events route's stream as a browser's EventSource does, and its report counts
an answer as lost by the student's id and value, never by a number of the client's own."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from benchmarks.load_live_room import Round, SseEvent, SseParser, check_stored
from ui.phones.routes import RETRY_MS, event


def stream_text() -> str:
    """What the events route sends: retry, a card, a keep-alive comment, a card, then "same"."""
    return (
        f"retry: {RETRY_MS}\n\n"
        + event("card", {"activity": 3, "revision": 7}, 7)
        + ": keep-alive\n\n"
        + event("card", {"activity": 4, "revision": 8, "text": "über"}, 8)
        + event("same", {"revision": 8}, 8)
    )


EXPECTED = [
    SseEvent("card", json.dumps({"activity": 3, "revision": 7}, separators=(",", ":")), "7"),
    SseEvent(
        "card",
        json.dumps({"activity": 4, "revision": 8, "text": "über"}, ensure_ascii=False, separators=(",", ":")),
        "8",
    ),
    SseEvent("same", json.dumps({"revision": 8}, separators=(",", ":")), "8"),
]


@pytest.mark.parametrize("size", [1, 2, 5, 1000])
def test_the_routes_events_come_out_whole_however_the_stream_is_cut(size: int) -> None:
    parser = SseParser()
    text = stream_text()
    events = [e for i in range(0, len(text), size) for e in parser.feed(text[i : i + size])]
    assert events == EXPECTED
    assert parser.retry == RETRY_MS
    assert parser.comments == 1
    assert parser.last_id == "8"


def test_crlf_and_cr_line_ends_multi_line_data_and_a_space_after_the_colon() -> None:
    parser = SseParser()
    text = "retry:250\r\nevent:card\r\ndata: one\r\ndata:two\r\n\r\nid: 9\rdata: x\r\r"
    events = [e for ch in text for e in parser.feed(ch)]  # a CR LF cut between two pieces is one line end
    assert events == [SseEvent("card", "one\ntwo", ""), SseEvent("message", "x", "9")]
    assert parser.retry == 250


def test_no_event_without_data_and_a_bad_retry_is_ignored() -> None:
    parser = SseParser()
    assert parser.feed("event: card\n\nretry: soon\n\nid: 3\n\n") == []
    assert parser.retry is None
    assert parser.last_id == "3"


@dataclass
class FakeAnswers:
    """``Answers.of_student`` over answers kept by (activity, student id)."""

    stored: dict = field(default_factory=dict)

    def of_student(self, activity_id: int, student_id: str) -> dict:
        return dict(self.stored.get((activity_id, student_id), {}))


@dataclass
class FakeStore:
    answers: FakeAnswers


def test_answers_are_matched_by_student_id_and_value() -> None:
    r = Round(number=0, activity_id=5)
    r.values = {"id-a": "0.61", "id-b": "0.72", "id-c": "0.83", "id-d": "0.94"}
    store = FakeStore(
        FakeAnswers(
            {
                (5, "id-a"): {0: 0.61},  # kept as a float
                (5, "id-b"): {0: "0.72"},  # kept as typed
                (5, "id-c"): {0: 0.5},  # another value: lost
                (6, "id-d"): {0: 0.94},  # another activity's: lost
                (5, "id-e"): {0: 0.1},  # never acknowledged: not counted
            }
        )
    )
    acked, lost, examples = check_stored(store, [r])
    assert (acked, lost) == (4, 2)
    assert len(examples) == 2
