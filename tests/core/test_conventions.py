"""Conventions: each named convention's number, and the library snippets run for real."""

import subprocess
import sys
from math import log2

import pytest
from sklearn.metrics import ndcg_score
from streamlit.testing.v1 import AppTest

from ndcg_core.errors import InputError
from ndcg_core.teaching.conventions import CONVENTIONS, WIKIPEDIA, Example, example_from_rows, score_all
from support import ROOT

RUN_BY_TESTS = [e.name for e in CONVENTIONS if e.build().library in ("scikit-learn", "pytrec_eval", "ndcg_core")]


def run_snippet(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("name", RUN_BY_TESTS)
def test_each_snippet_prints_the_number_the_page_shows(name):
    convention = CONVENTIONS.build(name)
    printed = run_snippet(convention.snippet(WIKIPEDIA))
    assert printed == f"{round(convention.score(WIKIPEDIA), 4)}"


# The Wikipedia example written out. Ranked by score, ties by item id descending (trec_eval): D1, D3, D2, D4,
# D5, D6 with grades 3, 3, 2, 0, 1, 2; D2 and D3 tie at 0.8. Unretrieved judged items: D7 (3), D8 (2).
_DCG5 = 3 + 3 / log2(3) + 2 / log2(4) + 0 + 1 / log2(6)
_IDEAL_POOL5 = 3 + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 2 / log2(6)  # from 3, 3, 3, 2, 2, 2, 1, 0
_IDEAL_LIST5 = 3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6)  # from 3, 3, 2, 2, 1, 0
_AVERAGED5 = 3 + 2.5 / log2(3) + 2.5 / log2(4) + 0 + 1 / log2(6)  # D2 and D3 share (2 + 3) / 2
EXPECTED = {
    "sklearn": _AVERAGED5 / _IDEAL_LIST5,
    "trec_eval_ndcg": (_DCG5 + 2 / log2(7))
    / (_IDEAL_POOL5 + 2 / log2(7) + 1 / log2(8)),  # no cutoff: all 6 retrieved, all 8 judged
    "trec_eval_ndcg_cut": _DCG5 / _IDEAL_POOL5,
    "burges": (7 + 7 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6))  # gains 2^g - 1
    / (7 + 7 / log2(3) + 7 / log2(4) + 3 / log2(5) + 3 / log2(6)),
    "jk": (3 + 3 + 2 / log2(3) + 0 / log2(4) + 1 / log2(5))  # b = 2: ranks 1 and 2 in full, then 1 / log2(i)
    / (3 + 3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5)),
    "ideal_list": _DCG5 / _IDEAL_LIST5,
    "ties_trec_eval": _DCG5 / _IDEAL_POOL5,
    "ties_average": _AVERAGED5 / _IDEAL_POOL5,
    "ties_best": _DCG5 / _IDEAL_POOL5,  # D3 (3) before D2 (2), as trec_eval's order has it
    "ties_worst": (3 + 2 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6)) / _IDEAL_POOL5,
    "float32_scores": _DCG5 / _IDEAL_POOL5,  # no scores here differ only beyond float32: trec_eval's ndcg_cut
}


def test_every_convention_scores_the_wikipedia_example_as_written_out():
    assert sorted(EXPECTED) == sorted(CONVENTIONS.names())
    for name, expected in EXPECTED.items():
        assert CONVENTIONS.build(name).score(WIKIPEDIA) == pytest.approx(expected, abs=1e-12), name


@pytest.mark.parametrize("name", RUN_BY_TESTS)
def test_each_snippet_prints_the_number_written_out(name):
    # The ndcg_core snippets are checked against the formulas, not against ndcg_core.
    assert run_snippet(CONVENTIONS.build(name).snippet(WIKIPEDIA)) == f"{round(EXPECTED[name], 4)}"


