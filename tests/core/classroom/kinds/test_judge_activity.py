"""Judge the results: a grade per result on the scale, each result's grade distribution, the class's agreement
(Krippendorff's alpha, checked against Krippendorff's own published example), and NDCG@k under the class's
median grades beside the teacher's."""

import math
import statistics
from math import log2

import pytest

from ndcg_core.classroom.kinds import from_payload
from ndcg_core.classroom.kinds.base import Answer, Scale
from ndcg_core.classroom.kinds.judge import Judge, JudgeDetail
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.results import Taken, activity_results, outcome, parts_of, solutions
from ndcg_core.classroom.rules import new_student_id
from ndcg_core.classroom.storage import Classroom
from ndcg_core.errors import InputError

# Seed 003's "成都3天游": the teacher's grades.
CHENGDU = activity_list(("成都3天攻略", "成都美食推荐", "北京旅游", "成都7天游", "成都住宿"), (4, 2, 0, 1, 3), 5)


def grades_of(*rows):
    """Answers from one row of grades per student (None: that result not graded)."""
    return [
        Answer(student, None, part, grade)
        for student, row in enumerate(rows, start=1)
        for part, grade in enumerate(row)
        if grade is not None
    ]


def test_a_grade_is_a_whole_number_of_the_scale():
    judge = Judge(CHENGDU)
    assert judge.check("3", 0) == 3 and judge.check(0, 4) == 0 and judge.check("4.0", 1) == 4
    for bad in ("5", "-1", "2.5", "x", "1,5"):
        with pytest.raises(InputError) as caught:
            judge.check(bad, 0)
        assert caught.value.code == "activity.grade" and caught.value.fields["high"] == 4
    with pytest.raises(InputError, match="choose an answer first"):
        judge.check("", 0)
    for part in (5, -1, True, "0"):
        with pytest.raises(InputError) as caught:
            judge.check("1", part)
        assert caught.value.code == "activity.result"


def test_the_scale_and_the_teachers_grades_must_agree():
    assert Judge(activity_list(("a", "b"), (1, 3), 2), Scale(1, 3)).check("1", 0) == 1
    with pytest.raises(InputError) as caught:
        Judge(activity_list(("a", "b"), (1, 4), 2), Scale(1, 3))
    assert caught.value.code == "activity.off_scale" and caught.value.fields["position"] == 2
    for low, high in ((3, 3), (-1, 2), (0, 11)):
        with pytest.raises(InputError) as caught:
            Scale(low, high)
        assert caught.value.code == "activity.scale"
    assert Scale(0, 10).grades == tuple(range(11))


def test_the_summary_counts_each_grade_and_takes_the_median_ndcg():
    judge = Judge(CHENGDU)
    answers = grades_of((4, 2, 0, 1, 3), (3, 3, 0, 2, 3), (4, 1, 1, 0, 2))
    summary = judge.summary(answers)
    assert summary.count == 3
    assert summary.counts[0] == (0, 0, 0, 1, 2)  # result 1: one 3, two 4s
    assert summary.counts[2] == (2, 1, 0, 0, 0)
    assert summary.medians == (4, 2, 0, 1, 3)
    # The class's medians are the teacher's grades here: the same NDCG@5 (seed 003: 6.85 / 7.32).
    dcg = 4 + 2 / log2(3) + 0 + 1 / log2(5) + 3 / log2(6)
    idcg = 4 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
    assert summary.teacher_ndcg == pytest.approx(dcg / idcg) and round(summary.teacher_ndcg, 3) == 0.936
    assert summary.class_ndcg == pytest.approx(dcg / idcg)


def test_the_class_ndcg_waits_for_a_grade_of_every_result_and_uses_medians():
    judge = Judge(CHENGDU)
    assert judge.summary(grades_of((4, 2, 0, 1, None))).class_ndcg is None
    summary = judge.summary(grades_of((4, 0, 0, 0, 0), (3, 1, 0, 0, 4)))
    assert summary.medians == (3.5, 0.5, 0, 0, 2)
    dcg = 3.5 + 0.5 / log2(3) + 2 / log2(6)
    idcg = 3.5 + 2 / log2(3) + 0.5 / log2(4)
    assert summary.class_ndcg == pytest.approx(dcg / idcg)
    assert judge.summary([]).counts == ((0,) * 5,) * 5 and judge.summary([]).medians == (None,) * 5


