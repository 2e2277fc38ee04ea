"""Predict the NDCG names the class's mistakes: each estimate is right (the true NDCG to the decimals it was written
with), close (within 0.05), the number of a known mistake, or other; the class's estimates are counted by those
groups, two rounds are laid side by side, and the end-of-class summary counts the mistakes.

The list: grades 0 1 0 1 at k = 3, with one judged result of grade 1 the list missed (the ideal includes it), so
DCG@3 = 1/log2(3), the ideal's DCG@3 = 1 + 1/log2(3) + 1/log2(4), and the ideal of the list alone 1 + 1/log2(3)."""

from math import log2

import pytest

from ndcg_core.classroom.kinds.base import Answer
from ndcg_core.classroom.kinds.choose import choose_activity
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.tally import (
    WITHIN,
    Group,
    estimate_verdict,
    grouped,
    mistake_codes,
    mistakes_only,
    side_by_side,
    within,
)
from ndcg_core.classroom.results import (
    ActivityOutcome,
    PartOutcome,
    Taken,
    answer_group,
    common_mistakes,
    outcome,
    room_results,
)
from ndcg_core.teaching import mistakes

SPEC = activity_list(("a", "b", "c", "d"), (0, 1, 0, 1), 3, pool=(1,))
PREDICT = Predict(SPEC)
DCG = 1 / log2(3)
IDCG = 1 + 1 / log2(3) + 1 / log2(4)
TRUTH = DCG / IDCG  # 0.2961
NO_NORMALISATION = DCG  # 0.6309: the DCG, divided by nothing
IDEAL_FROM_LIST = DCG / (1 + 1 / log2(3))  # 0.3869: the missed result left out of the ideal
LIST_NOT_CUT = (1 / log2(3) + 1 / log2(5)) / IDCG  # 0.4982: the list summed to position 4


def answers(*values):
    return [Answer(i, None, 0, float(v)) for i, v in enumerate(values, start=1)]


def test_the_numbers_of_the_mistakes_are_apart_from_the_truth():
    assert PREDICT.truth() == pytest.approx(TRUTH)
    for number in (NO_NORMALISATION, IDEAL_FROM_LIST, LIST_NOT_CUT):
        assert abs(number - TRUTH) > WITHIN


@pytest.mark.parametrize(
    ("estimate", "group"),
    [
        (f"{TRUTH:.2f}", "right"),  # 0.30: the truth to two decimals
        (f"{TRUTH:.4f}", "right"),
        ("0.3", "right"),  # 0.30 (as stored): the truth to two decimals
        ("0.34", "close"),
        (f"{TRUTH + 0.03:.2f}", "close"),  # 0.33 is within 0.05 but not the truth to two decimals
        (f"{1 / 3:.2f}", "close"),  # CG over the ideal's CG is 1/3: within 0.05, so counted close, not a mistake
        (f"{NO_NORMALISATION:.2f}", "no_normalisation"),
        (f"{IDEAL_FROM_LIST:.2f}", "ideal_from_list"),
        (f"{IDEAL_FROM_LIST:.4f}", "ideal_from_list"),
        (f"{LIST_NOT_CUT:.1f}", "list_not_cut"),  # 0.5 matches 0.4982 to its one decimal
        ("0.8", "other"),  # no known mistake gives a number from 0.75 to 0.85 here
        (f"{NO_NORMALISATION + 0.02:.2f}", "other"),  # 0.65: beside the DCG, but not it to two decimals
    ],
)
def test_each_estimate_is_right_close_a_mistake_or_other(estimate, group):
    verdict = PREDICT.verdict(estimate)
    assert verdict.group == group
    assert verdict.right == (group in ("right", "close"))
    assert verdict.right == within(float(estimate), TRUTH)  # right and close are the activity's right answers
    if group not in ("right", "close", "other"):
        assert verdict.found[0].code == group
        assert verdict.found[0].figures["yours"] == pytest.approx(
            {"no_normalisation": NO_NORMALISATION, "ideal_from_list": IDEAL_FROM_LIST, "list_not_cut": LIST_NOT_CUT}[
                group
            ]
        )
    else:
        assert verdict.found == ()


