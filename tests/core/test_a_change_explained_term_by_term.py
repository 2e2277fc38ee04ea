"""A change of one list explained term by term (ndcg_core.lists.changes.explain_change): expected values are written
from the formula on the seeds' examples, never by calling the function under test."""

from math import log2

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.lists.changes import explain_change
from ndcg_core.lists.items import move
from ndcg_core.lists.spec import ListSpec

# The seeds' list 3, 2, 3, 0, 1 (labels A..E), NDCG@5 with linear gain and the log2 discount.
SEED = ListSpec.from_grades(list("ABCDE"), [3, 2, 3, 0, 1], 5)
SEED_DCG = 3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6)
SEED_IDCG = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)


def test_moving_the_zero_to_the_top_explains_every_term():
    # D (grade 0) from 4 to 1: A, B, C each move down one place; E stays at 5.
    after = SEED.with_items(move(SEED.items, 3, 0))
    change = explain_change(SEED, after)
    new_dcg = 0 + 3 / log2(3) + 2 / 2 + 3 / log2(5) + 1 / log2(6)
    assert change.dcg == pytest.approx((SEED_DCG, new_dcg), rel=1e-15)
    assert change.idcg == pytest.approx((SEED_IDCG, SEED_IDCG), rel=1e-15)
    assert change.ndcg == pytest.approx((SEED_DCG / SEED_IDCG, new_dcg / SEED_IDCG), rel=1e-15)
    assert [t.position for t in change.terms] == [1, 2, 3, 4, 5]
    assert [t.item_before.label for t in change.terms] == list("ABCDE")
    assert [t.item_after.label for t in change.terms] == list("DABCE")
    assert [t.before for t in change.terms] == pytest.approx([3, 2 / log2(3), 3 / 2, 0, 1 / log2(6)], rel=1e-15)
    assert [t.after for t in change.terms] == pytest.approx([0, 3 / log2(3), 2 / 2, 3 / log2(5), 1 / log2(6)])
    assert [t.discount_after for t in change.terms] == pytest.approx([1 / log2(p + 1) for p in range(1, 6)])
    assert [t.gain_after for t in change.terms] == [0, 3, 2, 3, 1]
    assert [t.position for t in change.changed_terms] == [1, 2, 3, 4]  # E's term did not move
    # The ideal did not move: the whole change is the list's.
    assert change.from_list == pytest.approx((new_dcg - SEED_DCG) / SEED_IDCG, rel=1e-14)
    assert change.from_ideal == pytest.approx(0, abs=1e-15)
    assert not change.ideal_moved
    # Item by item: A, B, C each one place down (D's gain is 0, so its move changes no term).
    moved = {m.item.label: m for m in change.items_moved()}
    assert sorted(moved) == ["A", "B", "C"]
    assert (moved["A"].position_before, moved["A"].position_after) == (1, 2)
    assert moved["A"].change == pytest.approx(3 / log2(3) - 3, rel=1e-14)
    assert moved["C"].change == pytest.approx(3 / log2(5) - 3 / 2, rel=1e-14)
    assert change.change == pytest.approx((new_dcg - SEED_DCG) / SEED_IDCG, rel=1e-14)


def test_a_smaller_k_cuts_terms_on_the_list_and_on_the_ideal():
    after = SEED.with_k(3)
    change = explain_change(SEED, after)
    dcg3 = 3 + 2 / log2(3) + 3 / 2
    idcg3 = 3 + 3 / log2(3) + 2 / 2
    assert change.dcg == pytest.approx((SEED_DCG, dcg3), rel=1e-15)
    assert change.idcg == pytest.approx((SEED_IDCG, idcg3), rel=1e-15)
    # Five terms (max of the two k), the last two 0 after the cut.
    assert [t.after for t in change.terms] == pytest.approx([3, 2 / log2(3), 3 / 2, 0, 0], rel=1e-15)
    assert [t.item_after.label for t in change.terms] == list("ABCDE")  # the items are still there, past the cut
    assert change.from_list == pytest.approx((dcg3 - SEED_DCG) / idcg3, rel=1e-14)
    assert change.from_ideal == pytest.approx(dcg3 / idcg3 - SEED_DCG / SEED_IDCG - (dcg3 - SEED_DCG) / idcg3)


