"""``ndcg_core.validate``, checked where mutation testing found it loose: every error by its code and fields."""

import pytest

from ndcg_core import validate
from ndcg_core.errors import Place
from support import error_of

HERE = Place("table.label", row=3)


def test_tokens_split_at_commas_chinese_commas_and_spaces():
    assert validate.tokens("5, 10，20、 30") == ["5", "10", "20", "30"]
    assert validate.tokens(7) == ["7"]


def test_k_is_required_for_metrics_that_need_it():
    error = error_of(validate.required_k, None)
    assert (error.code, error.fields) == ("k.required", {})
    assert validate.required_k("4") == 4


def test_the_top_grade_is_1_to_10_and_an_error_quotes_the_value():
    assert validate.top_grade("3") == 3 and validate.top_grade(10) == 10
    for value, quoted in ((11, "11"), ("x", "'x'"), (0, "0")):
        error = error_of(validate.top_grade, value)
        assert (error.code, error.fields) == (
            "top_grade.range",
            {"place": Place("top_grade"), "limit": 10, "value": quoted},
        )


def test_a_label_is_trimmed_text_of_at_most_60_characters():
    assert validate.label("  a  ", HERE) == "a" and validate.label("x" * 60, HERE) == "x" * 60
    for blank in (None, " "):
        error = error_of(validate.label, blank, HERE)
        assert (error.code, error.fields) == ("label.blank", {"place": HERE})
    error = error_of(validate.label, "x" * 61, HERE)
    assert (error.code, error.fields) == ("label.too_long", {"place": HERE, "count": 61, "limit": 60})
    error = error_of(validate.label, "a\ud800", HERE)
    assert (error.code, error.fields) == ("item.not_text", {"place": HERE, "value": "'a\\ud800'"})


@pytest.mark.parametrize(
    "ids, code, fields",
    [
        (["a", ""], "item.blank", {"place": Place("table.item", row=2)}),
        (["a b"], "item.space", {"place": Place("table.item", row=1), "value": "'a b'"}),
        (["a", "x\ud800"], "item.not_text", {"place": Place("table.item", row=2), "value": "'x\\ud800'"}),
        (["a", "b", "a"], "item.repeated", {"place": Place("table.item", row=3), "value": "'a'"}),
    ],
)
def test_ids_must_be_distinct_single_words(ids, code, fields):
    places = [Place("table.item", row=r) for r in range(1, len(ids) + 1)]
    error = error_of(validate.one_word_ids, ids, places)
    assert (error.code, error.fields) == (code, fields)


def test_a_seed_is_a_whole_number_from_0_to_a_billion():
    assert validate.seed(" 0 ") == 0 and validate.seed(10**9) == 10**9
    error = error_of(validate.seed, "x1")
    assert (error.code, error.fields) == ("seed.not_whole", {"place": Place("seed"), "value": "'x1'"})
    error = error_of(validate.seed, "-1")
    assert (error.code, error.fields) == ("seed.range", {"place": Place("seed"), "limit": 10**9, "value": "-1"})
    assert error_of(validate.seed, 10**9 + 1).fields["value"] == "1000000001"


@pytest.mark.parametrize(
    "text, code, fields",
    [
        (None, "answer.blank", {}),
        ("  ", "answer.blank", {}),
        ("1,5", "answer.comma", {"value": "'1,5'"}),
        (" 1，5 ", "answer.comma", {"value": "'1，5'"}),
        ("abc", "answer.not_number", {"value": "'abc'"}),
        ("inf", "answer.infinite", {"value": "'inf'"}),
        ("nan", "answer.infinite", {"value": "'nan'"}),
    ],
)
def test_a_typed_answer_says_what_to_type_instead(text, code, fields):
    error = error_of(validate.answer, text)
    assert (error.code, error.fields) == (code, fields)
    assert validate.answer(" 0.75 ") == 0.75
