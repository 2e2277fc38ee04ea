"""A class's event streams woken by one notice (``ui.phones.routes.card_stream``, in one event loop as the server runs
them, on SQLite): one read of what their cards need, then each card made from it in the loop; each card exactly
the card route's, a student's own answer included."""

import asyncio
import json

import pytest

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.lists import random_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.notices import Watcher
from ndcg_core.classroom.service import ClassroomService
from ndcg_core.classroom.storage.answers import Answers
from ndcg_core.classroom.storage.rooms import Rooms
from support import run_coroutine, wait_until

CLASS = 30


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    return tmp_path


def counted(monkeypatch, owner, name):
    """Count the calls of ``owner.name`` (each still runs)."""
    calls = []
    real = getattr(owner, name)

    def call(self, *args):
        calls.append(args)
        return real(self, *args)

    monkeypatch.setattr(owner, name, call)
    return calls


async def next_card(stream):
    """The stream's next card event's data (comments and ``same`` skipped)."""
    async for block in stream:
        if block.startswith("id:") and "event: card" in block:
            return json.loads(block.split("data: ", 1)[1])
    raise AssertionError("the stream ended")


def class_woken(monkeypatch, change, before=None):
    """Every student's stream showing the room's revision (after ``before(store, code, key, students)``), then
    ``change(...)`` made by the teacher: (each student's next card, each one's card as the card route sends it, the
    reads counted)."""
    from ui import database
    from ui.phones import routes

    # As on a machine so slow that the revision read for the class is stale before its last card is made: the
    # notice's revision must still let every card come from the one read.
    monkeypatch.setattr(database, "REVISION_TTL", 0.0)
    # The file's watcher would tell of the answers a test stores at a moment of its own (with whose: that student's
    # card is then read alone): each test says when an answer is heard of. A change's own notice needs no watcher.
    monkeypatch.setattr(Watcher, "start", lambda self: self)
    store = database.db()
    room, key = store.rooms.create()
    students = [store.students.join(room.code, rules.new_student_id(), f"s{i}").id for i in range(CLASS)]
    database.notices()
    if before is not None:
        before(store, room.code, key, students)

    async def run():
        revision = database.room_revision(room.code)
        streams = [routes.card_stream(room.code, s, "en", revision, revision) for s in students]
        for stream in streams:  # retry, then "same": each shows the room as it is
            assert (await anext(stream)).startswith("retry")
            assert "event: same" in await anext(stream)
        waiting = [asyncio.ensure_future(next_card(stream)) for stream in streams]
        await asyncio.sleep(0.05)  # every stream waits on the hub
        reads = {
            "prepare": counted(monkeypatch, ClassroomService, "prepare"),
            "room": counted(monkeypatch, Rooms, "get"),
            "answers": counted(monkeypatch, Answers, "by_student"),
            "card_json": [],
        }
        real_card_json = routes.card_json
        monkeypatch.setattr(routes, "card_json", lambda *a: reads["card_json"].append(a) or real_card_json(*a))
        await asyncio.to_thread(change, store, room.code, key, students)
        cards = await asyncio.wait_for(asyncio.gather(*waiting), 30)
        for stream in streams:
            await stream.aclose()
        return cards, {name: list(calls) for name, calls in reads.items()}

    cards, reads = run_coroutine(run())
    sent = [json.loads(json.dumps(routes.card_json(room.code, s, "en"))) for s in students]
    return cards, sent, reads


def test_a_class_woken_by_an_opening_costs_one_read_and_each_gets_the_card_route_s_card(data_dir, monkeypatch):
    def open_one(store, code, key, students):
        store.rooms.open_activity(code, key, Predict(random_list(3)))

    cards, expected, reads = class_woken(monkeypatch, open_one)
    assert cards == expected
    assert {card["phase"] for card in cards} == {"open"}
    assert (len(reads["prepare"]), len(reads["room"]), len(reads["answers"])) == (1, 1, 1)
    assert reads["card_json"] == []  # no phone read its card in a thread of its own


