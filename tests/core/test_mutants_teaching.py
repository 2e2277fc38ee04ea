"""Practice exercises (``ndcg_core.teaching.exercises``), checked where mutation testing found them loose.

Answers are worked out here with DCG written out term by term; the shape of every generated exercise is
checked over many seeds, and one set (seed 2026) is written out, since a seed names the same set for a class.
"""

import itertools
from math import log2

import pytest

from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises import Exercise, check, exercise, fewest_moves
from support import error_of

SEEDS = range(60)


def hand_dcg(grades, k):
    return sum(g / log2(i + 1) for i, g in enumerate(grades[:k], start=1))


def hand_ndcg(grades, k):
    best = hand_dcg(sorted(grades, reverse=True), k)
    return hand_dcg(grades, k) / best if best > 0 else 0.0


def made(kind):
    number = ex.KINDS.index(kind)
    out = []
    for seed in SEEDS:
        e = exercise(seed, number + 7 * (seed % 3))
        assert (e.kind, e.seed, e.number) == (kind, seed, number + 7 * (seed % 3))
        out.append(e)
    return out


def a_fair_list(grades, top=3):
    """Grades from 0 to top, something relevant, and not already in the ideal order."""
    return all(0 <= g <= top for g in grades) and sum(grades) > 0 and sorted(grades, reverse=True) != grades


def test_dcg_term_exercises():
    made_ = made("dcg_term")
    for e in made_:
        grades, position = e.data["grades"], e.data["position"]
        assert len(grades) == 5 and a_fair_list(grades)
        assert 2 <= position <= 5 and grades[position - 1] > 0
        assert e.answer == pytest.approx(grades[position - 1] / log2(position + 1), abs=1e-15)
    assert {e.data["position"] for e in made_} == {2, 3, 4, 5}
    assert {e.data["grades"][e.data["position"] - 1] for e in made_} == {1, 2, 3}
    assert max(max(e.data["grades"]) for e in made_) == 3


@pytest.mark.parametrize("kind", ["dcg", "ndcg"])
def test_dcg_and_ndcg_exercises(kind):
    made_ = made(kind)
    for e in made_:
        grades, k = e.data["grades"], e.data["k"]
        assert 3 <= len(grades) <= 5 and a_fair_list(grades) and 2 <= k <= len(grades)
        expected = hand_dcg(grades, k) if kind == "dcg" else hand_ndcg(grades, k)
        assert e.answer == pytest.approx(expected, abs=1e-12)
    assert {len(e.data["grades"]) for e in made_} == {3, 4, 5}
    assert {e.data["k"] for e in made_} == {2, 3, 4, 5}
    assert any(e.data["k"] == len(e.data["grades"]) for e in made_)


def test_better_order_exercises():
    for e in made("better_order"):
        a, b, k = e.data["a"], e.data["b"], e.data["k"]
        assert k == 5 and len(a) == 5 and a_fair_list(a) and sorted(a) == sorted(b)
        assert abs(hand_ndcg(a, 5) - hand_ndcg(b, 5)) > 1e-9
        assert e.answer == ("a" if hand_ndcg(a, 5) > hand_ndcg(b, 5) else "b")


def test_swap_exercises():
    made_ = made("swap")
    for e in made_:
        grades, k, i, j = e.data["grades"], e.data["k"], e.data["i"], e.data["j"]
        assert len(grades) == 5 and a_fair_list(grades) and 2 <= k <= 5 and 1 <= i < j <= 5
        swapped = grades[:]
        swapped[i - 1], swapped[j - 1] = swapped[j - 1], swapped[i - 1]
        before, after = hand_ndcg(grades, k), hand_ndcg(swapped, k)
        assert e.answer == ("up" if after > before + 1e-9 else "down" if after < before - 1e-9 else "same")
    assert {e.data["k"] for e in made_} == {2, 3, 4, 5}


def test_reach_exercises():
    made_ = made("reach")
    for e in made_:
        grades, k = e.data["grades"], e.data["k"]
        assert k == 5 and e.data["target"] == 0.95 and len(grades) == 6 and a_fair_list(grades, top=4)
        assert hand_ndcg(grades, 5) < 0.95
    assert max(max(e.data["grades"]) for e in made_) == 4


def test_gap_exercises():
    made_ = made("gap")
    for e in made_:
        queries, k = e.data["queries"], e.data["k"]
        assert k == 5 and list(queries) == [f"q{n}" for n in range(1, len(queries) + 1)]
        assert all(len(g) == 5 and a_fair_list(g) for g in queries.values())
        gaps = {q: hand_dcg(sorted(g, reverse=True), 5) - hand_dcg(g, 5) for q, g in queries.items()}
        assert e.data["gaps"] == pytest.approx(gaps, abs=1e-12)
        assert e.answer == max(sorted(gaps), key=lambda q: gaps[q])
    assert {len(e.data["queries"]) for e in made_} == {3, 4}


