"""A results row says whether its answer fell in the "close" group (within 0.05 of the true NDCG, not right to its
decimals) and keeps the answer as the number it was read as ("0,95" is 0.95; a Practice exercise's answer by its
own exercise); a student's totals count their close answers apart from the right ones, as the projector shows
them."""

from math import log2

import pytest

from ndcg_core.classroom.kinds.base import Answer
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.practice import ExerciseAnswer, Practice
from ndcg_core.classroom.kinds.predict import Estimate, Predict
from ndcg_core.classroom.kinds.rank import Rank
from ndcg_core.classroom.results import Member, Taken, activity_results, answer_close, room_results

PREDICT = Predict(preset_list("five"))
# "five": grades 3, 2, 3, 0, 1 under linear gains and log2 discounts, NDCG@5.
TRUTH = (3 + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)) / (3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5))
CLOSE = "0,95"  # 0.022 below the truth: within 0.05, but not its 0.97 to two decimals
RIGHT = "0.97"


def estimate(typed: str) -> Estimate:
    return Estimate.read(typed)


def test_the_list_s_true_ndcg_is_the_formula_s():
    assert PREDICT.truth() == pytest.approx(TRUTH)
    assert abs(float(estimate(CLOSE)) - TRUTH) < 0.05 and round(TRUTH, 2) == float(RIGHT)


@pytest.mark.parametrize(("typed", "close"), [(CLOSE, True), (RIGHT, False), ("0.5", False), ("0.99", True)])
def test_an_estimate_is_close_only_within_0_05_and_not_right_to_its_decimals(typed, close):
    assert answer_close(PREDICT, estimate(typed)) is close


def test_no_answer_and_a_kind_that_groups_no_answers_are_neither_close_nor_not():
    assert answer_close(PREDICT, None) is None
    rank = Rank(preset_list("five"), "small_k")
    assert answer_close(rank, [0, 1, 2, 3, 4]) is None


def test_a_predict_row_says_whether_the_estimate_was_close_and_keeps_it_as_read():
    answers = (Answer(1, "Ana", 0, estimate(CLOSE)), Answer(2, "Bo", 0, estimate(RIGHT)))
    result = activity_results(Taken(1, 1, PREDICT, answers, (Member(3, "Cy"),)))
    assert [(r.student, r.close, r.read) for r in result.rows] == [(1, True, 0.95), (2, False, 0.97), (3, None, None)]
    assert [r.right for r in result.rows] == [True, True, None]  # a close estimate is counted right
    assert [r.right_exactly for r in result.rows] == [False, True, None]


def test_a_practice_row_reads_a_number_by_its_own_exercise():
    practice = Practice(2026, (3, 2))  # a choice (which order is better), then an NDCG to type
    assert [ex.kind for ex in practice.exercises()] == ["better_order", "ndcg"]
    answers = (Answer(1, "Ana", 0, ExerciseAnswer("b", True)), Answer(1, "Ana", 1, ExerciseAnswer("0,68", True)))
    rows = activity_results(Taken(1, 1, practice, answers, ())).rows
    assert [(r.part, r.value, r.read) for r in rows] == [(0, "b", None), (1, "0,68", 0.68)]
    assert [r.close for r in rows] == [None, None]  # Practice groups no answers


def test_a_student_s_totals_count_close_answers_apart_from_right_ones():
    first = (Answer(1, "Ana", 0, estimate(CLOSE)), Answer(2, "Bo", 0, estimate(RIGHT)))
    second = (Answer(1, "Ana", 0, estimate("0.93")),)
    ana, bo = room_results([Taken(1, 1, PREDICT, first, ()), Taken(2, 1, PREDICT, second, ())]).totals
    assert (ana.student, ana.questions, ana.answered, ana.right, ana.close) == (1, 2, 2, 0, 2)
    assert (bo.student, bo.questions, bo.answered, bo.right, bo.close) == (2, 1, 1, 1, 0)


def test_a_student_who_answered_without_being_counted_present_has_a_row_for_every_question():
    practice = Practice(2026, (3, 2))
    answers = (Answer(5, "Eve", 1, ExerciseAnswer("0,68", True)),)
    rows = activity_results(Taken(1, 1, practice, answers, (Member(4, "Dan"),))).rows
    assert [(r.student, r.nickname, r.part, r.value) for r in rows] == [
        (4, "Dan", 0, None),
        (4, "Dan", 1, None),
        (5, "Eve", 0, None),
        (5, "Eve", 1, "0,68"),
    ]