def test_an_answer_heard_of_during_the_class_s_read_costs_the_class_one_more_read_not_one_per_phone(
    data_dir, monkeypatch
):
    """The laptop case's later openings: the class's first answers come in while its read of the answers is made
    (on SQLite the file's watcher tells an answer without whose), so that read is not kept; the class waits on one
    more read, where each phone read its own card in a thread (a query per phone, 2 CPU-s for 1,000 phones)."""
    from ui import database

    def open_while_answering(store, code, key, students):
        class_read = Answers.by_student  # counted by ``class_woken``
        overtaken = []

        def read(self, activity_id):
            every = class_read(self, activity_id)
            if not overtaken:  # an answer stored and heard of after this read's snapshot
                overtaken.append(activity_id)
                store.answers.submit(code, students[0], activity_id, [(0, "0.5")])
                database.answer_stored(code, activity_id)
            return every

        monkeypatch.setattr(Answers, "by_student", read)
        store.rooms.open_activity(code, key, Predict(random_list(3)))

    cards, expected, reads = class_woken(monkeypatch, open_while_answering)
    assert cards == expected
    assert cards[0]["answered"] and not any(card["answered"] for card in cards[1:])
    assert (len(reads["prepare"]), len(reads["answers"])) == (2, 2)
    assert reads["card_json"] == []


def test_a_student_s_own_answer_is_on_their_card_made_from_the_class_s_one_read(data_dir, monkeypatch):
    from ui import database

    def open_and_answer(store, code, key, students):
        activity = store.rooms.open_activity(code, key, Predict(random_list(3)))
        store.answers.submit(code, students[0], activity.id, [(0, "0.5")])
        database.answer_stored(code, activity.id)

    def lock(store, code, key, students):
        store.rooms.set_phase(code, key, "locked")

    cards, expected, reads = class_woken(monkeypatch, lock, before=open_and_answer)
    assert cards == expected
    assert cards[0] != cards[1]  # the first student's card has their answer; the others' do not
    assert len({str(card) for card in cards[1:]}) == 1
    assert len(reads["answers"]) == 1 and reads["card_json"] == []


def test_a_class_arriving_at_once_is_looked_up_in_one_read_and_a_stranger_is_not_let_in(data_dir, monkeypatch):
    """Phones that joined through another process (one that stopped), arriving here together: whether each has
    joined is asked of the database once for all of them."""
    from ndcg_core.classroom.storage.students import Students
    from ui import database
    from ui.phones import routes

    store = database.db()
    room, _ = store.rooms.create()
    students = [store.students.join(room.code, rules.new_student_id(), f"s{i}").id for i in range(CLASS)]
    stranger = rules.new_student_id()
    reads = counted(monkeypatch, Students, "joined_of")

    async def arrive():
        return await asyncio.gather(*(routes.member(room.code, s) for s in [*students, stranger]))

    who = run_coroutine(arrive())
    assert who == [(room.code, s) for s in students] + [None]
    assert len(reads) == 1 and reads[0][1] == {*students, stranger}
    assert run_coroutine(routes.member(room.code, students[0])) == (room.code, students[0])
    assert len(reads) == 1  # known to this process from then on


def test_a_student_who_joined_or_answered_through_another_process_is_let_in_without_a_read(data_dir, monkeypatch):
    """Every process hears whose joins and answers (``Hub``'s notices): a class moving here from a process that
    stopped is let in with no read at all, however many arrive."""
    from ndcg_core.classroom.notices import Notice
    from ndcg_core.classroom.storage.students import Students
    from ui import database
    from ui.phones import routes

    room, _ = database.db().rooms.create()
    joined, answered, stranger = (rules.new_student_id() for _ in range(3))
    hub = database.notices()
    hub.tell(Notice(room.code, joined=True, student=joined))  # as the listener hears another process's join
    hub.tell(Notice(room.code, activity=1, student=answered))
    hub.tell(Notice(room.code, joined=True))  # a notice that does not say whose lets nobody in
    reads = counted(monkeypatch, Students, "joined_of")

    who = run_coroutine(routes.member(room.code, joined)), run_coroutine(routes.member(room.code, answered))
    assert who == ((room.code, joined), (room.code, answered))
    assert reads == []
    assert run_coroutine(routes.member(room.code, stranger)) is None
    assert len(reads) == 1


