"""A teacher's page's stream of its room's changes (``GET /api/room/CODE/watch``, Server-Sent Events) from a real
``serve.py`` on the test session's PostgreSQL: ``changed`` at once when the page was drawn at another mark (or by
another process), ``same`` when it was drawn at the mark the process has heard (each with the mark as its id, which
the browser sends back when it reconnects), then ``changed`` at an answer, a join or the teacher's action made by
another process (``NOTIFY``), a burst of answers ending at a mark that counts them all; a malformed room code is a
404."""

import test_phone_card_stream as card_stream
from storage_support import predict
from test_phone_card_stream import Stream

from ndcg_core.classroom import rules

# serve.py on PostgreSQL, the session's (tests/ui/conftest.py), and a room with a student in it for each test (the
# same fixture)
served = card_stream.served


def watch(port, code, seen=None, last_id=None):
    """The watch route's stream, as a page opens it (``seen``) or as the browser reconnects (``last_id``)."""
    query = f"?seen={seen}" if seen else ""
    return Stream(port, f"/api/room/{code}/watch{query}", {"Last-Event-ID": last_id} if last_id else None)


def counts(mark_text):
    """The mark's (changes, answers, joins), after the process's token and the hub's epoch."""
    return tuple(int(n) for n in mark_text.split(".")[2:])


def test_a_page_is_told_at_once_of_what_it_did_not_draw_then_of_each_change(served):
    port, store, code, key, me, _ = served
    first = watch(port, code)  # a page drawn by another process (or never): told at once
    try:
        assert first.response.status == 200
        assert first.response.getheader("Content-Type").startswith("text/event-stream")
        assert first.response.getheader("X-Accel-Buffering") == "no"
        assert first.next() == {"retry": "1000"}
        told = first.next()
        assert (told["event"], told["data"]) == ("changed", {})
        mark = told["id"]
    finally:
        first.close()

    stream = watch(port, code, seen=mark)  # drawn at the mark the process has heard: nothing to tell
    try:
        assert stream.next() == {"retry": "1000"}
        assert stream.next() == {"id": mark, "event": "same", "data": {}}  # at once: the stream gets through
        activity = store.rooms.open_activity(code, key, predict())  # the teacher's action, from another process
        opened = stream.next()
        assert opened["event"] == "changed" and counts(opened["id"]) == tuple(
            a + b for a, b in zip(counts(mark), (1, 0, 0), strict=True)
        )
        store.answers.submit(code, me, activity.id, [(0, "0.5")])
        answered = stream.next()
        assert answered["event"] == "changed" and counts(answered["id"])[1] == counts(mark)[1] + 1
        store.students.join(code, rules.new_student_id(), "Bo", source="test")
        joined = stream.next()
        assert joined["event"] == "changed" and counts(joined["id"])[2] == counts(mark)[2] + 1
        # A burst of answers (told at most once per half second): the last event's mark counts them all.
        others = [rules.new_student_id() for _ in range(6)]
        for other in others:
            store.students.join(code, other, None, source="test")
        for other in others:
            store.answers.submit(code, other, activity.id, [(0, "0.7")])
        target = counts(joined["id"])[1] + len(others)
        seen = []
        while not seen or counts(seen[-1]["id"])[1] < target:
            seen.append(stream.next())
        assert counts(seen[-1]["id"])[1] == target
    finally:
        stream.close()

    again = watch(port, code, seen=mark, last_id=joined["id"])  # a reconnect: its last id wins over the address's
    try:
        assert again.next() == {"retry": "1000"}
        assert again.next()["event"] == "changed"  # answers came after that id
    finally:
        again.close()


def test_a_malformed_room_is_a_404(served):
    """A well-formed code that is no room's is answered as a room's (``test_streams_are_capped_and_the_watch_route_
    tells_no_room_apart``); a code that is not one cannot be a room's."""
    port = served[0]
    stream = watch(port, "not-a-code")
    try:
        assert stream.response.status == 404
    finally:
        stream.close()
