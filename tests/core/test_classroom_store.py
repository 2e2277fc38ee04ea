"""The classroom's storage (``ndcg_core.classroom.store``), every test on SQLite and on PostgreSQL (parametrized,
the cluster of the ``postgres_url`` fixture): rooms, keys, joining, answers as upserts, limits, rate limits, slowed
wrong codes, expiry and purge, short links, a restart losing nothing; exact instants, limits and their messages'
fields where mutation testing found the store loose (the mutation run leaves the PostgreSQL cases out:
``-k "not postgresql"``); and faults: a lost connection retried, a commit whose answer was lost not repeated, a
database that stays down, read-only or full a ``StoreUnavailable`` with nothing half-written."""

import json
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa

import ndcg_core
from ndcg_core import InputError, ndcg_at_k
from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.compare import PAIRS, Compare, compare_activity
from ndcg_core.classroom.kinds.lists import activity_list, preset_list, random_list
from ndcg_core.classroom.kinds.practice import ExerciseAnswer, Practice, practice_activity
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import Rank, rank_activity
from ndcg_core.classroom.kinds.tally import within
from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.store import (
    SCHEMA_VERSION,
    DatabaseSettings,
    Room,
    Store,
    Student,
    database_url,
    fault,
    make_engine,
    meta,
    metadata,
)
from ndcg_core.errors import Place, StoreUnavailable
from support import error_of

T0 = 1_800_000_000.0
HOUR = 3600.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    """A new, empty database: a SQLite file, or the test session's PostgreSQL with every table dropped."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
        return
    url = request.getfixturevalue("postgres_url")
    engine = sa.create_engine(url)
    metadata.drop_all(engine)
    engine.dispose()
    yield url


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def make(url, clock):
    """``make(**limits)``: a store on the test's database with these limits (each closed afterwards)."""
    made = []

    def make_store(**limits):
        store = Store(url, limits=Limits(**limits), clock=clock)
        made.append(store)
        return store

    yield make_store
    for store in made:
        store.close()


def student_id():
    return rules.new_student_id()


def fields(error):
    return error.code, error.fields


def outage_of(call, *args, **kwargs):
    """The ``StoreUnavailable`` a call raises."""
    with pytest.raises(StoreUnavailable) as info:
        call(*args, **kwargs)
    return info.value


def sid(n):
    return f"student-{n:04d}-abcdefgh"


def table(s, name):
    with s.engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(sa.select(metadata.tables[name]))]


def predict():
    return Predict(activity_list(("a", "b"), (0, 1), 2))


# --- rooms, keys, joining and answering: the flows ------------------------------------------------------------


def test_a_room_has_a_code_from_the_alphabet_and_only_the_keys_hash_is_stored(make):
    store = make()
    room, key = store.create_room()
    assert len(room.code) == 6 and set(room.code) <= set(rules.ALPHABET)
    assert not set(room.code) & set("0O1IL")
    assert len(key) >= 40
    with store.engine.connect() as conn:
        stored = conn.execute(sa.text("select key_hash from rooms")).scalar_one()
        dumped = "\n".join(str(r) for t in metadata.sorted_tables for r in conn.execute(sa.select(t)))
    assert stored == rules.key_hash(key) and key not in dumped
    assert store.is_teacher(room.code, key)
    assert not store.is_teacher(room.code, key[:-1] + ("A" if key[-1] != "A" else "B"))
    assert not store.is_teacher(room.code, None)
    assert store.schema_version() == SCHEMA_VERSION


def test_only_the_key_controls_the_room(make):
    store = make()
    room, key = store.create_room()
    pupil = store.join(room.code, student_id())
    for forged in (None, "", pupil.id, "x" * 43, key.upper() if key.upper() != key else key.lower()):
        for action in (
            lambda k: store.set_phase(room.code, k, "locked"),
            lambda k: store.set_phase(room.code, k, "revealed"),
            lambda k: store.end_room(room.code, k),
            lambda k: store.open_activity(room.code, k, compare_activity("seed003", "ndcg")),
            lambda k: store.show_names(room.code, k, True),
        ):
            with pytest.raises(InputError) as caught:
                action(forged)
            assert caught.value.code == "room.bad_key"
    assert store.room(room.code).revision == 0  # nothing changed


def test_joining_by_a_typed_code_and_again_after_a_reload(make):
    store = make()
    room, key = store.create_room()
    me = student_id()
    first = store.join(f" {room.code[:3].lower()}-{room.code[3:].lower()} ", me, "  Ana  ")
    again = store.join(room.code, me)  # a reload: the same browser id
    assert (first.number, again.number, again.nickname) == (1, 1, "Ana")
    other = store.join(room.code, student_id())
    assert other.number == 2 and other.nickname is None
    assert store.room(room.code).students == 2


def test_an_answer_is_an_upsert_and_can_change_until_the_teacher_locks(make):
    store = make()
    room, key = store.create_room()
    me = store.join(room.code, student_id(), "Bo")
    activity = store.open_activity(room.code, key, Predict(preset_list("five")))
    store.answer(room.code, me.id, activity.id, [(0, "0.5")])
    store.answer(room.code, me.id, activity.id, [(0, " 0.97 ")])
    assert [(a.student, a.nickname, a.value) for a in store.answers(activity.id)] == [(1, "Bo", 0.97)]
    store.set_phase(room.code, key, "locked")
    with pytest.raises(InputError) as caught:
        store.answer(room.code, me.id, activity.id, [(0, "0.3")])
    assert caught.value.code == "room.locked"
    store.set_phase(room.code, key, "revealed")
    assert store.my_answers(activity.id, me.id) == {0: 0.97}
    result = activity.activity().result(0.97)
    assert result.right and result.ndcg == pytest.approx(ndcg_at_k([3, 2, 3, 0, 1], 5))


