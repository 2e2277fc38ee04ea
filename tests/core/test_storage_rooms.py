"""Rooms (``ndcg_core.classroom.storage.rooms``), on SQLite and on PostgreSQL: codes and keys, limits, expiry and
purge at their very instants, every teacher action one revision, phases (a reveal is final), rounds run again, and
an activity opened ``after`` a revision not opened twice."""

import pytest
import sqlalchemy as sa
from storage_support import HOUR, T0, fields, predict, sid, student_id, table

from ndcg_core import InputError
from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import preset_list, random_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.storage import (
    SCHEMA_VERSION,
    Room,
    metadata,
)
from support import error_of


def test_a_room_has_a_code_from_the_alphabet_and_only_the_keys_hash_is_stored(make):
    store = make()
    room, key = store.rooms.create()
    assert len(room.code) == 6 and set(room.code) <= set(rules.ALPHABET)
    assert not set(room.code) & set("0O1IL")
    assert len(key) >= 40
    with store.engine.connect() as conn:
        stored = conn.execute(sa.text("select key_hash from rooms")).scalar_one()
        dumped = "\n".join(str(r) for t in metadata.sorted_tables for r in conn.execute(sa.select(t)))
    assert stored == rules.key_hash(key) and key not in dumped
    assert store.rooms.is_teacher(room.code, key)
    assert not store.rooms.is_teacher(room.code, key[:-1] + ("A" if key[-1] != "A" else "B"))
    assert not store.rooms.is_teacher(room.code, None)
    assert store.schema_version() == SCHEMA_VERSION


def test_only_the_key_controls_the_room(make):
    store = make()
    room, key = store.rooms.create()
    pupil = store.students.join(room.code, student_id())
    for forged in (None, "", pupil.id, "x" * 43, key.upper() if key.upper() != key else key.lower()):
        for action in (
            lambda k: store.rooms.set_phase(room.code, k, "locked"),
            lambda k: store.rooms.set_phase(room.code, k, "revealed"),
            lambda k: store.rooms.end(room.code, k),
            lambda k: store.rooms.open_activity(room.code, k, compare_activity("seed003", "ndcg")),
            lambda k: store.rooms.show_names(room.code, k, True),
        ):
            with pytest.raises(InputError) as caught:
                action(forged)
            assert caught.value.code == "room.bad_key"
    assert store.rooms.get(room.code).revision == 0  # nothing changed


def test_a_full_room_and_too_many_rooms(make):
    store = make(max_students=2, max_open_rooms=2)
    room, key = store.rooms.create()
    store.students.join(room.code, student_id())
    store.students.join(room.code, student_id())
    with pytest.raises(InputError) as caught:
        store.students.join(room.code, student_id())
    assert caught.value.code == "room.full"
    store.rooms.create()
    with pytest.raises(InputError) as caught:
        store.rooms.create()
    assert caught.value.code == "room.too_many"
    store.rooms.end(room.code, key)  # an ended room no longer counts
    store.rooms.create()


def test_an_expired_room_is_gone_and_purged(make, clock):
    store = make(room_hours=12)
    room, key = store.rooms.create()
    me = store.students.join(room.code, student_id())
    activity = store.rooms.open_activity(room.code, key, Predict(random_list(1)))
    store.answers.submit(room.code, me.id, activity.id, [(0, "0.5")])
    clock.now += 12 * 3600 - 1
    assert store.rooms.get(room.code).code == room.code
    clock.now += 2
    with pytest.raises(InputError) as caught:
        store.rooms.get(room.code)
    assert caught.value.code == "room.unknown"
    assert store.rooms.revision(room.code) is None
    assert store.rooms.purge() == 1
    with store.engine.connect() as conn:
        for table in ("rooms", "students", "activities", "answers"):
            assert conn.execute(sa.text(f"select count(*) from {table}")).scalar_one() == 0


def test_an_ended_room_refuses_joins_and_answers_but_keeps_its_results(make):
    store = make()
    room, key = store.rooms.create()
    me = store.students.join(room.code, student_id(), "=cmd|' /C calc'!A0")
    activity = store.rooms.open_activity(room.code, key, compare_activity("seed003", "mrr"))
    store.answers.submit(room.code, me.id, activity.id, [(0, "same")])
    store.rooms.end(room.code, key)
    for call in (
        lambda: store.students.join(room.code, student_id()),
        lambda: store.answers.submit(room.code, me.id, activity.id, [(0, "a")]),
    ):
        with pytest.raises(InputError) as caught:
            call()
        assert caught.value.code == "room.ended"
    [result] = store.answers.results(room.code).activities
    [row] = result.rows
    assert row.nickname == "=cmd|' /C calc'!A0"  # as typed: the CSV (ui.classroom_results) quotes it
    assert (row.value, row.right) == ("same", True)  # MRR: both put a perfect result first


