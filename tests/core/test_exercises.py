"""Practice exercises: seeded, answers from ndcg_core, checks that accept, explain and refuse."""

from bisect import bisect_left
from itertools import permutations

import pytest

from ndcg_core.teaching.exercises import KINDS, check, check_seed, exercise, fewest_moves, parse_number


def test_the_same_seed_gives_the_same_set():
    assert [exercise(7, i) for i in range(14)] == [exercise(7, i) for i in range(14)]
    assert exercise(7, 0) != exercise(8, 0)
    assert [exercise(7, i).kind for i in range(len(KINDS))] == list(KINDS)


# log2(n) for the ranks an exercise uses, written out (2 ** LOG2[n] == n is checked below), so the
# expected answers share no code with ndcg_core: the discount at rank i is 1 / LOG2[i + 1].
LOG2 = {2: 1.0, 3: 1.584962500721156, 4: 2.0, 5: 2.321928094887362, 6: 2.584962500721156, 7: 2.807354922057604}


def hand_dcg(grades, k):
    return sum(g / LOG2[i + 1] for i, g in enumerate(grades[:k], start=1))


def hand_ndcg(grades, k):
    best = hand_dcg(sorted(grades, reverse=True), k)
    return hand_dcg(grades, k) / best if best > 0 else 0.0


def fewest_moves_by_brute_force(grades, k, target):
    """Try every order; taking one item and putting it anywhere, reaching an order p of the items takes
    n - (longest increasing run of original positions in p, not necessarily contiguous) moves."""

    def longest_increasing(seq):
        tails = []
        for x in seq:
            i = bisect_left(tails, x)
            tails[i : i + 1] = [x]
        return len(tails)

    n = len(grades)
    return min(
        n - longest_increasing(p)
        for p in permutations(range(n))
        if hand_ndcg([grades[i] for i in p], k) >= target - 1e-12
    )


def test_the_written_out_logarithms():
    assert all(2**value == pytest.approx(n, rel=1e-15) for n, value in LOG2.items())


SEEDS = [0, 1, 2026, 10**9, *range(2, 22)]


@pytest.mark.parametrize("seed", SEEDS)
def test_answers_match_a_hand_written_dcg(seed):
    checked = set()
    for number in range(len(KINDS)):
        ex = exercise(seed, number)
        d = ex.data
        if ex.kind == "dcg_term":
            assert ex.answer == pytest.approx(d["grades"][d["position"] - 1] / LOG2[d["position"] + 1], abs=1e-12)
        elif ex.kind == "dcg":
            assert ex.answer == pytest.approx(hand_dcg(d["grades"], d["k"]), abs=1e-12)
        elif ex.kind == "ndcg":
            assert ex.answer == pytest.approx(hand_ndcg(d["grades"], d["k"]), abs=1e-12)
        elif ex.kind == "better_order":
            better = "a" if hand_ndcg(d["a"], d["k"]) > hand_ndcg(d["b"], d["k"]) else "b"
            assert ex.answer == better
        elif ex.kind == "swap":
            i, j = d["i"] - 1, d["j"] - 1  # positions from 1 on the page
            swapped = list(d["grades"])
            swapped[i], swapped[j] = swapped[j], swapped[i]
            before, after = hand_ndcg(d["grades"], d["k"]), hand_ndcg(swapped, d["k"])
            expected = "up" if after > before + 1e-9 else "down" if after < before - 1e-9 else "same"
            assert ex.answer == expected, (d, before, after)
        elif ex.kind == "reach":
            assert hand_ndcg(d["grades"], d["k"]) < d["target"]
            assert ex.answer == fewest_moves_by_brute_force(d["grades"], d["k"], d["target"])
        elif ex.kind == "gap":
            gaps = {q: hand_dcg(sorted(g, reverse=True), d["k"]) - hand_dcg(g, d["k"]) for q, g in d["queries"].items()}
            assert d["gaps"] == pytest.approx(gaps, abs=1e-12)  # the page shows these
            largest = max(gaps.values())
            assert gaps[ex.answer] == pytest.approx(largest, abs=1e-9), (gaps, ex.answer)
            assert gaps[ex.answer] > min(gaps.values()) or len(set(gaps.values())) == 1
        checked.add(ex.kind)
    assert checked == set(KINDS)  # no kind runs unchecked


def test_the_seeds_cover_every_answer_of_the_choice_exercises():
    # So the checks above meet a swap that raises NDCG, one that lowers it, and gaps of different sizes.
    swaps = {exercise(seed, KINDS.index("swap")).answer for seed in SEEDS}
    assert {"up", "down"} <= swaps
    gap_sets = [exercise(seed, KINDS.index("gap")).data["gaps"] for seed in SEEDS]
    assert all(len(set(g.values())) > 1 for g in gap_sets[:4])


def test_numbers_are_accepted_within_a_hundredth():
    ex = next(exercise(3, i) for i in range(7) if exercise(3, i).kind == "ndcg")
    assert check(ex, f"{ex.answer + 0.009:.6f}")
    assert not check(ex, f"{ex.answer + 0.02:.6f}")


@pytest.mark.parametrize(
    "text, message", [("abc", "not a number"), ("1,5", "comma"), ("", "type a number"), ("inf", "not a finite number")]
)
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