@pytest.mark.parametrize(
    "raw, code",
    [
        ("abc", "answer.not_number"),
        ("1,5", "activity.estimate_range"),  # 1.5 is no estimate: no "did you mean 1.5?"
        ("1,234", "answer.comma"),
        ("1,2,3", "answer.comma"),
        ("1.5", "activity.estimate_range"),
        ("-0.1", "activity.estimate_range"),
        ("", "answer.blank"),
    ],
)
def test_a_bad_estimate_is_refused_and_nothing_is_stored(make, raw, code):
    store = make()
    room, key = store.create_room()
    me = store.join(room.code, student_id())
    activity = store.open_activity(room.code, key, Predict(random_list(3)))
    with pytest.raises(InputError) as caught:
        store.answer(room.code, me.id, activity.id, [(0, raw)])
    assert caught.value.code == code
    assert store.answers(activity.id) == []


def test_an_old_activity_and_an_unjoined_student_are_refused(make):
    store = make()
    room, key = store.create_room()
    me = store.join(room.code, student_id())
    old = store.open_activity(room.code, key, compare_activity("seed003", "mrr"))
    new = store.open_activity(room.code, key, compare_activity("seed003", "ndcg"))
    with pytest.raises(InputError, match="closed") as caught:
        store.answer(room.code, me.id, old.id, [(0, "a")])
    assert caught.value.code == "room.not_current"
    with pytest.raises(InputError) as caught:
        store.answer(room.code, student_id(), new.id, [(0, "a")])
    assert caught.value.code == "room.not_joined"


def test_answers_faster_than_the_rate_limit_are_refused_then_allowed_again(make, clock):
    store = make(answer_burst=3, answers_per_second=1.0)
    room, key = store.create_room()
    me = store.join(room.code, student_id())
    activity = store.open_activity(room.code, key, compare_activity("seed003", "ndcg"))
    for vote in ("a", "b", "same"):
        store.answer(room.code, me.id, activity.id, [(0, vote)])
    with pytest.raises(InputError) as caught:
        store.answer(room.code, me.id, activity.id, [(0, "a")])
    assert caught.value.code == "room.too_fast"
    assert store.my_answers(activity.id, me.id) == {0: "same"}
    clock.now += 1.0
    store.answer(room.code, me.id, activity.id, [(0, "a")])
    assert store.my_answers(activity.id, me.id) == {0: "a"}


def test_a_full_room_and_too_many_rooms(make):
    store = make(max_students=2, max_open_rooms=2)
    room, key = store.create_room()
    store.join(room.code, student_id())
    store.join(room.code, student_id())
    with pytest.raises(InputError) as caught:
        store.join(room.code, student_id())
    assert caught.value.code == "room.full"
    store.create_room()
    with pytest.raises(InputError) as caught:
        store.create_room()
    assert caught.value.code == "room.too_many"
    store.end_room(room.code, key)  # an ended room no longer counts
    store.create_room()


