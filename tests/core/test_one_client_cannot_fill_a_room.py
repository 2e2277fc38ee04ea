"""Issue 46: 510 joins from one address filled a 500-student room in 8.2 s, and wrong codes from an address made its
right codes and its students coming back wait. Now new students from one address are paced by join tokens
(``join_burst`` at once, then ``joins_per_second``); the teacher sets the room's size, closes joining and removes a
burst of joins; wrong codes slow only wrong codes, until an address has tried so many that it is guessing. On
SQLite and on PostgreSQL (the routes' and the page's own tests: ``tests/ui``)."""

from storage_support import T0, fields, predict, sid

from ndcg_core.classroom import rules
from support import error_of


def test_join_tokens_refill_at_their_rate_up_to_the_burst():
    limits = rules.Limits(join_burst=100, joins_per_second=4.0)
    assert rules.join_tokens(0.0, 0.25, limits) == 1.0
    assert rules.join_tokens(10.0, 1000.0, limits) == 100.0
    assert rules.join_tokens(5.0, -3.0, limits) == 5.0  # a clock that stepped back adds nothing
    assert rules.join_token_wait(0.5, limits) == 0.5 / 4.0
    assert rules.join_token_wait(2.0, limits) == 0.0


def test_new_students_from_one_address_are_paced_and_others_are_not(make, clock):
    limits = rules.Limits(join_burst=5, joins_per_second=2.0)
    s = make(join_burst=limits.join_burst, joins_per_second=limits.joins_per_second)
    room, _ = s.rooms.create()
    for n in range(limits.join_burst):
        s.students.join(room.code, sid(n), source="campus")
    # Empty: one token comes in 1 / 2 s: "wait 1 second" (whole seconds, up).
    assert fields(error_of(s.students.join, room.code, sid(50), source="campus")) == ("room.join_busy", {"seconds": 1})
    assert s.students.join(room.code, sid(60), source="elsewhere").number == limits.join_burst + 1
    assert s.students.join(room.code, sid(0), source="campus").number == 1  # back again: never slowed
    clock.now = T0 + 1 / limits.joins_per_second
    assert s.students.join(room.code, sid(50), source="campus").number == limits.join_burst + 2
    assert error_of(s.students.join, room.code, sid(51), source="campus").code == "room.join_busy"
    assert s.rooms.get(room.code).students == limits.join_burst + 2  # a refused join took no seat


def test_a_class_of_300_behind_one_address_is_in_within_two_minutes(make, clock):
    """Arriving 10 a second (faster than the tokens refill), each refused phone pressing Join again a second
    later: all 300 are in long before two minutes. (Within one second, the phones after a refused one would be
    refused alike: they are not sent, and wait for the next second.)"""
    limits = rules.Limits()
    s = make()
    room, _ = s.rooms.create()
    waiting, joined, arrived = [], 0, 0
    while joined < 300:
        now = clock.now - T0
        while arrived < 300 and arrived <= now * 10:
            waiting.append(sid(arrived))
            arrived += 1
        while waiting:
            try:
                s.students.join(room.code, waiting[0], source="campus")
            except Exception as err:  # noqa: BLE001 - checked: only the pace refuses
                assert getattr(err, "code", None) == "room.join_busy"
                break
            waiting.pop(0)
            joined += 1
        clock.now += 1.0
        assert clock.now - T0 <= 120
    assert s.rooms.get(room.code).students == 300 <= limits.max_students
    # The tokens say when the last got in: the burst, then the rate, for the rest.
    assert clock.now - T0 <= 1 + (300 - limits.join_burst) / limits.joins_per_second + 1


def test_the_teacher_sets_the_size_closes_joining_and_students_in_stay(make):
    s = make(max_students=500)
    room, key = s.rooms.create()
    assert s.doors.get(room.code) == s.doors.get(room.code).__class__(500, False)
    s.students.join(room.code, sid(1))
    s.students.join(room.code, sid(2))
    s.doors.set_seats(room.code, key, 2)
    assert fields(error_of(s.students.join, room.code, sid(3))) == ("room.full", {"limit": 2})
    assert s.students.join(room.code, sid(1)).number == 1  # a student in the room comes back
    s.doors.set_seats(room.code, key, 3)
    s.doors.set_closed(room.code, key, True)
    assert fields(error_of(s.students.join, room.code, sid(3))) == ("room.closed", {})
    assert s.students.join(room.code, sid(2)).number == 2
    s.doors.set_closed(room.code, key, False)
    assert s.students.join(room.code, sid(3)).number == 3
    assert (s.doors.get(room.code).seats, s.doors.get(room.code).closed) == (3, False)
    assert s.rooms.revision(room.code) == 4  # each of the four changes a teacher's action
    for bad in (0, 501, 2.5, "3", None, True):
        assert fields(error_of(s.doors.set_seats, room.code, key, bad)) == (
            "room.seats",
            {"value": repr(bad), "limit": 500},
        )
    assert error_of(s.doors.set_closed, room.code, "forged", True).code == "room.bad_key"


