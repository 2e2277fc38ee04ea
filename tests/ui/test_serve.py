"""``serve.py``: the card route the classroom's phones poll every 0.75 s (its "same" answer, tried once when the
database is down, nothing for strangers), and Nagle's algorithm off on the server's sockets."""

import asyncio
import json
import socket
from urllib.parse import urlencode

import pytest
from starlette.requests import Request

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.lists import random_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.storage import Classroom, Database, database_url
from support import run_coroutine


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    return tmp_path


def get(code, me=None, known=0):
    """The phone's poll: the card route with the revision of the card it shows (``known``)."""
    from ui.phones.routes import phone_card_route

    fields = {"me": me, "known": known} if me is not None else {"known": known}
    query = urlencode(fields).encode()
    request = Request({"type": "http", "method": "GET", "path_params": {"code": code}, "query_string": query})
    reply = run_coroutine(phone_card_route(request))
    body = json.loads(reply.body)
    return reply.status_code, body if "same" in body or "error" in body else "card", reply.headers.get("cache-control")


def test_the_card_route_says_same_until_the_teachers_change_and_then_gives_the_card_at_once(data_dir):
    from ui.database import room_changed

    store = Classroom(database_url())
    room, key = store.rooms.create()
    me = rules.new_student_id()
    store.students.join(room.code, me, None, source="test")
    same = (200, {"revision": 0, "same": True}, "no-store")
    assert get(room.code, me) == same
    assert get(room.code.lower(), me) == same  # read as typed, as the join box does
    store.rooms.open_activity(room.code, key, Predict(random_list(1)))
    room_changed(room.code)  # what the teacher's page does after every action
    assert get(room.code, me) == (200, "card", "no-store")
    assert get(room.code, me, known=1) == (200, {"revision": 1, "same": True}, "no-store")
    store.close()


def test_the_card_route_answers_503_tried_once_when_the_database_is_not_answering_and_200_once_it_is_back(
    data_dir, monkeypatch
):
    import sqlalchemy as sa

    from ui import database

    store = Classroom(database_url())
    room, _ = store.rooms.create()
    me, later = rules.new_student_id(), rules.new_student_id()
    store.students.join(room.code, me, None, source="test")
    store.students.join(room.code, later, None, source="test")
    assert get(room.code, me)[0] == 200  # known to this process now
    tries = []

    def down(self):
        tries.append(1)
        raise sa.exc.OperationalError("SELECT", {}, ConnectionError("server closed the connection"), True)

    with monkeypatch.context() as outage:
        outage.setattr(Database, "read", down)
        outage.setattr(database, "REVISION_TTL", 0.0)  # every poll reads
        assert get(room.code, me) == (503, {"error": "unavailable"}, "no-store")
        assert get(room.code, later) == (503, {"error": "unavailable"}, "no-store")  # not yet known: membership
        assert len(tries) == 2  # each tried once: the phone asks again anyway
    assert get(room.code, later) == (200, {"revision": 0, "same": True}, "no-store")
    store.close()


def test_the_card_route_tells_a_stranger_nothing_about_which_rooms_exist(data_dir):
    store = Classroom(database_url())
    room, _ = store.rooms.create()
    other, _ = store.rooms.create()
    me, stranger = rules.new_student_id(), rules.new_student_id()
    store.students.join(other.code, me, None, source="test")
    gone = (404, {"error": "room.unknown"}, "no-store")
    assert get(room.code) == gone  # no student id
    assert get(room.code, stranger) == gone  # an id that never joined
    assert get(room.code, me) == gone  # a student of another room
    assert get(room.code, "<b>x</b>") == gone
    assert get("ABCDEF", me) == gone  # no such room: the same answer
    assert get("AB0", me) == gone  # not a code at all
    assert get(other.code, me)[0] == 200
    store.close()


def test_serve_turns_nagle_off_on_sockets_bound_as_streamlit_binds_them(monkeypatch):
    from ui.phones.phone_page import ROUTES_ENV

    # Importing serve.py also says this process serves the phone page: undone after this test, or every later
    # Classroom AppTest in the process would send its phones to a page AppTest cannot show.
    monkeypatch.setenv(ROUTES_ENV, "0")
    import serve  # noqa: F401  (its import sets the server's socket option)
    from ui.server_tuning import set_nodelay

    assert asyncio.base_events._set_nodelay is set_nodelay

    async def accepted_option():
        listener = socket.socket(family=socket.AF_INET)  # proto 0, as Streamlit binds: asyncio alone skips it
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        seen = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport):
                sock = transport.get_extra_info("socket")
                seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        _, writer = await asyncio.open_connection(*listener.getsockname())
        value = await asyncio.wait_for(seen, 10)
        writer.close()
        server.close()
        return value

    assert run_coroutine(accepted_option()) != 0


def test_the_private_asyncio_name_the_server_tuning_replaces_is_still_where_asyncio_calls_it():
    # Fails loudly when asyncio moves or renames it: then Nagle would silently stay on (40 ms per message).
    import asyncio.base_events
    import asyncio.selector_events
    import inspect

    from ui.server_tuning import PRIVATE_NAME

    assert callable(getattr(asyncio.base_events, PRIVATE_NAME))
    transport_init = inspect.getsource(asyncio.selector_events._SelectorSocketTransport.__init__)
    assert f"base_events.{PRIVATE_NAME}(self._sock)" in transport_init


def test_turning_nagle_off_refuses_when_the_private_name_is_gone(monkeypatch):
    import asyncio.base_events

    from ui import server_tuning

    monkeypatch.delattr(asyncio.base_events, server_tuning.PRIVATE_NAME)
    with pytest.raises(RuntimeError, match="_set_nodelay is gone"):
        server_tuning.turn_nagle_off()
    assert not hasattr(asyncio.base_events, server_tuning.PRIVATE_NAME)