def test_concurrent_joins_never_overfill_a_room(make):
    store = make(max_students=5)
    room, _ = store.create_room()
    outcomes = []

    def join():
        try:
            outcomes.append(store.join(room.code, student_id()).number)
        except InputError as err:
            outcomes.append(err.code)

    threads = [threading.Thread(target=join) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(n for n in outcomes if isinstance(n, int)) == [1, 2, 3, 4, 5]
    assert outcomes.count("room.full") == 7


def test_wrong_codes_are_slowed_per_source(make, clock):
    store = make(free_join_failures=3)
    room, _ = store.create_room()
    wrong = "ZZZZZZ" if room.code != "ZZZZZZ" else "YYYYYY"
    for _ in range(4):
        with pytest.raises(InputError) as caught:
            store.join(wrong, student_id(), source="10.0.0.9")
        assert caught.value.code == "room.unknown"
    with pytest.raises(InputError) as caught:
        store.join(room.code, student_id(), source="10.0.0.9")  # even the right code must wait now
    assert caught.value.code == "room.join_wait" and caught.value.fields["seconds"] >= 1
    store.join(room.code, student_id(), source="10.0.0.10")  # another place is not slowed
    clock.now += 3
    store.join(room.code, student_id(), source="10.0.0.9")


def test_an_expired_room_is_gone_and_purged(make, clock):
    store = make(room_hours=12)
    room, key = store.create_room()
    me = store.join(room.code, student_id())
    activity = store.open_activity(room.code, key, Predict(random_list(1)))
    store.answer(room.code, me.id, activity.id, [(0, "0.5")])
    clock.now += 12 * 3600 - 1
    assert store.room(room.code).code == room.code
    clock.now += 2
    with pytest.raises(InputError) as caught:
        store.room(room.code)
    assert caught.value.code == "room.unknown"
    assert store.revision(room.code) is None
    assert store.purge() == 1
    with store.engine.connect() as conn:
        for table in ("rooms", "students", "activities", "answers"):
            assert conn.execute(sa.text(f"select count(*) from {table}")).scalar_one() == 0


def test_an_ended_room_refuses_joins_and_answers_but_keeps_its_results(make):
    store = make()
    room, key = store.create_room()
    me = store.join(room.code, student_id(), "=cmd|' /C calc'!A0")
    activity = store.open_activity(room.code, key, compare_activity("seed003", "mrr"))
    store.answer(room.code, me.id, activity.id, [(0, "same")])
    store.end_room(room.code, key)
    for call in (
        lambda: store.join(room.code, student_id()),
        lambda: store.answer(room.code, me.id, activity.id, [(0, "a")]),
    ):
        with pytest.raises(InputError) as caught:
            call()
        assert caught.value.code == "room.ended"
    [result] = store.results(room.code).activities
    [row] = result.rows
    assert row.nickname == "=cmd|' /C calc'!A0"  # as typed: the CSV (ui.classroom_results) quotes it
    assert (row.value, row.right) == ("same", True)  # MRR: both put a perfect result first


def test_a_restart_loses_no_room_and_no_answer(url, clock):
    first = Store(url, clock=clock)
    room, key = first.create_room()
    me = first.join(room.code, student_id(), "Cai")
    activity = first.open_activity(room.code, key, practice_activity(2026, 3))
    first.answer(room.code, me.id, activity.id, [(0, "1.26"), (1, "2")])
    first.close()
    second = Store(url, clock=clock)  # a new process: nothing but the database carries over
    try:
        assert second.room(room.code).current.id == activity.id
        assert second.is_teacher(room.code, key)
        assert second.join(room.code, me.id).number == 1
        assert set(second.my_answers(activity.id, me.id)) == {0, 1}
    finally:
        second.close()


def test_short_links_are_stable_and_unknown_ones_are_errors(make):
    store = make()
    code = store.save_link("playground", {"s": "eyJ2IjoxfQ", "lang": "zh"})
    assert store.save_link("playground", {"lang": "zh", "s": "eyJ2IjoxfQ"}) == code
    assert store.load_link(code.lower()) == ("playground", {"lang": "zh", "s": "eyJ2IjoxfQ"})
    assert store.save_link("learn", {"step": "2"}) != code
    with pytest.raises(InputError) as caught:
        store.load_link("ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY")
    assert caught.value.code == "go.unknown"
    with pytest.raises(InputError) as caught:
        store.save_link("evaluate", {})
    assert caught.value.code == "go.page"


def test_a_revealed_activity_is_final_it_cannot_be_reopened_or_locked_and_takes_no_answer(make):
    store = make()
    room, key = store.create_room()
    ana, bo = store.join(room.code, student_id(), "Ana"), store.join(room.code, student_id(), "Bo")
    activity = store.open_activity(room.code, key, compare_activity("seed003", "ndcg"))  # NDCG@5 says A
    store.answer(room.code, ana.id, activity.id, [(0, "b")])
    store.set_phase(room.code, key, "locked")
    store.set_phase(room.code, key, "open")  # before the reveal, answers can be taken again
    store.answer(room.code, bo.id, activity.id, [(0, "a")])
    store.set_phase(room.code, key, "revealed")
    revision = store.room(room.code).revision
    for phase in ("open", "locked"):
        with pytest.raises(InputError) as caught:
            store.set_phase(room.code, key, phase)
        assert caught.value.code == "room.revealed_final"
    with pytest.raises(InputError) as caught:
        store.answer(room.code, ana.id, activity.id, [(0, "a")])  # Ana's wrong vote cannot become right
    assert caught.value.code == "room.locked"
    room_now = store.room(room.code)
    assert (room_now.current.phase, room_now.revision) == ("revealed", revision)  # nothing changed
    [result] = store.results(room.code).activities
    assert [(r.nickname, r.value, r.right) for r in result.rows] == [("Ana", "b", False), ("Bo", "a", True)]


def test_run_again_opens_round_two_with_the_same_content_and_keeps_round_ones_answers(make, clock):
    store = make()
    room, key = store.create_room()
    ana, bo = store.join(room.code, student_id(), "Ana"), store.join(room.code, student_id())
    first = store.open_activity(room.code, key, compare_activity("seed003", "ndcg"))
    store.answer(room.code, ana.id, first.id, [(0, "b")])
    store.set_phase(room.code, key, "revealed")
    clock.now += 60
    second = store.run_again(room.code, key)
    assert (first.round, second.number, second.round, second.phase) == (1, 2, 2, "open")
    assert (second.kind, second.payload) == (first.kind, first.payload)
    assert store.room(room.code).current == second
    store.answer(room.code, ana.id, second.id, [(0, "a")])
    store.answer(room.code, bo.id, second.id, [(0, "same")])
    assert store.my_answers(first.id, ana.id) == {0: "b"}  # round 1 untouched
    store.set_phase(room.code, key, "revealed")
    third = store.run_again(room.code, key)
    other = store.open_activity(room.code, key, compare_activity("seed003", "mrr"))  # another metric: round 1
    assert [(a.number, a.round) for a in store.activity_list(room.code)] == [(1, 1), (2, 2), (3, 3), (4, 1)]
    assert (third.round, other.round) == (3, 1)
    results = store.results(room.code)
    assert [(r.number, r.round, [(x.student, x.value, x.right) for x in r.rows]) for r in results.activities] == [
        (1, 1, [(1, "b", False), (2, None, None)]),
        (2, 2, [(1, "a", True), (2, "same", False)]),
        (3, 3, [(1, None, None), (2, None, None)]),
        (4, 1, [(1, None, None), (2, None, None)]),
    ]
    assert [(t.nickname, t.questions, t.answered, t.right) for t in results.totals] == [
        ("Ana", 4, 2, 1),
        (None, 4, 1, 0),
    ]
    summary = store.class_summary(room.code)
    assert [(o.number, o.kind, o.round, o.joined, o.answered, o.right, o.share_right) for o in summary] == [
        (1, "compare", 1, 2, 1, 0, 0.0),
        (2, "compare", 2, 2, 2, 1, 0.5),
        (3, "compare", 3, 2, 0, 0, None),
        (4, "compare", 1, 2, 0, 0, None),
    ]
    with pytest.raises(InputError) as caught:
        store.run_again(store.create_room()[0].code, key)
    assert caught.value.code == "room.bad_key"


def test_a_round_finds_the_round_before_it_to_show_beside_it(make, clock):
    store = make()
    room, key = store.create_room()
    first = store.open_activity(room.code, key, Predict(preset_list("five")))
    assert store.earlier_round(room.code, first) is None
    store.set_phase(room.code, key, "locked")  # voting again after a lock: the class has not seen the answer
    second = store.run_again(room.code, key)
    other = store.open_activity(room.code, key, compare_activity("seed003", "ndcg"))
    again = store.open_activity(room.code, key, Predict(preset_list("five")))  # the same question, opened anew
    assert (second.round, other.round, again.round) == (2, 1, 3)
    before = store.earlier_round(room.code, again)
    assert (before.id, before.number, before.round, before.phase) == (second.id, 2, 2, "open")
    assert store.earlier_round(room.code, second).id == first.id
    assert store.earlier_round(room.code, other) is None


def test_results_count_a_student_from_the_activity_they_joined_in_with_totals_and_the_summary(make, clock):
    store = make()
    room, key = store.create_room()
    ana = store.join(room.code, student_id(), "Ana")
    rank = store.open_activity(room.code, key, rank_activity(preset_list("five"), "small_k"))
    spec = rank.activity().spec
    best, dealt = spec.best_order(), list(range(len(spec.grades)))
    store.answer(room.code, ana.id, rank.id, [(0, best)])
    clock.now += 30
    practice = store.open_activity(room.code, key, practice_activity(2026, 2))  # 1.5, then a choice
    clock.now += 30
    late = store.join(room.code, student_id(), "Late")  # joined while the practice ran: not present for the rank
    store.answer(room.code, late.id, practice.id, [(0, "1.5")])
    store.answer(room.code, ana.id, practice.id, [(0, "1"), (1, practice.activity().exercises()[1].answer)])
    store.set_phase(room.code, key, "revealed")
    results = store.results(room.code)
    [rank_rows, practice_rows] = [r.rows for r in results.activities]
    assert [(r.nickname, r.value, r.right, r.ndcg) for r in rank_rows] == [("Ana", best, True, pytest.approx(1.0))]
    assert [(r.nickname, r.part, r.right) for r in practice_rows] == [
        ("Ana", 0, False),
        ("Ana", 1, True),
        ("Late", 0, True),
        ("Late", 1, None),
    ]
    assert [(t.nickname, t.questions, t.answered, t.right, t.mean_ndcg) for t in results.totals] == [
        ("Ana", 3, 3, 2, pytest.approx(1.0)),
        ("Late", 2, 1, 1, None),
    ]
    assert spec.reordered(dealt).ndcg() < 1.0  # the dealt order is not already the best: finding it meant something
    summary = store.class_summary(room.code)
    assert [(o.kind, o.joined, o.answered, [(p.answered, p.right) for p in o.parts]) for o in summary] == [
        ("rank", 1, 1, [(1, 1)]),
        ("practice", 2, 2, [(2, 1), (1, 1)]),
    ]
    assert (summary[1].answers, summary[1].right, summary[1].share_right, summary[1].participation) == (3, 2, 2 / 3, 1)


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
        assert path.exists() and (engine.pool.size(), engine.pool._max_overflow, engine.pool._timeout) == (5, 10, 10)
    finally:
        engine.dispose()
    engine = make_engine(f"sqlite:///{path}", DatabaseSettings(pool_size=2, max_overflow=0, pool_timeout=3.5))
    assert (engine.pool.size(), engine.pool._max_overflow, engine.pool._timeout) == (2, 0, 3.5)
    engine.dispose()


def test_a_server_engine_checks_connections_before_use_and_sets_its_timeouts():
    engine = make_engine("postgresql+psycopg://u@localhost/lab")
    assert (engine.pool.size(), engine.pool._max_overflow, engine.pool._pre_ping) == (5, 10, True)
    assert str(engine.url) == "postgresql+psycopg://u@localhost/lab"
    settings = DatabaseSettings(
        pool_size=3,
        max_overflow=4,
        connect_timeout=2,
        statement_timeout=1.5,
        lock_timeout=0.25,
        idle_in_transaction_timeout=30,
    )
    engine = make_engine("postgresql+psycopg://u@localhost/lab", settings)
    assert (engine.pool.size(), engine.pool._max_overflow) == (3, 4)
    options = "-c statement_timeout=1500 -c lock_timeout=250 -c idle_in_transaction_session_timeout=30000"
    assert driver_arguments(engine) == {"connect_timeout": 2, "options": options}


def driver_arguments(engine):
    """The keyword arguments the engine hands the driver when it connects (caught before any connection)."""
    seen = {}

    @sa.event.listens_for(engine, "do_connect")
    def catch(dialect, record, cargs, cparams):
        seen.update(cparams)
        raise LookupError("caught")

    with pytest.raises(LookupError):
        engine.connect()
    return {k: seen[k] for k in ("connect_timeout", "options")}


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
    second = s.open_activity(room.code, key, compare_activity("seed003", "mrr"))
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
    practice = Practice(2026, (0, 3))  # a dcg_term (1.5), then better_order (b)
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
    assert got[2].value == ExerciseAnswer("b", True)  # part 1 is checked as part 1
    assert s.my_answers(activity.id, sid(2)) == {0: ExerciseAnswer("2", False), 1: ExerciseAnswer("b", True)}
    assert s.my_answers(activity.id, sid(1)) == {1: ExerciseAnswer("a", False)}
    assert s.my_answers(elsewhere.id, sid(2)) == {0: ExerciseAnswer("1.5", True)}
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
        (1, 3, 2, int(within(0.5, predict().truth())), None),
        (2, 3, 2, 1, None),
    ]


