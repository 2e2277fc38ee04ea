"""``diagnose`` names the mistake an answer's number comes from, to the answer's own printed precision: never for
a right answer, both (or none) where mistakes give the same number, and an ``InputError`` for bad input."""

import math

import pytest
from test_mistakes_rebuild_each_number import A3, A5, B3, CASES, CHENGDU_TRIP, DCG_A5, IDCG_A5, POOL

from ndcg_core.errors import InputError
from ndcg_core.teaching.mistakes import diagnose, explain

L = math.log2
QUESTIONS = [(A5, "ndcg"), (A3, "ndcg"), (POOL, "ndcg"), (CHENGDU_TRIP, "ndcg"), (B3, "dcg"), (A5, "idcg")]
RIGHT = {  # the right answers, as formulas
    (A5, "ndcg"): DCG_A5 / IDCG_A5,
    (A3, "ndcg"): (3 + 2 / L(3) + 3 / 2) / (3 + 3 / L(3) + 2 / 2),
    (POOL, "ndcg"): DCG_A5 / (3 + 3 / L(3) + 3 / 2 + 2 / L(5) + 2 / L(6)),
    (CHENGDU_TRIP, "ndcg"): (4 + 2 / L(3) + 1 / L(5) + 3 / L(6)) / (4 + 3 / L(3) + 2 / 2 + 1 / L(5)),
    (B3, "dcg"): 4.0,
    (A5, "idcg"): IDCG_A5,
}


def codes(listed, answer, **question):
    return [d.code for d in diagnose(listed, answer, **question)]


@pytest.mark.parametrize(("code", "listed", "metric", "number"), CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_each_mistake_is_named_from_its_number_to_four_decimals(code, listed, metric, number):
    position = 2 if metric == "term" else None
    found = diagnose(listed, f"{number:.4f}", metric=metric, position=position)
    assert code in [d.code for d in found]
    named = next(d for d in found if d.code == code)
    assert named.figures["yours"] == pytest.approx(number) and named.decimals == 4


@pytest.mark.parametrize(("listed", "metric"), QUESTIONS)
@pytest.mark.parametrize("decimals", [2, 3, 4])
def test_a_right_answer_is_never_named(listed, metric, decimals):
    right = RIGHT[(listed, metric)]
    assert diagnose(listed, f"{right:.{decimals}f}", metric=metric) == ()
    assert diagnose(listed, round(right, decimals), metric=metric) == ()
    assert diagnose(listed, repr(right), metric=metric) == ()


def test_an_answer_matches_to_its_own_printed_precision():
    # 3, 2, 3, 0, 1 at k = 3 with the ideal not cut: 5.76 / 6.32 = 0.9112...
    number = (3 + 2 / L(3) + 3 / 2) / IDCG_A5
    assert f"{number:.3f}" == "0.911" and codes(A3, "0.911") == ["ideal_not_cut"] == codes(A3, 0.911)
    assert codes(A3, "0.9112") == ["ideal_not_cut"] and codes(A3, "0.913") == [] and codes(A3, "0.9105") == []
    # Many decimals still match a number worked out another way (a floor of 5e-5).
    assert codes(A3, f"{number + 3e-5:.8f}") == ["ideal_not_cut"] and codes(A3, f"{number + 2e-4:.8f}") == []


def test_two_mistakes_too_close_at_the_answers_precision_are_both_named_as_possible():
    # At two decimals 0.91 is also 2^grade - 1 with log2(i): (7 + 3 + 7/log2(3)) / (7 + 7 + 3/log2(3)) = 0.9071.
    assert (7 + 3 + 7 / L(3)) / (7 + 7 + 3 / L(3)) == pytest.approx(0.9071, abs=1e-4)
    found = diagnose(A3, "0.91")
    assert [d.code for d in found] == ["ideal_not_cut", "gain_exponential+discount_log_i"]
    assert not any(d.alone for d in found)


def test_an_answer_that_fits_more_mistakes_than_can_be_named_names_none(monkeypatch):
    monkeypatch.setattr("ndcg_core.teaching.mistakes.MAX_NAMED", 1)
    assert diagnose(A3, "0.91") == () and codes(A3, "0.911") == ["ideal_not_cut"]


def test_the_issues_example_dcg_of_every_position_for_ndcg():
    # 3, 2, 3, 0, 1: NDCG@3 asked, the DCG of all five positions given.
    found = diagnose(A3, f"{DCG_A5:.2f}")
    assert [d.code for d in found] == ["no_normalisation+list_not_cut"]
    assert found[0].parts == ("no_normalisation", "list_not_cut") and found[0].alone
    figures = found[0].figures
    assert figures["dcg"] == pytest.approx(3 + 2 / L(3) + 3 / 2) and figures["your_dcg"] == pytest.approx(DCG_A5)
    assert figures["your_idcg"] is None and figures["k"] == 3 and figures["n"] == 5


def test_an_ndcg_above_one_is_the_ideal_sorted_worst_first():
    number = DCG_A5 / (1 / L(3) + 2 / L(4) + 3 / L(5) + 3 / L(6))
    assert number > 1 and codes(A5, f"{number:.2f}") == ["ideal_ascending"]


def test_mistakes_with_the_same_number_are_both_named_as_possible():
    # The term at position 2 of 3, 2, 3, 0, 1: log2(2) = 1 and no discount both give the grade, 2.
    found = diagnose(A5, "2", metric="term", position=2)
    assert {d.code for d in found} == {"discount_log_i", "no_discount"}
    assert not any(d.alone for d in found)
    assert [d.code for d in found] == ["discount_log_i", "no_discount"]  # the registry's order: the likelier first


def test_a_random_wrong_number_gets_no_name():
    assert diagnose(A5, "0.42") == () and diagnose(B3, "3.33", metric="dcg") == ()


def test_explain_gives_the_figures_without_an_answer():
    d = explain(A3, "list_not_cut")
    assert d.figures["answer"] is None and d.figures["yours"] == pytest.approx(DCG_A5 / (3 + 3 / L(3) + 2 / 2))
    assert explain(A3, "no_normalisation+list_not_cut").parts == ("no_normalisation", "list_not_cut")


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: diagnose(A5, "0.5", metric="mrr"), "mistake.metric"),
        (lambda: diagnose(A5, "0.5", metric="term"), "mistake.no_position"),
        (lambda: diagnose(A5, "0.5", metric="term", position=0), "mistake.position"),
        (lambda: diagnose(A5, "0.5", metric="term", position=6), "mistake.position"),
        (lambda: diagnose(A5, "0.5", metric="term", position=True), "mistake.position"),
        (lambda: diagnose(A5, "0.5", metric="term", position="2"), "mistake.position"),
        (lambda: diagnose(A5, ""), "answer.blank"),
        (lambda: diagnose(A5, "1,234"), "answer.comma"),
        (lambda: diagnose(A5, "abc"), "answer.not_number"),
        (lambda: diagnose(A5, "inf"), "answer.infinite"),
        (lambda: explain(A5, "forgot_k"), "mistake.unknown"),
        (lambda: explain(A5, "list_not_cut"), "mistake.not_here"),
        (lambda: explain(A5, "log_natural"), "mistake.not_here"),
    ],
)
def test_bad_input_is_an_input_error_with_its_code(call, code):
    with pytest.raises(InputError) as raised:
        call()
    assert raised.value.code == code