def test_agreement_is_krippendorffs_alpha_on_his_published_example():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers, 12 units, values 1 to 5.
    # Published: nominal 0.743, interval 0.849; the ordinal alpha of the same data is 0.815.
    n = None
    rows = (
        (1, 2, 3, 3, 2, 1, 4, 1, 2, n, n, n),
        (1, 2, 3, 3, 2, 2, 4, 1, 2, 5, n, 3),
        (n, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, n),
        (1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, n),
    )
    judge = Judge(activity_list(tuple(f"r{i}" for i in range(12)), (1,) * 12, 5), Scale(1, 5))
    assert round(judge.summary(grades_of(*rows)).alpha, 3) == 0.815


def test_agreement_is_undefined_until_two_students_grade_one_result_differently():
    judge = Judge(CHENGDU)
    assert judge.summary(grades_of((4, 2, 0, 1, 3))).alpha is None
    assert judge.summary(grades_of((4, n := None, n, n, n), (n, 2, n, n, n))).alpha is None
    assert judge.summary(grades_of((2, 2, 2, 2, 2), (2, 2, 2, 2, 2))).alpha is None  # no variation at all
    perfect = judge.summary(grades_of((4, 2, 0, 1, 3), (4, 2, 0, 1, 3)))
    assert perfect.alpha == pytest.approx(1.0)


def test_a_students_grades_are_neither_right_nor_wrong_and_carry_their_distance_from_the_class_median():
    # Judging has no right grade: a grade is compared with the teacher's and the class's median, never marked.
    judge = Judge(CHENGDU)
    assert parts_of(judge) == 5 and solutions(judge) == (4, 2, 0, 1, 3)
    result = judge.result(3, 0)
    assert (result.right, result.detail) == (None, JudgeDetail(4, 1))
    assert judge.result(2, 1).right is None
    answers = tuple(grades_of((4, 1, 0, 1, 3), (2, 3, 0, 1, 3), (4, 2, 1, 1, 3)))
    results = activity_results(Taken(1, 1, judge, answers, ()))
    assert {r.right for r in results.rows} == {None}
    # Result 1's grades are 4, 2, 4 (median 4); result 2's 1, 3, 2 (median 2).
    assert sorted((r.part, r.median) for r in results.rows if r.part in (0, 1)) == [(0, 4)] * 3 + [(1, 2)] * 3
    summary = outcome(results)
    assert (summary.answered, summary.joined, summary.marked) == (3, 3, False)
    assert {p.right for p in summary.parts} == {0}


def test_a_judge_activity_goes_through_the_store_and_back():
    judge = Judge(CHENGDU, Scale(0, 4))
    assert from_payload("judge", judge.payload()) == judge
    store = Classroom("sqlite://")
    room, key = store.rooms.create()
    row = store.rooms.open_activity(room.code, key, judge)
    assert row.activity() == judge
    students = [new_student_id() for _ in range(3)]
    for number, me in enumerate(students):
        store.students.join(room.code, me)
        store.answers.submit(
            room.code, me, row.id, [(part, str((grade + number) % 5)) for part, grade in enumerate(CHENGDU.grades)]
        )
    with pytest.raises(InputError) as caught:
        store.answers.submit(room.code, students[0], row.id, [(0, "7")])
    assert caught.value.code == "activity.grade"
    summary = judge.summary(store.answers.for_activity(row.id))
    assert summary.count == 3 and sum(summary.counts[0]) == 3
    assert summary.medians[0] == statistics.median([4, 0, 1])
    assert summary.alpha is not None and -1 <= summary.alpha <= 1 and not math.isnan(summary.alpha)
    store.close()