def test_the_answer_bucket_refills_at_its_rate_from_the_last_answer(make, clock):
    s = make(answer_burst=2, answers_per_second=2.0)
    room, key = s.create_room()
    activity = s.open_activity(room.code, key, predict())
    s.join(room.code, sid(1))
    sends = iter([[(0, f"0.{n}")] for n in range(1, 10)])  # each a new answer (a resend spends nothing)
    s.answer(room.code, sid(1), activity.id, next(sends))
    s.answer(room.code, sid(1), activity.id, next(sends))
    assert fields(error_of(s.answer, room.code, sid(1), activity.id, next(sends))) == ("room.too_fast", {})
    clock.now += 0.5  # 2 a second: one more
    s.answer(room.code, sid(1), activity.id, next(sends))
    assert fields(error_of(s.answer, room.code, sid(1), activity.id, next(sends))) == ("room.too_fast", {})
    clock.now += 0.25  # half an answer since the last one: not yet
    assert fields(error_of(s.answer, room.code, sid(1), activity.id, next(sends))) == ("room.too_fast", {})
    assert s.my_answers(activity.id, sid(1)) == {0: 0.4}


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
    assert isinstance(Store._insert(server, meta), postgresql.Insert)
    embedded = SimpleNamespace(engine=make_engine("sqlite://"))
    made = Store._insert(embedded, meta)
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
    assert fields(error_of(s.answer, a.code, sid(1), in_a.id, [(0, "0.6")])) == ("room.too_fast", {})
    c, c_key = s.create_room()
    in_c = s.open_activity(c.code, c_key, predict())
    assert fields(error_of(s.answer, c.code, sid(1), in_c.id, [(0, "0.5")])) == ("room.not_joined", {})


