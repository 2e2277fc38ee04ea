"""The single-list API against the seeds' worked examples and hand-written formulas."""

import re
from math import log2

import numpy as np
import pytest

from ndcg_core import (
    DISCOUNTS,
    GAINS,
    TIE_POLICIES,
    InputError,
    breakdown,
    dcg,
    dcg_from_scores,
    ndcg_at_every_k,
    ndcg_at_k,
    ndcg_bounds,
    ndcg_from_scores,
    order_by_scores,
)
from ndcg_core.errors import Place
from ndcg_core.lists.items import make_items
from ndcg_core.lists.moves import ndcg_after_moves
from ndcg_core.lists.ndcg import cg, idcg, ideal_grades
from ndcg_core.lists.scoring import Scoring
from support import error_of


def test_lesson_hand_check_dcg_3_0_2_is_exactly_4():
    assert dcg([3, 0, 2]) == 3 / log2(2) + 0 / log2(3) + 2 / log2(4) == 4.0


def test_lesson_perfect_order_scores_one_and_its_reverse_less():
    assert ndcg_at_k([3, 2, 0], 3) == 1.0
    assert ndcg_at_k([0, 2, 3], 3) < 1.0
    assert ndcg_at_k([0, 2, 3], 3) == pytest.approx((0 + 2 / log2(3) + 3 / log2(4)) / (3 + 2 / log2(3)))


def test_all_zero_ranking_is_defined_as_zero():
    assert ndcg_at_k([0, 0, 0], 3) == 0.0
    assert ndcg_at_k([], 3) == 0.0
    assert dcg([]) == 0.0


def test_article_example_3_2_3_0_1_is_about_0_97():
    rels = [3, 2, 3, 0, 1]
    actual = 3 + 2 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6)
    ideal = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0
    assert dcg(rels) == pytest.approx(actual, abs=1e-12)
    assert ndcg_at_k(rels, 5) == pytest.approx(actual / ideal, abs=1e-12)
    # The article rounds to 6.15 / 6.32 ≈ 0.97; the issue quotes about 0.972.
    assert dcg(rels) == pytest.approx(6.15, abs=0.005)
    assert dcg(sorted(rels, reverse=True)) == pytest.approx(6.32, abs=0.005)
    assert ndcg_at_k(rels, 5) == pytest.approx(0.972, abs=0.0005)


def test_chengdu_three_day_trip_example():
    rels = [4, 2, 0, 1, 3]  # 成都3天攻略, 成都美食推荐, 北京旅游, 成都7天游, 成都住宿
    assert sum(rels) == 10  # the note's CG@5
    # The note rounds each term to two decimals: 6.85 / 7.32 = 0.936.
    assert dcg(rels, 5) == pytest.approx(6.85, abs=0.005)
    assert dcg(sorted(rels, reverse=True), 5) == pytest.approx(7.32, abs=0.005)
    assert ndcg_at_k(rels, 5) == pytest.approx(0.936, abs=0.0005)


def test_chengdu_food_example():
    rels = [4, 1, 3, 4, 0]  # 成都火锅大全, 重庆火锅, 成都小吃街, 成都美食地图, 北京烤鸭
    exact_dcg = 4 + 1 / log2(3) + 3 / log2(4) + 4 / log2(5)
    exact_idcg = 4 + 4 / log2(3) + 3 / log2(4) + 1 / log2(5)
    assert dcg(rels, 5) == pytest.approx(exact_dcg, abs=1e-12)
    assert ndcg_at_k(rels, 5) == pytest.approx(exact_dcg / exact_idcg, abs=1e-12)
    assert dcg(rels, 5) == pytest.approx(7.85, abs=0.005)  # the note's rounded figures
    assert dcg(sorted(rels, reverse=True), 5) == pytest.approx(8.45, abs=0.005)
    assert ndcg_at_k(rels, 5) == pytest.approx(0.929, abs=0.0005)


