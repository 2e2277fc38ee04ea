"""Invariants of NDCG as hypothesis property tests."""

import math

from hypothesis import assume, given
from hypothesis import strategies as st

from ndcg_core import breakdown, dcg, ndcg_at_k, ndcg_from_scores

grades = st.lists(st.integers(min_value=0, max_value=6) | st.floats(0, 10, allow_nan=False), max_size=40)
ks = st.integers(min_value=1, max_value=50)
gains = st.sampled_from(["linear", "exponential"])
discounts = st.sampled_from(["log2", "jk"])


@given(grades, ks, gains, discounts)
def test_ndcg_is_between_zero_and_one_for_non_negative_grades(rels, k, gain, discount):
    value = ndcg_at_k(rels, k, gain=gain, discount=discount)
    assert 0.0 <= value <= 1.0 + 1e-12


@given(grades, ks, gains)
def test_the_ideal_order_scores_one_when_its_dcg_is_positive(rels, k, gain):
    ideal = sorted(rels, reverse=True)
    assume(dcg(ideal, k, gain=gain) > 0)
    assert math.isclose(ndcg_at_k(ideal, k, gain=gain), 1.0, rel_tol=1e-12)


@given(grades, ks, st.integers(min_value=1, max_value=20), gains)
def test_zero_graded_items_after_position_k_change_nothing(rels, k, extra, gain):
    top = (rels + [0] * k)[:k]  # exactly k items, so every added zero lands after position k
    assert ndcg_at_k(top + [0] * extra, k, gain=gain) == ndcg_at_k(top, k, gain=gain)


@given(grades, ks)
def test_a_pool_that_adds_judged_items_never_raises_ndcg(rels, k):
    pool = rels + [3, 1]
    assert ndcg_at_k(rels, k, pool=pool) <= ndcg_at_k(rels, k) + 1e-12


@given(grades)
def test_breakdown_ends_where_the_functions_end(rels):
    frame = breakdown(rels)
    if rels:
        assert frame["cumulative_dcg"].iloc[-1] == dcg(rels)
        assert frame["ndcg"].iloc[-1] == ndcg_at_k(rels)


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)), min_size=1, max_size=25), ks)
def test_tie_policies_are_ordered_worst_average_best(pairs, k):
    g = [p[0] for p in pairs]
    s = [float(p[1]) for p in pairs]
    worst = ndcg_from_scores(g, s, k, ties="worst")
    average = ndcg_from_scores(g, s, k, ties="average")
    best = ndcg_from_scores(g, s, k, ties="best")
    trec = ndcg_from_scores(g, s, k, ties="trec_eval")
    assert worst - 1e-12 <= average <= best + 1e-12
    assert worst - 1e-12 <= trec <= best + 1e-12