# --- settings ---------------------------------------------------------------------------------------------------


def test_database_settings_come_from_the_environment_and_a_bad_one_is_named():
    assert DatabaseSettings.from_environment({}) == DatabaseSettings()
    assert (DatabaseSettings().pool_size, DatabaseSettings().max_overflow) == (5, 10)
    got = DatabaseSettings.from_environment(
        {"NDCG_LAB_DB_POOL_SIZE": "3", "NDCG_LAB_DB_MAX_OVERFLOW": "0", "NDCG_LAB_DB_RETRY_SECONDS": "2.5"}
    )
    assert (got.pool_size, got.max_overflow, got.retry_seconds, got.lock_timeout) == (3, 0, 2.5, 10.0)
    for name, value, expected in [
        ("NDCG_LAB_DB_POOL_SIZE", "0", ("store.setting", "'0'", 1)),
        ("NDCG_LAB_DB_POOL_SIZE", "2.5", ("store.setting", "'2.5'", 1)),
        ("NDCG_LAB_DB_MAX_OVERFLOW", "-1", ("store.setting", "'-1'", 0)),
        ("NDCG_LAB_DB_CONNECT_TIMEOUT", "soon", ("store.setting", "'soon'", 1)),
    ]:
        error = error_of(DatabaseSettings.from_environment, {name: value})
        assert fields(error) == (expected[0], {"name": name, "value": expected[1], "low": expected[2]})
    for value in ("0", "-1", "nan", "inf", "x"):
        error = error_of(DatabaseSettings.from_environment, {"NDCG_LAB_DB_STATEMENT_TIMEOUT": value})
        assert fields(error) == ("room.setting", {"name": "NDCG_LAB_DB_STATEMENT_TIMEOUT", "value": repr(value)})


# --- idempotent writes: a retry after a commit whose answer was lost changes nothing more ------------------------


def lost(statement="COMMIT"):
    """The error SQLAlchemy raises when the server's connection is gone."""
    return sa.exc.OperationalError(statement, {}, ConnectionError("server closed the connection"), True)


def lose_replies(store, count=1):
    """The next ``count`` write transactions commit, then their connection is lost before the caller hears."""
    real, left = store._write, [count]

    @contextmanager
    def write():
        with real() as conn:
            yield conn
        if left[0]:
            left[0] -= 1
            raise lost()

    store._write = write
    return left


def test_an_answer_sent_again_is_stored_once_and_spends_no_token(make, clock):
    s = make(answer_burst=1, answers_per_second=0.001)
    room, key = s.create_room()
    activity = s.open_activity(room.code, key, predict())
    s.join(room.code, sid(1))
    s.answer(room.code, sid(1), activity.id, [(0, "0.5")])
    clock.now += 5
    s.answer(room.code, sid(1), activity.id, [(0, " 0.50 ")])  # the same answer again: not too fast
    [row] = table(s, "answers")
    assert (row["value"], row["updated_at"]) == ("0.5", T0)  # stored once, as first sent
    assert fields(error_of(s.answer, room.code, sid(1), activity.id, [(0, "0.6")])) == ("room.too_fast", {})