def test_seed_2026_is_this_set():
    assert [exercise(2026, n).data for n in range(7)] == [
        {"grades": [1, 3, 3, 2, 0], "position": 3},
        {"grades": [1, 3, 3, 0, 0], "k": 5},
        {"grades": [0, 3, 2, 0], "k": 3},
        {"a": [0, 0, 3, 1, 2], "b": [3, 1, 0, 0, 2], "k": 5},
        {"grades": [1, 2, 3, 0, 0], "k": 2, "i": 1, "j": 4},
        {"grades": [4, 1, 4, 0, 0, 2], "k": 5, "target": 0.95},
        {
            "queries": {
                "q1": [0, 3, 3, 2, 1],
                "q2": [1, 2, 0, 2, 1],
                "q3": [3, 0, 1, 1, 3],
                "q4": [1, 2, 0, 1, 2],
            },
            "k": 5,
            "gaps": pytest.approx(
                {
                    "q1": (3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)) - (3 / log2(3) + 3 / 2 + 2 / log2(5) + 1 / log2(6)),
                    "q2": (2 + 2 / log2(3) + 1 / 2 + 1 / log2(5)) - (1 + 2 / log2(3) + 2 / log2(5) + 1 / log2(6)),
                    "q3": (3 + 3 / log2(3) + 1 / 2 + 1 / log2(5)) - (3 + 1 / 2 + 1 / log2(5) + 3 / log2(6)),
                    "q4": (2 + 2 / log2(3) + 1 / 2 + 1 / log2(5)) - (1 + 2 / log2(3) + 1 / log2(5) + 2 / log2(6)),
                },
                abs=1e-12,
            ),
        },
    ]
    answers = [exercise(2026, n).answer for n in range(7)]
    assert answers[0] == 3 / log2(4)
    assert answers[1] == pytest.approx(1 + 3 / log2(3) + 3 / 2, abs=1e-12)
    assert answers[2] == pytest.approx((3 / log2(3) + 2 / 2) / (3 + 2 / log2(3)), abs=1e-12)
    assert answers[3:5] == ["b", "down"]  # the swap moves the 1 at rank 1 out of the top 2
    assert answers[5:] == [2, "q1"]
    # Seed 4's reach list: its first candidates score NDCG@5 of 0.95 or more and are drawn again.
    assert exercise(4, 5).data["grades"] == [4, 2, 3, 2, 0, 3]


def test_seed_2026s_reach_needs_two_moves():
    grades = [4, 1, 4, 0, 0, 2]
    one_move = set()
    for i, j in itertools.product(range(6), repeat=2):
        rest = grades[:i] + grades[i + 1 :]
        one_move.add(tuple(rest[:j] + [grades[i]] + rest[j:]))
    assert max(hand_ndcg(list(order), 5) for order in one_move) < 0.95
    assert hand_ndcg([4, 4, 2, 1, 0, 0], 5) == 1.0  # second 4 up one, then 2 up to third: two moves


def test_fewest_moves_takes_up_to_7_items_and_a_target_within_1e_12():
    assert fewest_moves([0, 0, 0, 0, 0, 0, 1], 5) == 1
    error = error_of(fewest_moves, [0] * 7 + [1], 5)
    assert (error.code, error.fields) == ("reach.too_long", {"count": 8, "limit": 7})
    assert 1.0 + 1e-12 - 1e-12 == 1.0
    assert fewest_moves([1, 0], 1, target=1.0 + 1e-12) == 0
    with pytest.raises(AssertionError, match="^the ideal order scores 1.0, so some order reaches any target up to 1$"):
        fewest_moves([1, 0, 0], 1, target=2.0)


def test_check_marks_numbers_within_0_01_inclusive():
    zero = Exercise("dcg", 0, 1, {}, 0.0)
    assert check(zero, "0.005") and check(zero, "0.01") and check(zero, repr(0.01 + 1e-12))
    assert not check(zero, "0.0101")
    assert check(Exercise("ndcg", 0, 2, {}, 0.5), "0.505") and check(Exercise("dcg_term", 0, 0, {}, 1.0), "1")


def test_check_takes_a_reached_flag_and_needs_a_choice():
    reach = Exercise("reach", 0, 5, {}, 3)
    assert check(reach, True) is True and check(reach, False) is False
    swap = Exercise("swap", 0, 4, {}, "up")
    for empty in (None, ""):
        error = error_of(check, swap, empty)
        assert (error.code, error.fields) == ("answer.no_choice", {})
    assert check(swap, "up") and not check(swap, "down")
