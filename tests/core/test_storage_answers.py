"""Answers (``ndcg_core.classroom.storage.answers``), on SQLite and on PostgreSQL: answers as upserts until the
teacher locks, bad ones refused with nothing stored, the token bucket, an answer sent again stored once, and the
room's results and summary."""

import pytest
from storage_support import T0, fields, lost, predict, sid, student_id, table

from ndcg_core import InputError, ndcg_at_k
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import preset_list, random_list
from ndcg_core.classroom.kinds.practice import ExerciseAnswer, Practice, practice_activity
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import rank_activity
from ndcg_core.classroom.kinds.tally import within
from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.storage.answers import Answers
from support import error_of


def test_an_answer_is_an_upsert_and_can_change_until_the_teacher_locks(make):
    store = make()
    room, key = store.rooms.create()
    me = store.students.join(room.code, student_id(), "Bo")
    activity = store.rooms.open_activity(room.code, key, Predict(preset_list("five")))
    assert store.answers.submit(room.code, me.id, activity.id, [(0, "0.5")]) == {0: 0.5}  # theirs once stored
    assert store.answers.submit(room.code, me.id, activity.id, [(0, " 0.97 ")]) == {0: 0.97}
    assert store.answers.submit(room.code, me.id, activity.id, [(0, "0.97")]) == {0: 0.97}  # the same, stored once
    assert [(a.student, a.nickname, a.value) for a in store.answers.for_activity(activity.id)] == [(1, "Bo", 0.97)]
    store.rooms.set_phase(room.code, key, "locked")
    with pytest.raises(InputError) as caught:
        store.answers.submit(room.code, me.id, activity.id, [(0, "0.3")])
    assert caught.value.code == "room.locked"
    store.rooms.set_phase(room.code, key, "revealed")
    assert store.answers.of_student(activity.id, me.id) == {0: 0.97}
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
    room, key = store.rooms.create()
    me = store.students.join(room.code, student_id())
    activity = store.rooms.open_activity(room.code, key, Predict(random_list(3)))
    with pytest.raises(InputError) as caught:
        store.answers.submit(room.code, me.id, activity.id, [(0, raw)])
    assert caught.value.code == code
    assert store.answers.for_activity(activity.id) == []


def test_an_old_activity_and_an_unjoined_student_are_refused(make):
    store = make()
    room, key = store.rooms.create()
    me = store.students.join(room.code, student_id())
    old = store.rooms.open_activity(room.code, key, compare_activity("seed003", "mrr"))
    new = store.rooms.open_activity(room.code, key, compare_activity("seed003", "ndcg"))
    with pytest.raises(InputError, match="closed") as caught:
        store.answers.submit(room.code, me.id, old.id, [(0, "a")])
    assert caught.value.code == "room.not_current"
    with pytest.raises(InputError) as caught:
        store.answers.submit(room.code, student_id(), new.id, [(0, "a")])
    assert caught.value.code == "room.not_joined"


def test_the_answers_book_gives_every_students_or_only_those_named(make):
    store = make()
    room, key = store.rooms.create()
    ana, bo, cy = (store.students.join(room.code, student_id(), name) for name in ("Ana", "Bo", "Cy"))
    activity = store.rooms.open_activity(room.code, key, practice_activity(2026, 2))  # 1.5, then a choice
    choice = activity.activity().exercises()[1].answer
    store.answers.submit(room.code, bo.id, activity.id, [(1, choice), (0, "1.5")])
    store.answers.submit(room.code, ana.id, activity.id, [(0, "1")])
    book = store.answers.book(activity.id)
    assert {student: [(a.student, a.part) for a in given] for student, given in book.items()} == {
        ana.id: [(1, 0)],
        bo.id: [(2, 0), (2, 1)],
    }
    assert store.answers.for_activity(activity.id) == [*book[ana.id], *book[bo.id]]  # by number, then part
    only = store.answers.book(activity.id, {bo.id, cy.id})
    assert only == {bo.id: book[bo.id], cy.id: ()}  # Cy has none: named, and empty


