"""The classroom's storage (``ndcg_core.classroom.store``), checked where mutation testing found it loose.

SQLite only (PostgreSQL's copies of the store tests are left out of the mutation run): exact expiry instants,
limits and their messages' fields, what a purge keeps, rejoining, the rate limit's refill, and short links.
"""

import json
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

import ndcg_core
from ndcg_core.classroom import activities as A
from ndcg_core.classroom import rules, store
from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.store import Room, Store, Student, database_url, make_engine
from ndcg_core.errors import Place
from support import error_of

T0 = 1_800_000_000.0
HOUR = 3600.0


class Clock:
    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def make(tmp_path, clock):
    made = []

    def make_store(name="classroom.sqlite3", **limits):
        s = Store(f"sqlite:///{tmp_path / name}", limits=Limits(**limits), clock=clock)
        made.append(s)
        return s

    yield make_store
    for s in made:
        s.close()


def fields(error):
    return error.code, error.fields


def sid(n):
    return f"student-{n:04d}-abcdefgh"


def table(s, name):
    with s.engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(sa.select(store.metadata.tables[name]))]


def predict():
    return A.Predict(A.ListSpec(("a", "b"), (0, 1), 2))


# --- where and how ----------------------------------------------------------------------------------


def test_the_database_url_from_the_environment(monkeypatch, tmp_path):
    assert database_url({"NDCG_LAB_DATABASE_URL": " postgresql+psycopg://u@h/db "}) == "postgresql+psycopg://u@h/db"
    assert database_url({"NDCG_LAB_DATA_DIR": str(tmp_path)}) == f"sqlite:///{tmp_path}/classroom.sqlite3"
    assert database_url({"NDCG_LAB_DATABASE_URL": "  ", "NDCG_LAB_DATA_DIR": "/x"}) == "sqlite:////x/classroom.sqlite3"
    checkout = Path(ndcg_core.__file__).resolve().parent.parent  # the folder that holds the package
    assert database_url({}) == f"sqlite:///{checkout}/data/classroom.sqlite3"
    monkeypatch.setenv("NDCG_LAB_DATABASE_URL", "postgresql+psycopg://me@there/lab")
    assert database_url() == "postgresql+psycopg://me@there/lab"


def test_a_sqlite_engine_makes_its_folders_and_sets_its_pragmas(tmp_path):
    path = tmp_path / "a" / "b" / "classroom.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            pragma = {p: conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("journal_mode", "foreign_keys")}
            pragma.update({p: conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("busy_timeout", "synchronous")})
        assert pragma == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 15000, "synchronous": 1}
        assert path.exists() and (engine.pool.size(), engine.pool._max_overflow) == (10, 20)
    finally:
        engine.dispose()


def test_a_server_engine_checks_connections_before_use():
    engine = make_engine("postgresql+psycopg://u@localhost/lab")
    assert (engine.pool.size(), engine.pool._max_overflow, engine.pool._pre_ping) == (10, 20, True)
    assert str(engine.url) == "postgresql+psycopg://u@localhost/lab"


def test_the_schema_version_is_read_back_and_a_newer_one_refused(make, tmp_path):
    s = make()
    assert {r["name"]: r["value"] for r in table(s, "meta")} == {"schema_version": 1, "room_lock": 0}
    s.create_room()
    s.create_room()
    assert {r["name"]: r["value"] for r in table(s, "meta")} == {"schema_version": 1, "room_lock": 2}
    assert s.schema_version() == 1
    with s.engine.begin() as conn:
        conn.execute(sa.update(store.meta).where(store.meta.c.name == "schema_version").values(value=7))
    error = error_of(make)
    assert fields(error) == ("room.schema", {"value": "7", "version": 1})


# --- rooms ---------------------------------------------------------------------------------------------


def test_a_new_room_as_stored(make, clock):
    s = make()
    room, key = s.create_room()
    assert room == Room(room.code, T0, T0 + 12 * HOUR, None, False, 0, 0, 0, None)
    assert s.revision(room.code) == 0


