"""``ndcg_core.validate``: the checks several parsers share, every error by its code and fields."""

from decimal import Decimal

import numpy as np
import pytest

from ndcg_core import validate
from ndcg_core.errors import Note, Place
from support import error_of

# --- every check's error by its code and fields ---------------------------------------------------------------------

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
        # A comma that may group thousands, a second comma, a point beside it: what was meant is unclear.
        ("1,234", "answer.comma", {"value": "'1,234'"}),
        ("0,6,2", "answer.comma", {"value": "'0,6,2'"}),
        ("1.000,5", "answer.comma", {"value": "'1.000,5'"}),
        (" 1，2，3 ", "answer.comma", {"value": "'1，2，3'"}),
        (",5", "answer.comma", {"value": "',5'"}),
        ("0,", "answer.comma", {"value": "'0,'"}),
        ("abc", "answer.not_number", {"value": "'abc'"}),
        ("inf", "answer.infinite", {"value": "'inf'"}),
        ("nan", "answer.infinite", {"value": "'nan'"}),
    ],
)
def test_a_typed_answer_says_what_to_type_instead(text, code, fields):
    error = error_of(validate.answer, text)
    assert (error.code, error.fields) == (code, fields)
    assert validate.answer(" 0.75 ") == 0.75


@pytest.mark.parametrize(
    "text, value, meant",
    [
        ("0,62", 0.62, "0.62"),
        (" 0，62 ", 0.62, "0.62"),  # the Chinese comma a phone's keyboard may give
        ("0,625", 0.625, "0.625"),  # three digits, but a thousands group never follows a lone 0
        ("1,5", 1.5, "1.5"),
        ("-0,5", -0.5, "-0.5"),
        ("1234,5", 1234.5, "1234.5"),
        ("1,2345", 1.2345, "1.2345"),
    ],
)
def test_a_comma_that_can_only_be_a_decimal_mark_is_read_as_a_point_and_said(text, value, meant):
    reading = validate.reading(text)
    assert reading.value == value and validate.answer(text) == value
    assert reading.note == Note("answer.comma_read", value=text.strip(), meant=meant)
    assert str(reading.note) == f"read {text.strip()} as {meant}"


def test_a_plain_number_is_read_with_no_note():
    assert validate.reading("0.62") == validate.Reading(0.62, None)


# --- numbers: lists, numpy arrays (fast path and long doubles), what is quoted where ----------------


def test_a_bad_value_of_a_numpy_array_is_quoted_as_in_a_list():
    # A bug mutation testing showed: the array's value was quoted as numpy writes it, np.float64(-2.0).
    for values in ([1.0, -2.0], np.array([1.0, -2.0]), np.array([1, -2], dtype=np.int32)):
        error = error_of(validate.numbers, values)
        expected = "-2.0" if isinstance(values, list) or values.dtype.kind == "f" else "-2"
        assert (error.code, error.fields) == (
            "grade.negative",
            {"place": Place("list.grade", position=2), "value": expected},
        )


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.longdouble])
def test_arrays_name_their_first_bad_value(dtype):
    def where(values, kind="list"):
        error = error_of(validate.numbers, np.array(values, dtype=dtype), kind)
        # A long double (checked one by one) is quoted as numpy writes it; a float as Python writes it.
        value = error.fields.get("value")
        assert value is None or dtype is np.longdouble or value in ("inf", "-1.0")
        return error.code, error.fields["place"]

    assert where([1.0, np.inf, np.nan], "pool") == ("number.infinite", Place("pool.grade", position=2))
    assert where([0.5, np.nan, -1.0]) == ("number.nan", Place("list.grade", position=2))
    assert where([np.inf], "scores") == ("number.infinite", Place("list.score", position=1))
    assert where([2.0, -1.0, -3.0]) == ("grade.negative", Place("list.grade", position=2))


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.longdouble])
def test_scores_may_be_negative_and_grades_may_not(dtype):
    values = np.array([3, -1, 0], dtype=dtype)
    assert validate.numbers(values, "scores").tolist() == [3.0, -1.0, 0.0]
    assert validate.numbers(values.tolist(), "scores").tolist() == [3.0, -1.0, 0.0]
    assert validate.numbers(np.array([3, 1, 0], dtype=dtype)).tolist() == [3.0, 1.0, 0.0]
    assert validate.numbers(np.array([3, 1, 0], dtype=dtype)).dtype == np.float64
    for kind in ("list", "pool"):
        assert error_of(validate.numbers, values, kind).code == "grade.negative"
        assert error_of(validate.numbers, values.tolist(), kind).code == "grade.negative"


def test_a_list_must_be_a_list():
    error = error_of(validate.numbers, "12")
    assert (error.code, error.fields) == ("number.not_list", {"place": Place("list.grades"), "value": "'12'"})
    error = error_of(validate.numbers, 5, "scores")
    assert (error.code, error.fields) == ("number.not_list", {"place": Place("list.scores"), "value": "5"})