def test_doc_x_to_w_example_and_swapping_w_and_z_helps():
    grades = {"doc_X": 4, "doc_Y": 2, "doc_Z": 0, "doc_W": 3}
    ranked = [grades[d] for d in ("doc_X", "doc_Y", "doc_Z", "doc_W")]
    expected = (4 + 2 / log2(3) + 0 + 3 / log2(5)) / (4 + 3 / log2(3) + 2 / log2(4))
    assert ndcg_at_k(ranked, 10) == pytest.approx(expected, abs=1e-12)
    swapped = [grades[d] for d in ("doc_X", "doc_Y", "doc_W", "doc_Z")]
    assert ndcg_at_k(swapped, 10) > ndcg_at_k(ranked, 10)


def test_wikipedia_example_against_the_pool_and_against_the_list():
    ranked = [3, 2, 3, 0, 1, 2]
    pool = ranked + [3, 2]  # two judged items the system did not retrieve
    assert round(ndcg_at_k(ranked, 6, pool=pool), 3) == 0.785
    assert round(ndcg_at_k(ranked, 6), 3) == 0.961
    idcg_pool = 3 + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 2 / log2(6) + 2 / log2(7)
    assert ndcg_at_k(ranked, 6, pool=pool) == pytest.approx(dcg(ranked) / idcg_pool, abs=1e-12)


# ---------------------------------------------------------------- truncation, gains, discounts


def test_k_truncates_both_the_list_and_the_ideal():
    rels = [0, 3, 1]
    assert ndcg_at_k(rels, 1) == 0.0
    assert ndcg_at_k(rels, 2) == pytest.approx((3 / log2(3)) / (3 + 1 / log2(3)))
    assert ndcg_at_k(rels, None) == ndcg_at_k(rels, 3) == ndcg_at_k(rels, 50)


def test_exponential_gain_is_two_to_the_grade_minus_one():
    rels = [1, 3]
    assert dcg(rels, gain="exponential") == pytest.approx((2**1 - 1) + (2**3 - 1) / log2(3))
    assert ndcg_at_k(rels, gain="exponential") == pytest.approx((1 + 7 / log2(3)) / (7 + 1 / log2(3)))


def test_exponential_gain_stresses_highly_relevant_results():
    # Burying the one grade-4 item costs more under 2^g - 1 than under the grade itself.
    ranked = [2, 2, 2, 4]
    assert ndcg_at_k(ranked, gain="exponential") < ndcg_at_k(ranked, gain="linear")


def test_custom_gain_mapping_keeps_unlisted_grades_as_their_grade():
    rels = [1, 2, 3]
    mapping = {1: 3, 2: 9}
    assert dcg(rels, gain=mapping) == pytest.approx(3 + 9 / log2(3) + 3 / log2(4))
    assert ndcg_at_k(rels, gain=mapping) == pytest.approx(
        (3 + 9 / log2(3) + 3 / log2(4)) / (9 + 3 / log2(3) + 3 / log2(4))
    )


def test_jarvelin_kekalainen_discount_does_not_discount_before_rank_b():
    jk3 = DISCOUNTS.build("jk", base=3)
    rels = [1, 1, 1, 1]
    assert dcg(rels, discount=jk3) == pytest.approx(1 + 1 + 1 / (log2(3) / log2(3)) + 1 / (log2(4) / log2(3)))
    jk2 = DISCOUNTS.build("jk", base=2)
    assert dcg([3, 2, 1], discount=jk2) == pytest.approx(3 + 2 / log2(2) + 1 / log2(3))


def test_registries_describe_every_variant_for_the_ui():
    assert GAINS.names() == ["linear", "exponential", "custom"]
    assert DISCOUNTS.names() == ["log2", "jk"]
    assert TIE_POLICIES.names() == ["trec_eval", "average", "best", "worst", "file"]
    for registry in (GAINS, DISCOUNTS, TIE_POLICIES):
        for entry in registry:
            assert entry.description.endswith(".") and len(entry.description) < 120


def test_unknown_variant_names_are_clear_errors():
    with pytest.raises(ValueError, match="unknown gain 'cubic'; choose one of linear, exponential, custom"):
        dcg([1], gain="cubic")
    with pytest.raises(ValueError, match="unknown discount"):
        dcg([1], discount="log10")
    with pytest.raises(ValueError, match="base b must be greater than 1, got 1"):
        DISCOUNTS.build("jk", base=1)
    with pytest.raises(ValueError, match="takes no parameter 'base'"):
        DISCOUNTS.build("log2", base=3)


# ---------------------------------------------------------------- ties