def test_a_taken_room_code_is_drawn_again_twenty_times_at_most(make, monkeypatch):
    s = make()
    first, _ = s.create_room()
    codes = iter([first.code, first.code, "ABCDEF"])
    monkeypatch.setattr(rules, "new_code", lambda: next(codes))
    second, _ = s.create_room()
    assert second.code == "ABCDEF"
    drawn = []
    monkeypatch.setattr(rules, "new_code", lambda: drawn.append(1) or first.code)
    with pytest.raises(RuntimeError, match="^could not draw a free room code$"):
        s.create_room()
    assert len(drawn) == 20


def test_too_many_open_rooms_names_the_limit(make, clock):
    s = make(max_open_rooms=1)
    s.create_room()
    assert fields(error_of(s.create_room)) == ("room.too_many", {"limit": 1})
    clock.now = T0 + 12 * HOUR  # the first room expires at this very instant
    s.create_room()


def test_a_room_expires_at_its_very_instant(make, clock):
    s = make()
    room, key = s.create_room()
    clock.now = T0 + 12 * HOUR - 1
    assert s.room(room.code).code == room.code and s.revision(room.code) == 0
    clock.now = T0 + 12 * HOUR
    assert fields(error_of(s.room, room.code)) == ("room.unknown", {"code": room.code})
    assert s.revision(room.code) is None and s.revision("ABCDEF") is None
    assert fields(error_of(s.join, room.code, sid(1))) == ("room.unknown", {"code": room.code})
    assert fields(error_of(s.answer, room.code, sid(1), 1, [(0, "0.5")])) == ("room.unknown", {"code": room.code})
    assert fields(error_of(s.answer, "ABCDEF", sid(1), 1, [(0, "0.5")])) == ("room.unknown", {"code": "ABCDEF"})


def test_every_teacher_action_adds_one_to_the_revision_of_that_room_only(make, clock):
    s = make()
    room, key = s.create_room()
    other, other_key = s.create_room()
    clock.now = T0 + 5
    first = s.open_activity(room.code, key, predict())
    assert (first.number, first.kind, first.phase, first.opened_at) == (1, "predict", "open", T0 + 5)
    assert first.payload == predict().payload()
    assert s.revision(room.code) == 1
    s.set_phase(room.code, key, "locked")
    assert s.revision(room.code) == 2 and s.room(room.code).current.phase == "locked"
    s.show_names(room.code, key, True)
    assert s.revision(room.code) == 3 and s.room(room.code).show_names is True
    second = s.open_activity(room.code, key, A.compare_activity("seed003", "mrr"))
    assert second.number == 2 and s.revision(room.code) == 4
    shown = s.room(room.code)
    assert (shown.activities, shown.current.id, shown.current.number) == (2, second.id, 2)
    assert [a.number for a in s.activity_list(room.code)] == [1, 2]
    assert [(a.kind, a.phase) for a in s.activity_list(room.code)] == [("predict", "locked"), ("compare", "open")]
    s.end_room(room.code, key)
    assert s.revision(room.code) == 5 and s.room(room.code).ended_at == T0 + 5
    assert s.revision(other.code) == 0 and s.room(other.code).show_names is False


def test_teacher_actions_check_the_key_and_the_phase(make):
    s = make()
    room, key = s.create_room()
    assert fields(error_of(s.show_names, room.code, "forged", True)) == ("room.bad_key", {})
    assert fields(error_of(s.set_phase, room.code, key, "open")) == ("room.no_activity", {})
    assert fields(error_of(s.set_phase, room.code, key, "closed")) == (
        "room.phase",
        {"value": "'closed'", "choices": "open, locked, revealed"},
    )


def test_a_purge_deletes_expired_rooms_at_their_instant_and_old_records(make, clock):
    s = make(room_hours=48, join_window_seconds=600, short_link_days=1)
    old, old_key = s.create_room()
    clock.now = T0 + 10
    young, young_key = s.create_room()
    for code, k in ((old.code, old_key), (young.code, young_key)):
        activity = s.open_activity(code, k, predict())
        s.join(code, sid(1))
        s.answer(code, sid(1), activity.id, [(0, "0.5")])
    s.save_link("learn", {"a": "1"})
    clock.now = T0 + 10 + 86400 - 600
    assert error_of(s.join, "ABCDEF", sid(9), source="there").code == "room.unknown"  # recorded now
    clock.now = T0 + 10 + 86400  # the link unused for exactly a day and the failure exactly 600 s old stay
    assert s.purge() == 0 and len(table(s, "short_links")) == 1 and len(table(s, "join_failures")) == 1
    clock.now += 0.5
    assert s.purge() == 0 and table(s, "short_links") == [] and table(s, "join_failures") == []
    clock.now = T0 + 48 * HOUR  # the old room's very instant of expiry
    assert s.purge() == 1
    assert [r["code"] for r in table(s, "rooms")] == [young.code]
    assert {r["room"] for t in ("students", "activities", "answers") for r in table(s, t)} == {young.code}


