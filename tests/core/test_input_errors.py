"""``ndcg_core.errors``: how an ``InputError`` quotes a value, names its place, renders in a language and survives
pickling (tests/ui/test_errors.py raises every code from real input)."""

import pickle

import pytest

from ndcg_core import errors
from ndcg_core.errors import InputError, Place, StoreUnavailable, english, shown

# --- quoting, places, rendering, pickling ---------------------------------------------------------------------------


class Unprintable:
    def __repr__(self):
        raise RuntimeError("no repr")


def test_shown_quotes_at_most_40_characters():
    assert shown("x" * 38) == repr("x" * 38)  # 40 characters with the quotes: kept whole
    assert shown("x" * 39) == repr("x" * 39)[:37] + "..."
    assert len(shown("x" * 100)) == 40 and shown("x" * 100).endswith("x...")
    assert shown("abcdefghij", limit=8) == "'abcd..."
    assert shown(Unprintable()) == "<Unprintable>"


def test_shown_writes_a_long_whole_number_by_its_digits():
    assert shown(10**39) == str(10**39)  # 40 digits: kept whole
    assert shown(10**40) == "100000000000...(41 digits)"
    assert shown(True) == "True"


def test_places_are_equal_only_with_the_same_code_and_fields():
    assert Place("list.grade", position=1) == Place("list.grade", position=1)
    assert Place("list.grade", position=1) != Place("list.grade", position=2)
    assert Place("k") != Place("seed") and Place("k") != "k"
    assert len({Place("k"), Place("k"), Place("seed")}) == 2


def test_an_error_says_only_its_message_unless_there_is_more():
    assert str(InputError("k.required")) == "this metric needs k, for example k=10"
    assert str(InputError("k.required", more=1)).endswith("\n1 more bad line")
    assert str(InputError("k.required", more=2)).endswith("\n2 more bad lines")


def test_a_quoted_line_is_shortened_at_80_characters():
    line = "q1 0 " + "d" * 100
    error = InputError("qrels.no_lines", file="f", quote=line)
    assert str(error) == f"f has no judgments, only comments or blank lines (the line reads {repr(line)[:77]}...)"
    assert len(shown(line, 80)) == 80


def test_a_page_renders_places_in_its_own_language():
    def other(key):
        return "Note {position}" if key == "place.list.grade" else english(key)

    error = InputError("number.nan", place=Place("list.grade", position=2))
    assert error.render(other) == "Note 2 is NaN: enter a number"


def test_an_error_survives_pickling():
    inner = InputError("k.required")
    error = InputError("qrels.no_lines", file="f", quote="x y", also=(inner,), more=3)
    again = pickle.loads(pickle.dumps(error))
    assert (again.code, again.fields, again.quote, again.more) == ("qrels.no_lines", {"file": "f"}, "x y", 3)
    assert [e.code for e in again.also] == ["k.required"] and str(again) == str(error)


def test_a_code_or_fields_without_a_template_are_our_bug_and_say_so():
    with pytest.raises(KeyError, match="^'no template for error.no.such'$"):
        InputError("no.such")
    with pytest.raises(TypeError, match=r"^error\.k\.required takes the fields \[\], got \['extra'\]$"):
        InputError("k.required", extra=1)
    with pytest.raises(TypeError, match=r"^place\.list\.grade takes the fields \['position'\], got \[\]$"):
        Place("list.grade")


# --- an outage of the classroom's store ---------------------------------------------------------------------------


def test_an_outage_says_its_english_and_survives_pickling():
    outage = StoreUnavailable("store.read_only")
    assert str(outage) == english("error.store.read_only") == outage.render()
    again = pickle.loads(pickle.dumps(outage))
    assert (type(again), again.code, again.fields, str(again)) == (StoreUnavailable, "store.read_only", {}, str(outage))
    with pytest.raises(KeyError, match="no outage store.gone"):
        StoreUnavailable("store.gone")


# --- another layer's codes (the UI registers its own) ---------------------------------------------------------------


def test_a_layer_registers_its_codes_and_places_once_and_a_clash_is_named(monkeypatch):
    monkeypatch.setattr(errors, "TEMPLATES", dict(errors.TEMPLATES))
    errors.register(messages={"demo.bad": "{place} is {value}"}, places={"demo.box": "the demo box"})
    errors.register(messages={"demo.bad": "{place} is {value}"})  # the same table again changes nothing
    error = InputError("demo.bad", place=Place("demo.box"), value="'x'")
    assert str(error) == "the demo box is 'x'"
    with pytest.raises(KeyError, match="these codes have a template already: error.demo.bad, error.k.required"):
        errors.register(messages={"demo.bad": "other", "k.required": "other", "demo.new": "fine"})
    assert "error.demo.new" not in errors.TEMPLATES  # nothing of a refused table is kept