def test_writes_whose_commit_happened_before_the_connection_was_lost_are_not_repeated(make):
    s = make(answer_burst=1, answers_per_second=0.001)
    room, key = s.create_room()
    lose_replies(s)
    assert s.join(room.code, sid(1), "Ana") == Student(room.code, sid(1), 1, "Ana")  # retried: the same student
    revision = s.room(room.code).revision
    left = lose_replies(s)
    first = s.open_activity(room.code, key, predict(), after=revision)
    assert left == [0] and [a.id for a in s.activity_list(room.code)] == [first.id]
    assert s.room(room.code).revision == revision + 1
    lose_replies(s)
    s.answer(room.code, sid(1), first.id, [(0, "0.5")])  # retried with no token left: stored, not refused
    assert s.my_answers(first.id, sid(1)) == {0: 0.5}
    s.set_phase(room.code, key, "revealed")
    revision = s.room(room.code).revision
    lose_replies(s)
    second = s.run_again(room.code, key, after=revision)
    assert [(a.id, a.round) for a in s.activity_list(room.code)] == [(first.id, 1), (second.id, 2)]
    lose_replies(s)
    s.end_room(room.code, key)
    assert s.room(room.code).ended and s.room(room.code).revision == revision + 2
    s.end_room(room.code, key)  # ending an ended room: nothing, no error
    assert s.room(room.code).revision == revision + 2


def test_opening_after_a_revision_opens_again_only_what_that_revision_did_not_see(make):
    s = make()
    room, key = s.create_room()
    first = s.open_activity(room.code, key, predict(), after=0)
    assert s.open_activity(room.code, key, predict(), after=0) == first  # a second click on the same page
    other = s.open_activity(room.code, key, compare_activity("seed003", "ndcg"), after=0)  # another activity
    again = s.open_activity(room.code, key, predict(), after=2)  # the same choices on a page that saw the rest
    assert [a.id for a in s.activity_list(room.code)] == [first.id, other.id, again.id]
    assert again.round == 2
    s.set_phase(room.code, key, "locked")  # revision 4: the current one is no longer open
    assert s.open_activity(room.code, key, predict(), after=3).id not in (first.id, again.id)
    without = s.run_again(room.code, key)  # no revision given: always a new round
    assert without.round == 4


def test_a_write_retried_after_a_connection_lost_before_its_commit_is_stored_once(make, monkeypatch):
    s = make()
    room, key = s.create_room()
    activity = s.open_activity(room.code, key, predict())
    s.join(room.code, sid(1))
    real, calls = Store._spend_token, []

    def flaky(self, conn, *args):
        calls.append(1)
        if len(calls) == 1:
            raise lost("UPDATE students")  # mid-transaction: nothing of it committed
        return real(self, conn, *args)

    monkeypatch.setattr(Store, "_spend_token", flaky)
    s.answer(room.code, sid(1), activity.id, [(0, "0.5")])
    assert len(calls) == 2 and s.my_answers(activity.id, sid(1)) == {0: 0.5}
    assert table(s, "students")[0]["tokens"] == Limits().answer_burst - 1  # one token: the first try rolled back


# --- faults: retries, a database that stays down, read-only, full ------------------------------------------------


def test_a_lost_connection_is_retried_then_the_store_is_unavailable_and_bad_input_is_never_retried(make, monkeypatch):
    s = make()
    room, _ = s.create_room()
    s.settings = DatabaseSettings(retry_seconds=0.5)
    tries = []
    real = Store._read

    def down(self):
        tries.append(1)
        raise lost("SELECT")

    monkeypatch.setattr(Store, "_read", down)
    error = outage_of(s.room, room.code)
    assert fields(error) == ("store.unavailable", {}) and isinstance(error.__cause__, sa.exc.OperationalError)
    assert len(tries) > 1
    monkeypatch.setattr(Store, "_read", real)
    tries.clear()
    monkeypatch.setattr(rules, "read_code", lambda *a: tries.append(1) or real_read_code(*a))
    assert error_of(s.room, "K0").code == "room.code_length" and len(tries) == 1
    tries.clear()
    monkeypatch.setattr(rules, "new_code", lambda: tries.append(1) or room.code)  # a taken code: IntegrityError
    with pytest.raises(RuntimeError, match="could not draw"):
        s.create_room()
    assert len(tries) == 20  # each code once: a constraint violation is not retried


real_read_code = rules.read_code


