"""``ndcg_core.lists.scoring.Scoring``: one frozen value for how a ranking is scored, checked when made, shared by
a list (``ListSpec``), an evaluation (``EvaluationOptions``) and the conventions."""

import dataclasses
import math
from math import log2

import pytest

from ndcg_core import TREC_EVAL, EvaluationOptions, Scoring, evaluate, read_qrels, read_run
from ndcg_core.lists.items import make_items, score
from ndcg_core.lists.scoring import IDEAL_SOURCES, USUAL
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.conventions import CONVENTIONS, WIKIPEDIA
from support import error_of


def test_equal_scorings_are_one_value_and_a_copy_changes_only_what_it_names():
    a = Scoring(gain="custom", gain_table=((3, 9),), discount="jk", base=3, k=5, ideal="pool", ties="best")
    b = Scoring(gain="custom", gain_table=((3.0, 9.0),), discount="jk", base=3.0, k=5, ideal="pool", ties="best")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.gain_table == ((3, 9.0),) and a.base == 3.0  # kept as numbers, whole grades as ints
    # A table reads "3: 9", a half grade as it is; numbers typed as text are read as their numbers.
    typed = Scoring(gain="custom", gain_table=(("3", 9), (2.5, 4)), discount="jk", base=" 3 ")
    assert repr(dict(typed.gain_table)) == "{3: 9.0, 2.5: 4.0}" and typed.gain_function()([2.5]).tolist() == [4]
    assert typed == Scoring(gain="custom", gain_table=((3, 9), (2.5, 4)), discount="jk", base=3)
    assert dataclasses.replace(a, k=3) == dataclasses.replace(b, k=3) != a
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.k = 3  # type: ignore[misc]
    assert Scoring() == USUAL and (USUAL.gain, USUAL.discount, USUAL.ideal, USUAL.k) == ("linear", "log2", "list", None)
    assert Scoring(ideal="pool") == TREC_EVAL


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"gain": "cubic"}, "gain.unknown"),
        ({"gain_table": ((1, math.inf),)}, "number.infinite"),
        ({"gain_table": (("x", 1),)}, "number.not_number"),
        ({"discount": "ln"}, "discount.unknown"),
        ({"base": 1}, "discount.base"),
        ({"base": math.nan}, "number.nan"),
        ({"k": 0}, "k.too_small"),
        ({"k": 2.5}, "k.not_whole"),
        ({"ideal": "qrels"}, "ideal.unknown"),
        ({"ties": "random"}, "ties.unknown"),
        ({"float32_scores": "yes"}, "flag.not_bool"),
    ],
)
def test_a_scoring_is_checked_when_made(fields, code):
    assert error_of(Scoring, **fields).code == code


def test_its_gain_discount_cutoff_and_pool_are_what_its_fields_say():
    custom = Scoring(gain="custom", gain_table=((3, 9), (1, 0.5)), discount="jk", base=3)
    assert custom.gain_function()([3, 2, 1, 0]).tolist() == [9, 2, 0.5, 0]  # a grade left out is worth itself
    assert custom.discount_function()([1, 2, 3, 9]).tolist() == pytest.approx([1, 1, 1, 1 / 2])  # log_3(9) = 2
    assert Scoring(gain="exponential").gain_function()([3]).tolist() == [7]
    assert Scoring(gain="linear", gain_table=((3, 9),)).gain_function()([3]).tolist() == [3]  # kept, unused
    assert (Scoring().takes_base, custom.takes_base) == (False, True)
    assert [Scoring(k=3).cutoff(n) for n in (0, 2, 5)] == [1, 2, 3] and Scoring().cutoff(7) == 7
    assert Scoring().pool([3, 1], [2]) is None and Scoring(ideal="pool").pool([3, 1], [2]) == [3, 1, 2]
    table = Scoring().with_gain_of(3, 9).with_gain_of(1, 0.5).with_gain_of(3, 7).gain_table
    assert table == ((3, 7.0), (1, 0.5))  # in the order grades were first set


def test_one_scoring_scores_a_list_and_a_run_alike():
    # The list 3, 0, 2 with a judged 1 it missed; the run ranks the same documents in the same order.
    scoring = Scoring(gain="exponential", k=3, ideal="pool")
    items, extra = make_items(["a", "b", "c"], [3, 0, 2]), make_items(["x"], [1], first_id=4)
    ideal = 7 + 3 / log2(3) + 1 / log2(4)
    listed = score(items, scoring, extra)
    assert listed.ndcg == pytest.approx((7 + 3 / log2(4)) / ideal, abs=1e-12)
    assert ListSpec(tuple(items), scoring, extra=tuple(extra)).scores() == listed
    qrels = read_qrels(b"q 0 a 3\nq 0 b 0\nq 0 c 2\nq 0 x 1\n")
    run = read_run(b"q Q0 a 1 3 s\nq Q0 b 2 2 s\nq Q0 c 3 1 s\n")
    evaluated = evaluate(qrels, run, EvaluationOptions(scoring, cutoffs=()))
    assert evaluated.cutoffs == (3,) and evaluated.table().loc["q", "ndcg_cut_3"] == pytest.approx(listed.ndcg)


def test_each_convention_is_a_scoring():
    for entry in CONVENTIONS:
        assert isinstance(entry.build().scoring, Scoring), entry.name
    assert CONVENTIONS.build("sklearn").scoring == Scoring(ties="average")
    assert CONVENTIONS.build("burges").scoring == dataclasses.replace(TREC_EVAL, gain="exponential")
    assert CONVENTIONS.build("float32_scores").scoring.float32_scores
    # scikit-learn on Wikipedia's example at k = 5: D2 and D3 tie, so each gets (2 + 3) / 2 at ranks 2 and 3.
    dcg5 = 3 + 2.5 / log2(3) + 2.5 / log2(4) + 0 / log2(5) + 1 / log2(6)
    idcg5 = 3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6)
    assert CONVENTIONS.build("sklearn").score(WIKIPEDIA) == pytest.approx(dcg5 / idcg5, abs=1e-12)


def test_the_ideal_sources_are_the_lists_and_the_pools():
    assert tuple(IDEAL_SOURCES) == ("list", "pool")
