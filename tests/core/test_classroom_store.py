"""The classroom's storage, the same tests on SQLite and on PostgreSQL: rooms, keys, joining, answers as
upserts, limits, rate limits, slowed wrong codes, expiry and purge, short links, and a restart losing nothing."""

import threading

import pytest
import sqlalchemy as sa

from ndcg_core import InputError, ndcg_at_k
from ndcg_core.classroom import activities as A
from ndcg_core.classroom import rules
from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.store import SCHEMA_VERSION, Store, metadata


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 1_800_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
        return
    url = request.getfixturevalue("postgres_url")
    engine = sa.create_engine(url)
    metadata.drop_all(engine)  # each test starts from an empty database
    engine.dispose()
    yield url


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def make_store(url, clock):
    made = []

    def make(**limits):
        store = Store(url, limits=Limits(**limits), clock=clock)
        made.append(store)
        return store

    yield make
    for store in made:
        store.close()


def student_id():
    return rules.new_student_id()


def test_a_room_has_a_code_from_the_alphabet_and_only_the_keys_hash_is_stored(make_store):
    store = make_store()
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


def test_only_the_key_controls_the_room(make_store):
    store = make_store()
    room, key = store.create_room()
    pupil = store.join(room.code, student_id())
    for forged in (None, "", pupil.id, "x" * 43, key.upper() if key.upper() != key else key.lower()):
        for action in (
            lambda k: store.set_phase(room.code, k, "locked"),
            lambda k: store.set_phase(room.code, k, "revealed"),
            lambda k: store.end_room(room.code, k),
            lambda k: store.open_activity(room.code, k, A.compare_activity("seed003", "ndcg")),
            lambda k: store.show_names(room.code, k, True),
        ):
            with pytest.raises(InputError) as caught:
                action(forged)
            assert caught.value.code == "room.bad_key"
    assert store.room(room.code).revision == 0  # nothing changed


def test_joining_by_a_typed_code_and_again_after_a_reload(make_store):
    store = make_store()
    room, key = store.create_room()
    me = student_id()
    first = store.join(f" {room.code[:3].lower()}-{room.code[3:].lower()} ", me, "  Ana  ")
    again = store.join(room.code, me)  # a reload: the same browser id
    assert (first.number, again.number, again.nickname) == (1, 1, "Ana")
    other = store.join(room.code, student_id())
    assert other.number == 2 and other.nickname is None
    assert store.room(room.code).students == 2


def test_an_answer_is_an_upsert_and_can_change_until_the_teacher_locks(make_store):
    store = make_store()
    room, key = store.create_room()
    me = store.join(room.code, student_id(), "Bo")
    activity = store.open_activity(room.code, key, A.Predict(A.preset_list("five")))
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
        ("0,75", "activity.estimate_comma"),
        ("1,2,3", "answer.comma"),
        ("1.5", "activity.estimate_range"),
        ("-0.1", "activity.estimate_range"),
        ("", "answer.blank"),
    ],
)
def test_a_bad_estimate_is_refused_and_nothing_is_stored(make_store, raw, code):
    store = make_store()
    room, key = store.create_room()
    me = store.join(room.code, student_id())
    activity = store.open_activity(room.code, key, A.Predict(A.random_list(3)))
    with pytest.raises(InputError) as caught:
        store.answer(room.code, me.id, activity.id, [(0, raw)])
    assert caught.value.code == code
    assert store.answers(activity.id) == []


def test_an_old_activity_and_an_unjoined_student_are_refused(make_store):
    store = make_store()
    room, key = store.create_room()
    me = store.join(room.code, student_id())
    old = store.open_activity(room.code, key, A.compare_activity("seed003", "mrr"))
    new = store.open_activity(room.code, key, A.compare_activity("seed003", "ndcg"))
    with pytest.raises(InputError, match="closed") as caught:
        store.answer(room.code, me.id, old.id, [(0, "a")])
    assert caught.value.code == "room.not_current"
    with pytest.raises(InputError) as caught:
        store.answer(room.code, student_id(), new.id, [(0, "a")])
    assert caught.value.code == "room.not_joined"