def test_answers_faster_than_the_rate_limit_are_refused_then_allowed_again(make, clock):
    store = make(answer_burst=3, answers_per_second=1.0)
    room, key = store.rooms.create()
    me = store.students.join(room.code, student_id())
    activity = store.rooms.open_activity(room.code, key, compare_activity("seed003", "ndcg"))
    for vote in ("a", "b", "same"):
        store.answers.submit(room.code, me.id, activity.id, [(0, vote)])
    with pytest.raises(InputError) as caught:
        store.answers.submit(room.code, me.id, activity.id, [(0, "a")])
    assert caught.value.code == "room.too_fast"
    assert store.answers.of_student(activity.id, me.id) == {0: "same"}
    clock.now += 1.0
    store.answers.submit(room.code, me.id, activity.id, [(0, "a")])
    assert store.answers.of_student(activity.id, me.id) == {0: "a"}


def test_results_count_a_student_from_the_activity_they_joined_in_with_totals_and_the_summary(make, clock):
    store = make()
    room, key = store.rooms.create()
    ana = store.students.join(room.code, student_id(), "Ana")
    rank = store.rooms.open_activity(room.code, key, rank_activity(preset_list("five"), "small_k"))
    spec = rank.activity().spec
    best, dealt = spec.best_order(), list(range(len(spec.grades)))
    store.answers.submit(room.code, ana.id, rank.id, [(0, best)])
    clock.now += 30
    practice = store.rooms.open_activity(room.code, key, practice_activity(2026, 2))  # 1.5, then a choice
    clock.now += 30
    late = store.students.join(
        room.code, student_id(), "Late"
    )  # joined while the practice ran: not present for the rank
    store.answers.submit(room.code, late.id, practice.id, [(0, "1.5")])
    store.answers.submit(room.code, ana.id, practice.id, [(0, "1"), (1, practice.activity().exercises()[1].answer)])
    store.rooms.set_phase(room.code, key, "revealed")
    results = store.answers.results(room.code)
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
    summary = store.answers.class_summary(room.code)
    assert [(o.kind, o.joined, o.answered, [(p.answered, p.right) for p in o.parts]) for o in summary] == [
        ("rank", 1, 1, [(1, 1)]),
        ("practice", 2, 2, [(2, 1), (1, 1)]),
    ]
    assert (summary[1].answers, summary[1].right, summary[1].share_right, summary[1].participation) == (3, 2, 2 / 3, 1)


def test_answers_come_back_by_student_then_part_with_their_time(make, clock):
    s = make()
    room, key = s.rooms.create()
    other, other_key = s.rooms.create()
    practice = Practice(2026, (0, 3))  # a dcg_term (1.5), then better_order (b)
    activity = s.rooms.open_activity(room.code, key, practice)
    elsewhere = s.rooms.open_activity(other.code, other_key, practice)
    s.students.join(room.code, sid(1), "Ana")
    s.students.join(room.code, sid(2))
    s.students.join(other.code, sid(2), "Bo")
    clock.now = T0 + 7
    s.answers.submit(room.code, sid(2), activity.id, [(1, "b"), (0, "2")])
    s.answers.submit(room.code, sid(1), activity.id, [(1, "a")])
    s.answers.submit(other.code, sid(2), elsewhere.id, [(0, "1.5")])
    got = s.answers.for_activity(activity.id)
    assert [(a.student, a.nickname, a.part, a.at) for a in got] == [
        (1, "Ana", 1, T0 + 7),
        (2, None, 0, T0 + 7),
        (2, None, 1, T0 + 7),
    ]
    assert got[2].value == ExerciseAnswer("b", True)  # part 1 is checked as part 1
    assert s.answers.of_student(activity.id, sid(2)) == {
        0: ExerciseAnswer("2", False),
        1: ExerciseAnswer("b", True),
    }
    assert s.answers.of_student(activity.id, sid(1)) == {1: ExerciseAnswer("a", False)}
    assert s.answers.of_student(elsewhere.id, sid(2)) == {0: ExerciseAnswer("1.5", True)}
    assert s.answers.by_student(activity.id) == {  # the class's in one read: each student's as of_student's
        sid(1): s.answers.of_student(activity.id, sid(1)),
        sid(2): s.answers.of_student(activity.id, sid(2)),
    }
    assert s.answers.by_student(elsewhere.id) == {sid(2): {0: ExerciseAnswer("1.5", True)}}
    [result] = s.answers.results(room.code).activities
    assert [(r.student, r.nickname, r.part, r.value, r.right, r.answered_at) for r in result.rows] == [
        (1, "Ana", 0, None, None, None),  # Ana left exercise 1 unanswered: a row all the same
        (1, "Ana", 1, "a", False, T0 + 7),
        (2, None, 0, "2", False, T0 + 7),
        (2, None, 1, "b", True, T0 + 7),
    ]
    assert (result.number, result.round, result.solutions) == (1, 1, (1.5, "b"))
    second = s.rooms.open_activity(room.code, key, predict())
    s.answers.submit(room.code, sid(1), second.id, [(0, "0.5")])
    results = s.answers.results(room.code)
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
    room, key = s.rooms.create()
    activity = s.rooms.open_activity(room.code, key, predict())
    s.students.join(room.code, sid(1))
    sends = iter([[(0, f"0.{n}")] for n in range(1, 10)])  # each a new answer (a resend spends nothing)
    s.answers.submit(room.code, sid(1), activity.id, next(sends))
    s.answers.submit(room.code, sid(1), activity.id, next(sends))
    assert fields(error_of(s.answers.submit, room.code, sid(1), activity.id, next(sends))) == ("room.too_fast", {})
    clock.now += 0.5  # 2 a second: one more
    s.answers.submit(room.code, sid(1), activity.id, next(sends))
    assert fields(error_of(s.answers.submit, room.code, sid(1), activity.id, next(sends))) == ("room.too_fast", {})
    clock.now += 0.25  # half an answer since the last one: not yet
    assert fields(error_of(s.answers.submit, room.code, sid(1), activity.id, next(sends))) == ("room.too_fast", {})
    assert s.answers.of_student(activity.id, sid(1)) == {0: 0.4}