def test_numbers_that_do_not_convert_are_not_numbers():
    place = Place("k")
    error = error_of(validate.number, Decimal("sNaN"), place)
    assert (error.code, error.fields) == ("number.not_number", {"place": place, "value": "Decimal('sNaN')"})
    error = error_of(validate.number, [1], place)
    assert (error.code, error.fields) == ("number.not_number", {"place": place, "value": "[1]"})


def test_a_grade_may_equal_the_top_grade():
    place = Place("new.grade")
    assert validate.grade(3, place, 3) == 3.0
    error = error_of(validate.grade, 4, place, 3)
    assert (error.code, error.fields) == ("grade.above_top", {"place": place, "value": "4", "top": "3"})


def test_item_ids_are_positions_or_text_of_the_right_count():
    assert validate.item_ids(None, 3) == ["0", "1", "2"]
    assert validate.item_ids([1, "b"], 2) == ["1", "b"]
    error = error_of(validate.item_ids, ["a"], 2)
    assert (error.code, error.fields) == ("count.items", {"items": 1, "grades": 2})
    error = error_of(validate.item_ids, ["a"], 2, what="count.labels")
    assert (error.code, error.fields) == ("count.labels", {"labels": 1, "grades": 2})
    error = error_of(validate.item_ids, ["a", "b\ud800"], 2)
    assert (error.code, error.fields) == (
        "item.not_text",
        {"place": Place("list.item", position=2), "value": "'b\\ud800'"},
    )


def test_a_custom_gain_is_a_mapping_of_numbers():
    assert validate.gain_mapping({"1": 3, 2: "9"}) == {1.0: 3.0, 2.0: 9.0}
    error = error_of(validate.gain_mapping, [1, 2])
    assert (error.code, error.fields) == ("gain.not_mapping", {"value": "[1, 2]"})
    error = error_of(validate.gain_mapping, {"x": 1})
    assert (error.code, error.fields) == ("number.not_number", {"place": Place("gain.grade"), "value": "'x'"})
    error = error_of(validate.gain_mapping, {1: "x"})
    assert (error.code, error.fields) == ("number.not_number", {"place": Place("gain.of", grade="1"), "value": "'x'"})


def test_a_list_may_be_as_long_as_its_limit():
    validate.list_size(5, 5)
    error = error_of(validate.list_size, 6, 5)
    assert (error.code, error.fields) == ("list.too_long", {"count": 6, "limit": 5})


def test_an_array_of_nothing_but_nan_or_a_long_double_beyond_a_float_is_refused():
    error = error_of(validate.numbers, np.array([np.nan, np.nan]))
    assert (error.code, error.fields) == ("number.nan", {"place": Place("list.grade", position=1)})
    huge = np.array(["1", "1e400"], dtype=np.longdouble)
    if huge.dtype.itemsize > 8:  # where a long double is wider than a double (x86-64 Linux)
        error = error_of(validate.numbers, huge)
        assert (error.code, error.fields["place"]) == ("number.infinite", Place("list.grade", position=2))


def test_cutoffs_from_text_or_a_sequence():
    assert validate.cutoffs("10, 5，20 5") == (5, 10, 20) and validate.cutoffs([3, "1"]) == (1, 3)
    error = error_of(validate.cutoffs, "2.5")  # whole numbers unless asked to truncate
    assert (error.code, error.fields) == ("k.not_whole", {"place": Place("k"), "value": "2.5"})
    assert validate.cutoffs("2.5", truncate=True) == (2,)
    error = error_of(validate.cutoffs, " ")
    assert (error.code, error.fields) == ("k.none", {})
    assert validate.cutoffs("", required=False) == ()


def test_cutoffs_have_a_largest_value_and_count():
    place = Place("measure.cutoff", measure="'m'")
    error = error_of(validate.cutoffs, "5, 20", place, limit=10)
    assert (error.code, error.fields) == ("k.too_large", {"place": place, "value": "20", "limit": 10})
    assert validate.cutoffs("1, 2, 3, 3", max_count=3) == (1, 2, 3)
    error = error_of(validate.cutoffs, "1, 2, 3, 4", max_count=3)
    assert (error.code, error.fields) == ("k.too_many", {"limit": 3, "count": 4})


@pytest.mark.parametrize("value, quoted", [(True, "True"), ([1], "[1]"), (2.5, "2.5"), (float("inf"), "inf")])
def test_a_whole_number_is_not_a_flag_a_list_or_a_fraction(value, quoted):
    place = Place("option.max_docs")
    error = error_of(validate.whole, value, place)
    assert (error.code, error.fields) == ("k.not_whole", {"place": place, "value": quoted})


def test_a_whole_number_has_a_largest_value():
    place = Place("top_grade")
    assert validate.whole(10, place, high=10) == 10
    error = error_of(validate.whole, 11, place, high=10)
    assert (error.code, error.fields) == ("k.too_large", {"place": place, "value": "11", "limit": 10})
