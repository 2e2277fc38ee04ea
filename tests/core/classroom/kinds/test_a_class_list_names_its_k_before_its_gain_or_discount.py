"""A class list with more than one thing wrong names the first in the order it is read: the list itself (labels
and grades, their count, the judged pool), then its cutoff k against the list's length, and only then the gain and
the discount it is scored under. A teacher who typed k = 3 for two results and an unknown gain is told about k."""

import pytest

from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.errors import InputError, Place

LABELS, GRADES = ("a", "b"), (1, 0)


@pytest.mark.parametrize("scored", [{"gain": "log"}, {"discount": "log10"}], ids=["gain", "discount"])
def test_a_k_longer_than_the_list_is_named_before_an_unknown_way_of_scoring(scored):
    with pytest.raises(InputError) as caught:
        activity_list(LABELS, GRADES, len(GRADES) + 1, **scored)
    assert (caught.value.code, caught.value.fields) == (
        "k.too_large",
        {"place": Place("k"), "value": str(len(GRADES) + 1), "limit": len(GRADES)},
    )


@pytest.mark.parametrize("scored", [{"gain": "log"}, {"discount": "log10"}], ids=["gain", "discount"])
def test_a_k_below_one_is_named_before_an_unknown_way_of_scoring(scored):
    with pytest.raises(InputError) as caught:
        activity_list(LABELS, GRADES, 0, **scored)
    assert caught.value.code == "k.too_small"


def test_with_k_right_the_unknown_gain_is_named():
    with pytest.raises(InputError) as caught:
        activity_list(LABELS, GRADES, len(GRADES), gain="log")
    assert caught.value.code == "activity.gain"
