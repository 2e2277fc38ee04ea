"""Conventions: each named convention's number, and the library snippets run for real."""

import json
import subprocess
import sys
from math import log2

import pytest
from sklearn.metrics import ndcg_score
from streamlit.testing.v1 import AppTest

from ndcg_core.errors import InputError, Place
from ndcg_core.teaching.conventions import CONVENTIONS, WIKIPEDIA, Example, example_from_rows, score_all
from support import ROOT, error_of

RUN_BY_TESTS = [e.name for e in CONVENTIONS if e.build().library in ("scikit-learn", "pytrec_eval", "ndcg_core")]


# Each snippet runs as a script of its own (``__main__``, fresh globals, its own imports), all of them in one Python
# started for the module: a Python per snippet imported scikit-learn or pytrec_eval anew each time, most of the
# module's time. A snippet that forgets an import still fails (its names start empty); what a snippet prints is
# what that snippet alone printed.
RUN_EACH = """
import contextlib, io, json, sys
printed = []
for code in json.load(sys.stdin):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
    printed.append(out.getvalue().strip())
json.dump(printed, sys.stdout)
"""


def run_snippets(codes):
    """What each snippet printed, stripped, in order: every one run in one Python of its own."""
    done = subprocess.run(
        [sys.executable, "-c", RUN_EACH], input=json.dumps(codes), capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


# The example edited (snippets follow it), and one whose scores differ only beyond float32 (b and c).
EDITED = Example(("a", "b", "c"), (1.0, 1.0, 0.5), (0, 2, 1), (("z", 3),), k=2)
NEAR = Example(("a", "b", "c"), (2.0, 1.000000001, 1.0), (1, 2, 0), k=2)
SNIPPETS = [
    *((name, WIKIPEDIA) for name in RUN_BY_TESTS),
    *((name, EDITED) for name in ("sklearn", "trec_eval_ndcg_cut")),
    ("float32_scores", NEAR),
]


@pytest.fixture(scope="module")
def printed():
    """What each snippet of ``SNIPPETS`` printed, by its convention's name and its example."""
    codes = [CONVENTIONS.build(name).snippet(example) for name, example in SNIPPETS]
    return dict(zip(SNIPPETS, run_snippets(codes), strict=True))


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
def test_each_snippet_prints_the_number_the_page_shows_and_the_number_written_out(printed, name):
    # One run of each snippet (importing its library) for both: the number the page shows, and the formula's (so
    # the ndcg_core snippets are checked against the formulas, not against ndcg_core).
    convention = CONVENTIONS.build(name)
    assert printed[name, WIKIPEDIA] == f"{round(convention.score(WIKIPEDIA), 4)}"
    assert printed[name, WIKIPEDIA] == f"{round(EXPECTED[name], 4)}"


def test_snippets_follow_an_edited_example(printed):
    for name in ("sklearn", "trec_eval_ndcg_cut"):
        convention = CONVENTIONS.build(name)
        assert printed[name, EDITED] == f"{round(convention.score(EDITED), 4)}"
    assert printed["sklearn", EDITED] != printed["sklearn", WIKIPEDIA]


def test_scores_as_32_bit_floats_change_the_result_only_for_near_ties(printed):
    # b and c differ only beyond float32 precision: as doubles b (grade 2) ranks first, as float32 they tie
    # and c (grade 0) goes first by id. The pytrec_eval snippet (32-bit floats) prints the convention's number.
    float32 = CONVENTIONS.build("float32_scores")
    assert float32.score(NEAR) == pytest.approx((1 + 0 / log2(3)) / (2 + 1 / log2(3)))
    assert CONVENTIONS.build("trec_eval_ndcg_cut").score(NEAR) == pytest.approx((1 + 2 / log2(3)) / (2 + 1 / log2(3)))
    assert printed["float32_scores", NEAR] == f"{round(float32.score(NEAR), 4)}"
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


# --- an example's refusals and where, table rows with blanks, the ranx snippet --------------------------------------


def fields(error):
    return error.code, error.fields


def test_an_example_names_what_does_not_line_up():
    assert fields(error_of(Example, ("a",), (1, 2), (1, 2))) == ("count.items", {"items": 1, "grades": 2})
    assert fields(error_of(Example, ("a", "b"), (1,), (1, 2))) == ("count.scores", {"scores": 1, "grades": 2})
    assert fields(error_of(Example, ("a",), (1,), (1,), (("x", 1), ("y", -1)))) == (
        "grade.negative",
        {"place": Place("extra.grade", row=2), "value": "-1"},
    )
    assert fields(error_of(Example, ("a",), (1,), (1,), k=0)) == (
        "k.too_small",
        {"place": Place("k"), "value": "0", "low": 1},
    )
    assert Example(("a", "b"), (-1, -2.5), (1, 0)).scores == (-1, -2.5)  # scores may be negative


def test_judged_items_are_the_list_and_the_extra():
    example = Example(("a", "b"), (2, 1), (1, 0), (("c", 3),))
    assert example.judged() == {"a": 1, "b": 0, "c": 3}


def test_blank_table_rows_are_skipped_and_later_rows_kept():
    rows = [
        {"item": " a ", "score": "2", "grade": "1"},
        {"item": "", "score": "", "grade": ""},
        {"item": None, "score": None, "grade": None},
        {"item": "b", "score": 1, "grade": 0},
    ]
    extra = [{"item": "", "grade": ""}, {"item": " c ", "grade": 3}, {"grade": None}, {"item": "d", "grade": 2}]
    example = example_from_rows(rows, extra, "2")
    assert example == Example(("a", "b"), (2.0, 1.0), (1.0, 0.0), (("c", 3.0), ("d", 2.0)), 2)
    error = error_of(example_from_rows, rows, [{"item": "x", "grade": ""}, {"item": "y", "grade": -1}], 1)
    assert fields(error) == ("number.blank", {"place": Place("extra.grade", row=1)})
    error = error_of(example_from_rows, rows, [{"item": "", "grade": ""}, {"item": "y", "grade": -1}], 1)
    assert fields(error) == ("grade.negative", {"place": Place("extra.grade", row=2), "value": "-1"})
    error = error_of(example_from_rows, [{"score": 1, "grade": 1}], [], 1)  # an item without a name
    assert error.fields["place"] == Place("table.item", row=1)


def test_the_ranx_snippet_of_the_wikipedia_example():
    assert CONVENTIONS["burges"].build().snippet(WIKIPEDIA) == (
        "from ranx import Qrels, Run, evaluate\n"
        "print(round(evaluate(Qrels({'q': {'D1': 3, 'D2': 2, 'D3': 3, 'D4': 0, 'D5': 1, 'D6': 2, 'D7': 3, "
        "'D8': 2}}), Run({'q': {'D1': 0.9, 'D2': 0.8, 'D3': 0.8, 'D4': 0.6, 'D5': 0.5, 'D6': 0.4}}), "
        "'ndcg_burges@5'), 4))\n"
    )


def test_a_row_with_any_cell_filled_is_read():
    for filled in ({"item": "a"}, {"score": 1}, {"grade": 1}):
        row = {"item": "", "score": "", "grade": "", **filled}
        error = error_of(example_from_rows, [{"item": "b", "score": 2, "grade": 1}, row], [], 1)
        assert error.fields["place"].fields == {"row": 2}  # not skipped as blank
    error = error_of(example_from_rows, [{"item": "b", "score": 2, "grade": 1}], [{"grade": 2}], 1)
    assert error.fields["place"] == Place("extra.item", row=1)  # a judged item needs a name


def test_the_ndcg_core_snippet_of_the_wikipedia_example():
    assert CONVENTIONS["jk"].build().snippet(WIKIPEDIA) == (
        "from ndcg_core import ndcg_from_scores\n"
        "grades = [3, 2, 3, 0, 1, 2]\n"
        "scores = [0.9, 0.8, 0.8, 0.6, 0.5, 0.4]\n"
        "items = ['D1', 'D2', 'D3', 'D4', 'D5', 'D6']\n"
        "pool = grades + [3, 2]  # every judged item\n"
        'print(round(ndcg_from_scores(grades, scores, 5, items=items, discount="jk", pool=pool), 4))\n'
    )