# --- students --------------------------------------------------------------------------------------------


def test_joining_again_keeps_the_number_and_updates_the_nickname_in_that_room_only(make):
    s = make()
    a, _ = s.create_room()
    b, _ = s.create_room()
    assert s.join(a.code, sid(1), "Ana") == Student(a.code, sid(1), 1, "Ana")
    assert s.join(a.code, sid(2)) == Student(a.code, sid(2), 2, None)
    assert s.join(b.code, sid(1), "Bo") == Student(b.code, sid(1), 1, "Bo")  # the same browser in another room
    assert s.join(a.code.lower(), sid(1)) == Student(a.code, sid(1), 1, "Ana")  # no nickname: the old one stays
    assert s.student(a.code, sid(1)) == Student(a.code, sid(1), 1, "Ana")
    assert s.join(a.code, sid(1), "Anita") == Student(a.code, sid(1), 1, "Anita")
    assert s.student(a.code, sid(1)) == Student(a.code, sid(1), 1, "Anita")
    assert s.student(b.code, sid(1)) == Student(b.code, sid(1), 1, "Bo")
    assert s.student(b.code, sid(2)) is None
    assert s.roster(a.code) == [Student(a.code, sid(1), 1, "Anita"), Student(a.code, sid(2), 2, None)]
    assert s.roster(b.code) == [Student(b.code, sid(1), 1, "Bo")]
    assert (s.room(a.code).students, s.room(b.code).students) == (2, 1)


def test_a_full_room_names_its_limit(make):
    s = make(max_students=1)
    room, _ = s.create_room()
    s.join(room.code, sid(1))
    assert fields(error_of(s.join, room.code, sid(2))) == ("room.full", {"limit": 1})
    assert s.join(room.code, sid(1)).number == 1


def test_wrong_codes_slow_joining_from_their_source(make, clock):
    s = make(free_join_failures=1, join_window_seconds=600, max_join_wait_seconds=60)
    room, _ = s.create_room()
    # An unknown room, then a code of the wrong length: both count.
    assert fields(error_of(s.join, "ABCDEF", sid(1))) == ("room.unknown", {"code": "ABCDEF"})
    assert error_of(s.join, "K7", sid(1)).code == "room.code_length"
    # Two failures, one free: wait 2 s after the last; the default source is ""
    assert fields(error_of(s.join, room.code, sid(1), source="")) == ("room.join_wait", {"seconds": 3})
    clock.now += 1.5  # 0.5 s left: still refused, "1 second"
    assert fields(error_of(s.join, room.code, sid(1))) == ("room.join_wait", {"seconds": 1})
    assert s.join(room.code, sid(1), source="elsewhere").number == 1
    clock.now = T0 + 600  # the failures are exactly 600 s old: outside the window
    assert s.join(room.code, sid(2)).number == 2
    assert error_of(s.join, "ABCDEF", sid(3)).code == "room.unknown"  # one failure in the window: free
    assert s.join(room.code, sid(3)).number == 3


def test_a_source_that_is_not_text_is_still_counted(make):
    s = make(free_join_failures=0)
    room, _ = s.create_room()
    assert error_of(s.join, "ABCDEF", sid(1), source="\ud800").code == "room.unknown"
    assert fields(error_of(s.join, room.code, sid(1), source="\ud800")) == ("room.join_wait", {"seconds": 3})
    assert len(table(s, "join_failures")) == 1


# --- answers ----------------------------------------------------------------------------------------------


