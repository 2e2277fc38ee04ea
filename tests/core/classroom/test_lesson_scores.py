"""Scores, when a lesson keeps them: closeness for Predict, the share of the best NDCG@k for Rank, right answers
for the rest, none for judging; and a leaderboard where equal points share a place."""

from math import log2

import pytest

from ndcg_core.classroom.kinds.base import Answer
from ndcg_core.classroom.kinds.choose import choose_activity
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict, closeness_points
from ndcg_core.classroom.kinds.rank import Rank, rank_activity
from ndcg_core.classroom.results import Member, RoomResults, StudentTotal, Taken, leaderboard, room_results, standings

SPEC = activity_list(("a", "b", "c"), (0, 3, 1), 3)


@pytest.mark.parametrize(("off", "points"), [(0, 100), (0.05, 90), (0.25, 50), (0.49, 2), (0.5, 0), (0.8, 0)])
def test_an_estimate_scores_by_how_close_it_is(off, points):
    assert closeness_points(0.4 + off, 0.4) == points == closeness_points(0.4 - off, 0.4)


def test_a_predict_answer_scores_its_closeness_to_the_true_ndcg():
    predict = Predict(SPEC)
    truth = (3 / log2(3) + 1 / log2(4)) / (3 + 1 / log2(3))
    assert predict.result(0.5).points == round(100 * (1 - abs(0.5 - truth) / 0.5))


def test_a_ranking_scores_the_share_of_the_best_ndcg_it_reaches():
    rank = Rank(SPEC, "small_k")
    best = 3 + 1 / log2(3)
    assert rank.result([1, 2, 0]).points == 100
    assert rank.result([0, 2, 1]).points == round(100 * (1 / log2(3) + 3 / log2(4)) / best)
    nothing = Rank(activity_list(("a", "b"), (0, 0), 2), "small_k")
    assert nothing.result([1, 0]).points == 100  # no order can do better or worse


def test_judging_scores_nothing():
    judge = Judge(activity_list(("a", "b"), (1, 2), 2))
    assert judge.result(1, 0).points is None and judge.result(0, 0).points is None


def test_totals_add_points_and_the_leaderboard_shares_places():
    compare = compare_activity("seed003", "ndcg")  # the verdict is a
    members = tuple(Member(n, name) for n, name in ((1, "Ana"), (2, None), (3, "Bo"), (4, "Cy"), (5, "Di")))
    votes = {1: "a", 2: "a", 3: "b", 4: "a"}  # student 5 answers nothing
    taken = [
        Taken(1, 1, compare, tuple(Answer(n, None, 0, v) for n, v in votes.items()), members),
        Taken(2, 1, Predict(SPEC), (Answer(1, "Ana", 0, 0.5), Answer(3, "Bo", 0, SPEC.ndcg())), members),
    ]
    results = room_results(taken)
    points = {t.student: t.points for t in results.totals}
    assert points == {1: 100 + closeness_points(0.5, SPEC.ndcg()), 2: 100, 3: 0 + 100, 4: 100, 5: 0}
    board = leaderboard(results)
    assert [(s.place, s.student, s.points) for s in board] == [
        (1, 1, points[1]),
        (2, 2, 100),
        (2, 3, 100),
        (2, 4, 100),
    ]
    assert board[0].nickname == "Ana" and board[1].nickname is None
    assert [s.student for s in leaderboard(results, top=1)] == [1]
    assert [s.student for s in leaderboard(results, top=2)] == [1, 2, 3, 4]  # everyone sharing 2nd place


def test_a_ranking_below_a_best_under_1_scores_its_share_of_that_best():
    rank = rank_activity(activity_list(("a", "b", "c"), (2, 0, 1), 3), "pool")  # the judged 2 and 1 are missed
    ideal = 2 + 2 / log2(3) + 1 / 2  # 2, 2, 1 of the pool 2 0 1 2 1
    best = (2 + 1 / log2(3)) / ideal
    reached = (1 + 0 + 2 / log2(4)) / ideal  # c, b, a
    assert rank.maximum() == pytest.approx(best) and best < 1
    assert rank.result([2, 1, 0]).points == round(100 * reached / best) == 76


def test_the_leaderboard_stops_at_ten_places_and_a_tie_shares_the_place_of_its_first():
    points = (90, 80, 70, 70, 60, 50, 40, 30, 20, 10, 5, 1)  # students 1 to 12; 3 and 4 tie for 3rd
    totals = tuple(StudentTotal(n, None, 1, 1, 1, None, p) for n, p in enumerate(points, start=1))
    board = leaderboard(RoomResults((), totals))
    assert [(s.place, s.student) for s in board] == [(1, 1), (2, 2), (3, 3), (3, 4)] + [(n, n) for n in range(5, 11)]


def test_every_student_who_answered_has_a_place_of_their_own_beyond_the_leaderboards_ten():
    points = (90, 80, 70, 70, 60, 50, 40, 30, 20, 10, 5, 1)  # students 1 to 12; 3 and 4 tie for 3rd
    totals = tuple(StudentTotal(n, None, 1, 1, 1, None, p) for n, p in enumerate(points, start=1))
    totals += (StudentTotal(13, None, 1, 0, 0, None, 0),)  # answered nothing: no place
    mine = standings(RoomResults((), totals))
    assert sorted(mine) == list(range(1, 13))
    assert (mine[4].place, mine[4].points) == (3, 70) and (mine[12].place, mine[12].points) == (12, 1)


def test_choosing_scores_all_for_the_right_number_and_none_for_a_mistakes():
    choose = choose_activity(SPEC, ["no_normalisation", "gain_exponential", "discount_log_i"])
    points = {o.mistake: choose.result(o.letter).points for o in choose.options()}
    assert points == {None: 100, "no_normalisation": 0, "gain_exponential": 0, "discount_log_i": 0}