def test_answers_faster_than_the_rate_limit_are_refused_then_allowed_again(make_store, clock):
    store = make_store(answer_burst=3, answers_per_second=1.0)
    room, key = store.create_room()
    me = store.join(room.code, student_id())
    activity = store.open_activity(room.code, key, A.compare_activity("seed003", "ndcg"))
    for vote in ("a", "b", "same"):
        store.answer(room.code, me.id, activity.id, [(0, vote)])
    with pytest.raises(InputError) as caught:
        store.answer(room.code, me.id, activity.id, [(0, "a")])
    assert caught.value.code == "room.too_fast"
    assert store.my_answers(activity.id, me.id) == {0: "same"}
    clock.now += 1.0
    store.answer(room.code, me.id, activity.id, [(0, "a")])
    assert store.my_answers(activity.id, me.id) == {0: "a"}


def test_a_full_room_and_too_many_rooms(make_store):
    store = make_store(max_students=2, max_open_rooms=2)
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


def test_concurrent_joins_never_overfill_a_room(make_store):
    store = make_store(max_students=5)
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


def test_wrong_codes_are_slowed_per_source(make_store, clock):
    store = make_store(free_join_failures=3)
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


def test_an_expired_room_is_gone_and_purged(make_store, clock):
    store = make_store(room_hours=12)
    room, key = store.create_room()
    me = store.join(room.code, student_id())
    activity = store.open_activity(room.code, key, A.Predict(A.random_list(1)))
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


def test_an_ended_room_refuses_joins_and_answers_but_keeps_its_results(make_store):
    store = make_store()
    room, key = store.create_room()
    me = store.join(room.code, student_id(), "=cmd|' /C calc'!A0")
    activity = store.open_activity(room.code, key, A.compare_activity("seed003", "mrr"))
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
    activity = first.open_activity(room.code, key, A.practice_activity(2026, 3))
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


def test_short_links_are_stable_and_unknown_ones_are_errors(make_store):
    store = make_store()
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


def test_a_revealed_activity_is_final_it_cannot_be_reopened_or_locked_and_takes_no_answer(make_store):
    store = make_store()
    room, key = store.create_room()
    ana, bo = store.join(room.code, student_id(), "Ana"), store.join(room.code, student_id(), "Bo")
    activity = store.open_activity(room.code, key, A.compare_activity("seed003", "ndcg"))  # NDCG@5 says A
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


def test_run_again_opens_round_two_with_the_same_content_and_keeps_round_ones_answers(make_store, clock):
    store = make_store()
    room, key = store.create_room()
    ana, bo = store.join(room.code, student_id(), "Ana"), store.join(room.code, student_id())
    first = store.open_activity(room.code, key, A.compare_activity("seed003", "ndcg"))
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
    other = store.open_activity(room.code, key, A.compare_activity("seed003", "mrr"))  # another metric: round 1
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


def test_results_count_a_student_from_the_activity_they_joined_in_with_totals_and_the_summary(make_store, clock):
    store = make_store()
    room, key = store.create_room()
    ana = store.join(room.code, student_id(), "Ana")
    rank = store.open_activity(room.code, key, A.rank_activity(A.preset_list("five"), "small_k"))
    spec = rank.activity().spec
    best, dealt = spec.best_order(), list(range(len(spec.grades)))
    store.answer(room.code, ana.id, rank.id, [(0, best)])
    clock.now += 30
    practice = store.open_activity(room.code, key, A.practice_activity(2026, 2))  # 1.5, then a choice
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
    assert spec.ndcg(dealt) < 1.0  # the dealt order is not already the best: finding it meant something
    summary = store.class_summary(room.code)
    assert [(o.kind, o.joined, o.answered, [(p.answered, p.right) for p in o.parts]) for o in summary] == [
        ("rank", 1, 1, [(1, 1)]),
        ("practice", 2, 2, [(2, 1), (1, 1)]),
    ]
    assert (summary[1].answers, summary[1].right, summary[1].share_right, summary[1].participation) == (3, 2, 2 / 3, 1)
