"""``ndcg_core.lists.spec.ListSpec``: one value for a ranked list and how it is scored: its checks, its copies,
its scores (the core's functions, by formula) and its link codec (round trip, links made before the value
existed, and every ``link.*`` code from a real bad link)."""

import base64
import dataclasses
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core import IDEALS, breakdown, dcg, idcg, ndcg_at_k
from ndcg_core.errors import MESSAGES, InputError, Place, english
from ndcg_core.lists.items import Item, make_items
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import LIST_IDEALS, MAX_LINK_LENGTH, ListSpec, link_number
from support import error_of


def log2(x):
    return math.log(x, 2)


def spec_of(grades, k=None, labels=None, top=4, extra=(), query="", **scoring):
    labels = labels or [f"d{i}" for i in range(1, len(grades) + 1)]
    items = tuple(make_items(labels, grades))
    return ListSpec(items, Scoring(k=len(grades) if k is None else k, **scoring), top, extra, query)


def code_of(call, *args, **kwargs):
    with pytest.raises(InputError) as caught:
        call(*args, **kwargs)
    return caught.value.code


# --- the value: its fields and checks ------------------------------------------------------------


def test_the_list_ideals_are_not_the_evaluations():
    assert LIST_IDEALS == ("list", "pool")
    assert set(LIST_IDEALS).isdisjoint(IDEALS)  # the evaluation's ideal sources are "qrels" and "run"


def test_a_spec_keeps_its_sequences_as_tuples_so_it_is_frozen_and_hashable():
    spec = ListSpec(make_items(["a", "b"], [1, 0]), Scoring(k=2, gain_table=[(1, 3.0)]), extra=[Item(3, "c", 2)])
    assert isinstance(spec.items, tuple) and isinstance(spec.extra, tuple) and spec.scoring.gain_table == ((1, 3.0),)
    same = ListSpec(
        tuple(make_items(["a", "b"], [1, 0])), Scoring(k=2, gain_table=((1.0, 3),)), extra=(Item(3, "c", 2),)
    )
    assert spec == same and hash(spec) == hash(same)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.scoring = Scoring()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.scoring.k = 1  # type: ignore[misc]


def test_a_spec_without_k_is_cut_at_its_end():
    assert ListSpec(tuple(make_items(["a", "b", "c"], [1, 0, 2]))).scoring == Scoring(k=3)


@pytest.mark.parametrize(
    "make, code",
    [
        (lambda: ListSpec((), Scoring(k=1)), "list.empty"),
        (lambda: spec_of([1] * 101, 1), "list.too_long"),
        (lambda: spec_of([1], extra=tuple(make_items(["x"] * 101, [0] * 101, first_id=2))), "list.too_long"),
        (lambda: spec_of([1, 2], k=0), "k.too_small"),
        (lambda: spec_of([1, 2], k=3), "k.too_large"),
        (lambda: spec_of([1, 2], k=1.5), "k.not_whole"),
        (lambda: spec_of([1, 2], top=0), "k.too_small"),
        (lambda: spec_of([1, 2], top=2.5), "k.not_whole"),
        (lambda: spec_of([1, 5], top=4), "grade.above_top"),
        (lambda: spec_of([1, -1]), "grade.negative"),
        (lambda: spec_of([1], extra=(Item(2, "x", 5),), top=4), "grade.above_top"),
        (lambda: spec_of([1], gain="cubic"), "gain.unknown"),
        (lambda: spec_of([1], gain_table=((11, 1.0),)), "k.too_large"),
        (lambda: spec_of([1], gain_table=((1, math.inf),)), "number.infinite"),
        (lambda: spec_of([1], discount="ln"), "discount.unknown"),
        (lambda: spec_of([1], base=1.0), "discount.base"),
        (lambda: spec_of([1], ideal="qrels"), "ideal.unknown"),
    ],
)
def test_a_spec_is_checked_when_made(make, code):
    assert code_of(make) == code


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: spec_of([1, 2], top=0), "the top grade must be at least 1, got 0"),
        (
            lambda: spec_of([1], extra=(Item(2, "x", 1), Item(3, "y", 5)), top=4),
            "unretrieved row 2, grade is 5: the top grade is 4",
        ),
        (lambda: spec_of([1, 2], k=3), "k must be at most 2, got 3"),
        (lambda: spec_of([1], gain="cubic"), "unknown gain 'cubic'; choose one of linear, exponential, custom"),
        (lambda: spec_of([1], gain_table=((11, 1.0),)), "a grade in the custom gain must be at most 10, got 11"),
        (lambda: spec_of([1], gain_table=((1, math.inf),)), "the gain of grade 1 is inf: enter a finite number"),
        (lambda: spec_of([1], discount="ln"), "unknown discount 'ln'; choose one of log2, jk"),
        (lambda: spec_of([1], base=math.nan), "the discount base b is NaN: enter a number"),
        (lambda: spec_of([1], base=1.0), "the discount base b must be greater than 1, got 1.0"),
        (lambda: ListSpec.from_grades([], [], 1), "the list cannot be empty: keep at least one item"),
        (lambda: ListSpec.from_grades(["a"], [math.inf], 1), "the grades is inf: enter a finite number"),
        (lambda: spec_of([1], ideal="qrels"), "unknown ideal 'qrels'; choose one of list, pool"),
    ],
    ids=[
        "top",
        "extra_row",
        "k",
        "gain",
        "gain_grade",
        "gain_of",
        "discount",
        "base_nan",
        "base",
        "empty",
        "inf",
        "ideal",
    ],
)
def test_a_bad_spec_is_worded_with_its_place_and_every_field(make, message):
    with pytest.raises(InputError) as caught:
        make()
    assert str(caught.value) == message


