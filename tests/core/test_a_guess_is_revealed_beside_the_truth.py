"""Predict first: a guess at what a change does to NDCG@5 of the seeds' list 3, 2, 3, 0, 1, revealed beside the
truth, and the catalogue's mistake named behind a wrong direction where one gives it. The truth is written here
from the formula."""

from math import log2

import pytest

from ndcg_core.errors import InputError
from ndcg_core.lists.items import move
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.predict import Guess, band_of, direction_of, reveal


def dcg(grades):
    return sum(g / log2(i + 2) for i, g in enumerate(grades))


FIVE = ListSpec.from_grades([f"doc {c}" for c in "ABCDE"], [3, 2, 3, 0, 1], 5)
D_TO_TOP = FIVE.with_items(move(list(FIVE.items), 3, 0))  # doc D (grade 0) from position 4 to 1
CUT_AT_3 = FIVE.with_k(3)
NDCG5 = dcg([3, 2, 3, 0, 1]) / dcg([3, 3, 2, 1, 0])
MOVED = dcg([0, 3, 2, 3, 1]) / dcg([3, 3, 2, 1, 0])
NDCG3 = dcg([3, 2, 3]) / dcg([3, 3, 2])


def test_the_truth_is_the_change_of_ndcg_with_its_direction_and_size():
    shown = reveal(Guess("down", "large"), FIVE, D_TO_TOP)
    assert shown.explained.ndcg == pytest.approx((NDCG5, MOVED))
    assert MOVED - NDCG5 < -0.15 and (shown.direction, shown.band) == ("down", "large")
    assert shown.right and shown.mistakes == ()


def test_a_right_direction_with_the_wrong_size_is_half_right():
    shown = reveal(Guess("down", "small"), FIVE, D_TO_TOP)
    assert shown.direction_right and not shown.band_right and not shown.right


def test_no_change_for_a_move_is_the_mistake_of_no_discount():
    shown = reveal(Guess("same"), FIVE, D_TO_TOP)
    assert not shown.direction_right and shown.mistakes[0] == "no_discount"


def test_cutting_at_3_raises_ndcg_a_little_and_down_is_dcg_for_ndcg_or_an_uncut_ideal():
    assert 0 < NDCG3 - NDCG5 < 0.01
    assert dcg([3, 2, 3]) / dcg([3, 3, 2, 1, 0]) < NDCG5  # the ideal left uncut: NDCG would fall
    shown = reveal(Guess("down", "small"), FIVE, CUT_AT_3)
    assert (shown.direction, shown.band) == ("up", "tiny")
    assert set(shown.mistakes) == {"no_normalisation", "ideal_not_cut"}
    assert reveal(Guess("up", "tiny"), FIVE, CUT_AT_3).right


def test_directions_and_bands():
    assert [direction_of(x) for x in (0.1, -0.1, 0.0)] == ["up", "down", "same"]
    assert [band_of(x) for x in (0.005, -0.02, 0.1, -0.3, 0.0)] == ["tiny", "small", "medium", "large", None]


@pytest.mark.parametrize(("direction", "band"), [(None, None), ("up", None), ("sideways", "tiny"), ("up", "huge")])
def test_a_guess_without_a_choice_is_an_input_error(direction, band):
    with pytest.raises(InputError) as err:
        Guess(direction, band)
    assert err.value.code == "answer.no_choice"
    assert Guess("same", "large").band is None  # no change has no size