def test_snippets_follow_an_edited_example():
    example = Example(("a", "b", "c"), (1.0, 1.0, 0.5), (0, 2, 1), (("z", 3),), k=2)
    for name in ("sklearn", "trec_eval_ndcg_cut"):
        convention = CONVENTIONS.build(name)
        assert run_snippet(convention.snippet(example)) == f"{round(convention.score(example), 4)}"


def test_scores_as_32_bit_floats_change_the_result_only_for_near_ties():
    # b and c differ only beyond float32 precision: as doubles b (grade 2) ranks first, as float32 they tie
    # and c (grade 0) goes first by id. The pytrec_eval snippet (32-bit floats) prints the convention's number.
    near = Example(("a", "b", "c"), (2.0, 1.000000001, 1.0), (1, 2, 0), k=2)
    float32 = CONVENTIONS.build("float32_scores")
    assert float32.score(near) == pytest.approx((1 + 0 / log2(3)) / (2 + 1 / log2(3)))
    assert CONVENTIONS.build("trec_eval_ndcg_cut").score(near) == pytest.approx((1 + 2 / log2(3)) / (2 + 1 / log2(3)))
    assert run_snippet(float32.snippet(near)) == f"{round(float32.score(near), 4)}"
    assert score_all(WIKIPEDIA)["float32_scores"] == score_all(WIKIPEDIA)["trec_eval_ndcg_cut"]  # no near tie there


def test_the_page_shows_the_near_tie_remark():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/4_Conventions.py")
    at.run()
    assert not at.exception
    remark = next(m.value for m in at.markdown if "32-bit" in m.value and "NDCG =" in m.value)
    assert "**1.000**" in remark and f"**{1 / log2(3):.3f}**" in remark


def test_conventions_by_formula_on_the_wikipedia_example():
    scores = score_all(WIKIPEDIA)
    # trec_eval order: D1, D3 (tie with D2, docno descending), D2, D4, D5 -> grades 3, 3, 2, 0, 1
    dcg5 = 3 + 3 / log2(3) + 2 / log2(4) + 0 + 1 / log2(6)
    ideal_pool5 = 3 + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 2 / log2(6)
    ideal_list5 = 3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6)
    assert scores["trec_eval_ndcg_cut"] == pytest.approx(dcg5 / ideal_pool5)
    assert scores["ideal_list"] == pytest.approx(dcg5 / ideal_list5)
    assert scores["ties_best"] == scores["trec_eval_ndcg_cut"]  # here trec_eval's tie order is the best one
    assert scores["ties_worst"] < scores["ties_average"] < scores["ties_best"]
    assert scores["sklearn"] == pytest.approx(ndcg_score([list(WIKIPEDIA.grades)], [list(WIKIPEDIA.scores)], k=5))


@pytest.mark.parametrize(
    "rows, extra, k, code, message",
    [
        ([{"item": "a", "score": "x", "grade": 1}], [], 5, "number.not_number", "row 1, score is 'x'"),
        ([{"item": "a", "score": 1, "grade": -1}], [], 5, "grade.negative", "row 1, grade is -1"),
        ([{"item": "a b", "score": 1, "grade": 1}], [], 5, "item.space", "one word"),
        (
            [{"item": "a", "score": 1, "grade": 1}, {"item": "a", "score": 2, "grade": 0}],
            [],
            5,
            "item.repeated",
            "row 2, item is 'a', which appears twice",
        ),
        (
            [{"item": "a", "score": 1, "grade": 1}],
            [{"item": "a", "grade": 2}],
            5,
            "item.repeated",
            "unretrieved row 1, item is 'a'",
        ),
        ([], [], 5, "list.empty", "at least one item"),
        ([{"item": "a", "score": 1, "grade": 1}], [], 0, "k.too_small", "k must be at least 1"),
    ],
)
def test_bad_examples_are_value_errors(rows, extra, k, code, message):
    with pytest.raises(InputError, match=message) as raised:
        example_from_rows(rows, extra, k)
    assert raised.value.code == code


def test_every_convention_has_a_formula_and_a_description():
    for entry in CONVENTIONS:
        assert entry.description and entry.build().formula
