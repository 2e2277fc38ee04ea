"""A nickname is drawn on the projector for the whole class: one that holds a format character (Unicode category
Cf: the bidirectional controls that reverse text, zero-width spaces and joiners, the byte-order mark...) or a
letter that draws nothing is refused, and so is one that would show nothing but combining marks, so no name looks
blank, reversed or like someone else's."""

import sys
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.classroom import rules
from support import error_of

FORMAT_CHARACTERS = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
NAMES = st.text(st.characters(categories=("L", "N")), min_size=1, max_size=10)


def test_the_bidi_controls_and_zero_width_characters_the_red_team_used_are_format_characters():
    named = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u200e\u200f\ufeff\u2060\u2064"
    assert set(named) - {"\u200b"} <= set(FORMAT_CHARACTERS)  # U+200B is Cf in Unicode 4.0.1 and later
    assert len(FORMAT_CHARACTERS) > 150  # Python's own table, not a list written here


@given(NAMES, st.sampled_from(FORMAT_CHARACTERS), NAMES, st.booleans())
def test_a_name_with_any_format_character_anywhere_is_refused(before, hidden, after, alone):
    name = hidden if alone else before + hidden + after
    error = error_of(rules.read_nickname, name)
    assert (error.code, error.fields) == ("room.nickname_control", {"value": repr(name.strip())})


@given(NAMES)
def test_a_name_without_them_is_kept_as_typed(name):
    assert rules.read_nickname(name) == name


def test_letters_that_draw_nothing_and_names_of_marks_alone_are_refused():
    for filler in ("\u3164", "\u115f", "\u1160", "\uffa0", "\u2800"):  # Hangul fillers, the blank Braille cell
        assert error_of(rules.read_nickname, f"A{filler}B").code == "room.nickname_control"
    for marks in ("\u0301", "\u0301\u0308", "\u20dd", " \u0301 \u0302 "):
        error = error_of(rules.read_nickname, marks)
        assert (error.code, error.fields) == ("room.nickname_invisible", {"value": repr(" ".join(marks.split()))})
    assert rules.read_nickname("e\u0301") == "e\u0301"  # a letter with its accent shows
    assert rules.read_nickname("!?") == "!?"
