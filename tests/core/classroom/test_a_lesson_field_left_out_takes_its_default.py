"""A field a lesson file leaves out takes the default its reader is given, exactly (a text's, a choice's, ``""``
included), and one that is required is refused by name whatever its type (``lesson_fields.Reader``)."""

from ndcg_core.classroom.lesson_fields import Field, Reader
from ndcg_core.errors import Place
from support import error_of

FIELDS = [Field("query", "text"), Field("gain", "choice", choices=("linear", "exponential")), Field("n", "whole")]


def reader(table):
    return Reader(table, lambda name: Place("lesson.field", field=name), FIELDS)


def test_a_text_or_choice_left_out_is_its_default_as_given():
    empty = reader({})
    assert empty.text("query", 200, "a query") == "a query"
    assert empty.text("query", 200, "") == ""
    assert empty.choice("gain", ("linear", "exponential"), "exponential") == "exponential"
    assert empty.choice("gain", ("linear", "exponential"), "") == ""


def test_a_field_of_more_than_one_type_left_out_is_none_or_refused_when_required():
    assert reader({}).raw("n", False) is None
    assert reader({"n": [1, 2]}).raw("n", True) == [1, 2]
    error = error_of(reader({}).raw, "n", True)
    assert (error.code, error.fields) == ("lesson.missing", {"place": Place("lesson.field", field="n")})