def test_an_answer_s_reply_reads_that_student_s_answers_not_the_class_s(data_dir, monkeypatch):
    """Each answer makes the class's read stale: its reply's card must not read the whole class again (a class of
    1,000 answering would read a million rows)."""
    from ui import database
    from ui.phones import routes

    store = database.db()
    room, key = store.rooms.create()
    ann = store.students.join(room.code, rules.new_student_id(), "Ann").id
    store.rooms.open_activity(room.code, key, Predict(random_list(3)))
    activity = store.rooms.get(room.code).current
    database.service().prepare(room.code)
    whole = counted(monkeypatch, Answers, "by_student")
    reply = routes.submit(room.code, ann, "en", {"activity": activity.id, "values": [[0, "0.5"]]})
    assert reply.ok and reply.card is not None
    assert reply.card == routes.card_json(room.code, ann, "en")
    assert whole == []


def events_request(code, student, known=None):
    """A phone's request of the events route, as Starlette hands it to ``ui.phones.routes.events_route``."""
    from urllib.parse import urlencode

    from starlette.requests import Request

    query = {"me": student, "lang": "en"} | ({} if known is None else {"known": known})
    return Request(
        {"type": "http", "method": "GET", "path_params": {"code": code}, "query_string": urlencode(query).encode()}
    )


def test_a_class_reconnecting_at_once_reads_the_room_s_revision_once(data_dir, monkeypatch):
    """Phones whose server process died open their streams here together: the room's revision is read once for
    all of them, not once per phone in the thread pool (500 of those queued for seconds behind the class's
    answers while the process was mostly idle)."""
    from ui import database
    from ui.phones import routes

    monkeypatch.setattr(database, "REVISION_TTL", 0.0)  # never at hand: every phone would read it
    store = database.db()
    room, _ = store.rooms.create()
    students = [store.students.join(room.code, rules.new_student_id(), f"s{i}").id for i in range(CLASS)]
    reads = counted(monkeypatch, Rooms, "revision")

    async def arrive():
        return await asyncio.gather(*(routes.events_route(events_request(room.code, s)) for s in students))

    responses = run_coroutine(arrive())
    assert [r.status_code for r in responses] == [200] * CLASS
    assert {r.media_type for r in responses} == {"text/event-stream"}
    assert len(reads) == 1
    run_coroutine(arrive())
    assert len(reads) == 2  # a read ended is not reused: the next arrivals read again


def test_a_shared_read_s_failure_reaches_every_phone_waiting_and_one_leaving_cancels_nothing(data_dir, monkeypatch):
    from ndcg_core.errors import StoreUnavailable
    from ui import database
    from ui.phones import routes

    monkeypatch.setattr(database, "REVISION_TTL", 0.0)
    room, _ = database.db().rooms.create()
    calls = []

    def read(code, quick):
        calls.append(code)
        if len(calls) == 1:
            raise StoreUnavailable("store.unavailable")
        return 7

    monkeypatch.setattr(routes, "room_revision", read)

    async def run():
        failing = await asyncio.gather(*(routes.revision_now(room.code) for _ in range(5)), return_exceptions=True)
        assert [type(f) for f in failing] == [StoreUnavailable] * 5
        leaving = asyncio.ensure_future(routes.revision_now(room.code))
        staying = asyncio.ensure_future(routes.revision_now(room.code))
        await asyncio.sleep(0)
        leaving.cancel()  # it started the read: the read goes on for the phone still waiting
        return await staying

    assert run_coroutine(run()) == 7
    assert calls == [room.code, room.code]


def test_a_stream_opened_on_a_revision_read_before_a_change_begins_with_the_new_card(data_dir, monkeypatch):
    """A phone given the revision of a read shared with phones that came before it (read before the teacher's
    change, which this process has heard of since): its stream's first event is the new card, not ``same``."""
    from ui import database
    from ui.phones import routes

    store = database.db()
    room, key = store.rooms.create()
    ann = store.students.join(room.code, rules.new_student_id(), "Ann").id
    hub = database.notices()
    old = database.room_revision(room.code)
    store.rooms.open_activity(room.code, key, Predict(random_list(3)))
    assert wait_until(lambda: (hub.mark(room.code).revision or -1) > old)

    async def first_event():
        stream = routes.card_stream(room.code, ann, "en", old, old)
        try:
            assert (await anext(stream)).startswith("retry")
            return await anext(stream)
        finally:
            await stream.aclose()

    block = run_coroutine(first_event())
    assert "event: card" in block
    card = json.loads(block.split("data: ", 1)[1])
    assert card == json.loads(json.dumps(routes.card_json(room.code, ann, "en")))
    assert card["phase"] == "open"