def test_from_grades_keeps_every_scoring_setting_it_is_given():
    scoring = Scoring(gain="custom", gain_table=((2, 5.0),), discount="jk", base=3.0, ties="best")
    spec = ListSpec.from_grades(["a", "b"], [2, 1], 2, scoring=scoring)
    assert spec.scoring == dataclasses.replace(scoring, k=2) and spec.query == ""


def test_a_grade_above_the_top_is_named_by_its_position():
    with pytest.raises(InputError) as caught:
        spec_of([1, 2, 5], top=4)
    assert caught.value.fields["place"] == Place("list.grade", position=3)


def test_a_lists_scale_may_go_beyond_the_playgrounds_which_a_link_refuses():
    # A class list or a TREC query may grade above validate.MAX_TOP_GRADE; the Playground's box and links stop there.
    spec = spec_of([1000, 3], top=1000)
    assert spec.top == 1000 and spec.ndcg() == 1.0
    assert ListSpec.from_grades(["a"], [1000.5], 1).top == 1001  # the smallest whole top grade that holds it
    assert code_of(
        ListSpec.from_link, dataclasses.replace(spec, top=11, items=spec.items[1:], scoring=Scoring(k=1)).to_link()
    ) == ("top_grade.range")


def test_k_and_the_top_grade_are_kept_as_whole_numbers():
    spec = spec_of([1, 2], k=2.0, top=3.0)
    assert (spec.k, spec.top) == (2, 3) and isinstance(spec.k, int) and isinstance(spec.top, int)


# --- copies ------------------------------------------------------------------------------------------


def test_with_items_keeps_the_scoring_and_clamps_k_to_a_shorter_list():
    spec = spec_of([3, 2, 1, 0], k=4, gain="exponential", discount="jk", base=3.0, ideal="pool")
    shorter = spec.with_items(spec.items[:2])
    assert shorter.k == 2 and shorter.items == spec.items[:2]
    assert shorter.scoring == dataclasses.replace(spec.scoring, k=shorter.k)
    assert spec.with_items(reversed(spec.items)).k == 4  # same length: k unchanged


def test_with_k_and_replace_make_checked_copies():
    spec = spec_of([3, 2, 1])
    assert spec.with_k(2).k == 2 and spec.k == 3
    assert code_of(spec.with_k, 4) == "k.too_large"
    assert code_of(dataclasses.replace, spec, top=2) == "grade.above_top"


def test_with_gain_of_sets_one_grade_keeping_the_order_grades_were_set_in():
    spec = spec_of([1], gain="custom").with_gain_of(3, 9).with_gain_of(1, 0.5).with_gain_of(3, 7)
    assert spec.scoring.gain_table == ((3, 7.0), (1, 0.5))
    assert spec.gain_of_every_grade() == {0: 0.0, 1: 0.5, 2: 2.0, 3: 7.0, 4: 4.0}  # a grade not set is worth itself


def test_reordered_and_scored_like():
    spec = spec_of([0, 1, 2])
    assert spec.reordered([2, 1, 0]).grades == (2, 1, 0)
    other = spec_of([4], gain="custom", gain_table=((4, 10.0),), discount="jk", base=4.0)
    mixed = spec.scored_like(other)
    assert (mixed.items, mixed.k, mixed.top) == (spec.items, spec.k, spec.top)
    assert mixed.scoring == dataclasses.replace(other.scoring, k=spec.k, ideal=spec.ideal)