def test_a_revealed_activity_is_final_it_cannot_be_reopened_or_locked_and_takes_no_answer(make):
    store = make()
    room, key = store.rooms.create()
    ana, bo = store.students.join(room.code, student_id(), "Ana"), store.students.join(room.code, student_id(), "Bo")
    activity = store.rooms.open_activity(room.code, key, compare_activity("seed003", "ndcg"))  # NDCG@5 says A
    store.answers.submit(room.code, ana.id, activity.id, [(0, "b")])
    store.rooms.set_phase(room.code, key, "locked")
    store.rooms.set_phase(room.code, key, "open")  # before the reveal, answers can be taken again
    store.answers.submit(room.code, bo.id, activity.id, [(0, "a")])
    store.rooms.set_phase(room.code, key, "revealed")
    revision = store.rooms.get(room.code).revision
    for phase in ("open", "locked"):
        with pytest.raises(InputError) as caught:
            store.rooms.set_phase(room.code, key, phase)
        assert caught.value.code == "room.revealed_final"
    with pytest.raises(InputError) as caught:
        store.answers.submit(room.code, ana.id, activity.id, [(0, "a")])  # Ana's wrong vote cannot become right
    assert caught.value.code == "room.locked"
    room_now = store.rooms.get(room.code)
    assert (room_now.current.phase, room_now.revision) == ("revealed", revision)  # nothing changed
    [result] = store.answers.results(room.code).activities
    assert [(r.nickname, r.value, r.right) for r in result.rows] == [("Ana", "b", False), ("Bo", "a", True)]


def test_run_again_opens_round_two_with_the_same_content_and_keeps_round_ones_answers(make, clock):
    store = make()
    room, key = store.rooms.create()
    ana, bo = store.students.join(room.code, student_id(), "Ana"), store.students.join(room.code, student_id())
    first = store.rooms.open_activity(room.code, key, compare_activity("seed003", "ndcg"))
    store.answers.submit(room.code, ana.id, first.id, [(0, "b")])
    store.rooms.set_phase(room.code, key, "revealed")
    clock.now += 60
    second = store.rooms.run_again(room.code, key)
    assert (first.round, second.number, second.round, second.phase) == (1, 1, 2, "open")  # activity 1, round 2
    assert (second.kind, second.payload) == (first.kind, first.payload)
    assert store.rooms.get(room.code).current == second
    store.answers.submit(room.code, ana.id, second.id, [(0, "a")])
    store.answers.submit(room.code, bo.id, second.id, [(0, "same")])
    assert store.answers.of_student(first.id, ana.id) == {0: "b"}  # round 1 untouched
    store.rooms.set_phase(room.code, key, "revealed")
    third = store.rooms.run_again(room.code, key)
    other = store.rooms.open_activity(room.code, key, compare_activity("seed003", "mrr"))  # another metric: round 1
    assert [(a.number, a.round) for a in store.rooms.activity_list(room.code)] == [(1, 1), (1, 2), (1, 3), (2, 1)]
    assert (third.round, other.round) == (3, 1)
    results = store.answers.results(room.code)
    assert [(r.number, r.round, [(x.student, x.value, x.right) for x in r.rows]) for r in results.activities] == [
        (1, 1, [(1, "b", False), (2, None, None)]),
        (1, 2, [(1, "a", True), (2, "same", False)]),
        (1, 3, [(1, None, None), (2, None, None)]),
        (2, 1, [(1, None, None), (2, None, None)]),
    ]
    assert [(t.nickname, t.questions, t.answered, t.right) for t in results.totals] == [
        ("Ana", 4, 2, 1),
        (None, 4, 1, 0),
    ]
    summary = store.answers.class_summary(room.code)
    assert [(o.number, o.kind, o.round, o.joined, o.answered, o.right, o.share_right) for o in summary] == [
        (1, "compare", 1, 2, 1, 0, 0.0),
        (1, "compare", 2, 2, 2, 1, 0.5),
        (1, "compare", 3, 2, 0, 0, None),
        (2, "compare", 1, 2, 0, 0, None),
    ]
    with pytest.raises(InputError) as caught:
        store.rooms.run_again(store.rooms.create()[0].code, key)
    assert caught.value.code == "room.bad_key"


