"""Exact at the edges: huge grades and gains, sums near the float maximum, integers beyond a float, complex
numbers, rounding above 1, negative custom gains, an ideal pool that lacks a grade, text that is not text.

Every public function either returns a correct, finite number or raises an ``InputError``; never NaN, a
warning or another exception. Expected values are written out as formulas."""

import math
import warnings
from math import log2

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from ndcg_core import (
    EvaluationOptions,
    InputError,
    Scoring,
    breakdown,
    cg,
    dcg,
    dcg_from_scores,
    idcg,
    ndcg_at_every_k,
    ndcg_at_k,
    ndcg_bounds,
    ndcg_from_scores,
    read_qrels,
    read_run,
)
from ndcg_core.teaching.metrics import all_metrics, err
from ndcg_core.trec.cli import main
from ndcg_core.trec.evaluate import evaluate


@pytest.fixture(autouse=True)
def warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def code_of(call):
    with pytest.raises(InputError) as raised:
        call()
    return raised.value.code


# ---------------------------------------------------------------- huge gains: NDCG is a ratio


def test_exponential_gain_of_grade_1024_is_a_perfect_order_not_nan():
    assert ndcg_at_k([1024, 0], gain="exponential") == 1.0


def test_exponential_gain_beyond_a_float_keeps_the_ratio():
    # (2^1023 - 1) + (2^1024 - 1)/log2(3) over (2^1024 - 1) + (2^1023 - 1)/log2(3); the -1s vanish in a double.
    expected = (0.5 + 1 / log2(3)) / (1 + 0.5 / log2(3))
    assert ndcg_at_k([1023, 1024], gain="exponential") == pytest.approx(expected, rel=1e-15)
    assert ndcg_at_every_k([1023, 1024], gain="exponential")[-1] == pytest.approx(expected, rel=1e-15)
    assert ndcg_from_scores([1023, 1024], [2, 1], gain="exponential") == pytest.approx(expected, rel=1e-15)


def test_sums_near_the_float_maximum_keep_the_ratio():
    assert ndcg_at_k([1.7e308, 1.7e308]) == 1.0
    assert ndcg_at_k([1.7e308, 0, 1.7e308]) == pytest.approx((1 + 1 / log2(4)) / (1 + 1 / log2(3)), rel=1e-15)
    assert ndcg_at_k([0, 1], gain={1: 1.7e308}) == pytest.approx(1 / log2(3), rel=1e-15)
    assert ndcg_at_k([1, 2], gain={1: 1.7e308, 2: 1.7e308}) == 1.0


def test_a_dcg_beyond_the_float_maximum_is_an_error_that_names_the_limit():
    for call in (
        lambda: dcg([1.7e308, 1.7e308]),
        lambda: dcg([1024], gain="exponential"),
        lambda: idcg([1.7e308, 1.7e308]),
        lambda: cg([1.7e308, 1.7e308]),
        lambda: dcg_from_scores([1.7e308, 1.7e308], [1, 2]),
        lambda: breakdown([1024], gain="exponential"),
    ):
        with pytest.raises(InputError, match=r"larger than 1\.79769e\+308") as raised:
            call()
        assert raised.value.code == "result.too_large"


def test_err_with_grades_beyond_a_float():
    assert err([2000, 1]) == 1.0  # R1 = 1 - 2^-2000: the first item stops every user
    assert err([1, 2000]) == pytest.approx(0.5, rel=1e-15)  # R1 = 2^-1999, R2 = 1 - 2^-2000
    assert err([3, 2, 0]) == 7 / 8 + (1 / 8) * (3 / 8) / 2  # unchanged for ordinary grades


def test_the_cli_prints_a_number_for_exponential_gain_of_grade_1024(tmp_path, capsys):
    (tmp_path / "q").write_text("q 0 a 1024\nq 0 b 0\nq 0 c 1023\n")
    (tmp_path / "r").write_text("q Q0 a 1 3 t\nq Q0 c 2 2 t\nq Q0 b 3 1 t\n")
    assert main(["-m", "ndcg", "--gain", "exponential", str(tmp_path / "q"), str(tmp_path / "r")]) == 0
    assert capsys.readouterr().out == "ndcg                  \tall\t1.0000\n"
    (tmp_path / "r").write_text("q Q0 c 1 3 t\nq Q0 a 2 2 t\n")
    main(["-m", "ndcg", "--gain", "exponential", str(tmp_path / "q"), str(tmp_path / "r")])
    expected = (0.5 + 1 / log2(3)) / (1 + 0.5 / log2(3))
    assert capsys.readouterr().out == f"ndcg                  \tall\t{expected:6.4f}\n"


