"""``ndcg_core.errors``: how an ``InputError`` quotes a value, names its place, renders in a language and survives
pickling (tests/ui/test_errors.py raises every code from real input)."""

import pickle
from typing import Literal, get_args

import pytest

from ndcg_core import error_codes, errors
from ndcg_core.errors import InputError, Place, StoreUnavailable, english, shown
from ndcg_core.registry import Registry

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


# --- another layer's codes (the UI layers its own over the core's) ----------------------------------------------------


def test_a_layer_gets_its_own_lookup_over_the_cores_and_a_clash_is_named():
    before = dict(errors.TEMPLATES)
    table = errors.layered(messages={"demo.bad": "{place} is {value}"}, places={"demo.box": "the demo box"})
    assert dict(errors.TEMPLATES) == before and "error.demo.bad" not in errors.TEMPLATES  # the core's is as it was
    assert table["error.demo.bad"] == "{place} is {value}" and table["error.k.required"] == before["error.k.required"]

    class DemoPlace(Place):
        __slots__ = ()
        templates = table

    class DemoError(InputError):
        templates = table

    error = DemoError("demo.bad", place=DemoPlace("demo.box"), value="'x'")  # type: ignore[arg-type]
    assert str(error) == "the demo box is 'x'"
    assert str(InputError("k.not_whole", place=DemoPlace("demo.box"), value="'x'")).startswith("the demo box")
    with pytest.raises(KeyError, match="no template for error.demo.bad"):
        InputError("demo.bad", value="'x'")  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="in the core already: error.k.required, place.k"):
        errors.layered(messages={"k.required": "other", "demo.new": "fine"}, places={"k": "other"})
    with pytest.raises(TypeError):
        errors.TEMPLATES["error.demo.new"] = "no"  # type: ignore[index]


# --- every code has its template, checked when the module loads ---------------------------------------------------


def test_the_codes_and_the_templates_are_checked_against_each_other():
    errors.check_codes(Literal["a.b", "c.d"], {"a.b": "x", "c.d": "y"}, "demo")
    with pytest.raises(
        TypeError, match=r"demo: codes without a template \['c.d'\]; templates without a code \['e.f'\]"
    ):
        errors.check_codes(Literal["a.b", "c.d"], {"a.b": "x", "e.f": "y"}, "demo")
    assert set(get_args(error_codes.Code)) == set(errors.MESSAGES)  # as the module checked when it loaded
    assert set(get_args(error_codes.PlaceCode)) == set(errors.PLACES)


def test_a_registry_whose_unknown_name_has_no_code_is_refused_when_made():
    assert Registry("gain").unknown == "gain.unknown" and Registry("games", unknown="gain.unknown").unknown
    with pytest.raises(KeyError, match="no error code 'games.unknown'"):
        Registry("games")  # a registry made at a module's top: the module does not load
    with pytest.raises(KeyError, match="no error code 'k.too_smal'"):
        errors.error_code("k.too_smal")


def test_a_raise_with_a_code_that_does_not_exist_fails_the_type_check(tmp_path):
    from mypy import api

    (tmp_path / "raises.py").write_text(
        "from ndcg_core.errors import InputError, Place\n"
        'InputError("k.too_small", place=Place("k"), value="0", low=1)\n'
        'InputError("k.too_smal", value="0")\n'
        'Place("kk")\n'
    )
    out, _, status = api.run([str(tmp_path / "raises.py"), "--no-incremental", "--follow-imports=silent"])
    assert status == 1 and out.count("error:") == 2, out
    assert (
        'raises.py:3: error: Argument 1 to "InputError"' in out and 'raises.py:4: error: Argument 1 to "Place"' in out
    )
