"""Practice exercises: seeded, answers from ndcg_core, checks that accept, explain and refuse."""

from math import log2

import pytest

from ndcg_core import dcg, ndcg_at_k
from ndcg_core.exercises import (
    KINDS,
    check,
    check_seed,
    exercise,
    fewest_moves,
    parse_number,
)


def test_the_same_seed_gives_the_same_set():
    assert [exercise(7, i) for i in range(14)] == [exercise(7, i) for i in range(14)]
    assert exercise(7, 0) != exercise(8, 0)
    assert [exercise(7, i).kind for i in range(len(KINDS))] == list(KINDS)


@pytest.mark.parametrize("seed", [0, 1, 2026, 10**9])
def test_answers_are_ndcg_cores_values(seed):
    for number in range(len(KINDS)):
        ex = exercise(seed, number)
        d = ex.data
        if ex.kind == "dcg_term":
            assert ex.answer == d["grades"][d["position"] - 1] / log2(d["position"] + 1)
        elif ex.kind == "dcg":
            assert ex.answer == dcg(d["grades"], d["k"])
        elif ex.kind == "ndcg":
            assert ex.answer == ndcg_at_k(d["grades"], d["k"])
        elif ex.kind == "better_order":
            better = "a" if ndcg_at_k(d["a"], d["k"]) > ndcg_at_k(d["b"], d["k"]) else "b"
            assert ex.answer == better
        elif ex.kind == "reach":
            assert ndcg_at_k(d["grades"], d["k"]) < d["target"] and ex.answer >= 1


def test_numbers_are_accepted_within_a_hundredth():
    ex = next(exercise(3, i) for i in range(7) if exercise(3, i).kind == "ndcg")
    assert check(ex, f"{ex.answer + 0.009:.6f}")
    assert not check(ex, f"{ex.answer + 0.02:.6f}")


@pytest.mark.parametrize("text, message", [("abc", "not a number"), ("1,5", "comma"), ("", "type a number"),
                                           ("inf", "not a finite number")])
def test_malformed_answers_are_messages(text, message):
    with pytest.raises(ValueError, match=message):
        parse_number(text)


def test_choice_exercises_need_a_choice():
    ex = exercise(5, KINDS.index("swap"))
    with pytest.raises(ValueError, match="choose an answer"):
        check(ex, None)
    assert check(ex, ex.answer) and not check(ex, "sideways")


def test_fewest_moves_by_hand():
    assert fewest_moves([3, 2, 1], 3) == 0
    assert fewest_moves([1, 2, 3], 3) == 1  # 3 to the top already gives 4.631 / 4.762 = 0.97
    assert fewest_moves([1, 2, 3], 3, target=1.0) == 2  # the ideal needs 2 above 1 as well
    assert fewest_moves([0, 3, 2, 1], 4) == 1  # take the 0 to the end
    with pytest.raises(ValueError, match="too many"):
        fewest_moves(list(range(8)), 3)


@pytest.mark.parametrize("value", ["-1", "x", "1e12", str(10**9 + 1)])
def test_bad_seeds_are_messages(value):
    with pytest.raises(ValueError, match="seed"):
        check_seed(value)