def test_evaluate_scales_each_query_by_itself():
    # A query with huge gains next to one with grade 1: scaling one must not wash out the other.
    qrels = read_qrels(b"big 0 a 1024\nbig 0 b 1023\nsmall 0 x 1\nsmall 0 y 1\n")
    run = read_run(b"big Q0 b 1 2 t\nbig Q0 a 2 1 t\nsmall Q0 z 1 2 t\nsmall Q0 x 2 1 t\n")
    result = evaluate(qrels, run, EvaluationOptions(Scoring(gain="exponential", ideal="pool"), cutoffs=(2,)))
    big = (0.5 + 1 / log2(3)) / (1 + 0.5 / log2(3))
    small = (1 / log2(3)) / (1 + 1 / log2(3))
    assert result.qids == ["big", "small"]
    assert result.columns["ndcg"] == pytest.approx([big, small], rel=1e-15)
    assert result.columns["dcg"][0] == math.inf and result.columns["dcg"][1] == pytest.approx(1 / log2(3))
    assert result.gap(2)[1] == pytest.approx(1.0)


# ---------------------------------------------------------------- what a float cannot hold


@pytest.mark.parametrize(
    "call, code",
    [
        (lambda: ndcg_at_k([10**400]), "number.too_large"),
        (lambda: ndcg_at_k([1, 2], pool=[10**400]), "number.too_large"),
        (lambda: ndcg_from_scores([1, 0], [10**400, 1]), "number.too_large"),
        (lambda: ndcg_at_k([1j]), "number.complex"),
        (lambda: ndcg_at_k(np.array([1 + 0j, 2])), "number.complex"),
        (lambda: ndcg_from_scores([1, 0], [np.complex128(2), 1]), "number.complex"),
        (lambda: ndcg_at_k([1, 2], k=2.5), "k.not_whole"),
        (lambda: ndcg_at_k([3], pool=[1]), "ideal.lacks_grade"),
        (lambda: ndcg_at_k([3, 3], pool=[3, 2, 1]), "ideal.lacks_grade"),
        (lambda: ndcg_from_scores([1, 2], [1, 1], items=["a", "\ud800"]), "item.not_text"),
        (lambda: breakdown([1, 2], items=["a", "\udfff"]), "item.not_text"),
    ],
)
def test_values_a_float_or_text_cannot_hold_are_input_errors(call, code):
    assert code_of(call) == code


def test_a_huge_k_is_the_whole_list():
    assert ndcg_at_k([1, 2], k=10**400) == ndcg_at_k([1, 2])
    assert list(breakdown([1, 2], k=10**400)["in_top_k"]) == [True, True]


# ---------------------------------------------------------------- at most 1, and negative gains


def test_rounding_never_puts_ndcg_above_1():
    assert ndcg_from_scores([0.1] * 3, [1] * 3, ties="average") == 1.0
    assert ndcg_bounds([0.1] * 3, [1] * 3)[1] == 1.0


def test_negative_custom_gains_follow_trec_eval_the_ideal_stops_at_gains_of_0(tmp_path, capsys):
    # Grades 2 then 1, gain 2 -> -1: DCG = -1 + 1/log2(3); the ideal holds only the positive gain 1.
    expected = -1 + 1 / log2(3)
    assert ndcg_at_k([2, 1], gain={2: -1}) == pytest.approx(expected, rel=1e-15)
    assert ndcg_from_scores([2, 1], [2, 1], gain={2: -1}) == pytest.approx(expected, rel=1e-15)
    assert list(breakdown([2, 1], gain={2: -1})["ndcg"]) == pytest.approx([-1 / 1, expected])
    (tmp_path / "q").write_text("q 0 a 2\nq 0 b 1\n")
    (tmp_path / "r").write_text("q Q0 a 1 2 t\nq Q0 b 2 1 t\n")
    main(["-m", "ndcg.2=-1", str(tmp_path / "q"), str(tmp_path / "r")])
    assert capsys.readouterr().out == f"ndcg_2=-1             \tall\t{expected:6.4f}\n"  # -0.3691, as trec_eval