def test_answers_come_back_by_student_then_part_with_their_time(make, clock):
    s = make()
    room, key = s.create_room()
    other, other_key = s.create_room()
    practice = A.Practice(2026, (0, 3))  # a dcg_term (1.5), then better_order (b)
    activity = s.open_activity(room.code, key, practice)
    elsewhere = s.open_activity(other.code, other_key, practice)
    s.join(room.code, sid(1), "Ana")
    s.join(room.code, sid(2))
    s.join(other.code, sid(2), "Bo")
    clock.now = T0 + 7
    s.answer(room.code, sid(2), activity.id, [(1, "b"), (0, "2")])
    s.answer(room.code, sid(1), activity.id, [(1, "a")])
    s.answer(other.code, sid(2), elsewhere.id, [(0, "1.5")])
    got = s.answers(activity.id)
    assert [(a.student, a.nickname, a.part, a.at) for a in got] == [
        (1, "Ana", 1, T0 + 7),
        (2, None, 0, T0 + 7),
        (2, None, 1, T0 + 7),
    ]
    assert got[2].value == {"answer": "b", "right": True}  # part 1 is checked as part 1
    assert s.my_answers(activity.id, sid(2)) == {0: {"answer": "2", "right": False}, 1: {"answer": "b", "right": True}}
    assert s.my_answers(activity.id, sid(1)) == {1: {"answer": "a", "right": False}}
    assert s.my_answers(elsewhere.id, sid(2)) == {0: {"answer": "1.5", "right": True}}
    [result] = s.results(room.code).activities
    assert [(r.student, r.nickname, r.part, r.value, r.right, r.answered_at) for r in result.rows] == [
        (1, "Ana", 0, None, None, None),  # Ana left exercise 1 unanswered: a row all the same
        (1, "Ana", 1, "a", False, T0 + 7),
        (2, None, 0, "2", False, T0 + 7),
        (2, None, 1, "b", True, T0 + 7),
    ]
    assert (result.number, result.round, result.solutions) == (1, 1, (1.5, "b"))
    second = s.open_activity(room.code, key, predict())
    s.answer(room.code, sid(1), second.id, [(0, "0.5")])
    results = s.results(room.code)
    assert [(r.number, r.kind, [(x.student, x.value) for x in r.rows]) for r in results.activities] == [
        (1, "practice", [(1, None), (1, "a"), (2, "2"), (2, "b")]),
        (2, "predict", [(1, 0.5), (2, None)]),
    ]
    assert [(x.student, x.questions, x.answered, x.right, x.mean_ndcg) for x in results.totals] == [
        (1, 3, 2, int(A.within(0.5, predict().truth())), None),
        (2, 3, 2, 1, None),
    ]


def test_the_answer_bucket_refills_at_its_rate_from_the_last_answer(make, clock):
    s = make(answer_burst=2, answers_per_second=2.0)
    room, key = s.create_room()
    activity = s.open_activity(room.code, key, predict())
    s.join(room.code, sid(1))
    send = [(0, "0.5")]
    s.answer(room.code, sid(1), activity.id, send)
    s.answer(room.code, sid(1), activity.id, send)
    assert fields(error_of(s.answer, room.code, sid(1), activity.id, send)) == ("room.too_fast", {})
    clock.now += 0.5  # 2 a second: one more
    s.answer(room.code, sid(1), activity.id, send)
    assert fields(error_of(s.answer, room.code, sid(1), activity.id, send)) == ("room.too_fast", {})
    clock.now += 0.25  # half an answer since the last one: not yet
    assert fields(error_of(s.answer, room.code, sid(1), activity.id, send)) == ("room.too_fast", {})


# --- short links ---------------------------------------------------------------------------------------------


def test_a_short_link_holds_up_to_25000_characters_of_compact_json(make):
    s = make()
    fixed = len('{"p":""}')
    code = s.save_link("playground", {"p": "é" * (25_000 - fixed)})  # é counts as one character
    assert s.load_link(code) == ("playground", {"p": "é" * (25_000 - fixed)})
    assert table(s, "short_links")[0]["params"] == json.dumps(
        {"p": "é" * (25_000 - fixed)}, ensure_ascii=False, separators=(",", ":")
    )
    error = error_of(s.save_link, "playground", {"p": "x" * (25_001 - fixed)})
    assert fields(error) == ("link.too_long", {"count": 25_001, "limit": 25_000})
    assert fields(error_of(s.save_link, "home", {})) == (
        "go.page",
        {"value": "'home'", "choices": "playground, learn, practice"},
    )


