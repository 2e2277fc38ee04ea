"""A phone's stream of its card (``GET /api/room/CODE/events``, Server-Sent Events) from a real ``serve.py`` on the
test session's PostgreSQL: the card at once (exactly the card route's), then a new card the moment the teacher opens
an activity from another process (``NOTIFY``, no poll), ``same`` when the phone already shows the room's revision,
the card route's 404 for a stranger; and a server asked to stop ends its streams instead of waiting for them."""

import contextlib
import http.client
import json
import time
import urllib.request
from urllib.parse import urlencode

import pytest
from storage_support import predict

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage import Classroom
from support import empty_database, free_port, start_app, stop_app


@contextlib.contextmanager
def serving(url, folder):
    """``serve.py`` on the database at ``url``, its log in ``folder``; yields (its port, its process)."""
    port = free_port()
    with open(folder / "serve.log", "w") as log:
        server = start_app(port, log, {"NDCG_LAB_DATABASE_URL": url})
    try:
        listening(port)
        yield port, server
    finally:
        stop_app(server)


def mark_reaches(port, code, part, at_least, failure, seconds=30):
    """Wait until the watch route's mark of room ``code`` has at least ``at_least`` in its ``part`` (a mark reads
    process.epoch.changes.answers.joins: 1 is the epoch, 4 the joins); ``failure``: the assertion's message."""
    deadline = time.monotonic() + seconds
    while True:
        stream = Stream(port, f"/api/room/{code}/watch")
        try:
            stream.next()  # retry
            value = int(stream.next()["id"].split(".")[part])
        finally:
            stream.close()
        if value >= at_least:
            return
        assert time.monotonic() < deadline, failure
        time.sleep(0.05)


def listening(port):
    """Wait until the process listens for the database's notices: its hub is made at the first stream, and its
    listener's first connection starts a new epoch of every mark (``Hub.reset``), so a test that read a mark before
    then would see it change for no change of its room."""
    mark_reaches(port, rules.new_code(), 1, 1, "serve.py's listener did not connect")


def heard_the_join(port, code):
    """Wait until the process has heard of the room's first student (``NOTIFY`` arrives when it arrives), so a test
    that reads the room's mark next does not see it change later for the fixture's own join."""
    mark_reaches(port, code, 4, 1, "serve.py did not hear of the room's student")


@contextlib.contextmanager
def a_room(url):
    """A room with one student, made by another process (this one): (the store, its code, its key, the student)."""
    store = Classroom(url)
    room, key = store.rooms.create()
    me = rules.new_student_id()
    store.students.join(room.code, me, "Ana", source="test")
    try:
        yield store, room.code, key, me
    finally:
        store.close()


@pytest.fixture(scope="module")
def server(postgres_cluster, tmp_path_factory):
    """``serve.py`` on the cluster, one for the module's tests (each has a room of its own on it)."""
    empty_database(postgres_cluster.url)
    with serving(postgres_cluster.url, tmp_path_factory.mktemp("served")) as running:
        yield running


@pytest.fixture
def served(server, postgres_cluster):
    """The module's ``serve.py`` and a new room with one student: (port, store, code, key, student, process)."""
    port, process = server
    with a_room(postgres_cluster.url) as (store, code, key, me):
        heard_the_join(port, code)
        yield port, store, code, key, me, process


@pytest.fixture
def served_alone(postgres_cluster, tmp_path):
    """As ``served``, on a ``serve.py`` of the test's own, for a test that stops it."""
    with serving(postgres_cluster.url, tmp_path) as (port, process), a_room(postgres_cluster.url) as room:
        heard_the_join(port, room[1])
        yield (port, *room, process)


class Stream:
    """An open event stream, read event by event (comments and ``retry`` kept as they come)."""

    def __init__(self, port, path, headers=None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.conn.getresponse()

    def next(self):
        """The next block up to a blank line, as a dict of its fields (``data`` parsed as JSON)."""
        fields = {}
        while True:
            line = self.response.readline().decode()
            assert line, "the stream ended"
            line = line.rstrip("\n")
            if not line:
                if fields:
                    return fields
                continue
            name, _, value = line.partition(":")
            fields[name or "comment"] = json.loads(value.strip()) if name == "data" else value.strip()

    def close(self):
        self.conn.close()


def events_path(code, me, **query):
    return f"/api/room/{code}/events?{urlencode({'me': me, 'lang': 'en', **query})}"


def card_route(port, code, me):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/room/{code}/card?{urlencode({'me': me})}") as reply:
        return json.load(reply)


def test_a_phone_gets_its_card_at_once_then_the_new_one_when_the_teacher_opens_an_activity(served):
    port, store, code, key, me, _ = served
    stream = Stream(port, events_path(code, me))
    try:
        assert stream.response.status == 200
        assert stream.response.getheader("Content-Type").startswith("text/event-stream")
        assert stream.response.getheader("Cache-Control") == "no-store"
        assert stream.response.getheader("X-Accel-Buffering") == "no"
        assert stream.next() == {"retry": "1000"}
        first = stream.next()
        assert (first["event"], first["id"]) == ("card", "0")
        assert first["data"] == card_route(port, code, me)  # the page draws it with no other request
        assert first["data"]["activity"] is None

        opened = store.rooms.open_activity(code, key, predict())  # another process: heard through NOTIFY
        second = stream.next()
        assert (second["event"], second["id"]) == ("card", "1")
        assert second["data"]["revision"] == 1
        assert second["data"]["activity"] == opened.id
        assert second["data"] == {**card_route(port, code, me), "left": second["data"]["left"]}
    finally:
        stream.close()


def test_a_phone_that_shows_the_rooms_revision_is_told_same_and_a_stranger_gets_404(served):
    port, _, code, _, me, _ = served
    stream = Stream(port, events_path(code, me, known=0))
    try:
        assert stream.next() == {"retry": "1000"}
        assert stream.next() == {"id": "0", "event": "same", "data": {"revision": 0}}
    finally:
        stream.close()
    stranger = Stream(port, events_path(code, rules.new_student_id()))
    try:
        assert stranger.response.status == 404
        assert json.loads(stranger.response.read()) == {"error": "room.unknown"}
    finally:
        stranger.close()


def test_a_server_asked_to_stop_ends_its_streams_and_stops(served_alone):
    port, _, code, _, me, server = served_alone
    stream = Stream(port, events_path(code, me))
    try:
        assert stream.next() == {"retry": "1000"}
        assert stream.next()["event"] == "card"
        server.terminate()  # SIGTERM: uvicorn would wait for every response to end, and a stream never does
        after = []
        while line := stream.response.readline():  # until the stream ends: the phone reconnects to a live process
            after.append(line)
            assert after.count(b": keep-alive\n") < 2, "the stream outlived the server's stop"
        assert after == []
        assert server.wait(timeout=20) is not None
    finally:
        stream.close()