def test_the_teacher_removes_the_last_minutes_joins_and_the_seats_are_free(make, clock):
    s = make(max_students=5)
    room, key = s.rooms.create()
    s.students.join(room.code, sid(1), "Ana")
    s.students.join(room.code, sid(2), "Bo")
    clock.now = T0 + 600
    for n in range(3, 6):  # a burst fills the room
        s.students.join(room.code, sid(n), "bot", source="script")
    assert error_of(s.students.join, room.code, sid(9), "Cy").code == "room.full"
    clock.now = T0 + 630
    assert s.doors.remove(room.code, key, joined_within=60) == 3
    assert [(st.number, st.nickname) for st in s.students.roster(room.code)] == [(1, "Ana"), (2, "Bo")]
    assert s.rooms.get(room.code).students == 2
    assert s.students.join(room.code, sid(9), "Cy").number == 3  # numbers go on from the highest in the room
    assert s.doors.remove(room.code, key) == 0  # nothing asked, nothing removed


def test_the_teacher_removes_everyone_who_never_answered_with_nothing_else_lost(make):
    s = make()
    room, key = s.rooms.create()
    for n in range(1, 5):
        s.students.join(room.code, sid(n))
    activity = s.rooms.open_activity(room.code, key, predict())
    s.answers.submit(room.code, sid(2), activity.id, [(0, "0.5")])
    assert s.doors.remove(room.code, key, never_answered=True) == 3
    assert [st.id for st in s.students.roster(room.code)] == [sid(2)]
    assert s.answers.of_student(activity.id, sid(2)) == {0: 0.5}
    assert error_of(s.answers.submit, room.code, sid(1), activity.id, [(0, "0.5")]).code == "room.not_joined"


def test_a_right_code_and_a_student_coming_back_are_not_slowed_by_wrong_codes(make, clock):
    limits = rules.Limits(free_join_failures=3)
    s = make(free_join_failures=limits.free_join_failures)
    room, _ = s.rooms.create()
    s.students.join(room.code, sid(1), source="campus")
    wrong = "ZZZZZZ" if room.code != "ZZZZZZ" else "YYYYYY"
    for _ in range(limits.free_join_failures + 2):
        error_of(s.students.join, wrong, sid(99), source="campus")
    assert error_of(s.students.join, wrong, sid(99), source="campus").code == "room.join_wait"
    assert s.students.join(room.code, sid(1), source="campus").number == 1  # coming back
    assert s.students.join(room.code, sid(2), source="campus").number == 2  # the right code


def test_a_place_that_guesses_waits_even_with_a_right_code(make, clock):
    limits = rules.Limits(free_join_failures=3, max_join_failures=20, join_window_seconds=600)
    s = make(
        free_join_failures=limits.free_join_failures,
        max_join_failures=limits.max_join_failures,
        join_window_seconds=limits.join_window_seconds,
    )
    room, _ = s.rooms.create()
    s.students.join(room.code, sid(1), source="guesser")
    for n in range(limits.max_join_failures + 10):  # told to wait, it goes on guessing: each counts, up to the most
        clock.now = T0 + n
        error_of(s.students.join, f"ABC{n:03d}".replace("0", "Z").replace("1", "Y"), sid(99), source="guesser")
    # The earliest of the 20 wrong codes (at T0) leaves the 600 s window at T0 + 600.
    assert fields(error_of(s.students.join, room.code, sid(2), source="guesser")) == (
        "room.join_wait",
        {"seconds": int(T0 + limits.join_window_seconds - clock.now) + 1},
    )
    assert s.students.join(room.code, sid(1), source="guesser").number == 1  # a student in the room comes back
    clock.now = T0 + limits.join_window_seconds
    assert s.students.join(room.code, sid(2), source="guesser").number == 2
