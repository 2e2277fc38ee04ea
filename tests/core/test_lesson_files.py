"""Lesson files: the shipped lessons check, every field's bad value in a real file is refused with its code and
place, a lesson written out reads back the same, the JSON Schema is the reader's, and the check command says
one line and exits 2 instead of a traceback."""

import json
import math
import re
import subprocess
import sys
import tomllib
from math import log2
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.classroom.__main__ import main as classroom_command
from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.compare import Compare, Pair
from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.practice import Practice
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import Rank
from ndcg_core.classroom.lessons import (
    ACTIVITY_FIELDS,
    LESSON_FIELDS,
    SCHEMA_FILE,
    Lesson,
    Step,
    Wording,
    json_schema,
    lesson_from_data,
    lesson_to_toml,
    read_lesson,
    read_lesson_file,
)
from ndcg_core.errors import InputError
from support import ROOT

LESSONS = sorted((ROOT / "lessons").glob("*.toml"))

PREDICT = """\
format = 1
title = "A lesson"

[[activity]]
kind = "predict"
items = ["doc A", "doc B", "doc C"]
grades = [3, 0, 2]
k = 3
"""


def test_the_shipped_lessons_are_english_and_chinese_and_check():
    assert [p.name for p in LESSONS] == ["ndcg-in-20-minutes.en.toml", "ndcg-in-20-minutes.zh.toml"]
    en, zh = (read_lesson_file(p) for p in LESSONS)
    assert (en.title, zh.title) == ("NDCG in 20 minutes", "20 分钟学会 NDCG")
    assert [s.activity.kind for s in en.steps] == [s.activity.kind for s in zh.steps]
    assert {s.activity.kind for s in en.steps} == {"predict", "rank", "compare", "practice", "judge", "choose"}


