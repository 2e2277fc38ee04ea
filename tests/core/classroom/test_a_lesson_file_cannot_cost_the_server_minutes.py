"""A lesson file that would keep ``tomllib`` busy for minutes (one dotted key of thousands of parts), or make it
recurse past Python's limit (thousands of nested lists or tables), or that is simply large, is refused before
``tomllib`` reads it, with its code, the file's name and the line; a bracket or a dot inside a string or a comment
counts for nothing. (How long each refusal takes is in docs/benchmarks.md: the checks make it a moment.)"""

from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.classroom import lesson_shape
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lesson_fields import Wording
from ndcg_core.classroom.lesson_shape import MAX_DEPTH, MAX_KEY_PARTS
from ndcg_core.classroom.lessons import MAX_FILE_BYTES, Lesson, Step, lesson_to_toml, read_lesson
from ndcg_core.errors import InputError
from support import error_of

HEAD = 'format = 1\ntitle = "A lesson"\n'
ACTIVITY = '\n[[activity]]\nkind = "predict"\nitems = ["a", "b", "c"]\ngrades = [3, 0, 2]\nk = 3\n'


def dotted(parts: int) -> str:
    return ".".join(["a"] * parts)


def code_of(text: str) -> str | None:
    """The code ``read_lesson`` refuses ``text`` with (``None``: it reads)."""
    try:
        read_lesson(text, "mine.toml")
    except InputError as error:
        return error.code
    return None


def test_a_file_larger_than_a_lesson_is_refused_by_its_size_first():
    # The red team's file: 200 KB of one dotted table header (36 s of tomllib).
    bomb = ("[" + dotted(100_000) + "]\n").encode()
    error = error_of(read_lesson, bomb, "bomb.toml")
    assert (error.code, error.fields) == ("lesson.too_large", {"file": "bomb.toml", "count": len(bomb), "limit": 65536})
    text = HEAD + "# " + "x" * MAX_FILE_BYTES + "\n"  # the same limit for text (the editor's, a saved lesson's)
    assert error_of(read_lesson, text).code == "lesson.too_large"


@pytest.mark.parametrize(
    ("where", "make"),
    [
        ("a table header", lambda parts: f"[{dotted(parts)}]\nx = 1\n"),
        ("an array of tables", lambda parts: f"[[{dotted(parts)}]]\nx = 1\n"),
        ("a key", lambda parts: f"{dotted(parts)} = 1\n"),
        ("a key in an inline table", lambda parts: f"x = {{ {dotted(parts)} = 1 }}\n"),
        ("quoted parts with spaces", lambda parts: "[" + " . ".join(['"a"'] * parts) + "]\n"),
    ],
)
def test_a_key_of_too_many_dotted_parts_is_refused_with_its_line(where, make):
    within = HEAD + ACTIVITY + make(MAX_KEY_PARTS)
    assert code_of(within) != "lesson.key_parts", where
    # 5,000 parts fit in the size limit: tomllib took seconds over such a key, and minutes over 30,000.
    text = HEAD + ACTIVITY + make(5_000)
    error = error_of(read_lesson, text, "mine.toml")
    line = HEAD.count("\n") + ACTIVITY.count("\n") + 1
    assert (error.code, error.fields) == ("lesson.key_parts", {"file": "mine.toml", "line": line, "limit": 8}), where


@pytest.mark.parametrize(
    ("where", "make"),
    [
        ("lists", lambda n: "x = " + "[" * n + "]" * n + "\n"),
        ("inline tables", lambda n: "x = " + "{ a = " * n + "1" + " }" * n + "\n"),
        ("lists never closed", lambda n: "x = " + "[" * n + "\n"),
        ("lists and tables over lines", lambda n: "x = [\n" + "{ a = [\n" * n),
    ],
)
def test_values_nested_too_deep_are_refused_with_the_line_of_the_level_too_many(where, make):
    assert code_of(HEAD + make(2)) != "lesson.too_deep", where
    text = HEAD + make(5_000)
    error = error_of(read_lesson, text, "mine.toml")
    assert error.code == "lesson.too_deep", where
    assert error.fields["file"] == "mine.toml" and error.fields["limit"] == MAX_DEPTH == 8
    # The line of the first bracket past the limit: the 9th one opened.
    opened = [i for i, c in enumerate(text) if c in "[{"][MAX_DEPTH]
    assert error.fields["line"] == text.count("\n", 0, opened) + 1, where


def test_a_recursion_error_from_tomllib_is_a_message_never_a_traceback():
    # Were the shape check ever to let a file through, tomllib's RecursionError is still refused as input.
    with mock.patch("ndcg_core.classroom.lessons.check_shape"):
        error = error_of(read_lesson, HEAD + "x = " + "[" * 20_000, "deep.toml")
    assert (error.code, error.fields) == ("lesson.nested", {"file": "deep.toml"})