def test_a_round_finds_the_round_before_it_to_show_beside_it(make, clock):
    store = make()
    room, key = store.rooms.create()
    first = store.rooms.open_activity(room.code, key, Predict(preset_list("five")))
    assert store.rooms.earlier_round(room.code, first) is None
    store.rooms.set_phase(room.code, key, "locked")  # voting again after a lock: the class has not seen the answer
    second = store.rooms.run_again(room.code, key)
    other = store.rooms.open_activity(room.code, key, compare_activity("seed003", "ndcg"))
    again = store.rooms.open_activity(room.code, key, Predict(preset_list("five")))  # the same question, opened anew
    assert (second.round, other.round, again.round) == (2, 1, 3)
    before = store.rooms.earlier_round(room.code, again)
    assert (before.id, before.number, before.round, before.phase) == (second.id, 1, 2, "open")
    assert store.rooms.earlier_round(room.code, second).id == first.id
    assert store.rooms.earlier_round(room.code, other) is None


def test_a_new_room_as_stored(make, clock):
    s = make()
    room, key = s.rooms.create()
    # Nobody has joined: it expires after the empty room's 30 minutes; the first student gives it its 12 hours.
    assert room == Room(room.code, T0, T0 + 30 * 60, None, False, 0, 0, 0, None)
    assert s.rooms.revision(room.code) == 0
    clock.now = T0 + 60
    s.students.join(room.code, sid(1))
    assert s.rooms.get(room.code) == Room(room.code, T0, T0 + 12 * HOUR, None, False, 0, 1, 0, None)


def test_a_taken_room_code_is_drawn_again_twenty_times_at_most(make, monkeypatch):
    s = make()
    first, _ = s.rooms.create()
    codes = iter([first.code, first.code, "ABCDEF"])
    monkeypatch.setattr(rules, "new_code", lambda: next(codes))
    second, _ = s.rooms.create()
    assert second.code == "ABCDEF"
    drawn = []
    monkeypatch.setattr(rules, "new_code", lambda: drawn.append(1) or first.code)
    with pytest.raises(RuntimeError, match="^could not draw a free room code$"):
        s.rooms.create()
    assert len(drawn) == 20


def test_too_many_open_rooms_names_the_limit(make, clock):
    s = make(max_open_rooms=1)
    s.rooms.create()
    assert fields(error_of(s.rooms.create)) == ("room.too_many", {"limit": 1})
    clock.now = T0 + 12 * HOUR  # the first room expires at this very instant
    s.rooms.create()


def test_a_room_expires_at_its_very_instant(make, clock):
    s = make()
    room, key = s.rooms.create()
    s.students.join(room.code, sid(2))  # a room somebody joined lives its 12 hours
    clock.now = T0 + 12 * HOUR - 1
    assert s.rooms.get(room.code).code == room.code and s.rooms.revision(room.code) == 0
    clock.now = T0 + 12 * HOUR
    assert fields(error_of(s.rooms.get, room.code)) == ("room.unknown", {"code": room.code})
    assert s.rooms.revision(room.code) is None and s.rooms.revision("ABCDEF") is None
    assert fields(error_of(s.students.join, room.code, sid(1))) == ("room.unknown", {"code": room.code})
    assert fields(error_of(s.answers.submit, room.code, sid(1), 1, [(0, "0.5")])) == (
        "room.unknown",
        {"code": room.code},
    )
    assert fields(error_of(s.answers.submit, "ABCDEF", sid(1), 1, [(0, "0.5")])) == ("room.unknown", {"code": "ABCDEF"})


