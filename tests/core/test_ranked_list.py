"""The Playground's model: the one move function, orderings, presets, settings and input checks."""

from math import log2

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core import ndcg_at_k
from ndcg_core.errors import InputError, Place
from ndcg_core.lists import items as it
from ndcg_core.lists.items import (
    MAX_ITEMS,
    Item,
    check_grade,
    check_label,
    check_top_grade,
    default_k,
    ideal_order,
    index_of,
    list_breakdown,
    make_items,
    move,
    ndcg_for_every_k,
    score,
    shuffled,
    with_grade,
    without,
    worst_order,
)
from ndcg_core.lists.presets import PRESETS, _docs
from ndcg_core.lists.scoring import Scoring
from support import error_of

grades_lists = st.lists(st.integers(0, 4), min_size=1, max_size=30)


def items_of(grades):
    return make_items([f"doc {i}" for i in range(len(grades))], grades)


def preset_scores(name, **overrides):
    preset = PRESETS.build(name)
    settings = Scoring(k=preset.k, ideal=preset.ideal, **overrides)
    return score(preset.items(), settings, preset.extra_items())


@given(grades_lists, st.data())
def test_move_is_a_permutation_and_moving_back_undoes_it(grades, data):
    items = items_of(grades)
    source = data.draw(st.integers(0, len(items) - 1))
    target = data.draw(st.integers(0, len(items) - 1))
    moved = move(items, source, target)
    assert sorted(it.id for it in moved) == sorted(it.id for it in items)
    assert moved[target] == items[source]
    assert move(moved, target, source) == items


def test_move_down_and_up_shift_the_items_between():
    items = items_of([4, 2, 0, 3])
    assert [it.grade for it in move(items, 3, 1)] == [4, 3, 2, 0]
    assert [it.grade for it in move(items, 0, 2)] == [2, 0, 4, 3]


@pytest.mark.parametrize("source, target", [(-1, 0), (0, 4), (1.5, 0), (True, 0), ("1", 0)])
def test_move_rejects_positions_outside_the_list(source, target):
    with pytest.raises(ValueError, match="the list has positions 1 to 4"):
        move(items_of([1, 2, 3, 4]), source, target)


@given(grades_lists)
def test_ideal_order_scores_one_and_worst_order_scores_least(grades):
    items = items_of(grades)
    settings = Scoring()
    if sum(grades) == 0:
        assert score(ideal_order(items), settings).ndcg == 0.0
        return
    assert score(ideal_order(items), settings).ndcg == pytest.approx(1.0, abs=1e-12)
    worst = score(worst_order(items), settings).ndcg
    assert worst <= score(items, settings).ndcg + 1e-12
    assert worst <= score(shuffled(items, seed=7), settings).ndcg + 1e-12


def test_ideal_order_follows_the_gain_not_the_grade():
    items = items_of([1, 2, 3])
    custom = {1: 10, 2: 1, 3: 5}  # grade 1 is worth most
    assert [it.grade for it in ideal_order(items, custom)] == [1, 3, 2]


def test_ideal_order_keeps_tied_items_in_their_current_order():
    items = make_items(["a", "b", "c", "d"], [2, 3, 2, 3])
    assert [it.label for it in ideal_order(items)] == ["b", "d", "a", "c"]


def test_shuffled_is_fixed_by_its_seed():
    items = items_of(list(range(5)) * 4)
    assert shuffled(items, 3) == shuffled(items, 3)
    assert shuffled(items, 3) != shuffled(items, 4)


def test_regrading_and_removing_keep_the_other_items():
    items = items_of([3, 0, 2])
    assert [it.grade for it in with_grade(items, items[1].id, 4)] == [3, 4, 2]
    assert [it.id for it in without(items, items[0].id)] == [items[1].id, items[2].id]
    with pytest.raises(ValueError, match="no item has id 99"):
        index_of(items, 99)


