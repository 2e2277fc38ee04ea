"""A list given as scores (``ndcg_core.lists.ties``, ``ndcg_core.lists.scores``): how scores are compared and
ordered, how each tie policy settles equal scores, and DCG, NDCG and their bounds from scores.

Expected values are written out: DCG terms with their log2, lists reordered by hand."""

import math
from math import log2

import numpy as np
import pytest

from ndcg_core.lists.gains import GAINS
from ndcg_core.lists.scores import dcg_from_scores, ndcg_bounds, ndcg_from_scores
from ndcg_core.lists.ties import _sorted_within_groups, compared_scores, order_by_scores, ranking_order
from support import error_of

# --- ties: orders, float32 and doubles, groups; scores: DCG and bounds ----------------------------------------------


def test_order_by_scores_checks_counts_and_defaults_to_the_linear_gain():
    error = error_of(order_by_scores, [1.0, 2.0], [1])
    assert (error.code, error.fields) == ("count.scores", {"scores": 2, "grades": 1})
    assert order_by_scores([1, 1], [0, 2], ties="best").tolist() == [1, 0]


def test_averaged_ties_are_ordered_as_trec_eval_orders_them():
    # Tied a and b: trec_eval puts the larger id, b, first; the worst case would put grade 0 (a) first.
    assert order_by_scores([1, 1], [0, 2], ["a", "b"], ties="average").tolist() == [1, 0]


def test_compared_scores_are_doubles_of_any_sign_unless_asked():
    assert compared_scores([0.1, -2.0]).tolist() == [0.1, -2.0]
    assert compared_scores([0.1], True).tolist() == [float(np.float32(0.1))]
    assert compared_scores([1e300], True).tolist() == [math.inf]  # beyond float32: an infinity, no warning
    error = error_of(compared_scores, [1.0], "yes")
    assert (error.code, error.fields) == ("flag.not_bool", {"name": "float32_scores", "value": "'yes'"})


def test_scores_are_compared_exactly_even_near_zero():
    # 1e-17 is above 0.0: item 0 (grade 0) ranks first, so DCG is 1 / log2(3).
    assert ndcg_from_scores([0, 1], [1e-17, 0.0]) == 1 / log2(3)


def test_ranking_order_compares_doubles_unless_asked():
    scores = np.array([1.0, 1.0 + 1e-12])
    assert ranking_order(scores, ["b", "a"]) == [1, 0]
    assert ranking_order(scores, ["b", "a"], True) == [0, 1]  # tied as float32: b before a
    assert ranking_order(np.array([1e300, 1.0]), ["a", "b"], True) == [0, 1]


def test_sorting_within_groups_of_keys_that_span_more_than_2_to_the_32():
    group = np.array([0, 0, 1, 1])
    keys = np.array([2**32 + 5, 0, 10, 3], dtype=np.uint64)
    assert _sorted_within_groups(group, keys).tolist() == [1, 0, 3, 2]


def test_dcg_from_scores_uses_the_items_the_ties_and_the_gain():
    # Tied: trec_eval order is id descending, so b (grade 1) first.
    assert dcg_from_scores([1, 0], [1, 1], items=["b", "a"]) == 1.0
    # Best and worst order tied items by gain: grade 1 gains 10, grade 2 gains 1.
    best = dcg_from_scores([1, 2], [1, 1], ties="best", gain={1: 10, 2: 1})
    worst = dcg_from_scores([1, 2], [1, 1], ties="worst", gain={1: 10, 2: 1})
    assert best == pytest.approx(10 + 1 / log2(3), abs=1e-12) and worst == pytest.approx(1 + 10 / log2(3), abs=1e-12)


def test_averaged_ties_follow_float32_when_asked():
    # Equal as float32, not as doubles: averaged, each gets (0 + 1) / 2.
    value = ndcg_from_scores([0, 1], [1.0, 1.0 + 1e-12], ties="average", float32_scores=True)
    assert value == pytest.approx(0.5 + 0.5 / log2(3), abs=1e-15)


def test_bounds_use_k_float32_and_the_options():
    grades, scores = [0, 2, 1], [2.0, 1.0, 1.0]  # item 0 first, then 2 and 1 tied
    worst, best = ndcg_bounds(grades, scores, 2)
    ideal2 = 2 + 1 / log2(3)
    assert worst == pytest.approx((1 / log2(3)) / ideal2, abs=1e-15)
    assert best == pytest.approx((2 / log2(3)) / ideal2, abs=1e-15)
    # Tied only as float32: the doubles put grade 1 first, float32 lets the best case put grade 2 first.
    near = [2.0, 1.0, 1.0 + 1e-12]
    assert ndcg_bounds(grades, near, 2)[1] == pytest.approx((1 / log2(3)) / ideal2, abs=1e-15)
    assert ndcg_bounds(grades, near, 2, float32_scores=True)[1] == pytest.approx((2 / log2(3)) / ideal2, abs=1e-15)
    ideal2_exp = 3 + 1 / log2(3)  # 2^2 - 1, 2^1 - 1
    assert ndcg_bounds(grades, scores, 2, gain="exponential")[1] == pytest.approx((3 / log2(3)) / ideal2_exp, abs=1e-15)


def test_bounds_take_ndcg_from_scores_keywords_by_name_items_discount_and_pool():
    grades, scores = [0, 2, 1], [2.0, 1.0, 1.0]  # item 0 first, then 2 and 1 tied
    # A judged 3 the list missed is in the ideal: 3 and 2 at k = 2.
    ideal2 = 3 + 2 / log2(3)
    worst, best = ndcg_bounds(grades, scores, 2, pool=[0, 2, 1, 3])
    assert (worst, best) == (pytest.approx((1 / log2(3)) / ideal2), pytest.approx((2 / log2(3)) / ideal2))
    # Järvelin-Kekäläinen's discount at base 2 leaves rank 1 whole, and rank 2 too (log2(2) = 1).
    assert ndcg_bounds(grades, scores, 2, discount="jk") == (pytest.approx(1 / 3), pytest.approx(2 / 3))
    # The items name the tied ones; the bounds do not depend on them, unlike trec_eval's own order.
    assert ndcg_bounds(grades, scores, 2, items=["a", "b", "c"]) == ndcg_bounds(grades, scores, 2)
    assert error_of(ndcg_bounds, grades, scores, 2, items=["a"]).fields == {"items": 1, "grades": 3}
    with pytest.raises(TypeError):
        ndcg_bounds(grades, scores, 2, ties="average")  # the bounds set the ties themselves


def test_a_gain_scales_by_whole_shifts_given_as_floats():
    """A shift is a whole number, which may come as a float (3.0): a gain without a scaled form of its own
    still divides by exact powers of two."""
    shifts = np.array([0.0, 1.0, 3.0])
    assert GAINS.build("linear").scaled([3, 2, 8], shifts).tolist() == [3.0, 1.0, 1.0]
    assert GAINS.build("custom", mapping={0: 0, 1: 6}).scaled([1, 1, 0], shifts).tolist() == [6.0, 3.0, 0.0]