def test_the_shipped_lessons_hold_the_seeds_worked_examples():
    lesson = read_lesson_file(LESSONS[0])
    first, second = lesson.steps[0].activity, lesson.steps[1].activity
    assert isinstance(first, Predict) and isinstance(second, Predict)
    # Seed 000: dcg([3, 0, 2]) = 3 + 0 + 1 = 4; the ideal order is 3, 2, 0.
    assert first.truth() == pytest.approx(4 / (3 + 2 / log2(3)))
    # Seed 002: [3, 2, 3, 0, 1] has NDCG about 0.97.
    dcg = 3 + 2 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6)
    idcg = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
    assert second.truth() == pytest.approx(dcg / idcg) and round(second.truth(), 2) == 0.97
    rank = lesson.steps[3].activity
    assert isinstance(rank, Rank) and not rank.show_grades
    # Seed 003: the Chengdu food search, NDCG@5 = 0.929.
    assert round(rank.spec.ndcg(), 3) == 0.929
    mrr, ndcg = lesson.steps[5].activity, lesson.steps[6].activity
    assert isinstance(mrr, Compare) and isinstance(ndcg, Compare)
    assert mrr.verdict("mrr") == "same" and ndcg.verdict("ndcg") == "a"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_the_check_command_prints_the_outline_of_a_shipped_lesson(path, capsys):
    assert classroom_command(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 + 9
    assert out[9].startswith("  9. Which is right?") and "(no_normalisation)" in out[9] and "(right)" in out[9]
    assert out[1].startswith("  1. Predict the NDCG: 3 results, grades 3, 0, 2; NDCG@3 (linear gain, log2 discount")
    asked = tomllib.loads(path.read_text(encoding="utf-8"))["activity"][0]["question"]  # the file's own wording
    assert out[1].endswith(f'= 0.9386; asks "{asked.get("en") or asked["zh"]}"; 90 s to answer')


# --- every field's bad value, from a real file ---------------------------------------------------------------

# (what to change in the Predict lesson above, the code, the field named). A change is "field = TOML value",
# or "-field" to leave a field out; a change in the top table starts with "top:".
BAD = [
    ("top:format = 2", "lesson.format", "format"),
    ("top:format = 'one'", "lesson.not_whole", "format"),
    ("top:-format", "lesson.missing", "format"),
    ("top:title = 3", "lesson.not_text", "title"),
    ("top:title = '  '", "lesson.text_blank", "title"),
    ("top:title = '" + "t" * 121 + "'", "lesson.text_long", "title"),
    ("top:scores = 'yes'", "lesson.not_bool", "scores"),
    ("top:scale = [0]", "lesson.scale", "scale"),
    ("top:scale = [4, 0]", "lesson.problem", "scale"),
    ("top:author = 'me'", "lesson.unknown_field", "author"),
    ("kind = 'quiz'", "lesson.choice", "kind"),
    ("-kind", "lesson.missing", "kind"),
    ("question = 'Why?'", "lesson.not_table", "question"),
    ("question = { fr = 'Pourquoi ?' }", "lesson.unknown_field", "question.fr"),
    ("question = { en = 3 }", "lesson.not_text", "question.en"),
    ("question = { en = '" + "q" * 501 + "' }", "lesson.text_long", "question.en"),
    ("time_limit = 4", "lesson.out_of_range", "time_limit"),
    ("time_limit = 'a minute'", "lesson.not_whole", "time_limit"),
    ("points = -1", "lesson.out_of_range", "points"),
    ("points = 1001", "lesson.out_of_range", "points"),
    ("points = 2.5", "lesson.not_whole", "points"),
    ("points = true", "lesson.not_whole", "points"),
    ("query = ['a']", "lesson.not_text", "query"),
    ("query = '" + "q" * 201 + "'", "lesson.text_long", "query"),
    ("items = 'doc A'", "lesson.not_list", "items"),
    ("items = ['doc A', 2, 'doc C']", "lesson.item_not_text", "items"),
    ("items = ['doc A', '', 'doc C']", "lesson.item_blank", "items"),
    ("items = ['doc A', '" + "d" * 121 + "', 'doc C']", "lesson.item_long", "items"),
    ("-items", "lesson.missing", "items"),
    ("grades = [3, 'high', 2]", "lesson.grade", "grades"),
    ("grades = [3, -1, 2]", "lesson.grade_negative", "grades"),
    ("grades = [3, nan, 2]", "lesson.grade", "grades"),
    ("grades = [3, 0]", "lesson.count", "grades"),
    ("k = 2.5", "lesson.not_whole", "k"),
    ("k = 4", "lesson.problem", None),
    ("gain = 'cubic'", "lesson.choice", "gain"),
    ("discount = 'log10'", "lesson.choice", "discount"),
    ("missed = [3, true]", "lesson.grade", "missed"),
    ("show_grades = true", "lesson.unknown_field", "show_grades"),
]


def _file_with(tmp_path: Path, change: str, text: str = PREDICT) -> Path:
    top, activity = text.split("[[activity]]\n")
    where, _, change = change.rpartition(":")
    if change.startswith("-"):
        drop = change[1:] + " ="
        if where == "top":
            top = "\n".join(line for line in top.splitlines() if not line.startswith(drop)) + "\n"
        else:
            activity = "\n".join(line for line in activity.splitlines() if not line.startswith(drop)) + "\n"
    elif where == "top":
        name = change.split(" =")[0]
        top = "\n".join(line for line in top.splitlines() if not line.startswith(name + " =")) + "\n"
        top += change + "\n"
    else:
        name = change.split(" =")[0]
        activity = "\n".join(line for line in activity.splitlines() if not line.startswith(name + " =")) + "\n"
        activity += change + "\n"
    path = tmp_path / "lesson.toml"
    path.write_text(top + "[[activity]]\n" + activity, encoding="utf-8")
    return path


@pytest.mark.parametrize(("change", "code", "field"), BAD, ids=[b[0][:40] for b in BAD])
def test_a_bad_field_in_a_file_is_refused_with_its_code_and_place(tmp_path, change, code, field):
    path = _file_with(tmp_path, change)
    with pytest.raises(InputError) as caught:
        read_lesson_file(path)
    error = caught.value
    assert error.code == code, str(error)
    place = error.fields.get("place")
    if field is None:  # a check of the activity itself: the activity is named, and the problem inside it
        assert place.code == "lesson.activity" and place.fields == {"number": 1, "kind": "predict"}
        assert error.fields["problem"].code == "k.too_large"
        return
    if change.startswith("top:"):
        assert place.code == "lesson.field" and place.fields == {"field": field}
    else:
        assert place.code == "lesson.activity_field"
        assert place.fields["field"] == field and place.fields["number"] == 1


def test_every_field_of_the_format_has_a_bad_value_test():
    tested = {b[2] for b in BAD if b[0].startswith("top:")}
    assert {f.name for f in LESSON_FIELDS} <= tested
    tested_activity = {b[2] for b in BAD if not b[0].startswith("top:")} | {"k"}
    assert {f.name for f in ACTIVITY_FIELDS["predict"]} <= tested_activity
    # Fields only other kinds have are tested below, each with a real file of its kind.
    others = {f.name for fields in ACTIVITY_FIELDS.values() for f in fields} - {
        f.name for f in ACTIVITY_FIELDS["predict"]
    }
    assert others == {"show_grades", "a", "b", "metric", "seed", "exercises", "scale", "options"}
    assert others <= {b[1] for b in OTHER_KINDS}


RANK = PREDICT.replace('"predict"', '"rank"')
COMPARE = """\
format = 1
title = "t"

[[activity]]
kind = "compare"
metric = "ndcg"
k = 2
a = { items = ["x", "y"], grades = [3, 0] }
b = { items = ["y", "x"], grades = [0, 3] }
"""
PRACTICE = """\
format = 1
title = "t"

[[activity]]
kind = "practice"
seed = 3
exercises = 4
"""
JUDGE = PREDICT.replace('"predict"', '"judge"')
CHOOSE = PREDICT.replace('"predict"', '"choose"')

# (a lesson of that kind, the field, a change, the code)
OTHER_KINDS = [
    (RANK, "show_grades", "show_grades = 'no'", "lesson.not_bool"),
    (COMPARE, "a", "a = ['x', 'y']", "lesson.not_table"),
    (COMPARE, "a", "a = { items = ['x', 'y'] }", "lesson.missing"),
    (COMPARE, "b", "b = { items = ['y', 'x'], grades = [0, 2] }", "lesson.grade_disagrees"),
    (COMPARE, "b", "b = { items = ['y'], grades = [0, 3] }", "lesson.count"),
    (COMPARE, "b", "b = { items = ['y', 'x'], grades = [0, 3], score = 1 }", "lesson.unknown_field"),
    (COMPARE, "metric", "metric = 'map'", "lesson.choice"),
    (COMPARE, "k", "k = 3", "lesson.out_of_range"),
    (PRACTICE, "seed", "seed = -1", "lesson.problem"),
    (PRACTICE, "exercises", "exercises = ['dcg', 'reach']", "lesson.exercise_kind"),
    (PRACTICE, "exercises", "exercises = 11", "lesson.problem"),
    (PRACTICE, "exercises", "exercises = []", "lesson.out_of_range"),
    (JUDGE, "scale", "scale = [0, 2]", "lesson.problem"),  # the teacher's grade 3 is off that scale
    (JUDGE, "scale", "scale = [0, 20]", "lesson.problem"),
    (JUDGE, "missed", "missed = [3]", "lesson.unknown_field"),
    (CHOOSE, "options", "options = 'no_normalisation'", "lesson.not_list"),
    (CHOOSE, "options", "options = ['ideal_from_list']", "lesson.problem"),  # no result was missed
    (CHOOSE, "options", "options = ['a', 'b', 'c', 'd']", "lesson.out_of_range"),
    (CHOOSE, "seed", "seed = 'random'", "lesson.not_whole"),
]


@pytest.mark.parametrize(("text", "field", "change", "code"), OTHER_KINDS, ids=[o[2][:40] for o in OTHER_KINDS])
def test_a_bad_field_of_another_kind_is_refused_with_its_code(tmp_path, text, field, change, code):
    path = _file_with(tmp_path, change, text)
    with pytest.raises(InputError) as caught:
        read_lesson_file(path)
    assert caught.value.code == code, str(caught.value)
    assert f"activity 1 ({text.split('kind = ')[1].split()[0].strip(chr(34))})" in str(caught.value)


# What the teacher reads for each problem, word for word: every field of the message (counts, the grades that
# disagree, the range, the exercise's position) and its place.
MESSAGES = [
    (PREDICT, "grades = [3, 0]", "activity 1 (predict), field grades: 2 grades for 3 items; give one grade per item"),
    (COMPARE, "-a", "activity 1 (compare), field a is missing"),
    (COMPARE, "a = { items = ['x', 'y'] }", "activity 1 (compare), field a.grades is missing"),
    (
        COMPARE,
        "a = { items = ['x', 'x'], grades = [3, 0] }",
        "activity 1 (compare), field a.grades: 'x' has grade 3 in one ranking and 0 in the other; a result has one "
        "grade",
    ),
    (
        COMPARE,
        "b = { items = ['y', 'x'], grades = [0, 2] }",
        "activity 1 (compare), field b.grades: 'x' has grade 3 in one ranking and 2 in the other; a result has one "
        "grade",
    ),
    (
        COMPARE,
        "b = { items = ['y'], grades = [0, 3] }",
        "activity 1 (compare), field b.grades: 2 grades for 1 items; give one grade per item",
    ),
    (COMPARE, "k = 3", "activity 1 (compare), field k is 3: it must be 1 to 2"),
    (COMPARE, "k = 0", "activity 1 (compare), field k is 0: it must be 1 to 2"),
    (
        PRACTICE,
        "exercises = ['dcg', 'reach']",
        "activity 1 (practice), field exercises: exercise 2 is 'reach'; choose from dcg_term, dcg, ndcg, "
        "better_order, swap, gap",
    ),
    (PRACTICE, "exercises = []", "activity 1 (practice), field exercises is 0: it must be 1 to 10"),
    (PRACTICE, "-exercises", "activity 1 (practice), field exercises is missing"),
    (
        PRACTICE,
        f"exercises = {['dcg'] * 11}",
        "activity 1 (practice), field exercises is 11: it must be 1 to 10",
    ),
    (PRACTICE, "seed = -1\nexercises = ['dcg']", "activity 1 (practice): the seed must be 0 to 1000000000, got -1"),
]


@pytest.mark.parametrize(
    ("text", "change", "message"), MESSAGES, ids=[re.sub(r"\W+", "_", m[1]).strip("_")[:40] for m in MESSAGES]
)
def test_a_problem_is_worded_with_every_field_of_its_message(tmp_path, text, change, message):
    *others, last = change.split("\n")
    for line in others:
        text = _file_with(tmp_path, line, text).read_text(encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_lesson_file(_file_with(tmp_path, last, text))
    assert str(caught.value) == message


def test_a_practice_may_name_one_to_ten_kinds_and_a_kind_again_takes_its_next_exercise(tmp_path):
    def numbers(change):
        return read_lesson_file(_file_with(tmp_path, change, PRACTICE)).steps[0].activity.numbers

    kinds = ("dcg_term", "dcg", "ndcg", "better_order", "swap", "gap")  # exercise n is of kind n mod 7 (5: reach)
    assert numbers("exercises = ['dcg']") == (1,)
    assert numbers(f"exercises = {list(kinds) + ['dcg'] * 4}") == (0, 1, 2, 3, 4, 6, 1 + 7, 1 + 14, 1 + 21, 1 + 28)
    assert numbers("exercises = ['swap', 'swap', 'swap']") == (4, 4 + 7, 4 + 14)


def test_a_compare_may_cut_at_1(tmp_path):
    compare = read_lesson_file(_file_with(tmp_path, "k = 1", COMPARE)).steps[0].activity
    assert isinstance(compare, Compare) and compare.pair.k == 1


def test_the_lesson_as_a_whole_is_checked(tmp_path):
    head = 'format = 1\ntitle = "t"\n'
    cases = [
        (head, "lesson.no_activities"),
        (head + "activity = 3\n", "lesson.not_list"),
        (head + "activity = [3]\n", "lesson.not_activity"),
        (head + "[[activity]]\nkind='practice'\nseed=1\nexercises=1\n" * 51, "lesson.too_many"),
        ('title = "t"\n[[activity]\n', "lesson.syntax"),
        ('title = "t', "lesson.syntax_end"),
        ("  \n", "file.empty"),
    ]
    for text, code in cases:
        (tmp_path / "l.toml").write_text(text, encoding="utf-8")
        with pytest.raises(InputError) as caught:
            read_lesson_file(tmp_path / "l.toml")
        assert caught.value.code == code, (text, str(caught.value))
    (tmp_path / "l.toml").write_bytes(b'title = "t"\n\xff\n')
    with pytest.raises(InputError, match="line 2 of l.toml"):
        read_lesson_file(tmp_path / "l.toml")
    with pytest.raises(InputError) as caught:
        read_lesson_file(tmp_path / "missing.toml")
    assert caught.value.code == "file.missing"
    with pytest.raises(InputError) as caught:
        read_lesson_file(tmp_path)
    assert caught.value.code == "file.folder"


def test_a_syntax_error_names_the_line_and_column():
    with pytest.raises(InputError) as caught:
        read_lesson('format = 1\ntitle = "t"\nscores = maybe\n', "mine.toml")
    assert (caught.value.fields["line"], caught.value.fields["column"]) == (3, 10)
    assert str(caught.value).startswith("mine.toml, line 3, column 10: this is not valid TOML")


# --- writing and reading back ----------------------------------------------------------------------------------


def _every_option() -> Lesson:
    spec = activity_list(("a", "b", "c"), (2, 0, 1.5), 2, "exponential", (3,), "a query", "jk")
    pair = Pair(("x", "y"), (3, 0), ("z", "x"), (1, 3), (3, 0, 1, 2), 2)
    return Lesson(
        "Every option",
        (
            Step(Predict(spec), Wording("In English?", "中文？"), 45),
            Step(Rank(spec, "", True)),
            Step(Compare(pair, "precision", "", "q")),
            Step(Practice(5, (0, 7, 4))),
            Step(Practice(5, (0, 1, 2))),
            Step(Judge(activity_list(("a", "b"), (1, 2), 2), Scale(1, 3)), Wording(zh="只有中文")),
            Step(Judge(activity_list(("a", "b"), (0, 4), 1))),
        ),
        True,
        Scale(0, 4),
    )


def test_a_lesson_written_out_reads_back_the_same():
    lesson = _every_option()
    text = lesson_to_toml(lesson)
    assert text.startswith("# An NDCG Lab lesson")
    assert read_lesson(text) == lesson
    for path in LESSONS:
        shipped = read_lesson_file(path)
        assert read_lesson(lesson_to_toml(shipped)) == shipped


def test_a_question_falls_back_to_the_other_language_then_to_the_standard_one():
    assert Wording("Why?", "").get("zh") == "Why?" and Wording("", "为什么？").get("en") == "为什么？"
    assert Wording("Why?", "为什么？").get("zh") == "为什么？" and Wording().get("en") == ""


# --- the JSON Schema ------------------------------------------------------------------------------------------


def test_the_shipped_schema_is_the_one_the_reader_makes():
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == json_schema(), (
        "run: python -m ndcg_core.classroom schema --write"
    )
    jsonschema.Draft202012Validator.check_schema(json_schema())


def test_the_schema_accepts_every_good_lesson_and_refuses_what_the_reader_refuses(tmp_path):
    validator = jsonschema.Draft202012Validator(json_schema())
    for path in LESSONS:
        validator.validate(tomllib.loads(path.read_text(encoding="utf-8")))
    validator.validate(tomllib.loads(lesson_to_toml(_every_option())))
    # Type and shape problems are for the schema too (values such as k beyond the list are the reader's alone).
    shape = {
        "lesson.missing",
        "lesson.unknown_field",
        "lesson.not_text",
        "lesson.not_whole",
        "lesson.not_bool",
        "lesson.choice",
        "lesson.not_list",
        "lesson.not_table",
        "lesson.item_not_text",
        "lesson.scale",
        "lesson.out_of_range",
        "lesson.grade_negative",
    }
    for change, code, _ in BAD:
        if code in shape and "nan" not in change:
            data = tomllib.loads(_file_with(tmp_path, change).read_text(encoding="utf-8"))
            assert not validator.is_valid(data), change


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=True) | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(
                    ["kind", "items", "grades", "k", "a", "b", "seed", "exercises", "question", "scale", "en", "metric"]
                ),
                inner,
                max_size=6,
            )
        ),
        max_leaves=20,
    )
)
def test_any_table_is_a_lesson_or_an_input_error(activity):
    data = {"format": 1, "title": "t", "activity": [activity]}
    try:
        lesson = lesson_from_data(data)
    except InputError:
        return
    assert isinstance(lesson, Lesson)