# --- scores, through the core's functions ------------------------------------------------------------


def test_its_scores_are_the_hand_computed_ones():
    spec = spec_of([3, 0, 2], k=3)
    dcg3 = 3 / log2(2) + 0 / log2(3) + 2 / log2(4)
    idcg3 = 3 / log2(2) + 2 / log2(3)
    assert spec.dcg() == pytest.approx(dcg3) and spec.dcg() == dcg([3, 0, 2], 3)
    assert spec.ndcg() == pytest.approx(dcg3 / idcg3) and spec.scores().idcg == pytest.approx(idcg3)


def test_the_pool_ideal_takes_the_unretrieved_judged_items():
    wikipedia = PRESETS.build("wikipedia").spec()
    assert wikipedia.judged_pool() == [3, 2, 3, 0, 1, 2, 3, 2]
    assert round(wikipedia.ndcg(), 3) == 0.785  # Wikipedia's figure, against all judgments
    own = wikipedia.with_scoring(ideal="list")
    assert own.judged_pool() is None and round(own.ndcg(), 3) == 0.961


def test_gain_and_discount_reach_the_score():
    spec = spec_of([3, 0, 2], k=3, gain="exponential", discount="jk", base=3.0)
    # jk with b = 3: ranks 1 and 2 in full, rank 3 divided by log_3(3) = 1
    assert spec.dcg() == pytest.approx((2**3 - 1) + 0 + (2**2 - 1))
    custom = spec_of([3, 0, 2], k=3, gain="custom", gain_table=((3, 10.0), (2, 5.0)))
    assert custom.dcg() == pytest.approx(10 + 0 + 5 / log2(4))
    assert custom.dcg() == dcg([3, 0, 2], 3, gain={3: 10.0, 2: 5.0})


def test_its_breakdown_is_the_cores_with_its_labels():
    spec = PRESETS.build("wikipedia").spec().with_k(4)
    frame = spec.breakdown()
    expected = breakdown(spec.grades, 4, items=spec.labels, pool=spec.judged_pool())
    assert frame.equals(expected)
    assert frame["ndcg"].iloc[3] == pytest.approx(ndcg_at_k(spec.grades, 4, pool=spec.judged_pool()))
    assert idcg(spec.grades, 4, pool=spec.judged_pool()) == pytest.approx(spec.scores().idcg)


def test_from_grades_makes_the_classrooms_list_with_its_pool():
    spec = ListSpec.from_grades(["a", "b"], [2, 0], 2, pool=[3, 1], query="成都", scoring=Scoring(gain="exponential"))
    assert spec.ideal == "pool" and spec.judged_pool() == [2, 0, 3, 1] and spec.query == "成都"
    assert spec.top == 3  # the smallest whole top grade that holds every grade
    assert spec.ndcg() == pytest.approx(ndcg_at_k([2, 0], 2, gain="exponential", pool=[2, 0, 3, 1]))
    alone = ListSpec.from_grades(["a"], [0.5], 1)
    assert (alone.ideal, alone.top, alone.extra) == ("list", 1, ())


def test_the_pool_is_the_missed_grades_its_ideal_includes_and_labels_and_grades_are_tuples():
    spec = ListSpec.from_grades(["a", "b", "c"], [1, 3, 1], 3, pool=[2, 0])
    assert spec.labels == ("a", "b", "c") and spec.grades == (1.0, 3.0, 1.0) and spec.pool == (2.0, 0.0)
    assert [(it.id, it.label) for it in spec.extra] == [(4, "judged 1"), (5, "judged 2")]  # numbered on
    own = spec.with_scoring(ideal="list")  # the Playground keeps the extra items while they are not used
    assert own.pool == () and own.extra == spec.extra and own.judged_pool() is None


def test_the_best_order_puts_the_highest_gain_first_and_equal_gains_as_listed():
    spec = ListSpec.from_grades(["a", "b", "c"], [1, 3, 1], 3, pool=[2])
    assert spec.best_order() == [1, 0, 2]
    best = (3 + 1 / math.log2(3) + 1 / 2) / (3 + 2 / math.log2(3) + 1 / 2)  # the pool's 2 is in the ideal
    assert spec.reordered(spec.best_order()).ndcg() == pytest.approx(best)
    # Under a custom gain that makes 3 worth less than 1, the 1s come first.
    custom = spec.with_scoring(gain="custom", gain_table=((3, 0.5),))
    assert custom.best_order() == [0, 2, 1]
    assert spec.ndcg() == spec.scores().ndcg and custom.ndcg() == custom.scores().ndcg