# --- presets are the seeds' worked examples ----------------------------------------------------


def test_lesson_preset_is_the_hand_check():
    assert preset_scores("lesson").dcg == 3 + 0 + 2 / log2(4) == 4.0


def test_five_results_preset_scores_about_0_972():
    assert round(preset_scores("five").ndcg, 3) == 0.972  # seed 002 quotes "about 0.972"


def test_chengdu_presets_match_the_notes_rounded_figures():
    trip, food = preset_scores("chengdu_trip"), preset_scores("chengdu_food")
    # The note rounds each term to two decimals, so its totals are only close to the exact ones.
    assert (trip.dcg, trip.idcg) == (pytest.approx(6.85, abs=0.005), pytest.approx(7.32, abs=0.005))
    assert (food.dcg, food.idcg) == (pytest.approx(7.85, abs=0.005), pytest.approx(8.45, abs=0.005))
    assert PRESETS.build("chengdu_food").labels[0] == "成都火锅大全"


def test_wikipedia_preset_against_the_pool_and_against_the_list():
    assert round(preset_scores("wikipedia").ndcg, 3) == 0.785
    preset = PRESETS.build("wikipedia")
    assert round(score(preset.items(), Scoring(k=6, ideal="list")).ndcg, 3) == 0.961


def test_doc_xyzw_preset_improves_when_w_and_z_swap():
    preset = PRESETS.build("doc_xyzw")
    items, settings = preset.items(), Scoring(k=preset.k)
    assert score(move(items, 3, 2), settings).ndcg > score(items, settings).ndcg


def test_all_zero_and_long_presets():
    assert preset_scores("all_zero").ndcg == 0.0
    long = PRESETS.build("long")
    assert len(long.items()) == 50 and long.k == 10
    assert 0.0 < preset_scores("long").ndcg < 1.0


@pytest.mark.parametrize("name", PRESETS.names())
def test_every_preset_loads_with_grades_on_its_scale(name):
    preset = PRESETS.build(name)
    assert 1 <= len(preset.items()) <= MAX_ITEMS
    assert max(preset.grades + tuple(g for _, g in preset.extra)) <= preset.top_grade
    assert PRESETS[name].description


# --- settings ----------------------------------------------------------------------------------


def test_cutoff_is_clamped_to_the_list_and_defaults_to_min_10_n():
    assert Scoring(k=8).cutoff(5) == 5
    assert Scoring(k=None).cutoff(7) == 7
    assert (default_k(3), default_k(50)) == (3, 10)
    with pytest.raises(ValueError, match="k must be at least 1"):
        Scoring(k=0).cutoff(5)


def test_score_with_exponential_gain_and_jk_discount_is_written_out():
    items = items_of([3, 0, 2])
    expo = score(items, Scoring(k=3, gain="exponential"))
    assert expo.dcg == pytest.approx(7 + 0 + 3 / log2(4), abs=1e-12)
    jk = score(items, Scoring(k=3, discount="jk", base=3))
    assert jk.dcg == pytest.approx(3 + 0 + 2 / 1, abs=1e-12)  # ranks 1-2 undiscounted, rank 3 by log_3(3) = 1
    custom = score(items, Scoring(k=3, gain="custom", gain_table=((3, 9), (2, 5))))
    assert custom.dcg == pytest.approx(9 + 5 / log2(4), abs=1e-12)


def test_pool_settings_use_the_extra_items_for_the_ideal():
    items = items_of([3, 2, 3, 0, 1, 2])
    extra = tuple(make_items(["D7", "D8"], [3, 2], first_id=7))
    pooled = score(items, Scoring(k=6, ideal="pool"), extra)
    assert pooled.ndcg == ndcg_at_k([3, 2, 3, 0, 1, 2], 6, pool=[3, 2, 3, 0, 1, 2, 3, 2])
    assert pooled.idcg == pytest.approx(3 + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 2 / log2(6) + 2 / log2(7))
    with pytest.raises(InputError, match="unknown ideal 'judges'; choose one of list, pool"):
        Scoring(ideal="judges")


