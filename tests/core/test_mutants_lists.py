"""The one-list modules (``ndcg_core.lists``), checked where mutation testing found them loose.

Expected values are written out: DCG terms with their log2, lists reordered by hand.
"""

import math
from math import log2

import numpy as np
import pytest

from ndcg_core.errors import Place
from ndcg_core.lists import items as it
from ndcg_core.lists.discounts import jk_discount
from ndcg_core.lists.gains import GAINS
from ndcg_core.lists.items import Item, ListSettings, make_items
from ndcg_core.lists.moves import ndcg_after_moves
from ndcg_core.lists.ndcg import breakdown, cg, dcg, idcg, ideal_grades, ndcg_at_k
from ndcg_core.lists.presets import PRESETS, _docs
from ndcg_core.lists.scores import dcg_from_scores, ndcg_bounds, ndcg_from_scores
from ndcg_core.lists.ties import _sorted_within_groups, compared_scores, order_by_scores, ranking_order
from support import error_of


def labels(items):
    return [x.label for x in items]


ABCD = make_items(["a", "b", "c", "d"], [3, 0, 2, 1])


# --- items: making, moving, swapping --------------------------------------------------------------


def test_items_are_numbered_from_1_or_from_first_id():
    assert make_items(["a", "b"], [2, 1]) == [Item(1, "a", 2.0), Item(2, "b", 1.0)]
    assert make_items(["a", "b", "c"], [0, 1, 2], first_id=7) == [
        Item(7, "a", 0.0),
        Item(8, "b", 1.0),
        Item(9, "c", 2.0),
    ]
    error = error_of(make_items, ["a", "b"], [1])
    assert (error.code, error.fields) == ("count.labels", {"labels": 2, "grades": 1})


def test_next_id_is_one_past_the_largest():
    assert it.next_id([]) == 1
    assert it.next_id([Item(4, "x", 0), Item(2, "y", 1)]) == 5


@pytest.mark.parametrize(
    "source, target, fields",
    [
        (4, 0, {"source": "5", "target": "1", "count": 4}),
        (0, -1, {"source": "1", "target": "0", "count": 4}),
        (True, 1, {"source": "True", "target": "2", "count": 4}),
        (0, "2", {"source": "1", "target": "'2'", "count": 4}),
        (1.0, 2, {"source": "1.0", "target": "3", "count": 4}),
    ],
)
def test_a_move_off_the_list_names_both_positions_counted_from_1(source, target, fields):
    error = error_of(it.move, ABCD, source, target)
    assert (error.code, error.fields) == ("list.move", fields)


@pytest.mark.parametrize(
    "first, second, expected",
    [
        (0, 3, ["d", "b", "c", "a"]),
        (3, 0, ["d", "b", "c", "a"]),
        (1, 2, ["a", "c", "b", "d"]),
        (2, 1, ["a", "c", "b", "d"]),
        (0, 1, ["b", "a", "c", "d"]),
        (2, 2, ["a", "b", "c", "d"]),
    ],
)
def test_a_swap_exchanges_two_items_and_nothing_else(first, second, expected):
    assert labels(it.swap(ABCD, first, second)) == expected


def test_a_swap_off_the_list_is_a_move_error():
    error = error_of(it.swap, ABCD, 1, 4)
    assert (error.code, error.fields) == ("list.move", {"source": "5", "target": "2", "count": 4})
    error = error_of(it.swap, ABCD, "x", 1)
    assert (error.code, error.fields) == ("list.move", {"source": "2", "target": "'x'", "count": 4})


def test_worst_order_follows_the_gain_not_the_grade():
    items = make_items(["two", "one", "zero"], [2, 1, 0])
    assert labels(it.worst_order(items, {1: 10, 2: 1})) == ["zero", "two", "one"]
    assert labels(it.ideal_order([], "linear")) == []


def test_check_label_names_its_place_and_check_size_allows_100():
    place = Place("table.label", row=2)
    assert (error_of(it.check_label, " ", place).fields) == {"place": place}
    it.check_size(100)
    error = error_of(it.check_size, 101)
    assert (error.code, error.fields) == ("list.too_long", {"count": 101, "limit": 100})