def test_trec_eval_ties_break_by_item_id_descending_as_a_string():
    order = order_by_scores([1.0, 1.0, 2.0], [1, 0, 0], items=["d10", "d9", "d1"], ties="trec_eval")
    assert order.tolist() == [2, 1, 0]  # d1 by score, then "d9" > "d10" as strings


def test_tie_policies_bound_and_average():
    grades, scores = [0, 3, 1], [5.0, 5.0, 1.0]
    worst, best = ndcg_bounds(grades, scores, 3)
    assert best == pytest.approx((3 + 0 + 1 / log2(4)) / (3 + 1 / log2(3)))
    assert worst == pytest.approx((0 + 3 / log2(3) + 1 / log2(4)) / (3 + 1 / log2(3)))
    averaged = ndcg_from_scores(grades, scores, 3, ties="average")
    assert averaged == pytest.approx((1.5 + 1.5 / log2(3) + 1 / log2(4)) / (3 + 1 / log2(3)))
    assert worst <= averaged <= best


def test_tie_average_at_a_cutoff_inside_a_tied_group():
    # k=1 cuts the tied pair: the one counted position gets the pair's mean gain.
    assert dcg_from_scores([0, 3], [1.0, 1.0], 1, ties="average") == 1.5


# ---------------------------------------------------------------- breakdown


def test_breakdown_has_every_term_and_agrees_with_the_functions():
    frame = breakdown([3, 0, 2], 2, items=["A", "B", "C"])
    assert list(frame.columns) == [
        "position",
        "item",
        "grade",
        "gain",
        "discount",
        "contribution",
        "cumulative_dcg",
        "ideal_grade",
        "ideal_gain",
        "ideal_contribution",
        "cumulative_idcg",
        "ndcg",
        "in_top_k",
        "term",
    ]
    assert frame["contribution"].tolist() == [3.0, 0.0, 1.0]
    assert frame["cumulative_dcg"].tolist() == [3.0, 3.0, 4.0]
    assert frame["ideal_grade"].tolist() == [3.0, 2.0, 0.0]
    assert frame["in_top_k"].tolist() == [True, True, False]
    assert frame["term"][0] == "3 / log2(2) = 3.000"
    assert frame["term"][2] == "2 / log2(4) = 1.000"
    for k in (1, 2, 3):
        assert frame["ndcg"][k - 1] == ndcg_at_k([3, 0, 2], k)


def test_breakdown_writes_exponential_terms_out():
    frame = breakdown([3], gain="exponential")
    assert frame["term"][0] == "(2^3 - 1) / log2(2) = 7.000"


def test_ndcg_at_every_k_is_not_monotone():
    values = ndcg_at_every_k([3, 0, 0, 3])
    assert np.any(np.diff(values) < 0) and np.any(np.diff(values) > 0)


def test_breakdown_with_a_pool_longer_than_the_list():
    frame = breakdown([3, 2, 3, 0, 1, 2], 6, pool=[3, 2, 3, 0, 1, 2, 3, 2])
    assert frame["ideal_grade"].tolist() == [3, 3, 3, 2, 2, 2]
    assert frame["ndcg"].iloc[-1] == pytest.approx(ndcg_at_k([3, 2, 3, 0, 1, 2], 6, pool=[3, 2, 3, 0, 1, 2, 3, 2]))


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "rels, message",
    [
        ([1, float("nan")], "grade at position 2 is NaN"),
        ([float("inf")], "grade at position 1 is inf: enter a finite number"),
        ([1, "abc"], "grade at position 2 is 'abc': not a number"),
        ([1, ""], "grade at position 2 is blank"),
        ([2, -1], "grade at position 2 is -1: grades cannot be negative"),
        ([None], "grade at position 1 is None: not a number"),
        ([True], "grade at position 1 is True: enter a number, not true or false"),
        ([1j], "grade at position 1 is 1j: a complex number"),
        ([10**400], r"grade at position 1 is 100000000000...\(401 digits\): larger than 1.79769e\+308"),
        ("321", "must be a list of numbers"),
        (5, "must be a list of numbers"),
    ],
)
def test_bad_grades_name_the_value_and_position(rels, message):
    with pytest.raises(InputError, match=message if "\\" in message else re.escape(message)):
        ndcg_at_k(rels, 1)


