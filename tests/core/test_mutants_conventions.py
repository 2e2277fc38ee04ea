"""The conventions' example (``ndcg_core.teaching.conventions``), checked where mutation testing found it loose:
what an example refuses and where, table rows with blanks, and the ranx snippet."""

from ndcg_core.errors import Place
from ndcg_core.teaching.conventions import CONVENTIONS, WIKIPEDIA, Example, example_from_rows
from support import error_of


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