def test_saving_or_opening_a_link_marks_only_that_link_used(make, clock):
    s = make()
    first = s.save_link("learn", {"a": "1"})
    second = s.save_link("learn", {"a": "2"})
    clock.now = T0 + 100
    assert s.save_link("learn", {"a": "1"}) == first
    used = {r["code"]: r["used_at"] for r in table(s, "short_links")}
    assert used == {first: T0 + 100, second: T0}
    clock.now = T0 + 200
    assert s.load_link(second.lower()) == ("learn", {"a": "2"})
    used = {r["code"]: r["used_at"] for r in table(s, "short_links")}
    assert used == {first: T0 + 100, second: T0 + 200}


def test_an_unknown_or_misspelt_short_code(make):
    s = make()
    assert fields(error_of(s.load_link, "ABCDEF")) == ("go.unknown", {"code": "ABCDEF"})
    assert fields(error_of(s.load_link, "")) == ("room.code_blank", {"place": Place("go.code")})


def test_a_taken_link_code_is_drawn_again_twenty_times_at_most(make, monkeypatch):
    s = make()
    taken = s.save_link("learn", {"a": "1"})
    codes = iter([taken, "ABCDEF"])
    monkeypatch.setattr(rules, "new_code", lambda: next(codes))
    assert s.save_link("learn", {"a": "2"}) == "ABCDEF"
    drawn = []
    monkeypatch.setattr(rules, "new_code", lambda: drawn.append(1) or taken)
    with pytest.raises(RuntimeError, match="^could not draw a free short-link code$"):
        s.save_link("learn", {"a": "3"})
    assert len(drawn) == 20


def test_each_database_gets_its_own_insert_with_on_conflict():
    from types import SimpleNamespace

    from sqlalchemy.dialects import postgresql, sqlite

    server = SimpleNamespace(engine=make_engine("postgresql+psycopg://u@localhost/lab"))
    assert isinstance(Store._insert(server, store.meta), postgresql.Insert)
    embedded = SimpleNamespace(engine=make_engine("sqlite://"))
    made = Store._insert(embedded, store.meta)
    assert isinstance(made, sqlite.Insert) and not isinstance(made, postgresql.Insert)
    embedded.engine.dispose()


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_a_classroom_in_memory(url, clock):
    # These URLs were refused with a TypeError (pool sizes given to SQLite's in-memory pool).
    s = Store(url, clock=clock)
    try:
        room, key = s.create_room()
        assert s.join(room.code, sid(1), "Ana") == Student(room.code, sid(1), 1, "Ana")
        joined = []  # a second thread (as the app's server uses) sees the same database
        helper = threading.Thread(target=lambda: joined.append(s.join(room.code, sid(2))))
        helper.start()
        helper.join()
        assert joined == [Student(room.code, sid(2), 2, None)]
        assert s.room(room.code).students == 2 and s.is_teacher(room.code, key)
    finally:
        s.close()


def test_the_roster_is_in_joining_order(make):
    s = make()
    room, _ = s.create_room()
    s.join(room.code, sid(9), "first")
    s.join(room.code, sid(1), "second")
    assert [(st.number, st.nickname) for st in s.roster(room.code)] == [(1, "first"), (2, "second")]


def test_answers_spend_and_check_the_student_of_that_room(make):
    s = make(answer_burst=1, answers_per_second=0.001)
    a, a_key = s.create_room()
    b, b_key = s.create_room()
    in_a = s.open_activity(a.code, a_key, predict())
    in_b = s.open_activity(b.code, b_key, predict())
    s.join(a.code, sid(1))
    s.join(b.code, sid(1))  # the same browser in both rooms
    s.answer(a.code, sid(1), in_a.id, [(0, "0.5")])
    s.answer(b.code, sid(1), in_b.id, [(0, "0.5")])  # room B's bucket is its own
    assert fields(error_of(s.answer, a.code, sid(1), in_a.id, [(0, "0.5")])) == ("room.too_fast", {})
    c, c_key = s.create_room()
    in_c = s.open_activity(c.code, c_key, predict())
    assert fields(error_of(s.answer, c.code, sid(1), in_c.id, [(0, "0.5")])) == ("room.not_joined", {})