@pytest.mark.parametrize(
    "k, message",
    [
        (0, "k must be at least 1, got 0"),
        (-3, "at least 1"),
        (2.5, "whole number"),
        ("three", "k must be a whole number, got 'three'"),
    ],
)
def test_bad_k_is_a_clear_error(k, message):
    with pytest.raises(ValueError, match=message):
        ndcg_at_k([1, 2], k)


def test_numeric_text_grades_are_accepted_as_numbers():
    assert dcg(["3", " 0 ", "2"]) == 4.0


def test_cumulative_gain_ignores_positions():
    from ndcg_core import cg

    assert cg([3, 2, 3, 0, 1], 5) == 3 + 2 + 3 + 0 + 1 == cg([1, 0, 3, 2, 3], 5)
    assert cg([3, 2, 3], 2, gain="exponential") == (2**3 - 1) + (2**2 - 1)


def test_the_ideals_grades_need_in_the_pool_only_the_grades_whose_gain_is_positive():
    # Under this gain a 2 is worth 0: a pool without it is consistent; under the linear gain it is not.
    assert list(ideal_grades([2, 1], pool=[1], gain={2: 0, 1: 1})) == [1]
    with pytest.raises(InputError) as caught:
        ideal_grades([2, 1], pool=[1])
    assert caught.value.code == "ideal.lacks_grade"
    # A grade worth 0 needs no entry, and the check goes on past it: the 3 after it must be in the pool.
    with pytest.raises(InputError) as caught:
        ndcg_at_k([0, 3], 2, pool=[0, 2])
    assert (caught.value.code, caught.value.fields) == ("ideal.lacks_grade", {"value": "3", "position": 2})


def test_every_single_list_score_takes_the_judged_pool_as_pool_and_only_so():
    from ndcg_core import breakdown, idcg, ideal_grades, ndcg_at_every_k, ndcg_from_scores
    from ndcg_core.lists.moves import ndcg_after_swaps
    from ndcg_core.teaching.metrics import all_metrics

    grades, judged = [3, 2, 3, 0, 1, 2], [3, 2, 3, 0, 1, 2, 3, 2]
    best = 3 + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 2 / log2(6) + 2 / log2(7)
    own = 3 + 2 / log2(3) + 3 / log2(4) + 1 / log2(6) + 2 / log2(7)
    assert ndcg_at_k(grades, 6, pool=judged) == pytest.approx(own / best)
    assert idcg(grades, 6, pool=judged) == pytest.approx(best)
    assert list(ideal_grades(grades, pool=judged)) == [3, 3, 3, 2, 2, 2, 1, 0]
    assert breakdown(grades, 6, pool=judged)["ndcg"].iloc[-1] == pytest.approx(own / best)
    assert ndcg_at_every_k(grades, pool=judged)[-1] == pytest.approx(own / best)
    assert ndcg_from_scores(grades, [6, 5, 4, 3, 2, 1], 6, pool=judged) == pytest.approx(own / best)
    assert ndcg_after_moves(grades, 6, pool=judged)[0, 0] == pytest.approx(own / best)
    assert ndcg_after_swaps(grades, 6, pool=judged)[0, 0] == pytest.approx(own / best)
    assert all_metrics(grades, 6, pool=judged)["ndcg"] == pytest.approx(own / best)
    assert list(ideal_grades(grades, judged)) == [3, 3, 3, 2, 2, 2, 1, 0]  # second place: the pool
    # ideal=, pool's older name, is gone from every signature.
    for call in (
        lambda: ndcg_at_k(grades, 6, ideal=judged),
        lambda: idcg(grades, 6, ideal=judged),
        lambda: ideal_grades(grades, ideal=judged),
        lambda: breakdown(grades, 6, ideal=judged),
        lambda: ndcg_at_every_k(grades, ideal=judged),
        lambda: ndcg_from_scores(grades, [6, 5, 4, 3, 2, 1], 6, ideal=judged),
        lambda: ndcg_after_moves(grades, 6, ideal=judged),
        lambda: ndcg_after_swaps(grades, 6, ideal=judged),
        lambda: all_metrics(grades, 6, ideal=judged),
    ):
        with pytest.raises(TypeError, match="unexpected keyword argument 'ideal'"):
            call()