def test_every_preset_is_a_spec_with_the_presets_settings():
    for name in PRESETS.names():
        preset, spec = PRESETS.build(name), PRESETS.build(name).spec()
        assert spec.grades == tuple(preset.grades) and spec.top == preset.top_grade and spec.ideal == preset.ideal
        assert spec.k == (preset.k or min(10, len(preset.grades)))
        assert [(it.label, it.grade) for it in spec.extra] == list(preset.extra)


# --- the link codec ---------------------------------------------------------------------------------

labels = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20).map(str.strip).filter(bool)


@st.composite
def specs(draw):
    top = draw(st.integers(1, 10))
    rows = draw(st.lists(st.tuples(labels, st.integers(0, top)), min_size=1, max_size=30))
    items = make_items([label for label, _ in rows], [g for _, g in rows])
    extra_rows = draw(st.lists(st.tuples(labels, st.integers(0, top)), max_size=3))
    extra = make_items([label for label, _ in extra_rows], [g for _, g in extra_rows], first_id=len(items) + 1)
    gain = draw(st.sampled_from(["linear", "exponential", "custom"]))
    table = draw(st.dictionaries(st.integers(0, 10), st.integers(0, 1000).map(float), max_size=4))
    discount = draw(st.sampled_from(["log2", "jk"]))
    scoring = Scoring(
        gain=gain,
        gain_table=tuple(table.items()) if gain == "custom" else (),
        discount=discount,
        base=draw(st.sampled_from([1.5, 2.0, 3.0, 20.0])) if discount == "jk" else 2.0,
        k=draw(st.integers(1, len(items))),
        ideal=draw(st.sampled_from(LIST_IDEALS)),
    )
    return ListSpec(tuple(items), scoring, top, tuple(extra))


@given(specs())
def test_a_link_gives_back_exactly_the_spec_it_was_made_from(spec):
    link = spec.to_link()
    assert ListSpec.from_link(link) == spec
    assert ListSpec.from_link(link).to_link() == link


def test_a_link_leaves_out_the_query_and_what_its_gain_and_discount_do_not_use():
    spec = spec_of([1, 0], query="成都", gain_table=((1, 5.0),), base=3.0)
    back = ListSpec.from_link(spec.to_link())
    assert (back.query, back.scoring.gain_table, back.scoring.base) == ("", (), 2.0)
    assert back == dataclasses.replace(spec, query="", scoring=Scoring(k=2))


# Links written by the Playground before ListSpec existed (ui/share.py's encode_playground), with what they hold.
OLD_LINKS = {
    "eyJ2IjoxLCJsIjpbImRvYyBBIiwiZG9jIEIiLCJkb2MgQyIsImRvYyBEIiwiZG9jIEUiXSwiZyI6WzMsMiwzLDAsMV0sImsiOjUsInQiOjMsImdh"
    "aW4iOiJsaW5lYXIiLCJkIjoibG9nMiIsImkiOiJsaXN0In0": PRESETS.build("five").spec(),
    "eyJ2IjoxLCJsIjpbIkQxIiwiRDIiLCJEMyIsIkQ0IiwiRDUiLCJENiJdLCJnIjpbMywyLDMsMCwxLDJdLCJrIjo2LCJ0IjozLCJnYWluIjoiZXhw"
    "b25lbnRpYWwiLCJkIjoibG9nMiIsImkiOiJwb29sIiwieCI6W1siRDciLDNdLFsiRDgiLDJdXX0": PRESETS.build("wikipedia")
    .spec()
    .with_scoring(gain="exponential"),
    "eyJ2IjoxLCJsIjpbIuaIkOmDvTPlpKnmlLvnlaUiLCI8Yj54PC9iPiIsImEgYiJdLCJnIjpbNCwwLDIuNV0sImsiOjIsInQiOjQsImdhaW4iOiJj"
    "dXN0b20iLCJkIjoiamsiLCJpIjoibGlzdCIsIm0iOnsiMyI6OSwiMSI6MC41LCIwIjowfSwiYiI6MywieCI6W1sieSIsMV1dfQ": ListSpec(
        tuple(make_items(["成都3天攻略", "<b>x</b>", "a b"], [4, 0, 2.5])),
        Scoring(gain="custom", gain_table=((3, 9.0), (1, 0.5), (0, 0.0)), discount="jk", base=3.0, k=2),
        4,
        (Item(4, "y", 1),),
    ),
}