# ---------------------------------------------------------------- every public function, any value

VALUES = st.one_of(
    st.integers(0, 4),
    st.integers(0, 3000),
    st.floats(0, 1.7976931348623157e308),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**400), 10**400),
    st.complex_numbers(max_magnitude=10),
    st.booleans(),
    st.text(max_size=4),
    st.none(),
)
VALID = st.one_of(
    st.integers(0, 4),
    st.integers(0, 3000),
    st.floats(0, 1.7976931348623157e308),
    st.sampled_from([1.7e308, 1023, 1024, 0.1]),
)


@st.composite
def grade_lists(draw):
    """Valid grades, and in a third of the lists one value of any kind at any place."""
    grades = draw(st.lists(VALID, max_size=8))
    if draw(st.integers(0, 2)) == 0:
        grades.insert(draw(st.integers(0, len(grades))), draw(VALUES))
    return grades


GRADES = grade_lists()
GAINS = st.one_of(
    st.just("linear"),
    st.just("exponential"),
    st.dictionaries(st.integers(0, 4), st.floats(-1.7976931348623157e308, 1.7976931348623157e308), max_size=3),
)
CUTOFFS = st.one_of(
    st.none(), st.integers(1, 10), st.integers(1, 10), st.integers(-2, 10**30), st.floats(allow_nan=True)
)


def _nonnegative(gain):
    return not isinstance(gain, dict) or all(v >= 0 for v in gain.values())


def _check_ndcg(value, gain):
    assert math.isfinite(value) and value <= 1.0
    if _nonnegative(gain):
        assert value >= 0.0


@given(GRADES, CUTOFFS, GAINS, st.sampled_from(["log2", "jk"]), st.booleans())
def test_single_list_functions_give_a_finite_number_or_an_input_error(grades, k, gain, discount, with_pool):
    options = {"gain": gain, "discount": discount}
    pool = [*grades, 3, 1] if with_pool else None
    try:
        value = ndcg_at_k(grades, k, pool=pool, **options)
    except InputError:
        event("rejected")
        return
    event("accepted")
    _check_ndcg(value, gain)
    every = ndcg_at_every_k(grades, pool=pool, **options)
    assert len(every) == len(grades)
    for v in every:
        _check_ndcg(v, gain)
    for call in (dcg, idcg, cg):
        try:
            assert math.isfinite(call(grades, k, **({"gain": gain} if call is cg else options)))
        except InputError as error:
            assert error.code == "result.too_large"
    scores = list(range(len(grades), 0, -1))  # scores that give the list's own order
    assert ndcg_from_scores(grades, scores, k, pool=pool, **options) == pytest.approx(value, rel=1e-9, abs=1e-300)
    low, high = ndcg_bounds(grades, [1] * len(grades), k, **options)
    _check_ndcg(low, gain)
    _check_ndcg(high, gain)
    assert low <= high
    try:
        frame = breakdown(grades, k, pool=pool, **options)
    except InputError as error:
        assert error.code == "result.too_large"
    else:
        assert frame["ndcg"].between(-math.inf, 1.0).all() and np.isfinite(frame["cumulative_dcg"]).all()


@given(
    GRADES,
    st.integers(1, 10),
    st.one_of(st.none(), st.none(), st.integers(0, 3000), VALUES),
    st.one_of(st.none(), st.none(), st.integers(-2, 20)),
)
def test_other_metrics_give_a_finite_number_or_an_input_error(grades, k, max_grade, n_relevant):
    try:
        values = all_metrics(grades, k, max_grade=max_grade, n_relevant=n_relevant)
    except InputError:
        event("rejected")
        return
    event("accepted")
    assert all(math.isfinite(v) for v in values.values()), values
    for name in ("precision", "recall", "rr", "ap", "err", "ndcg"):
        assert 0.0 <= values[name] <= 1.0, (name, values[name])


def test_tie_bounds_order_by_gain_not_grade():
    # Gain 2 for grade 0, 1 for grade 1: the best order puts grade 0 first.
    worst, best = ndcg_bounds([1, 0], [1, 1], gain={0: 2})
    assert best == 1.0
    assert worst == pytest.approx((1 + 2 / log2(3)) / (2 + 1 / log2(3)), rel=1e-15)