def test_brackets_and_dots_in_strings_and_comments_count_for_nothing():
    noise = "[[[[[[[[[[{{{{{{{{{{ " + dotted(40) + " ]]]]"
    text = (
        HEAD
        + f"# {noise}\n"
        + ACTIVITY
        + f'question = {{ en = "{noise} \\" {noise}", zh = \'{noise}\' }}  # {noise}\n'
        + 'query = """[[ a.b.c.d.e.f.g.h.i.j \\""" ]]"""\n'
    )
    lesson = read_lesson(text)
    assert lesson.steps[0].question.en == f'{noise} " {noise}'
    assert lesson.steps[0].activity.spec.query == '[[ a.b.c.d.e.f.g.h.i.j """ ]]'
    multi = HEAD + ACTIVITY + f"query = '''{noise}'''\n"
    assert read_lesson(multi).steps[0].activity.spec.query == noise


def test_a_lesson_of_dotted_keys_and_tables_as_people_write_them_reads():
    text = HEAD + ACTIVITY + 'question.en = "What is NDCG@3?"\ntime_limit = 60\n'
    assert read_lesson(text).steps[0].question.en == "What is NDCG@3?"
    numbers = HEAD + '\n[[activity]]\nkind = "practice"\nexercises = ["dcg", "ndcg"]\nseed = 1_000\n'
    lesson_shape.check_shape(numbers + "x = [1.5, -2.5e-3, 1979-05-27T07:32:00.999-07:00, +inf, 0x1F]\n", "f.toml")


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300))
def test_any_wording_written_out_by_the_app_passes_the_shape_check(words):
    words = words.strip() or "x"
    step = Step(Predict(activity_list(("a", "b"), (3, 0), 2)), Wording(en=words[:500]))
    lesson_shape.check_shape(lesson_to_toml(Lesson("t", (step,))), "f.toml")  # raises nothing


NOISE = "[[[[[[[[[ " + dotted(MAX_KEY_PARTS + 1) + " ]"  # too deep and too many parts, were it not in a string
STRINGS = [
    f"'{NOISE}'",
    "''",
    '""',
    f"'{NOISE} \" '",
    f'"{NOISE} \' "',
    f'"{NOISE} \\" {NOISE}"',
    f'"{NOISE} \\\\"',  # an escaped backslash, then the closing quote
    f"'''{NOISE}\n{NOISE}'''",
    f"'''{NOISE}'''",
    f"'''{NOISE}''''",  # one quote of its own before the closing three
    f"'''{NOISE}'''''",  # two
    f'"""{NOISE}\n{NOISE}"""',
    f'"""{NOISE} \\""" {NOISE}"""',
    f'"""{NOISE} \\\\"""',
    f'"""{NOISE}""""',
    f'"""{NOISE}"""""',
]


@pytest.mark.parametrize("string", STRINGS)
def test_the_shape_check_skips_a_string_to_its_closing_quote_exactly(string):
    # Brackets right after the string count from its closing quote on, on the line the string ends on.
    error = error_of(lesson_shape.check_shape, "x = " + string + "[" * (MAX_DEPTH + 1), "f.toml")
    assert (error.code, error.fields["line"]) == ("lesson.too_deep", 1 + string.count("\n"))
    parts = error_of(lesson_shape.check_shape, f"x = {string}\n{dotted(MAX_KEY_PARTS + 1)} = 1", "f.toml")
    assert (parts.code, parts.fields["line"]) == ("lesson.key_parts", 2 + string.count("\n"))


@pytest.mark.parametrize("opening", ["'", '"'])
def test_a_string_left_open_ends_at_its_line_or_if_it_may_span_lines_at_the_files_end(opening):
    error = error_of(lesson_shape.check_shape, f"x = {opening}{NOISE}\n" + "[" * (MAX_DEPTH + 1), "f.toml")
    assert (error.code, error.fields["line"]) == ("lesson.too_deep", 2)
    lesson_shape.check_shape(f"x = {opening * 3}{NOISE}\n" + "[" * (MAX_DEPTH + 1), "f.toml")  # tomllib's to refuse


def test_the_line_told_counts_a_blank_first_line_and_words_side_by_side_are_no_dotted_key():
    error = error_of(lesson_shape.check_shape, "\n" + "[" * (MAX_DEPTH + 1), "f.toml")
    assert error.fields["line"] == 2
    lesson_shape.check_shape(" ".join(["a"] * (MAX_KEY_PARTS + 1)) + " = 1\n", "f.toml")  # tomllib's to refuse
    assert code_of(HEAD + " ".join(["a"] * (MAX_KEY_PARTS + 1)) + " = 1\n") == "lesson.syntax"
