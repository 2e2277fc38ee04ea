"""Every move and every swap at once (ndcg_core.lists.moves): each entry is the NDCG the list has after that move."""

from math import log2

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core import InputError, ndcg_at_k
from ndcg_core.lists.discounts import jk_discount
from ndcg_core.lists.items import make_items, move
from ndcg_core.lists.moves import ndcg_after_moves, ndcg_after_swaps


def test_a_worked_example_of_moves():
    # 3, 0, 2: drop the 2 at the top -> 2, 3, 0: (2 + 3/log2(3)) / (3 + 2/log2(3)).
    moves = ndcg_after_moves([3, 0, 2], 3)
    assert moves[2, 0] == pytest.approx((2 + 3 / log2(3)) / (3 + 2 / log2(3)), rel=1e-15)
    # The 3 moved to the bottom -> 0, 2, 3: (2/log2(3) + 3/log2(4)) / (3 + 2/log2(3)).
    assert moves[0, 2] == pytest.approx((2 / log2(3) + 3 / 2) / (3 + 2 / log2(3)), rel=1e-15)
    # The diagonal: the list as it is, (3 + 2/2) / (3 + 2/log2(3)).
    assert np.diag(moves) == pytest.approx([4 / (3 + 2 / log2(3))] * 3, rel=1e-15)


def test_a_worked_example_of_swaps():
    swaps = ndcg_after_swaps([3, 0, 2], 3)
    assert swaps[1, 2] == swaps[2, 1] == 1.0  # 3, 2, 0 is the ideal order
    assert swaps[0, 2] == pytest.approx((2 + 3 / 2) / (3 + 2 / log2(3)), rel=1e-15)


def test_swaps_below_k_change_nothing():
    swaps = ndcg_after_swaps([3, 2, 3, 0, 1, 2], 3)
    now = ndcg_at_k([3, 2, 3, 0, 1, 2], 3)
    assert (swaps[3:, 3:] == now).all()
    assert swaps[0, 4] != now  # a 3 swapped with the 1 below k does change it


grades = st.lists(st.integers(0, 4), min_size=1, max_size=9)
options = st.fixed_dictionaries(
    {
        "k": st.one_of(st.none(), st.integers(1, 12)),
        "gain": st.sampled_from(["linear", "exponential"]),
        "discount": st.sampled_from(["log2", "jk"]),
    }
)


@given(grades, options, st.booleans())
def test_each_move_scores_as_the_moved_list_does_to_the_bit(values, opts, with_pool):
    pool = [*values, 4, 2] if with_pool else None
    moves = ndcg_after_moves(values, opts["k"], gain=opts["gain"], discount=opts["discount"], pool=pool)
    items = make_items([str(i) for i in range(len(values))], values)
    for i in range(len(values)):
        for j in range(len(values)):
            moved = [it.grade for it in move(items, i, j)]
            assert moves[i, j] == ndcg_at_k(moved, opts["k"], gain=opts["gain"], discount=opts["discount"], pool=pool)


@given(grades, options)
def test_each_swap_scores_as_the_swapped_list_does_to_the_bit(values, opts):
    swaps = ndcg_after_swaps(values, opts["k"], gain=opts["gain"], discount=opts["discount"])
    assert (swaps == swaps.T).all()
    for i in range(len(values)):
        for j in range(len(values)):
            swapped = list(values)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            assert swaps[i, j] == ndcg_at_k(swapped, opts["k"], gain=opts["gain"], discount=opts["discount"])


def test_huge_gains_and_limits():
    assert ndcg_after_moves([0, 1024], gain="exponential")[1, 0] == 1.0
    assert ndcg_after_moves([], 3).shape == (0, 0)
    with pytest.raises(InputError) as raised:
        ndcg_after_moves([1] * 201)
    assert raised.value.code == "list.too_long"


def test_the_lists_preview_holds_ndcg_cores_numbers_rounded_as_shown():
    from ui.widgets.sortable import preview_data

    grades = [3, 2, 3, 0, 1, 2, 0]
    preview = preview_data(ndcg_after_moves(grades, 3), 3)
    now = ndcg_at_k(grades, 3)
    assert preview["k"] == 3 and preview["now"] == round(now, 4)
    items = make_items([str(i) for i in range(len(grades))], grades)
    for i in range(len(grades)):
        # Rows of items below k list only the moves into the top k: the others change nothing.
        assert len(preview["after"][i]) == (len(grades) if i < 3 else 3)
        for j, (after, change) in enumerate(zip(preview["after"][i], preview["change"][i], strict=False)):
            moved = ndcg_at_k([it.grade for it in move(items, i, j)], 3)
            assert after == round(moved, 4) and change == round(moved - now, 4)


# --- moves: negative gains and rounding -----------------------------------------------------------------------------


def test_moves_of_a_list_with_only_negative_gains_score_0():
    assert ndcg_after_moves([1, 0], gain={1: -1}).tolist() == [[0, 0], [0, 0]]


def test_moves_never_score_above_1_when_rounding_favours_the_list():
    # Ranks 1 to 3 all keep their gain (b = 3): 0.1 + 0.2 + 0.3 rounds above 0.3 + 0.2 + 0.1.
    assert 0.1 + 0.2 + 0.3 > 0.3 + 0.2 + 0.1
    assert ndcg_after_moves([0.1, 0.2, 0.3], discount=jk_discount(3.0)).max() == 1.0