def test_the_cutoff_is_k_clamped_to_the_list_and_at_least_1():
    assert ListSettings().cutoff(0) == 1 and ListSettings().cutoff(1) == 1 and ListSettings().cutoff(7) == 7
    assert ListSettings(k=1).cutoff(5) == 1 and ListSettings(k=5).cutoff(1) == 1 and ListSettings(k=5).cutoff(0) == 1
    assert ListSettings(k=3).cutoff(5) == 3
    assert [it.default_k(n) for n in (0, 1, 7, 10, 15)] == [1, 1, 7, 10, 10]


def test_score_uses_k_and_the_settings_gain():
    # 3, 0, 2, 1 at k = 2 with 2^g - 1: DCG 7 + 0, ideal 7 + 3 / log2(3).
    scores = it.score(ABCD, ListSettings(k=2, gain="exponential"))
    ideal = 7 + 3 / log2(3)
    assert scores.k == 2 and scores.dcg == 7.0
    assert scores.idcg == pytest.approx(ideal, abs=1e-12) and scores.ndcg == pytest.approx(7 / ideal, abs=1e-12)


def test_every_move_and_swap_of_a_list_under_its_settings():
    items = make_items(["a", "b", "c"], [0, 1, 2])
    settings = ListSettings(k=1, gain="exponential")  # NDCG@1: the top gain over 2^2 - 1 = 3
    moves = it.ndcg_after_each_move(items, settings)
    # Moving the item at i to the top puts its gain there; moving a down lifts b to the top; others keep a there.
    assert moves.tolist() == [[0, 1 / 3, 1 / 3], [1 / 3, 0, 0], [1, 0, 0]]
    swaps = it.ndcg_after_each_swap(items, settings)
    assert swaps.tolist() == [[0, 1 / 3, 1], [1 / 3, 0, 0], [1, 0, 0]]
    pool = ListSettings(k=1, ideal="pool", extra=(Item(9, "z", 4),))  # the ideal top is 4 now
    assert it.ndcg_after_each_swap(items, pool)[0].tolist() == [0, 1 / 4, 2 / 4]
    assert it.ndcg_after_each_move(items, pool)[2].tolist() == [2 / 4, 0, 0]
    jk = ListSettings(k=3, discount="jk", jk_base=3.0)  # ranks 1 and 2 in full, rank 3 divided by log_3(3) = 1
    assert np.allclose(it.ndcg_after_each_swap(items, jk), 1.0) and np.allclose(it.ndcg_after_each_move(items, jk), 1.0)


# --- ndcg: errors name the measure, the pool and the position ---------------------------------------

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


# --- gains, presets, moves -----------------------------------------------------------------------


def test_the_log2_bound_of_no_grades_is_0():
    assert GAINS.build("linear").log2_bound([]) == 0.0
    assert GAINS.build("exponential").log2_bound([3, 5]) == 5.0


def test_preset_labels_and_the_ids_of_extra_items():
    assert PRESETS.build("lesson").labels == ("doc A", "doc B", "doc C")
    wikipedia = PRESETS.build("wikipedia")
    assert [(x.id, x.label, x.grade) for x in wikipedia.extra_items()] == [(7, "D7", 3.0), (8, "D8", 2.0)]
    assert _docs(26)[-1] == "doc Z"
    assert _docs(27)[:2] == ("doc 1", "doc 2") and _docs(27)[-1] == "doc 27"


def test_moves_of_a_list_with_only_negative_gains_score_0():
    assert ndcg_after_moves([1, 0], gain={1: -1}).tolist() == [[0, 0], [0, 0]]


def test_moves_never_score_above_1_when_rounding_favours_the_list():
    # Ranks 1 to 3 all keep their gain (b = 3): 0.1 + 0.2 + 0.3 rounds above 0.3 + 0.2 + 0.1.
    assert 0.1 + 0.2 + 0.3 > 0.3 + 0.2 + 0.1
    assert ndcg_after_moves([0.1, 0.2, 0.3], discount=jk_discount(3.0)).max() == 1.0


# --- ties and scores -----------------------------------------------------------------------------


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


def test_a_gain_scales_by_whole_shifts_given_as_floats():
    """A shift is a whole number, which may come as a float (3.0): a gain without a scaled form of its own
    still divides by exact powers of two."""
    shifts = np.array([0.0, 1.0, 3.0])
    assert GAINS.build("linear").scaled([3, 2, 8], shifts).tolist() == [3.0, 1.0, 1.0]
    assert GAINS.build("custom", mapping={0: 0, 1: 6}).scaled([1, 1, 0], shifts).tolist() == [6.0, 3.0, 0.0]