def test_the_store_tells_faults_apart():
    def sqlite_error(message, name):
        orig = sqlite3.OperationalError(message)
        orig.sqlite_errorname = name
        return sa.exc.OperationalError("INSERT", {}, orig)

    def postgres_error(state):
        orig = psycopg.errors.lookup(state)("")
        return sa.exc.OperationalError("SELECT", {}, orig)

    assert fault(sqlite_error("attempt to write a readonly database", "SQLITE_READONLY")) == (False, "store.read_only")
    assert fault(sqlite_error("unable to open database file", "SQLITE_CANTOPEN")) == (False, "store.read_only")
    assert fault(sqlite_error("database or disk is full", "SQLITE_FULL")) == (False, "store.full")
    assert fault(sqlite_error("database is locked", "SQLITE_BUSY")) == (True, "store.unavailable")
    assert fault(sqlite_error("no such table: rooms", "SQLITE_ERROR")) == (False, None)
    for state in ("08006", "08001", "57P01", "57P02", "57P03", "40P01"):
        assert fault(postgres_error(state)) == (True, "store.unavailable"), state
    assert fault(postgres_error("53100")) == (False, "store.full")
    assert fault(postgres_error("25006")) == (False, "store.read_only")
    assert fault(postgres_error("57014")) == (False, "store.unavailable")  # a statement timeout: busy, not retried
    assert fault(postgres_error("42P01")) == (False, None)  # undefined table: a bug, raised as it is
    assert fault(sa.exc.IntegrityError("INSERT", {}, postgres_error("23505").orig)) == (False, None)
    assert fault(sa.exc.OperationalError("SELECT", {}, psycopg.OperationalError("connection refused"))) == (
        True,
        "store.unavailable",
    )
    assert fault(lost()) == (True, "store.unavailable")
    assert fault(sa.exc.TimeoutError()) == (False, "store.unavailable")
    assert fault(ValueError()) == (False, None)


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'classroom.sqlite3'}"


def with_pragma(url, pragma):
    """The store's engine for ``url`` with ``pragma`` run on each new connection (a read-only or full database)."""
    engine = make_engine(url)

    @sa.event.listens_for(engine, "connect")
    def run(dbapi_connection, _record):
        cursor = dbapi_connection.cursor()
        cursor.execute(pragma(cursor) if callable(pragma) else pragma)
        cursor.close()

    return engine


def snapshot(url):
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        rows = {t.name: sorted(map(tuple, conn.execute(sa.select(t)))) for t in metadata.sorted_tables}
    engine.dispose()
    return rows


def test_a_read_only_sqlite_database_shows_its_rooms_and_refuses_every_write_whole(sqlite_url, clock):
    writer = Store(sqlite_url, clock=clock)
    room, key = writer.create_room()
    writer.join(room.code, sid(1), "Ana")
    activity = writer.open_activity(room.code, key, predict())
    writer.close()
    before = snapshot(sqlite_url)
    s = Store(engine=with_pragma(sqlite_url, "PRAGMA query_only=ON"), clock=clock)  # as root, chmod stops nothing
    try:
        assert s.room(room.code).students == 1 and s.results(room.code).activities
        for write in (
            lambda: s.join(room.code, sid(2)),
            lambda: s.answer(room.code, sid(1), activity.id, [(0, "0.5")]),
            lambda: s.open_activity(room.code, key, predict()),
            lambda: s.set_phase(room.code, key, "locked"),
            s.create_room,
            lambda: s.save_link("learn", {"a": "1"}),
        ):
            assert fields(outage_of(write)) == ("store.read_only", {})
    finally:
        s.close()
    assert snapshot(sqlite_url) == before


def test_a_full_sqlite_disk_is_a_clear_error_and_leaves_nothing_half_written(sqlite_url, clock):
    writer = Store(sqlite_url, clock=clock)
    room, key = writer.create_room()
    writer.close()
    s = Store(
        engine=with_pragma(
            sqlite_url, lambda c: f"PRAGMA max_page_count={c.execute('PRAGMA page_count').fetchone()[0] + 1}"
        ),
        clock=clock,
    )
    joined = []
    try:
        with pytest.raises(StoreUnavailable) as caught:
            for n in range(1000):
                joined.append(s.join(room.code, sid(n), "x" * 24).id)
        assert fields(caught.value) == ("store.full", {}) and 0 < len(joined) < 1000
        # The failed join's count update and its student row went together: the count is every stored student.
        assert s.room(room.code).students == len(s.roster(room.code)) == len(joined)
        assert s.student(room.code, sid(len(joined))) is None
    finally:
        s.close()


# --- faults on PostgreSQL: a restart between two answers, a server down longer than the retries ------------------


@pytest.fixture
def cluster(postgres_cluster):
    """The session's PostgreSQL, emptied, started again after the test whatever it did to the server."""
    engine = sa.create_engine(postgres_cluster.url)
    metadata.drop_all(engine)
    engine.dispose()
    yield postgres_cluster
    if not (postgres_cluster.datadir / "postmaster.pid").exists():
        postgres_cluster.start()


def class_with_an_answer(url, clock, **settings):
    s = Store(url, clock=clock, settings=DatabaseSettings(**settings))
    room, key = s.create_room()
    s.join(room.code, sid(1), "Ana")
    s.join(room.code, sid(2), "Bo")
    activity = s.open_activity(room.code, key, predict())
    s.answer(room.code, sid(1), activity.id, [(0, "0.5")])  # acknowledged
    return s, room, activity


def test_postgresql_restarting_between_two_answers_loses_neither(cluster, clock):
    s, room, activity = class_with_an_answer(cluster.url, clock)
    try:
        cluster.stop()
        back = threading.Timer(1.0, cluster.start)  # the server comes back while the next answer is being sent
        back.start()
        s.answer(room.code, sid(2), activity.id, [(0, "0.25")])  # retried until the server is back
        back.join()
        assert [(a.student, a.value) for a in s.answers(activity.id)] == [(1, 0.5), (2, 0.25)]
        cluster.restart()  # a restart between two calls: the pool's dead connections are replaced
        s.answer(room.code, sid(1), activity.id, [(0, "0.75")])
        assert [(a.student, a.value) for a in s.answers(activity.id)] == [(1, 0.75), (2, 0.25)]
    finally:
        s.close()


