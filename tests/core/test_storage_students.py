"""Students (``ndcg_core.classroom.storage.students``), on SQLite and on PostgreSQL: joining by a typed code and
again, concurrent joins never overfilling a room, wrong codes slowed per source, the roster."""

import threading

import pytest
from storage_support import T0, fields, sid, student_id, table

from ndcg_core import InputError
from ndcg_core.classroom.storage import (
    Student,
)
from support import error_of


def test_joining_by_a_typed_code_and_again_after_a_reload(make):
    store = make()
    room, key = store.rooms.create()
    me = student_id()
    first = store.students.join(f" {room.code[:3].lower()}-{room.code[3:].lower()} ", me, "  Ana  ")
    again = store.students.join(room.code, me)  # a reload: the same browser id
    assert (first.number, again.number, again.nickname) == (1, 1, "Ana")
    other = store.students.join(room.code, student_id())
    assert other.number == 2 and other.nickname is None
    assert store.rooms.get(room.code).students == 2


def test_concurrent_joins_never_overfill_a_room(make):
    store = make(max_students=5)
    room, _ = store.rooms.create()
    outcomes = []

    def join():
        try:
            outcomes.append(store.students.join(room.code, student_id()).number)
        except InputError as err:
            outcomes.append(err.code)

    threads = [threading.Thread(target=join) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(n for n in outcomes if isinstance(n, int)) == [1, 2, 3, 4, 5]
    assert outcomes.count("room.full") == 7


def test_wrong_codes_are_slowed_per_source_and_a_right_code_is_not(make, clock):
    store = make(free_join_failures=3)
    room, _ = store.rooms.create()
    wrong = "ZZZZZZ" if room.code != "ZZZZZZ" else "YYYYYY"
    for _ in range(4):
        with pytest.raises(InputError) as caught:
            store.students.join(wrong, student_id(), source="10.0.0.9")
        assert caught.value.code == "room.unknown"
    with pytest.raises(InputError) as caught:
        store.students.join(wrong, student_id(), source="10.0.0.9")  # a fifth wrong code must wait now
    assert caught.value.code == "room.join_wait" and caught.value.fields["seconds"] >= 1
    store.students.join(room.code, student_id(), source="10.0.0.9")  # the right code is not slowed
    assert error_of(store.students.join, wrong, student_id(), source="10.0.0.10").code == "room.unknown"
    clock.now += 60
    assert error_of(store.students.join, wrong, student_id(), source="10.0.0.9").code == "room.unknown"


def test_joining_again_keeps_the_number_and_updates_the_nickname_in_that_room_only(make):
    s = make()
    a, _ = s.rooms.create()
    b, _ = s.rooms.create()
    assert s.students.join(a.code, sid(1), "Ana") == Student(a.code, sid(1), 1, "Ana")
    assert s.students.join(a.code, sid(2)) == Student(a.code, sid(2), 2, None)
    assert s.students.join(b.code, sid(1), "Bo") == Student(b.code, sid(1), 1, "Bo")  # the same browser in another room
    assert s.students.join(a.code.lower(), sid(1)) == Student(
        a.code, sid(1), 1, "Ana"
    )  # no nickname: the old one stays
    assert s.students.get(a.code, sid(1)) == Student(a.code, sid(1), 1, "Ana")
    assert s.students.join(a.code, sid(1), "Anita") == Student(a.code, sid(1), 1, "Anita")
    assert s.students.get(a.code, sid(1)) == Student(a.code, sid(1), 1, "Anita")
    assert s.students.get(b.code, sid(1)) == Student(b.code, sid(1), 1, "Bo")
    assert s.students.get(b.code, sid(2)) is None
    assert s.students.roster(a.code) == [Student(a.code, sid(1), 1, "Anita"), Student(a.code, sid(2), 2, None)]
    assert s.students.roster(b.code) == [Student(b.code, sid(1), 1, "Bo")]
    assert (s.rooms.get(a.code).students, s.rooms.get(b.code).students) == (2, 1)


def test_a_full_room_names_its_limit(make):
    s = make(max_students=1)
    room, _ = s.rooms.create()
    s.students.join(room.code, sid(1))
    assert fields(error_of(s.students.join, room.code, sid(2))) == ("room.full", {"limit": 1})
    assert s.students.join(room.code, sid(1)).number == 1


def test_wrong_codes_slow_wrong_codes_from_their_source(make, clock):
    s = make(free_join_failures=1, join_window_seconds=600, max_join_wait_seconds=60)
    room, _ = s.rooms.create()
    # An unknown room, then a code of the wrong length: both count.
    assert fields(error_of(s.students.join, "ABCDEF", sid(1))) == ("room.unknown", {"code": "ABCDEF"})
    assert error_of(s.students.join, "K7", sid(1)).code == "room.code_length"
    # Two failures, one free: a third wrong code waits 2 s after the last; the default source is ""
    assert fields(error_of(s.students.join, "ABCDEF", sid(1), source="")) == ("room.join_wait", {"seconds": 3})
    clock.now += 1.5  # the third made it three: 4 s after it, 2.5 s left
    assert fields(error_of(s.students.join, "ABCDEG", sid(1))) == ("room.join_wait", {"seconds": 3})
    assert s.students.join(room.code, sid(1)).number == 1  # the right code is never slowed by them
    assert error_of(s.students.join, "ABCDEF", sid(2), source="elsewhere").code == "room.unknown"
    clock.now = T0 + 1.5 + 600  # every failure is 600 s old or more: outside the window
    assert error_of(s.students.join, "ABCDEF", sid(3)).code == "room.unknown"  # one failure in the window: free
    assert s.students.join(room.code, sid(3)).number == 2


def test_a_wait_under_a_second_is_still_a_wait_told_as_one_second(make, clock):
    s = make(free_join_failures=1, join_window_seconds=600, max_join_wait_seconds=60)
    for _ in range(2):  # the free one, then one whose wait (2 ** 0 - 1 = 0 s) is nothing
        assert error_of(s.students.join, "ABCDEF", sid(1)).code == "room.unknown"
    clock.now += 1.5  # the third wrong code waits 2 s after the second: 0.5 s left
    assert fields(error_of(s.students.join, "ABCDEF", sid(1))) == ("room.join_wait", {"seconds": 1})


def test_past_the_most_wrong_codes_a_source_waits_until_its_first_leaves_the_window_and_none_is_kept(make, clock):
    s = make(max_join_failures=2, free_join_failures=5, join_window_seconds=600)
    room, _ = s.rooms.create()
    for _ in range(2):  # both free: five are
        assert error_of(s.students.join, "ABCDEF", sid(1), source="10.0.0.9").code == "room.unknown"
    clock.now += 100  # the first wrong code leaves the window in 600 - 100 = 500 s
    told = ("room.join_wait", {"seconds": 500 + 1})
    assert fields(error_of(s.students.join, "ABCDEF", sid(1), source="10.0.0.9")) == told
    assert fields(error_of(s.students.join, room.code, sid(1), source="10.0.0.9")) == told  # guessing: even a right one
    assert len(table(s, "join_failures")) == 2  # the records stay bounded
    assert s.students.join(room.code, sid(1), source="10.0.0.10").number == 1  # another place is not slowed
    clock.now += 499.5  # half a second before the first leaves the window: told 1 s, for the right code too
    assert fields(error_of(s.students.join, room.code, sid(2), source="10.0.0.9")) == ("room.join_wait", {"seconds": 1})


def test_a_source_that_is_not_text_is_still_counted(make):
    s = make(free_join_failures=0)
    room, _ = s.rooms.create()
    assert error_of(s.students.join, "ABCDEF", sid(1), source="\ud800").code == "room.unknown"
    assert fields(error_of(s.students.join, "ABCDEF", sid(1), source="\ud800")) == ("room.join_wait", {"seconds": 3})
    assert len(table(s, "join_failures")) == 2


def test_the_roster_is_in_joining_order(make):
    s = make()
    room, _ = s.rooms.create()
    s.students.join(room.code, sid(9), "first")
    s.students.join(room.code, sid(1), "second")
    assert [(st.number, st.nickname) for st in s.students.roster(room.code)] == [(1, "first"), (2, "second")]


def test_which_of_many_ids_joined_is_one_read_of_that_room_only(make):
    s = make()
    room, _ = s.rooms.create()
    other, _ = s.rooms.create()
    s.students.join(room.code, sid(1))
    s.students.join(room.code, sid(2))
    s.students.join(other.code, sid(3))
    assert s.students.joined_of(room.code, {sid(1), sid(2), sid(3), sid(4)}) == {sid(1), sid(2)}
    assert s.students.joined_of(other.code, [sid(1), sid(3)]) == {sid(3)}
    assert s.students.joined_of(room.code, []) == set()


def test_a_student_joining_again_under_a_new_nickname_is_told_to_the_room(tmp_path):
    """On SQLite the notice goes to this process's sinks (PostgreSQL's ``pg_notify`` is tested with the hub)."""
    from ndcg_core.classroom.notices import Notice
    from ndcg_core.classroom.storage import Classroom

    store = Classroom(f"sqlite:///{tmp_path / 'classroom.sqlite3'}")
    try:
        heard = []
        store.database.sinks.append(heard.append)
        room, _ = store.rooms.create()
        store.students.join(room.code, sid(1), "Ana")
        heard.clear()
        store.students.join(room.code, sid(1), "Ana")  # the same nickname: nothing to tell
        assert heard == []
        store.students.join(room.code, sid(1), "Bea")
        assert heard == [Notice(room.code, joined=True, student=sid(1))]
    finally:
        store.close()