def test_breakdown_and_every_k_come_from_the_core():
    items = items_of([3, 2, 3, 0, 1])
    frame = list_breakdown(items, Scoring(k=3))
    assert list(frame["item"]) == [it.label for it in items]
    assert list(frame["in_top_k"]) == [True, True, True, False, False]
    every = ndcg_for_every_k(items, Scoring())
    assert every[-1] == pytest.approx(ndcg_at_k([3, 2, 3, 0, 1], 5))


# --- input checks ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, code, message",
    [
        ("", "number.blank", "row 2, grade is blank"),
        ("abc", "number.not_number", "row 2, grade is 'abc': not a number"),
        ("-1", "grade.negative", "cannot be negative"),
        ("5", "grade.above_top", "the top grade is 4"),
        ("nan", "number.nan", "NaN"),
        (None, "number.not_number", "not a number"),
        (True, "number.bool", "not true or false"),
    ],
)
def test_check_grade_names_the_problem(value, code, message):
    with pytest.raises(InputError, match=message) as raised:
        check_grade(value, 4, Place("table.grade", row=2))
    assert raised.value.code == code


def test_check_grade_accepts_fractions_up_to_the_top():
    assert check_grade(" 2.5 ", 4, Place("new.grade")) == 2.5


def test_check_label_keeps_html_as_text_and_rejects_blank_or_long():
    assert check_label("  <script>alert(1)</script> ", Place("table.label", row=1)) == "<script>alert(1)</script>"
    with pytest.raises(InputError, match="blank"):
        check_label("   ", Place("table.label", row=1))
    with pytest.raises(InputError, match="at most 60"):
        check_label("x" * 61, Place("table.label", row=1))


@pytest.mark.parametrize("value", [0, 11, 2.5, "x"])
def test_check_top_grade_is_one_to_ten(value):
    with pytest.raises(ValueError):
        check_top_grade(value)


def test_items_are_immutable_values():
    item = Item(1, "a", 2.0)
    with pytest.raises(AttributeError):
        item.grade = 3  # type: ignore[misc]


def test_the_breakdowns_running_ndcg_is_ndcg_at_every_k():
    # The Playground draws NDCG@k for every k from the breakdown's ndcg column; both are checked against
    # the values written out (the list 3, 0, 0, 3, 1 in this order).
    items = items_of([3, 0, 0, 3, 1])
    # Linear gain, ideal from the list (3, 3, 1, 0, 0).
    dcg = [3, 3, 3, 3 + 3 / log2(5), 3 + 3 / log2(5) + 1 / log2(6)]
    ideal = [3, 3 + 3 / log2(3), 3 + 3 / log2(3) + 1 / log2(4)] + [3 + 3 / log2(3) + 1 / log2(4)] * 2
    linear = [d / i for d, i in zip(dcg, ideal, strict=False)]
    # Exponential gain (7, 0, 0, 7, 1), ideal from the pool with an extra item of grade 4 (15, 7, 7, 1, 0).
    dcg = [7, 7, 7, 7 + 7 / log2(5), 7 + 7 / log2(5) + 1 / log2(6)]
    ideal = [15, 15 + 7 / log2(3), 15 + 7 / log2(3) + 7 / log2(4), 15 + 7 / log2(3) + 7 / log2(4) + 1 / log2(5)]
    ideal.append(ideal[-1])
    pooled = [d / i for d, i in zip(dcg, ideal, strict=False)]
    # Järvelin-Kekäläinen with b = 3: ranks 1 and 2 undiscounted, then 1 / log_3(i); ideal from the list.
    dcg = [3, 3, 3, 3 + 3 / (log2(4) / log2(3)), 3 + 3 / (log2(4) / log2(3)) + 1 / (log2(5) / log2(3))]
    ideal = [3, 6, 6 + 1 / 1, 7, 7]
    jk = [d / i for d, i in zip(dcg, ideal, strict=False)]
    extra = tuple(make_items(["x"], [4], first_id=9))
    for settings, expected in (
        (Scoring(k=2), linear),
        (Scoring(k=4, gain="exponential", ideal="pool"), pooled),
        (Scoring(k=5, discount="jk", base=3), jk),
    ):
        assert list(list_breakdown(items, settings, extra)["ndcg"]) == pytest.approx(expected, abs=1e-12)
        assert ndcg_for_every_k(items, settings, extra) == pytest.approx(expected, abs=1e-12)


