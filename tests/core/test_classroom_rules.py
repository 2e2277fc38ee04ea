"""The classroom's rules (``ndcg_core.classroom.rules``): room codes, keys, student ids, nicknames and settings.

Each error is checked by its code and every field, so a message that quotes the wrong value, or none, fails."""

import hashlib

import pytest

from ndcg_core.classroom import rules
from ndcg_core.errors import Place
from support import error_of

# --- room codes, keys, nicknames, settings: each error by its fields ------------------------------------------------


def test_limits_come_from_the_process_environment_by_default(monkeypatch):
    monkeypatch.setenv("NDCG_LAB_MAX_STUDENTS", "7")
    assert rules.Limits.from_environment().max_students == 7


def test_whole_limits_are_read_as_int_and_the_others_as_float():
    limits = rules.Limits.from_environment({"NDCG_LAB_ROOM_HOURS": "1.5", "NDCG_LAB_MAX_STUDENTS": "30"})
    assert limits.room_hours == 1.5 and type(limits.max_students) is int and limits.max_students == 30
    assert type(rules.Limits.from_environment({"NDCG_LAB_ROOM_HOURS": "2"}).room_hours) is float
    assert rules.Limits.from_environment({"NDCG_LAB_ANSWERS_PER_SECOND": "0.5"}).answers_per_second == 0.5
    error = error_of(rules.Limits.from_environment, {"NDCG_LAB_MAX_STUDENTS": "2.5"})
    assert (error.code, error.fields) == ("room.setting", {"name": "NDCG_LAB_MAX_STUDENTS", "value": "'2.5'"})


@pytest.mark.parametrize("value", ["0", "-1", "many"])
def test_a_limit_must_be_a_number_above_zero(value):
    error = error_of(rules.Limits.from_environment, {"NDCG_LAB_ROOM_HOURS": value})
    assert (error.code, error.fields) == ("room.setting", {"name": "NDCG_LAB_ROOM_HOURS", "value": repr(value)})


def test_a_blank_or_missing_code_names_its_place():
    for text in (None, "", " - "):
        error = error_of(rules.read_code, text)
        assert (error.code, error.fields) == ("room.code_blank", {"place": Place("room.code")})
    error = error_of(rules.read_code, None, place="go.code")
    assert (error.code, error.fields) == ("room.code_blank", {"place": Place("go.code")})


def test_a_code_of_the_wrong_length_quotes_at_most_20_characters():
    error = error_of(rules.read_code, "K7P3QX7", place="go.code")
    assert (error.code, error.fields) == (
        "room.code_length",
        {"place": Place("go.code"), "value": "'K7P3QX7'", "length": 6},
    )
    long = "ABCDEFGHJKMNPQRSTUVWXYZ"  # 23 characters
    assert error_of(rules.read_code, long).fields["value"] == "'ABCDEFGHJKMNPQRSTUVW'"


def test_letters_no_code_uses_are_listed_sorted_and_quoted():
    error = error_of(rules.read_code, "k7p3o0", place="go.code")
    assert (error.code, error.fields) == (
        "room.code_letters",
        {"place": Place("go.code"), "value": "'k7p3o0'", "letters": "0, O"},
    )
    long = "K7P3O0" + " " * 30  # trailing separators are forgiven, but the quote stops at 20 characters
    assert error_of(rules.read_code, long).fields["value"] == repr(long[:20])


def test_the_key_is_256_random_bits_and_odd_keys_never_match():
    assert len(rules.new_key()) == 43  # 32 bytes in URL-safe base64, unpadded
    empty = hashlib.sha256(b"").hexdigest()
    assert rules.key_hash("") == empty
    assert not rules.key_matches("", empty)
    assert not rules.key_matches(5, empty) and not rules.key_matches(b"k", empty)
    key = "k" * 200
    assert rules.key_matches(key, hashlib.sha256(key.encode()).hexdigest())
    key = "k" * 201
    assert not rules.key_matches(key, hashlib.sha256(key.encode()).hexdigest())


def test_a_student_id_is_12_random_bytes_and_a_bad_one_is_quoted_shortened():
    sid = rules.new_student_id()
    assert len(sid) == 16 and rules.read_student_id(sid) == sid
    error = error_of(rules.read_student_id, "short")
    assert (error.code, error.fields) == ("room.bad_student", {"value": "'short'"})
    error = error_of(rules.read_student_id, "x" * 15 + "!" + "y" * 10)
    assert error.fields == {"value": repr("x" * 15 + "!" + "y" * 4)}
    assert error_of(rules.read_student_id, None).fields == {"value": "'None'"}


def test_nicknames_refuse_control_characters_and_lone_surrogates():
    assert rules.read_nickname("Xavier") == "Xavier"
    for bad in ("a\x1bb", "a\x7fb", "a\x9fb", "a\u200bb", "a\u200eb", "a\u202ab"):
        error = error_of(rules.read_nickname, bad)
        assert (error.code, error.fields) == ("room.nickname_control", {"value": repr(bad)})
    assert rules.read_nickname("a\xa0b") == "a b"  # a no-break space is a space
    error = error_of(rules.read_nickname, "a\ud800")
    assert (error.code, error.fields) == ("item.not_text", {"place": Place("room.nickname"), "value": "'a\\ud800'"})


@pytest.mark.parametrize(
    "text, cell",
    [("=1", "'=1"), ("+1", "'+1"), ("-1", "'-1"), ("@x", "'@x"), ("\tx", "'\tx"), ("\rx", "'\rx"), ("Ana", "Ana")],
)
def test_a_nickname_that_a_spreadsheet_would_run_gets_a_quote(text, cell):
    assert rules.csv_safe(text) == cell
    assert rules.csv_safe("") == ""


@pytest.mark.parametrize(
    ("now", "left"),
    [(1000.0, 30.0), (1000.0 + 12.5, 30.0 - 12.5), (1000.0 + 30.0, 0.0), (1000.0 + 31.5, 30.0 - 31.5)],
)
def test_the_seconds_left_count_down_from_opening_past_zero(now, left):
    assert rules.seconds_left(1000.0, 30, now) == left
    assert rules.seconds_left(1000.0, None, now) is None  # no time limit
