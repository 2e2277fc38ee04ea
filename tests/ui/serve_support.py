"""A real ``serve.py`` on its own SQLite file, for the tests of the phones' routes as a client meets them (bodies,
headers, streams, addresses), and plain HTTP to it."""

import contextlib
import http.client
import json
from dataclasses import dataclass

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage import Classroom
from support import free_port, start_app, stop_app

# The small limits of ``conftest.serve_py_limited``'s server (the defaults are larger): wrong join codes from one
# place before joining is slowed, card streams a student may hold, watch streams a client address may hold.
LIMITED = {
    "NDCG_LAB_FREE_JOIN_FAILURES": 2,
    "NDCG_LAB_STREAMS_PER_STUDENT": 2,
    "NDCG_LAB_WATCH_STREAMS_PER_CLIENT": 3,
}


@dataclass
class Served:
    """A running ``serve.py``: its port, the store it uses (from this process), a room, its key and a student."""

    port: int
    store: Classroom
    code: str
    key: str
    me: str

    def request(self, method, path, body=None, headers=None):
        """One request on a connection of its own: (status, headers as a dict in lower case, body as bytes)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            reply = conn.getresponse()
            return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
        finally:
            conn.close()

    def post_json(self, path, data, headers=None):
        """A JSON body posted as a phone does: (status, the reply's JSON or ``None``)."""
        body = data if isinstance(data, bytes) else json.dumps(data).encode()
        status, _, raw = self.request("POST", path, body, {"Content-Type": "application/json", **(headers or {})})
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, None


@dataclass
class Server:
    """A running ``serve.py`` on a SQLite file: its port and its database's URL."""

    port: int
    url: str


@contextlib.contextmanager
def started(folder, **env):
    """``serve.py`` with its SQLite file in ``folder`` (and ``env`` added), stopped afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{folder / 'classroom.sqlite3'}"
    port = free_port()
    with open(folder / "serve.log", "w") as log:
        server = start_app(port, log, {"NDCG_LAB_DATABASE_URL": url, **env})
    try:
        yield Server(port, url)
    finally:
        stop_app(server)


@contextlib.contextmanager
def room_on(server):
    """A new room on a running ``server`` with one student (Ana) in it."""
    store = Classroom(server.url)
    try:
        room, key = store.rooms.create()
        me = rules.new_student_id()
        store.students.join(room.code, me, "Ana", source="test")
        yield Served(server.port, store, room.code, key, me)
    finally:
        store.close()


@contextlib.contextmanager
def serving(folder, **env):
    """``serve.py`` of its own with its SQLite file in ``folder`` (and ``env`` added), a room with one student (Ana)
    in it: for a test whose server needs a setting of its own (the others share ``conftest.serve_py``'s)."""
    with started(folder, **env) as server, room_on(server) as running:
        yield running