def test_a_lists_score_uses_its_discount_for_both_dcg_and_the_ideal():
    from ndcg_core.lists.items import score

    # Jarvelin-Kekalainen with base 2 does not discount ranks 1 and 2: [1, 3] is as good as [3, 1].
    scores = score(make_items(["a", "b"], [1, 3]), Scoring(discount="jk", base=2.0))
    assert (scores.dcg, scores.idcg, scores.ndcg) == (4.0, 4.0, 1.0)
    with_log2 = score(make_items(["a", "b"], [1, 3]), Scoring())
    assert with_log2.idcg == pytest.approx(3 + 1 / log2(3))
    assert with_log2.ndcg == pytest.approx((1 + 3 / log2(3)) / (3 + 1 / log2(3)))


# --- ndcg: errors name the measure, the pool and the position -------------------------------------------------------

TOO_LARGE = "1.79769e+308"


@pytest.mark.parametrize(
    "call, measure",
    [
        (lambda: cg([2000], gain="exponential"), "CG"),
        (lambda: dcg([2000], gain="exponential"), "DCG"),
        (lambda: idcg([2000], gain="exponential"), "IDCG"),
        (lambda: breakdown([2000], gain="exponential"), "DCG"),
        (lambda: dcg_from_scores([2000], [1.0], gain="exponential"), "DCG"),
    ],
)
def test_a_sum_beyond_a_float_names_its_measure(call, measure):
    error = error_of(call)
    assert (error.code, error.fields) == ("result.too_large", {"measure": measure, "limit": TOO_LARGE})


def test_a_pool_is_checked_as_judged_grades_and_must_hold_the_list():
    error = error_of(ndcg_at_k, [1], pool=[1, -1])
    assert (error.code, error.fields) == ("grade.negative", {"place": Place("pool.grade", position=2), "value": "-1"})
    error = error_of(ndcg_at_k, [2, 1], pool=[2, 0])
    assert (error.code, error.fields) == ("ideal.lacks_grade", {"value": "1", "position": 2})


def test_ideal_grades_are_the_list_or_the_pool_best_first():
    assert ideal_grades([1, 3, 2]).tolist() == [3, 2, 1]
    assert ideal_grades([3, 0], pool=[0, 3, 2]).tolist() == [3, 2, 0]


def test_idcg_cuts_at_k_of_the_pool_and_otherwise_at_the_list():
    assert idcg([1, 1], k=1) == 1.0
    assert idcg([1, 0], k=2, pool=[1, 0, 1]) == 1 + 1 / log2(3)
    assert idcg([1], pool=[1, 1]) == 1.0  # no k: as deep as the list


def test_breakdown_labels_counts_and_ideal_columns():
    frame = breakdown([0, 2])
    assert frame["item"].tolist() == ["item 1", "item 2"]
    assert frame["ideal_grade"].dtype == np.float64 and frame["ideal_grade"].tolist() == [2, 0]
    assert frame["ideal_gain"].tolist() == [2.0, 0.0]
    error = error_of(breakdown, [1, 0], items=["a"])
    assert (error.code, error.fields) == ("count.labels", {"labels": 1, "grades": 2})


def test_breakdown_keeps_the_list_order_among_equal_gains_in_the_ideal():
    grades = [1, 2, 0] * 7  # 1 and 2 both gain 5: the ideal keeps them in the list's order
    frame = breakdown(grades, gain={1: 5, 2: 5})
    assert frame["ideal_grade"].tolist() == [1, 2] * 7 + [0] * 7


def test_breakdown_terms_bracket_only_a_gain_written_as_a_formula():
    assert breakdown([1], gain={1: 3})["term"].tolist() == ["3 / log2(2) = 3.000"]
    assert breakdown([2], gain="exponential")["term"].tolist() == ["(2^2 - 1) / log2(2) = 3.000"]
    assert breakdown([2])["term"].tolist() == ["2 / log2(2) = 2.000"]


# --- gains: the bound of no grades ----------------------------------------------------------------------------------


def test_the_log2_bound_of_no_grades_is_0():
    assert GAINS.build("linear").log2_bound([]) == 0.0
    assert GAINS.build("exponential").log2_bound([3, 5]) == 5.0