def test_a_grade_edited_moves_the_term_and_the_ideal():
    # E's grade 1 -> 4: its term 1/log2(6) becomes 4/log2(6); the ideal becomes 4, 3, 3, 2, 0.
    before = ListSpec.from_grades(list("ABCDE"), [3, 2, 3, 0, 1], 5, top=4)
    after = ListSpec.from_grades(list("ABCDE"), [3, 2, 3, 0, 4], 5, top=4)
    change = explain_change(before, after)
    new_dcg = SEED_DCG - 1 / log2(6) + 4 / log2(6)
    new_idcg = 4 + 3 / log2(3) + 3 / 2 + 2 / log2(5)
    assert change.terms[4].before == pytest.approx(1 / log2(6), rel=1e-15)
    assert change.terms[4].after == pytest.approx(4 / log2(6), rel=1e-15)
    assert [t.position for t in change.changed_terms] == [5]
    assert change.from_list == pytest.approx((new_dcg - SEED_DCG) / new_idcg, rel=1e-14)
    assert change.from_ideal == pytest.approx(SEED_DCG / new_idcg - SEED_DCG / SEED_IDCG, rel=1e-12)


def test_the_exponential_gain_changes_each_gain():
    # 成都's list from the seeds: 4, 2, 0, 1, 3.
    chengdu = ListSpec.from_grades(["攻略", "美食", "北京", "7天", "住宿"], [4, 2, 0, 1, 3], 5)
    change = explain_change(chengdu, chengdu.with_scoring(gain="exponential"))
    assert [t.gain_before for t in change.terms] == [4, 2, 0, 1, 3]
    assert [t.gain_after for t in change.terms] == [2**4 - 1, 2**2 - 1, 0, 2**1 - 1, 2**3 - 1]
    linear = 4 + 2 / log2(3) + 1 / log2(5) + 3 / log2(6)
    exponential = 15 + 3 / log2(3) + 1 / log2(5) + 7 / log2(6)
    assert change.dcg == pytest.approx((linear, exponential), rel=1e-15)
    assert change.ndcg[1] == pytest.approx(exponential / (15 + 7 / log2(3) + 3 / 2 + 1 / log2(5)), rel=1e-14)


def test_the_ideal_from_the_pool_is_all_ideal():
    # The same list, its ideal now counting a judged 4 it did not retrieve: DCG does not move, IDCG does.
    pooled = ListSpec.from_grades(list("ABCDE"), [3, 2, 3, 0, 1], 5, pool=[4])
    own = pooled.with_scoring(ideal="list")
    change = explain_change(own, pooled)
    assert change.dcg == pytest.approx((SEED_DCG, SEED_DCG), rel=1e-15)
    assert change.idcg[1] == pytest.approx(4 + 3 / log2(3) + 3 / 2 + 2 / log2(5) + 1 / log2(6), rel=1e-15)
    assert change.from_list == 0
    assert change.changed_terms == ()
    assert change.from_ideal == pytest.approx(change.change, rel=1e-15)


def test_a_list_of_zeros_has_no_ideal_and_no_share():
    zeros = ListSpec.from_grades(list("AB"), [0, 0], 2)
    change = explain_change(zeros, zeros.with_items(move(zeros.items, 1, 0)))
    assert change.ndcg == (0.0, 0.0)
    assert change.from_list == 0.0
    assert change.from_ideal == 0.0


lists = st.lists(st.integers(0, 4), min_size=1, max_size=8)


@given(lists, st.data())
def test_the_terms_add_up_to_dcg_and_the_two_parts_to_the_change(grades, data):
    n = len(grades)
    before = ListSpec.from_grades([f"i{i}" for i in range(n)], grades, data.draw(st.integers(1, n)))
    order = data.draw(st.permutations(range(n)))
    after = before.reordered(order).with_scoring(
        k=data.draw(st.integers(1, n)),
        gain=data.draw(st.sampled_from(["linear", "exponential"])),
        discount=data.draw(st.sampled_from(["log2", "jk"])),
    )
    change = explain_change(before, after)
    assert len(change.terms) == max(before.k, after.k)
    assert sum(t.before for t in change.terms) == pytest.approx(change.dcg[0], rel=1e-12, abs=1e-12)
    assert sum(t.after for t in change.terms) == pytest.approx(change.dcg[1], rel=1e-12, abs=1e-12)
    assert change.from_list + change.from_ideal == pytest.approx(change.ndcg[1] - change.ndcg[0], abs=1e-15)
    assert change.ndcg == (before.ndcg(), after.ndcg())