# --- items: making, moving, swapping, scoring under settings --------------------------------------------------------


def labels(items):
    return [x.label for x in items]


ABCD = make_items(["a", "b", "c", "d"], [3, 0, 2, 1])


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
    assert Scoring().cutoff(0) == 1 and Scoring().cutoff(1) == 1 and Scoring().cutoff(7) == 7
    assert Scoring(k=1).cutoff(5) == 1 and Scoring(k=5).cutoff(1) == 1 and Scoring(k=5).cutoff(0) == 1
    assert Scoring(k=3).cutoff(5) == 3
    assert [it.default_k(n) for n in (0, 1, 7, 10, 15)] == [1, 1, 7, 10, 10]


def test_score_uses_k_and_the_settings_gain():
    # 3, 0, 2, 1 at k = 2 with 2^g - 1: DCG 7 + 0, ideal 7 + 3 / log2(3).
    scores = it.score(ABCD, Scoring(k=2, gain="exponential"))
    ideal = 7 + 3 / log2(3)
    assert scores.k == 2 and scores.dcg == 7.0
    assert scores.idcg == pytest.approx(ideal, abs=1e-12) and scores.ndcg == pytest.approx(7 / ideal, abs=1e-12)


def test_every_move_and_swap_of_a_list_under_its_settings():
    items = make_items(["a", "b", "c"], [0, 1, 2])
    settings = Scoring(k=1, gain="exponential")  # NDCG@1: the top gain over 2^2 - 1 = 3
    moves = it.ndcg_after_each_move(items, settings)
    # Moving the item at i to the top puts its gain there; moving a down lifts b to the top; others keep a there.
    assert moves.tolist() == [[0, 1 / 3, 1 / 3], [1 / 3, 0, 0], [1, 0, 0]]
    swaps = it.ndcg_after_each_swap(items, settings)
    assert swaps.tolist() == [[0, 1 / 3, 1], [1 / 3, 0, 0], [1, 0, 0]]
    pool, extra = Scoring(k=1, ideal="pool"), (Item(9, "z", 4),)  # the ideal top is 4 now
    assert it.ndcg_after_each_swap(items, pool, extra)[0].tolist() == [0, 1 / 4, 2 / 4]
    assert it.ndcg_after_each_move(items, pool, extra)[2].tolist() == [2 / 4, 0, 0]
    jk = Scoring(k=3, discount="jk", base=3.0)  # ranks 1 and 2 in full, rank 3 divided by log_3(3) = 1
    assert np.allclose(it.ndcg_after_each_swap(items, jk), 1.0) and np.allclose(it.ndcg_after_each_move(items, jk), 1.0)


# --- presets: labels and the ids of extra items ---------------------------------------------------------------------


def test_preset_labels_and_the_ids_of_extra_items():
    assert PRESETS.build("lesson").labels == ("doc A", "doc B", "doc C")
    wikipedia = PRESETS.build("wikipedia")
    assert [(x.id, x.label, x.grade) for x in wikipedia.extra_items()] == [(7, "D7", 3.0), (8, "D8", 2.0)]
    assert _docs(26)[-1] == "doc Z"
    assert _docs(27)[:2] == ("doc 1", "doc 2") and _docs(27)[-1] == "doc 27"
