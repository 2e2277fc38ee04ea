"""Predict takes a number outside 0 to 1 when a catalogued mistake gives it, and names that mistake; any other
number outside 0 to 1 is refused with the range. An estimate is kept as typed: its decimals are the precision a
mistake's number is matched to, and the store keeps the text.

FIVE: grades 3 2 3 0 1 at k = 5 (the Playground's "five"): DCG@5 = 3 + 2/log2(3) + 3/2 + 1/log2(6) = 6.149, the
number of ``no_normalisation`` (the DCG typed where NDCG is asked); the ideal sorted worst first (0 1 2 3 3) gives
DCG / (1/log2(3) + 2/2 + 3/log2(5) + 3/log2(6)) = 1.506 (``ideal_ascending``).

NEAR: grades 0 3 2 1 at k = 3, whose NDCG@3 is 0.61: the list summed to position 4 gives 0.698 (``list_not_cut``)
and log2(i + 2) in the discount 0.711 (``discount_shifted``); "0.70" is the first to two decimals, "0.7" both to one.
"""

import copy
import pickle
from math import log2

import pytest

from ndcg_core.classroom.kinds.base import Answer
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Estimate, Predict
from ndcg_core.classroom.kinds.tally import Group
from ndcg_core.errors import InputError

FIVE = Predict(activity_list(tuple("abcde"), (3, 2, 3, 0, 1), 5))
DCG = 3 + 2 / log2(3) + 3 / 2 + 1 / log2(6)
IDCG = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)
WORST_FIRST = DCG / (1 / log2(3) + 2 / 2 + 3 / log2(5) + 3 / log2(6))

NEAR = Predict(activity_list(tuple("abcd"), (0, 3, 2, 1), 3))
NEAR_IDCG = 3 + 2 / log2(3) + 1 / 2
LIST_NOT_CUT = (3 / log2(3) + 2 / 2 + 1 / log2(5)) / NEAR_IDCG
SHIFTED = (3 / log2(4) + 2 / log2(5)) / (3 / log2(3) + 2 / log2(4) + 1 / log2(5))


def refused(predict, raw):
    with pytest.raises(InputError) as caught:
        predict.check(raw)
    return caught.value.code, caught.value.fields


def test_the_numbers_stand_where_the_docstring_says():
    assert FIVE.truth() == pytest.approx(DCG / IDCG)
    assert f"{DCG:.2f}" == "6.15" and f"{WORST_FIRST:.2f}" == "1.51"
    assert f"{LIST_NOT_CUT:.3f}" == "0.698" and f"{SHIFTED:.3f}" == "0.711" and abs(NEAR.truth() - 0.7) > 0.05


@pytest.mark.parametrize(
    "typed, code",
    [(f"{DCG:.2f}", "no_normalisation"), (f"{DCG:.4f}", "no_normalisation"), (f"{WORST_FIRST:.2f}", "ideal_ascending")],
)
def test_a_number_outside_0_to_1_that_a_mistake_gives_is_taken_and_named(typed, code):
    estimate = FIVE.check(typed)
    assert estimate == float(typed) and estimate.typed == typed
    assert FIVE.group(estimate) == code
    assert FIVE.verdict(estimate).found[0].code == code
    assert FIVE.result(estimate).right is False and FIVE.result(estimate).points == 0


@pytest.mark.parametrize("typed", ["1.2", " -0.1 ", "7.9", f"{DCG + 0.01:.2f}"])
def test_a_number_outside_0_to_1_that_no_mistake_gives_is_refused_with_the_range(typed):
    assert refused(FIVE, typed) == ("activity.estimate_range", {"value": repr(typed.strip())})


def test_the_dcg_counts_in_the_class_s_mistakes_and_stays_off_the_histogram():
    truth = FIVE.truth()
    answers = [Answer(1, None, 0, FIVE.check(f"{DCG:.2f}")), Answer(2, None, 0, FIVE.check(f"{truth:.2f}"))]
    summary = FIVE.summary(answers)
    assert summary.count == 2 and summary.outside == 1
    assert sum(b.count for b in summary.bins) == 1  # the right one; 6.15 is on no bin of 0 to 1
    assert summary.groups == (Group("right", 1), Group("no_normalisation", 1))


def test_an_estimate_is_matched_to_the_decimals_it_was_typed_with():
    assert NEAR.group(NEAR.check("0.70")) == "list_not_cut"  # 0.698 to two decimals; 0.711 is not 0.70
    assert [d.code for d in NEAR.verdict(NEAR.check("0.70")).found] == ["list_not_cut"]
    assert {d.code for d in NEAR.verdict(NEAR.check("0.7")).found} == {"list_not_cut", "discount_shifted"}
    assert NEAR.check("0,70").decimals == 2 and NEAR.check("0,70") == 0.7


def test_the_store_keeps_an_estimate_as_typed_and_reads_an_earlier_number_as_its_shortest_form():
    typed = NEAR.check(" 0,70 ")
    assert Predict.answer_to_json(typed) == "0,70"
    back = Predict.answer_from_json("0,70")
    assert (back, back.typed, back.decimals, back.text) == (0.7, "0,70", 2, "0.70")
    earlier = Predict.answer_from_json(0.7)  # a row an earlier version stored as a number
    assert (earlier, earlier.typed, earlier.decimals) == (0.7, "0.7", 1)
    assert Predict.answer_to_json(Estimate.read("1e-1")) == "0.1"  # only plain decimals are kept as typed


def test_estimates_of_exactly_0_and_1_are_on_the_histogram_and_only_those_outside_are_left_off():
    """The histogram covers 0 to 1, both ends in: 0 in the first bin, 1 in the last; 1.51 (a mistake's number,
    inside 0 to 2) is left off and counted outside."""
    answers = [Answer(i, None, 0, FIVE.check(raw)) for i, raw in enumerate(["0", "1", f"{WORST_FIRST:.2f}"])]
    summary = FIVE.summary(answers)
    assert (summary.count, summary.outside) == (3, 1)
    counts = [b.count for b in summary.bins]
    assert counts[0] == 1 and counts[-1] == 1 and sum(counts) == 2


def test_an_estimate_copied_or_pickled_keeps_its_number_and_the_text_typed():
    """A cache or another process gets the estimate as typed (its decimals are what a mistake is matched to)."""
    estimate = NEAR.check("0,70")
    for again in (pickle.loads(pickle.dumps(estimate)), copy.deepcopy(estimate)):
        assert type(again) is Estimate and (float(again), again.typed, again.decimals) == (0.7, "0,70", 2)
    assert repr(estimate) == "Estimate(0.7, '0,70')"