# --- the command ---------------------------------------------------------------------------------------------------


def test_the_check_command_says_one_line_and_exits_2(tmp_path):
    path = _file_with(tmp_path, "grades = [3, -1, 2]")
    done = subprocess.run(
        [sys.executable, "-m", "ndcg_core.classroom", "check", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"{path}: activity 1 (predict), field grades: grade 2 is -1; grades cannot be negative\n")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "missing.toml: no such file"),
        (b"\xff\xfe", "line 1 of lesson.toml: not UTF-8 text; is this a binary file?"),
        (b"format = ", "lesson.toml: this is not valid TOML; it ends too soon"),
        (b"format = 1\ntitle = 't'\n[[activity]]\nkind = 'judge'\n", "activity 1 (judge), field items is missing"),
    ],
)
def test_the_check_command_never_shows_a_traceback(tmp_path, capsys, content, expected):
    path = tmp_path / ("missing.toml" if content is None else "lesson.toml")
    if content is not None:
        path.write_bytes(content)
    assert classroom_command(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and expected in err and "Traceback" not in err


def test_every_number_the_outline_prints_comes_from_the_core(capsys):
    lesson = read_lesson(PREDICT)
    assert classroom_command(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == json_schema()
    truth = 4 / (3 + 2 / log2(3))
    assert math.isclose(lesson.steps[0].activity.truth(), truth)


def test_the_docs_example_lesson_reads_and_has_every_kind():
    text = (ROOT / "docs" / "lecturer" / "lessons.md").read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    lesson = read_lesson(example, "lessons.md")
    assert {step.activity.kind for step in lesson.steps} == set(ACTIVITY_FIELDS)
    assert lesson.scores and lesson.scale.high == 3
