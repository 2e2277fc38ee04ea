"""Practice exercises: seeded, answers from ndcg_core, checks that accept, explain and refuse."""

import itertools
from bisect import bisect_left
from itertools import permutations
from math import log2

import pytest

from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises import KINDS, Exercise, check, check_seed, exercise, fewest_moves, parse_number
from support import error_of


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
    "text, message",
    [("abc", "not a number"), ("1,2,3", "comma"), ("", "type a number"), ("inf", "not a finite number")],
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


# --- each kind's shape over many seeds, answers written out, one set of seed 2026 -----------------------------------

# Answers are worked out here with DCG written out term by term; the shape of every generated exercise is
# checked over many seeds, and one set (seed 2026) is written out, since a seed names the same set for a class.

MANY_SEEDS = range(60)


def made(kind):
    number = ex.KINDS.index(kind)
    out = []
    for seed in MANY_SEEDS:
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
        expected = hand_variant(e)
        assert e.answer == pytest.approx(expected, abs=1e-12)
    assert {len(e.data["grades"]) for e in made_} == {3, 4, 5}
    assert {e.data["k"] for e in made_} == {2, 3, 4, 5}
    assert any(e.data["k"] == len(e.data["grades"]) for e in made_)


def hand_variant(e):
    """A DCG or NDCG exercise's answer written out under its variant (none in the first round)."""
    grades, k, variant = e.data["grades"], e.data["k"], e.data.get("variant")
    if variant == "exponential":
        return sum((2**g - 1) / LOG2[i + 1] for i, g in enumerate(grades[:k], start=1))
    if variant == "jk":  # b = 2: positions 1 and 2 whole, then grade / log2(i)
        return sum(g if i <= 2 else g / LOG2[i] for i, g in enumerate(grades[:k], start=1))
    if variant == "pool":
        return hand_dcg(grades, k) / hand_dcg(sorted(grades + e.data["missed"], reverse=True), k)
    return hand_dcg(grades, k) if e.kind == "dcg" else hand_ndcg(grades, k)


def test_the_first_round_is_plain_and_later_rounds_of_dcg_and_ndcg_have_variants_chosen_by_seed_and_round():
    for seed in MANY_SEEDS:
        for number in range(7):
            assert "variant" not in exercise(seed, number).data
    variants = {}
    for seed in MANY_SEEDS:
        for number in (8, 9, 15, 16):
            e = exercise(seed, number)
            variants.setdefault((e.kind, e.data.get("variant")), []).append(e)
            assert e.answer == pytest.approx(hand_variant(e), abs=1e-12)
            if e.kind == "ndcg" and "variant" in e.data:
                missed, kth = e.data["missed"], sorted(e.data["grades"], reverse=True)[e.data["k"] - 1]
                assert 1 <= len(missed) <= 2 and all(1 <= g <= 3 for g in missed)
                assert max(missed) > kth or kth == 3  # counting them or not changes the ideal
            else:
                assert "missed" not in e.data
    assert set(variants) == {
        ("dcg", None),
        ("dcg", "exponential"),
        ("dcg", "jk"),
        ("ndcg", None),
        ("ndcg", "pool"),
        ("ndcg", "list"),
    }
    # Other kinds never change: a later round of seed 2026 is as before.
    assert exercise(2026, 7).data == {"grades": [1, 0, 0, 0, 3], "position": 5}


def test_every_catalogued_mistake_can_be_made_in_the_first_five_rounds_of_set_2026():
    from ndcg_core.teaching.mistakes import MISTAKES

    questions = []
    for number in range(35):
        e = exercise(2026, number)
        if e.kind in ex.NUMERIC:
            questions.append((ex.spec(e), ex.question(e)[0]))
    for entry in MISTAKES:
        assert any(entry.build().shows(spec, metric) for spec, metric in questions), entry.name


def test_an_exercise_as_a_list_spec_states_its_conventions():
    dcgs = [exercise(2026, n) for n in range(1, 70, 7)]
    exponential = next(e for e in dcgs if e.data.get("variant") == "exponential")
    spec = ex.spec(exponential)
    assert (spec.gain, spec.discount, spec.k, list(spec.grades)) == (
        "exponential",
        "log2",
        exponential.data["k"],
        exponential.data["grades"],
    )
    pool = next(exercise(2026, n) for n in range(2, 70, 7) if exercise(2026, n).data.get("variant") == "pool")
    listed = next(exercise(2026, n) for n in range(2, 70, 7) if exercise(2026, n).data.get("variant") == "list")
    assert ex.spec(pool).ideal == "pool" and [it.grade for it in ex.spec(pool).extra] == pool.data["missed"]
    assert ex.spec(listed).ideal == "list" and [it.grade for it in ex.spec(listed).extra] == listed.data["missed"]
    term = exercise(2026, 0)
    assert ex.question(term) == ("term", 3) and ex.spec(term).k == 5


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