def test_the_class_s_estimates_are_counted_by_group_mistakes_most_common_first():
    class_ = answers(*[f"{NO_NORMALISATION:.2f}"] * 3, *[f"{IDEAL_FROM_LIST:.3f}"] * 2, "0.5", "0.3", "0.33", "0.8")
    summary = PREDICT.summary(class_)
    assert summary.groups == (
        Group("right", 1),
        Group("close", 1),
        Group("no_normalisation", 3),
        Group("ideal_from_list", 2),
        Group("list_not_cut", 1),
        Group("other", 1),
    )
    assert summary.count == 9 and summary.within == 2
    assert summary.share_right == pytest.approx(2 / 9)
    # The spread: the median and the quartiles of the nine estimates, sorted 0.3 0.33 0.387 0.387 0.5 0.63 ...
    assert summary.median == pytest.approx(0.5)
    assert summary.quartiles == pytest.approx((round(IDEAL_FROM_LIST, 3), round(NO_NORMALISATION, 2)))
    assert mistakes_only(summary.groups) == summary.groups[2:5]
    empty = PREDICT.summary([])
    assert (empty.groups, empty.quartiles, empty.share_right) == ((), None, None)
    assert PREDICT.summary(answers("0.7")).quartiles == (0.7, 0.7)


def test_an_estimate_with_one_decimal_is_read_to_two_to_be_right():
    # 0.9 is 0.9386 to one decimal, and within 0.05, but not the truth to two decimals: close, like 0.95.
    assert mistakes.matches("0.9", 0.9386) and not mistakes.matches("0.9", 0.9386, decimals=2)
    spec = activity_list(("a", "b", "c"), (3, 0, 2), 3)  # NDCG@3 = (3 + 2/2) / (3 + 2/log2(3)) = 0.9386
    assert spec.ndcg() == pytest.approx(4 / (3 + 2 / log2(3)))
    assert [estimate_verdict(spec, x).group for x in ("0.9", "0.95", "0.94", "0.9386")] == [
        "close",
        "close",
        "right",
        "right",
    ]


def test_equal_counts_of_mistakes_keep_one_order():
    assert grouped(["other", "list_not_cut", "no_normalisation", "ideal_from_list", "right"]) == (
        Group("right", 1),
        Group("no_normalisation", 1),  # the catalogue's order: the likeliest first
        Group("ideal_from_list", 1),
        Group("list_not_cut", 1),
        Group("other", 1),
    )


def test_two_rounds_side_by_side_list_every_group_of_either():
    before = (Group("right", 1), Group("no_normalisation", 4), Group("ideal_from_list", 2), Group("other", 3))
    after = (Group("right", 6), Group("close", 2), Group("ideal_from_list", 1), Group("other", 1))
    assert side_by_side(before, after) == (
        ("right", 1, 6),
        ("close", 0, 2),
        ("no_normalisation", 4, 0),
        ("ideal_from_list", 2, 1),
        ("other", 3, 1),
    )


def test_which_is_right_counts_its_choices_by_the_mistake_of_the_option():
    choose = choose_activity(SPEC, ["no_normalisation", "ideal_from_list", "list_not_cut"])
    by = {o.mistake: o.letter for o in choose.options()}
    assert choose.summary([]).groups == ()
    picks = [by[None], by["ideal_from_list"], by["ideal_from_list"], by["no_normalisation"]]
    summary = choose.summary([Answer(i, None, 0, v) for i, v in enumerate(picks, start=1)])
    assert summary.groups == (Group("right", 1), Group("ideal_from_list", 2), Group("no_normalisation", 1))
    assert summary.share_right == 1 / 4


def test_the_end_of_class_summary_counts_each_activity_s_mistakes_and_the_class_s_most_common():
    predict = Taken(
        1, 1, PREDICT, tuple(answers(f"{NO_NORMALISATION:.2f}", f"{NO_NORMALISATION:.2f}", "0.5", "0.3")), ()
    )
    again = Taken(2, 2, PREDICT, tuple(answers("0.5", "0.3", "0.3", "0.8")), ())
    compare = Taken(3, 1, compare_activity("seed003", "ndcg"), (Answer(1, None, 0, "a"),), ())
    outcomes = [outcome(r) for r in room_results([predict, again, compare]).activities]
    assert [o.mistakes for o in outcomes] == [
        (Group("no_normalisation", 2), Group("list_not_cut", 1)),
        (Group("list_not_cut", 1),),
        (),
    ]
    # Equal counts: the catalogue's likelier mistake first (the DCG for NDCG before the list not cut).
    assert common_mistakes(outcomes) == (Group("no_normalisation", 2), Group("list_not_cut", 2))
    assert common_mistakes(outcomes, top=1) == (Group("no_normalisation", 2),)
    # Four mistakes made: the summary names the three most common.
    four = tuple(Group(code, 5 - i) for i, code in enumerate(mistake_codes()[:4]))
    assert common_mistakes([ActivityOutcome(1, "predict", 1, 10, 10, (PartOutcome(10, 0),), mistakes=four)]) == four[:3]
    assert answer_group(PREDICT, None) is None
    assert answer_group(compare.activity, "a") is None