def test_postgresql_down_longer_than_the_retries_is_unavailable_and_nothing_acknowledged_is_lost(cluster, clock):
    s, room, activity = class_with_an_answer(cluster.url, clock, retry_seconds=1.0, connect_timeout=2)
    try:
        cluster.stop()
        error = outage_of(s.answer, room.code, sid(2), activity.id, [(0, "0.25")])
        assert fields(error) == ("store.unavailable", {}) and isinstance(error.__cause__, sa.exc.DBAPIError)
        assert fields(outage_of(s.room, room.code)) == ("store.unavailable", {})
        cluster.start()
        s.answer(room.code, sid(2), activity.id, [(0, "0.25")])  # sent again by the student: stored
        assert [(a.student, a.value) for a in s.answers(activity.id)] == [(1, 0.5), (2, 0.25)]
    finally:
        s.close()


# --- lessons: saved under a code, run step by step, time limits ------------------------------------------------


def _lesson(title="A lesson", limit=None):
    from ndcg_core.classroom.lessons import Lesson, Step, Wording

    spec = activity_list(("a", "b", "c"), (0, 3, 1), 3)
    return Lesson(
        title,
        (
            Step(Predict(spec), Wording("Guess it.", "猜一猜。"), limit),
            Step(Rank(spec, "")),
            Step(Compare(PAIRS["seed003"], "mrr")),
        ),
    )


def test_a_saved_lesson_keeps_its_code_and_comes_back_whole(make, clock):
    store = make()
    code = store.save_lesson(_lesson())
    assert store.save_lesson(_lesson()) == code != store.save_lesson(_lesson("Another"))
    assert store.load_lesson(code.lower()) == _lesson()
    clock.now += 400 * 86400  # saved lessons outlive rooms and short links
    store.purge()
    assert store.load_lesson(code) == _lesson()
    assert fields(error_of(store.load_lesson, "K7P3QX")) == ("lesson.unknown", {"code": "K7P3QX"})
    assert error_of(store.load_lesson, "K7").code == "room.code_length"
    assert error_of(store.load_lesson, "K7").fields["place"] == Place("lesson.code")


def test_a_room_runs_a_lesson_step_by_step_and_back(make):
    store = make()
    room, key = store.create_room()
    assert store.lesson_progress(room.code) is None
    assert error_of(store.lesson_step, room.code, key, 0).code == "room.no_lesson"
    store.use_lesson(room.code, key, _lesson())
    progress = store.lesson_progress(room.code)
    assert (progress.step, progress.opened, progress.count) == (-1, 0, 3)
    first = store.lesson_step(room.code, key, 0)
    assert first.kind == "predict" and first.question.get("zh") == "猜一猜。" and first.time_limit is None
    second = store.lesson_step(room.code, key, 1)
    assert second.kind == "rank" and second.number == 2 and second.question.get("en") == ""
    me = student_id()
    store.join(room.code, me)
    store.answer(room.code, me, second.id, [(0, [1, 2, 0])])
    back = store.lesson_step(room.code, key, 0)  # Back: the same activity, not a new one
    assert back.id == first.id and store.room(room.code).current.id == first.id
    again = store.lesson_step(room.code, key, 1)  # Next again: the rank with its answer
    assert again.id == second.id and store.my_answers(second.id, me) == {0: [1, 2, 0]}
    assert store.room(room.code).activities == 2
    progress = store.lesson_progress(room.code)
    assert (progress.step, progress.opened) == (1, 2)
    for bad in (3, -1, True, "1"):
        assert fields(error_of(store.lesson_step, room.code, key, bad)) == (
            "room.lesson_step",
            {"value": repr(bad), "count": 3},
        )
    assert error_of(store.lesson_step, room.code, "forged", 2).code == "room.bad_key"


def test_going_to_the_step_shown_changes_nothing(make):
    store = make()
    room, key = store.create_room()
    store.use_lesson(room.code, key, _lesson())
    first = store.lesson_step(room.code, key, 0)
    revision = store.revision(room.code)
    assert store.lesson_step(room.code, key, 0) == first  # a second click, or a retry after a lost commit
    assert store.revision(room.code) == revision and store.room(room.code).activities == 1


def test_a_lessons_results_are_the_rooms_results(make):
    store = make()
    room, key = store.create_room()
    store.use_lesson(room.code, key, _lesson())
    me = student_id()
    store.join(room.code, me)
    for step in range(3):
        row = store.lesson_step(room.code, key, step)
        store.answer(room.code, me, row.id, [(0, {0: "0.5", 1: [1, 2, 0], 2: "same"}[step])])
    results = store.results(room.code)
    assert [r.kind for r in results.activities] == ["predict", "rank", "compare"]
    assert [r.rows[0].right for r in results.activities] == [False, True, True]


def test_answers_close_when_the_time_limit_runs_out(make, clock):
    store = make()
    room, key = store.create_room()
    store.use_lesson(room.code, key, _lesson(limit=30))
    me = student_id()
    store.join(room.code, me)
    row = store.lesson_step(room.code, key, 0)
    assert row.time_limit == 30 and row.closes_at == row.opened_at + 30
    clock.now += 30.5  # within the grace for an answer sent as the countdown reaches zero
    store.answer(room.code, me, row.id, [(0, "0.5")])
    clock.now += 1
    assert error_of(store.answer, room.code, me, row.id, [(0, "0.6")]).code == "room.time_up"
    assert store.my_answers(row.id, me) == {0: 0.5}
