"""Predict first (ndcg_core.lists.guess): a guess of a change's direction and size beside the truth, and the mistake
behind a wrong guess named where one fits. Changes of NDCG are written from the formula on the seeds' list
3, 2, 3, 0, 1."""

from math import log2

import pytest

from ndcg_core.errors import InputError
from ndcg_core.lists.guess import SIZE_EDGES, Guess, judge_guess, read_guess, truth_of
from ndcg_core.lists.items import move, swap
from ndcg_core.lists.spec import ListSpec

SEED = ListSpec.from_grades(list("ABCDE"), [3, 2, 3, 0, 1], 5)
DCG = 3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6)
IDCG = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)


def test_a_low_item_moved_to_the_top_lowers_ndcg_though_its_own_term_grew():
    after = SEED.with_items(move(SEED.items, 4, 0))  # E (a 1) from 5 to 1: E, A, B, C, D
    change = (1 + 3 / log2(3) + 2 / 2 + 3 / log2(5) + 0 - DCG) / IDCG
    assert change < -SIZE_EDGES[1]  # about -0.15: large
    verdict = judge_guess(Guess("up", "small"), SEED, after)
    assert verdict.change == pytest.approx(change, rel=1e-12)
    assert verdict.truth == Guess("down", "large")
    assert not verdict.right and not verdict.direction_right
    assert verdict.mistake == "items_passed"


def test_a_move_below_the_cut_changes_nothing_and_a_guessed_change_is_named():
    spec = ListSpec.from_grades(list("ABCDE"), [3, 2, 3, 0, 1], 3)
    after = spec.with_items(move(spec.items, 3, 4))  # D and E swap places at 4 and 5, past k = 3
    verdict = judge_guess(Guess("up", "small"), spec, after)
    assert verdict.truth == Guess("same")
    assert verdict.mistake == "past_k"
    assert judge_guess(Guess("same"), spec, after).right


def test_a_grade_raised_can_lower_ndcg_when_the_ideal_rises_more():
    grades = [3, 2, 3, 0, 3]  # E's grade 1 -> 3 at position 5
    after = ListSpec.from_grades(list("ABCDE"), grades, 5)
    new_dcg = DCG + 2 / log2(6)
    new_idcg = 3 + 3 / log2(3) + 3 / 2 + 2 / log2(5) + 0
    change = new_dcg / new_idcg - DCG / IDCG
    assert change < 0 < new_dcg - DCG
    verdict = judge_guess(Guess("up", "small"), SEED, after)
    assert verdict.change == pytest.approx(change, rel=1e-12)
    assert verdict.truth.direction == "down"
    assert verdict.mistake == "ideal_moved"


def test_a_swap_at_the_top_is_larger_than_guessed():
    after = SEED.with_items(swap(SEED.items, 0, 1))  # A (3) and B (2): B, A, C, D, E
    change = (2 + 3 / log2(3) - 3 - 2 / log2(3)) / IDCG
    assert -SIZE_EDGES[1] < change < -SIZE_EDGES[0]  # medium
    verdict = judge_guess(Guess("down", "small"), SEED, after)
    assert verdict.direction_right and not verdict.right
    assert verdict.truth == Guess("down", "medium")
    assert verdict.mistake == "top_weighs_most"


def test_a_swap_at_the_bottom_is_smaller_than_guessed():
    after = SEED.with_items(swap(SEED.items, 3, 4))  # D (0) and E (1): E up to 4
    change = (1 / log2(5) - 1 / log2(6)) / IDCG
    assert 0 < change < SIZE_EDGES[0]
    verdict = judge_guess(Guess("up", "large"), SEED, after)
    assert verdict.truth == Guess("up", "small")
    assert verdict.mistake == "bottom_weighs_little"


def test_a_right_guess_names_no_mistake_and_a_wrong_one_no_mistake_explains_is_only_judged():
    after = SEED.with_items(swap(SEED.items, 0, 1))
    right = judge_guess(Guess("down", "medium"), SEED, after)
    assert right.right and right.mistake is None
    # "Stays" for a swap at the top: none of the mistakes fits.
    unexplained = judge_guess(Guess("same"), SEED, after)
    assert not unexplained.right and unexplained.mistake is None


@pytest.mark.parametrize(
    ("change", "truth"),
    [
        (0.0, Guess("same")),
        (0.00004, Guess("same")),  # shown as +0.0000
        (0.0001, Guess("up", "small")),
        (-0.05, Guess("down", "medium")),
        (0.1499, Guess("up", "medium")),
        (0.15, Guess("up", "large")),
        (-1.0, Guess("down", "large")),
    ],
)
def test_the_truth_in_a_guess_s_words(change, truth):
    assert truth_of(change) == truth


def test_a_guess_without_a_direction_or_a_size_is_refused_with_its_code():
    with pytest.raises(InputError) as err:
        read_guess(None)
    assert err.value.code == "guess.direction"
    with pytest.raises(InputError) as err:
        read_guess("up", None)
    assert err.value.code == "guess.size"
    assert read_guess("same", None) == Guess("same")
    assert read_guess("down", "large") == Guess("down", "large")
