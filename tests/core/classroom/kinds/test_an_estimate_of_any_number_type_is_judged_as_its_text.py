"""An estimate of NDCG@k is judged the same whatever number type brings it (a ``Decimal``, a numpy float from a
table: not the ``str``, ``int`` or ``float`` the store gives, so judged afresh, not from the memo): right to two
decimals, close within 0.05, a named mistake, or other; the true NDCG@k given by a caller that has it is not worked
out again. An estimate is kept as typed up to ``MAX_TYPED`` characters, and its distance from the truth is shown to
one decimal more than it was typed with (``MOST_PLACES`` at most).

The list: grades 0 1 0 1 at k = 3, with one judged result of grade 1 the list missed (the ideal includes it), so
DCG@3 = 1/log2(3) and the ideal's DCG@3 = 1 + 1/log2(3) + 1/log2(4)."""

from decimal import Decimal
from math import log2

import numpy as np
import pytest

from ndcg_core.classroom.kinds import tally
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import MAX_TYPED, MOST_PLACES, Estimate, Predict
from ndcg_core.lists.spec import ListSpec

SPEC = activity_list(("a", "b", "c", "d"), (0, 1, 0, 1), 3, pool=(1,))
DCG = 1 / log2(3)
TRUTH = DCG / (1 + 1 / log2(3) + 1 / log2(4))  # 0.2961
NO_NORMALISATION = DCG  # 0.6309: the DCG, divided by nothing


@pytest.fixture(autouse=True)
def fresh_memo():
    tally._judged.cache_clear()  # every estimate judged here, none remembered from another test
    yield
    tally._judged.cache_clear()


@pytest.mark.parametrize("number", [Decimal, np.float32], ids=["Decimal", "float32"])
@pytest.mark.parametrize(
    ("typed", "group"),
    [
        (f"{TRUTH:.2f}", "right"),  # 0.30: the truth to two decimals
        ("0.3", "right"),
        ("0.33", "close"),  # within 0.05, not the truth to two decimals
        (f"{NO_NORMALISATION:.2f}", "no_normalisation"),  # 0.63
        ("0.8", "other"),
    ],
)
def test_an_estimate_of_another_number_type_gets_the_verdict_of_its_text(number, typed, group):
    guess = number(typed)
    assert not isinstance(guess, (str, int, float))  # the path past the memo
    for truth in (None, TRUTH):
        verdict = tally.estimate_verdict(SPEC, guess, truth)
        assert verdict.group == group
        assert [d.code for d in verdict.found] == ([] if group in ("right", "close", "other") else [group])


def test_one_decimal_short_of_two_is_close_not_right_whatever_the_number_type():
    # 0.9 is 0.9386 to one decimal and within 0.05, but not the truth to two decimals: close.
    spec = activity_list(("a", "b", "c"), (3, 0, 2), 3)  # NDCG@3 = (3 + 2/2) / (3 + 2/log2(3)) = 0.9386
    assert spec.ndcg() == pytest.approx(4 / (3 + 2 / log2(3)))
    assert [tally.estimate_verdict(spec, Decimal(x)).group for x in ("0.9", "0.94")] == ["close", "right"]
    assert tally.estimate_verdict(spec, Decimal("0.9"), spec.ndcg()).group == "close"


def test_the_truth_a_caller_gives_is_not_worked_out_again(monkeypatch):
    calls = []
    ndcg = ListSpec.ndcg

    def counted(self, *args, **kwargs):
        calls.append(self)
        return ndcg(self, *args, **kwargs)

    monkeypatch.setattr(ListSpec, "ndcg", counted)
    guess = Decimal(f"{NO_NORMALISATION:.2f}")
    tally.estimate_verdict(SPEC, guess, TRUTH)
    given = len(calls)
    calls.clear()
    tally.estimate_verdict(SPEC, guess)
    assert len(calls) == given + 1  # only the call without the truth works it out
    calls.clear()
    groups = tally.estimate_groups(SPEC, [Decimal("0.3"), Decimal("0.33"), guess, Decimal("0.8")])
    assert [g.code for g in groups] == ["right", "close", "no_normalisation", "other"]
    alone = len(calls)
    calls.clear()
    tally.estimate_groups(SPEC, [guess])
    assert alone - len(calls) == given * 3  # three more estimates: the truth once for all four


def test_an_estimate_is_kept_as_typed_up_to_max_typed_characters():
    longest = "0." + "7" * (MAX_TYPED - 2)
    assert len(longest) == MAX_TYPED
    assert Estimate.read(longest).typed == longest
    assert Estimate.read(longest + "7").typed == repr(float(longest + "7"))  # one more: its shortest form


@pytest.mark.parametrize(
    ("typed", "places"),
    [("0.3", 3), ("0.30", 3), ("0.301", 4), ("0.3012", 5), ("0.30123", MOST_PLACES), ("0.301234", MOST_PLACES)],
)
def test_a_distance_is_shown_to_one_decimal_more_than_the_estimate_was_typed_with(typed, places):
    assert MOST_PLACES == 5
    detail = Predict(SPEC).result(Estimate.read(typed)).detail
    assert detail.places == places
    assert detail.off == pytest.approx(abs(float(typed) - TRUTH))