@pytest.mark.parametrize("link", OLD_LINKS)
def test_a_link_made_before_the_value_existed_opens_to_the_same_state_and_is_written_the_same(link):
    assert ListSpec.from_link(link) == OLD_LINKS[link]
    assert OLD_LINKS[link].to_link() == link  # byte for byte: the address bar does not change on opening it


def good_link(**changes):
    """A valid link's JSON with some parts changed (``None``: left out), encoded as a link is."""
    state = {"v": 1, "l": ["a", "b"], "g": [3, 0], "k": 2, "t": 4, "gain": "linear", "d": "log2", "i": "list"}
    state.update(changes)
    state = {key: value for key, value in state.items() if value is not None}
    return base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")


assert ListSpec.from_link(good_link()) == spec_of([3, 0], labels=["a", "b"])  # the base of every bad link below

BAD_LINKS = {
    "link.empty": "",
    "link.too_long": "x" * (MAX_LINK_LENGTH + 1),
    "link.damaged": "%%%",
    "link.not_settings": base64.urlsafe_b64encode(b"[1, 2]").decode(),
    "link.version": good_link(v=99),
    "link.counts": good_link(g=[1]),
    "link.list_empty": good_link(l=[], g=[]),
    "link.k": good_link(k=3),
    "link.gain": good_link(gain="cubic"),
    "link.discount": good_link(d="ln"),
    "link.ideal": good_link(i="judges"),
    "link.custom_gain": good_link(gain="custom", m={str(g): g for g in range(12)}),
    "link.base": good_link(d="jk", b=1),
    "link.extra": good_link(x="none"),
    "link.extra_pair": good_link(x=[["c"]]),
    "link.lacks": good_link(k=None),
    "link.kind": good_link(k="two"),
    "link.not_whole": good_link(gain="custom", m={"x": 1}),
    "link.range": good_link(gain="custom", m={"11": 1}),
}


def test_every_link_code_is_covered_below():
    assert {code for code in MESSAGES if code.startswith("link.")} == set(BAD_LINKS)


@pytest.mark.parametrize("code", BAD_LINKS)
def test_a_bad_link_is_refused_with_its_code(code):
    assert code_of(ListSpec.from_link, BAD_LINKS[code]) == code


@pytest.mark.parametrize(
    "changes, code",
    [
        ({"l": ["a", " "]}, "label.blank"),
        ({"g": [3, 7]}, "grade.above_top"),
        ({"g": [3, -1]}, "grade.negative"),
        ({"t": 99}, "top_grade.range"),
        ({"l": ["a"] * 101, "g": [1] * 101, "k": 1}, "list.too_long"),
        ({"x": [["", 1]]}, "label.blank"),
        ({"gain": "custom", "m": {"1": -2}}, "grade.negative"),
        ({"gain": "custom", "m": {"1": 2e6}}, "grade.above_top"),
    ],
)
def test_a_bad_value_in_a_link_is_refused_with_the_values_code(changes, code):
    assert code_of(ListSpec.from_link, good_link(**changes)) == code


def test_a_bad_link_names_where_the_bad_value_was():
    assert "grade 2 is 7: the top grade is 4" in _message(good_link(g=[3, 7]))
    assert "unretrieved label 1 is blank" in _message(good_link(x=[["", 1]]))


def _message(link):
    with pytest.raises(InputError) as caught:
        ListSpec.from_link(link)
    return str(caught.value)


@pytest.mark.parametrize(
    "param, message",
    [
        ("", "holds no state"),
        ("%%%", "damaged"),
        (spec_of([1]).to_link()[:-6], "damaged"),
        ("x" * (MAX_LINK_LENGTH + 1), "at most 20000"),
        (base64.urlsafe_b64encode(b"[1, 2]").decode(), "not a set of settings"),
        (good_link(v=9), "version 9"),
        (good_link(gain="cubic"), "unknown gain 'cubic'"),
        (good_link(d="log10"), "unknown discount"),
        (good_link(g=[3, 7]), "grade 2 is 7: the top grade is 4"),
        (good_link(g=[3, -1]), "negative"),
        (good_link(g=["x", 1]), "not a number"),
        (good_link(k=3), "k is 3"),
        (good_link(k=True), "not the expected kind"),
        (good_link(t=99), "top grade must be 1 to 10"),
        (good_link(l=["a"]), "1 labels for 2 grades"),
        (good_link(l=["a", "  "]), "label 2 is blank"),
        (good_link(l=["a" * 61, "b"]), "at most 60"),
        (good_link(l=[], g=[]), "empty"),
        (good_link(l=["a"] * 101, g=[1] * 101, k=1), "at most 100"),
        (good_link(k=None), "lacks its 'k' part"),
        (good_link(gain="custom", m={"x": 1}), "not a whole number"),
        (good_link(d="jk", b=1), "above 1"),
        (good_link(x=[["a"]]), r"not a \(label, grade\) pair"),
        (good_link(i="judges"), "unknown ideal"),
    ],
)
def test_a_bad_link_says_what_was_wrong_in_english(param, message):
    with pytest.raises(ValueError, match=message):
        ListSpec.from_link(param)