def test_answers_spend_and_check_the_student_of_that_room(make):
    s = make(answer_burst=1, answers_per_second=0.001)
    a, a_key = s.rooms.create()
    b, b_key = s.rooms.create()
    in_a = s.rooms.open_activity(a.code, a_key, predict())
    in_b = s.rooms.open_activity(b.code, b_key, predict())
    s.students.join(a.code, sid(1))
    s.students.join(b.code, sid(1))  # the same browser in both rooms
    s.answers.submit(a.code, sid(1), in_a.id, [(0, "0.5")])
    s.answers.submit(b.code, sid(1), in_b.id, [(0, "0.5")])  # room B's bucket is its own
    assert fields(error_of(s.answers.submit, a.code, sid(1), in_a.id, [(0, "0.6")])) == ("room.too_fast", {})
    c, c_key = s.rooms.create()
    in_c = s.rooms.open_activity(c.code, c_key, predict())
    assert fields(error_of(s.answers.submit, c.code, sid(1), in_c.id, [(0, "0.5")])) == ("room.not_joined", {})


def test_an_answer_sent_again_is_stored_once_and_spends_no_token(make, clock):
    s = make(answer_burst=1, answers_per_second=0.001)
    room, key = s.rooms.create()
    activity = s.rooms.open_activity(room.code, key, predict())
    s.students.join(room.code, sid(1))
    s.answers.submit(room.code, sid(1), activity.id, [(0, "0.5")])
    clock.now += 5
    s.answers.submit(room.code, sid(1), activity.id, [(0, " 0.5 ")])  # the same answer again: not too fast
    [row] = table(s, "answers")
    assert (row["value"], row["updated_at"]) == ('"0.5"', T0)  # stored once, as first typed
    assert fields(error_of(s.answers.submit, room.code, sid(1), activity.id, [(0, "0.6")])) == ("room.too_fast", {})


def test_a_write_retried_after_a_connection_lost_before_its_commit_is_stored_once(make, monkeypatch):
    s = make()
    room, key = s.rooms.create()
    activity = s.rooms.open_activity(room.code, key, predict())
    s.students.join(room.code, sid(1))
    real, calls = Answers._store, []

    def flaky(self, conn, *args):
        calls.append(1)
        if len(calls) == 1:
            raise lost("UPDATE students")  # mid-transaction: nothing of it committed
        return real(self, conn, *args)

    monkeypatch.setattr(Answers, "_store", flaky)
    s.answers.submit(room.code, sid(1), activity.id, [(0, "0.5")])
    assert len(calls) == 2 and s.answers.of_student(activity.id, sid(1)) == {0: 0.5}
    assert table(s, "students")[0]["tokens"] == Limits().answer_burst - 1  # one token: the first try rolled back
