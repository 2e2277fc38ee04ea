"""A Which-is-right? activity shows its options with the fewest of 2, 3 or 4 decimals that tell them apart; two
options alike to three decimals are shown with four (the most: a mistake whose number is the right one's, or
another option's, to four decimals is refused when the activity is made).

The list: grades 3, 0, 2, 1, 1, 2 at k = 5. With no discount NDCG@5 is the gains summed over the ideal's,
(3 + 0 + 2 + 1 + 1) / (3 + 2 + 2 + 1 + 1) = 7/9 = 0.77778; with the log2(i + 2) discount it is 0.77764: both
0.778 to three decimals."""

from math import log2

import pytest

from ndcg_core.classroom.kinds.choose import choose_activity
from ndcg_core.classroom.kinds.lists import activity_list

SPEC = activity_list(("a", "b", "c", "d", "e", "f"), (3, 0, 2, 1, 1, 2), 5)
NO_DISCOUNT = 7 / 9
SHIFTED = (3 / log2(3) + 2 / log2(5) + 1 / log2(6) + 1 / log2(7)) / (
    3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6) + 1 / log2(7)
)


def test_the_two_numbers_are_alike_to_three_decimals_only():
    assert f"{NO_DISCOUNT:.3f}" == f"{SHIFTED:.3f}" == "0.778"
    assert (f"{NO_DISCOUNT:.4f}", f"{SHIFTED:.4f}") == ("0.7778", "0.7776")


def test_options_alike_to_three_decimals_are_shown_with_four():
    choose = choose_activity(SPEC, ["no_discount", "discount_shifted", "list_not_cut"])
    numbers = {o.mistake: o.number for o in choose.options()}
    assert numbers["no_discount"] == pytest.approx(NO_DISCOUNT)
    assert numbers["discount_shifted"] == pytest.approx(SHIFTED)
    assert choose.decimals() == 4
    shown = {o.mistake: choose.shown(o) for o in choose.options()}
    assert (shown["no_discount"], shown["discount_shifted"]) == ("0.7778", "0.7776")
    assert all(len(text.split(".")[1]) == 4 for text in shown.values())


def test_without_the_shifted_discount_three_decimals_are_not_needed():
    choose = choose_activity(SPEC, ["no_discount", "list_not_cut"])
    assert choose.decimals() == 2