def test_a_bad_link_is_worded_with_every_field_of_its_message():
    messages = {code: _message(link) for code, link in BAD_LINKS.items() if code != "link.damaged"}
    assert messages == {
        code: english(f"error.{code}").format(**fields)
        for code, fields in {
            "link.empty": {},
            "link.too_long": {"count": MAX_LINK_LENGTH + 1, "limit": MAX_LINK_LENGTH},
            "link.not_settings": {},
            "link.version": {"value": "99", "version": 1},
            "link.counts": {"labels": 2, "grades": 1},
            "link.list_empty": {},
            "link.k": {"value": "3", "count": 2},
            "link.gain": {"value": "'cubic'"},
            "link.discount": {"value": "'ln'"},
            "link.ideal": {"value": "'judges'"},
            "link.custom_gain": {"count": 12, "limit": 11},
            "link.base": {"value": "1"},
            "link.extra": {"limit": 100},
            "link.extra_pair": {"position": 1},
            "link.lacks": {"name": "'k'"},
            "link.kind": {"name": "'k'", "value": "'two'"},
            "link.not_whole": {"place": english("place.link.gain_grade"), "value": "'x'"},
            "link.range": {"place": english("place.link.gain_grade"), "value": "11", "low": 0, "high": 10},
        }.items()
    }
    assert _message(good_link(x=[["c", 1], ["d"]])) == english("error.link.extra_pair").format(position=2)
    assert "unretrieved grade 2 is 9" in _message(good_link(x=[["c", 1], ["d", 9]]))
    assert "the gain of grade 1" in _message(good_link(gain="custom", m={"1": 2e6}))
    assert "base" in _message(good_link(d="jk", b=21))  # a base above 20 is refused


def test_a_link_at_each_limit_is_read():
    assert code_of(ListSpec.from_link, "x" * MAX_LINK_LENGTH) == "link.damaged"  # as long as allowed: read
    eleven = ListSpec.from_link(good_link(gain="custom", m={str(g): g + 1 for g in range(11)}))
    assert len(eleven.scoring.gain_table) == 11  # a gain for every grade 0 to 10
    full = ListSpec.from_link(good_link(x=[[f"u{i}", 0] for i in range(100)]))
    assert len(full.extra) == 100
    jk = ListSpec.from_link(good_link(d="jk", b=20))
    assert jk.scoring.base == 20.0


def test_the_custom_table_counts_only_under_the_custom_gain():
    spec = spec_of([3, 0], gain_table=((3, 9.0),))
    assert spec.scores() == spec_of([3, 0]).scores()  # linear: the table is kept for later, unused
    assert spec.with_scoring(gain="custom").gain_of_every_grade() == {0: 0, 1: 1, 2: 2, 3: 9, 4: 4}
    assert spec.with_scoring(gain="custom").dcg() == 9


def test_with_items_keeps_at_least_k_1():
    assert spec_of([3, 2, 1], k=3).with_items(spec_of([3]).items).k == 1


def test_link_number_reads_a_small_whole_number():
    assert link_number(" 4", Place("link.gain_grade"), 1, 6) == 4
    assert code_of(link_number, "two", Place("link.gain_grade"), 1, 6) == "link.not_whole"
    assert code_of(link_number, "0", Place("link.gain_grade"), 1, 6) == "link.range"
    assert code_of(link_number, "7", Place("link.gain_grade"), 1, 6) == "link.range"
    assert link_number("6", Place("link.gain_grade"), 1, 6) == 6
    place = Place("link.gain_grade")
    assert error_of(link_number, "7", place, 1, 6).fields == {"place": place, "value": "7", "low": 1, "high": 6}
    long = "x" * 30
    assert error_of(link_number, long, place, 1, 6).fields == {"place": place, "value": repr("x" * 20)}