def test_every_teacher_action_adds_one_to_the_revision_of_that_room_only(make, clock):
    s = make()
    room, key = s.rooms.create()
    other, other_key = s.rooms.create()
    clock.now = T0 + 5
    first = s.rooms.open_activity(room.code, key, predict())
    assert (first.number, first.kind, first.phase, first.opened_at) == (1, "predict", "open", T0 + 5)
    assert first.payload == predict().payload()
    assert s.rooms.revision(room.code) == 1
    s.rooms.set_phase(room.code, key, "locked")
    assert s.rooms.revision(room.code) == 2 and s.rooms.get(room.code).current.phase == "locked"
    s.rooms.show_names(room.code, key, True)
    assert s.rooms.revision(room.code) == 3 and s.rooms.get(room.code).show_names is True
    second = s.rooms.open_activity(room.code, key, compare_activity("seed003", "mrr"))
    assert second.number == 2 and s.rooms.revision(room.code) == 4
    shown = s.rooms.get(room.code)
    assert (shown.activities, shown.current.id, shown.current.number) == (2, second.id, 2)
    assert [a.number for a in s.rooms.activity_list(room.code)] == [1, 2]
    assert [(a.kind, a.phase) for a in s.rooms.activity_list(room.code)] == [("predict", "locked"), ("compare", "open")]
    s.rooms.end(room.code, key)
    assert s.rooms.revision(room.code) == 5 and s.rooms.get(room.code).ended_at == T0 + 5
    assert s.rooms.revision(other.code) == 0 and s.rooms.get(other.code).show_names is False


def test_teacher_actions_check_the_key_and_the_phase(make):
    s = make()
    room, key = s.rooms.create()
    assert fields(error_of(s.rooms.show_names, room.code, "forged", True)) == ("room.bad_key", {})
    assert fields(error_of(s.rooms.set_phase, room.code, key, "open")) == ("room.no_activity", {})
    assert fields(error_of(s.rooms.set_phase, room.code, key, "closed")) == (
        "room.phase",
        {"value": "'closed'", "choices": "open, locked, revealed"},
    )


def test_a_purge_deletes_expired_rooms_at_their_instant_and_old_records(make, clock):
    s = make(room_hours=48, join_window_seconds=600)
    old, old_key = s.rooms.create()
    clock.now = T0 + 10
    young, young_key = s.rooms.create()
    for code, k in ((old.code, old_key), (young.code, young_key)):
        activity = s.rooms.open_activity(code, k, predict())
        s.students.join(code, sid(1))
        s.answers.submit(code, sid(1), activity.id, [(0, "0.5")])
    clock.now = T0 + 10 + 86400 - 600
    assert error_of(s.students.join, "ABCDEF", sid(9), source="there").code == "room.unknown"  # recorded now
    clock.now = T0 + 10 + 86400  # the failure exactly 600 s old stays
    assert s.rooms.purge() == 0 and len(table(s, "join_failures")) == 1
    clock.now += 0.5
    assert s.rooms.purge() == 0 and table(s, "join_failures") == []
    clock.now = T0 + 48 * HOUR  # the old room's very instant of expiry
    assert s.rooms.purge() == 1
    assert [r["code"] for r in table(s, "rooms")] == [young.code]
    assert {r["room"] for t in ("students", "activities", "answers") for r in table(s, t)} == {young.code}


def test_opening_after_a_revision_opens_again_only_what_that_revision_did_not_see(make):
    s = make()
    room, key = s.rooms.create()
    first = s.rooms.open_activity(room.code, key, predict(), after=0)
    assert s.rooms.open_activity(room.code, key, predict(), after=0) == first  # a second click on the same page
    other = s.rooms.open_activity(room.code, key, compare_activity("seed003", "ndcg"), after=0)  # another activity
    again = s.rooms.open_activity(room.code, key, predict(), after=2)  # the same choices on a page that saw the rest
    assert [a.id for a in s.rooms.activity_list(room.code)] == [first.id, other.id, again.id]
    assert again.round == 2
    s.rooms.set_phase(room.code, key, "locked")  # revision 4: the current one is no longer open
    assert s.rooms.open_activity(room.code, key, predict(), after=3).id not in (first.id, again.id)
    without = s.rooms.run_again(room.code, key)  # no revision given: always a new round
    assert without.round == 4


def test_a_rooms_rounds_count_only_its_own_activities(make):
    """The same activity opened in another room earlier is not a round of this room's."""
    s = make()
    one, one_key = s.rooms.create()
    two, two_key = s.rooms.create()
    s.rooms.open_activity(one.code, one_key, predict())
    s.rooms.open_activity(one.code, one_key, predict())
    s.rooms.open_activity(two.code, two_key, compare_activity("seed003", "mrr"))
    mine = s.rooms.open_activity(two.code, two_key, predict())
    assert mine.round == 1 and s.rooms.get(two.code).current.round == 1
