"""A lesson file's problem, word for word: every field of each message (the value quoted, the position, the count
and the limit, the choices, the place), the limits' edges accepted, the check command's outline head, a lesson
written out with only what differs from the defaults, and a lesson's activities replaced as a file's are checked."""

import tomllib
from pathlib import Path

import pytest

from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.practice import Practice
from ndcg_core.classroom.lessons import (
    MAX_ACTIVITIES,
    MAX_FILE_BYTES,
    Lesson,
    Step,
    Wording,
    lesson_to_toml,
    outline,
    read_lesson,
    read_lesson_file,
    with_steps,
)
from ndcg_core.errors import InputError

TOP = 'format = 1\ntitle = "A lesson"\n'
PREDICT = 'kind = "predict"\nitems = ["doc A", "doc B", "doc C"]\ngrades = [3, 0, 2]\nk = 3\n'
COMPARE = (
    'kind = "compare"\nmetric = "ndcg"\nk = 2\n'
    'a = { items = ["x", "y"], grades = [3, 0] }\nb = { items = ["y", "x"], grades = [0, 3] }\n'
)
KINDS = "predict, rank, compare, practice, judge, choose"


def _lesson(top: str = TOP, activity: str = PREDICT, change: str = "") -> str:
    """The lesson with ``change`` (``field = value`` lines, or ``-field`` to drop one) made to its activity, or to
    its top table when a line starts with ``top:``."""
    for line in change.splitlines():
        where, _, line = line.rpartition(":")
        name = line.lstrip("-").split(" =")[0]
        kept = "".join(f"{t}\n" for t in (top if where else activity).splitlines() if not t.startswith(f"{name} ="))
        kept += "" if line.startswith("-") else line + "\n"
        top, activity = (kept, activity) if where else (top, kept)
    return top + "\n[[activity]]\n" + activity


def _message(text: str) -> str:
    with pytest.raises(InputError) as caught:
        read_lesson(text.encode("utf-8"), "mine.toml")
    return str(caught.value)


FIELD = "activity 1 (predict), field"
# (change, the message word for word)
WORDED = [
    (
        "top:author = 'me'",
        "field author is not a field of the format here; the fields are format, title, scores, scale, activity",
    ),
    ("top:-title", "field title is missing"),
    ("top:title = 3", "field title is 3: write text in quotes"),
    ("top:title = '" + "t" * 121 + "'", "field title has 121 characters; at most 120 fit"),
    ("top:format = 2", "field format is 2: this NDCG Lab reads lesson format 1"),
    ("top:format = 'one'", "field format is 'one': write a whole number"),
    ("top:scores = 'yes'", "field scores is 'yes': write true or false"),
    ("top:scale = [0]", "field scale is [0]: write two whole numbers, such as [0, 4]"),
    ("top:scale = [true, 4]", "field scale is [True, 4]: write two whole numbers, such as [0, 4]"),
    (
        "top:scale = [4, 0]",
        "field scale: a judging scale runs from a whole number, 0 or more, to a higher one at most"
        " 10 above it; 4 to 0 is not one",
    ),
    ("kind = 'quiz'", f"activity 1 (?), field kind is 'quiz'; choose one of {KINDS}"),
    ("kind = 3", f"activity 1 (?), field kind is 3; choose one of {KINDS}"),
    ("-kind", "activity 1 (?), field kind is missing"),
    ("gain = 'cubic'", f"{FIELD} gain is 'cubic'; choose one of linear, exponential"),
    ("question = 'Why?'", f"{FIELD} question is 'Why?': write a table of its fields in braces"),
    (
        "question = { fr = 'Pourquoi ?' }",
        f"{FIELD} question.fr is not a field of the format here; the fields are en, zh",
    ),
    ("question = { en = 3 }", f"{FIELD} question.en is 3: write text in quotes"),
    ("time_limit = 4", f"{FIELD} time_limit is 4: it must be 5 to 3600"),
    ("time_limit = 3601", f"{FIELD} time_limit is 3601: it must be 5 to 3600"),
    ("points = 1001", f"{FIELD} points is 1001: it must be 0 to 1000"),
    ("points = 2.5", f"{FIELD} points is 2.5: write a whole number"),
    ("items = 'doc A'", f"{FIELD} items is 'doc A': write a list in brackets, such as [3, 0, 2]"),
    ("items = ['doc A', 2, 'doc C']", f"{FIELD} items: item 2 is 2; write it as text in quotes"),
    ("items = ['doc A', ' ', 'doc C']", f"{FIELD} items: item 2 is blank"),
    ("items = ['doc A', 'doc B', '" + "d" * 121 + "']", f"{FIELD} items: item 3 has 121 characters; at most 120 fit"),
    ("grades = [3, 'high', 2]", f"{FIELD} grades: grade 2 is 'high', not a number"),
    ("grades = [3, 0, -1]", f"{FIELD} grades: grade 3 is -1; grades cannot be negative"),
]


@pytest.mark.parametrize(("change", "message"), WORDED, ids=[w[0][:40] for w in WORDED])
def test_a_bad_field_is_worded_with_its_value_position_and_limits(change, message):
    assert _message(_lesson(change=change)) == message


def test_the_lesson_as_a_whole_is_worded_in_full():
    assert _message(TOP + "activity = 3\n") == "field activity is 3: write a list in brackets, such as [3, 0, 2]"
    assert _message(TOP + "activity = ['a']\n") == ("activity 1 is 'a': write each activity as an [[activity]] table")
    many = TOP + "[[activity]]\nkind = 'practice'\nseed = 1\nexercises = 1\n" * (MAX_ACTIVITIES + 1)
    assert _message(many) == f"the lesson has {MAX_ACTIVITIES + 1} activities; at most {MAX_ACTIVITIES} fit"
    assert _message("  \n") == "mine.toml is empty"
    with pytest.raises(InputError, match=r"^lesson\.toml, line 1, column"):
        read_lesson("title = = 3\n")  # a file named by no caller is "lesson.toml"


def test_a_syntax_error_gives_tomllib_s_reason_without_its_place():
    for text, place in (('title = "t"\nscores = maybe\n', "mine.toml, line 2, column 10: "), ('title = "t', "")):
        with pytest.raises(tomllib.TOMLDecodeError) as parsed:
            tomllib.loads(text)
        reason = str(parsed.value).rsplit(" (at ", 1)[0]
        if place:
            assert _message(text) == f"{place}this is not valid TOML ({reason})"
        else:
            assert _message(text) == f"mine.toml: this is not valid TOML; it ends too soon ({reason})"


def test_every_limit_is_inclusive():
    long_title = "t" * 120
    lesson = read_lesson(_lesson(change=f"top:title = '{long_title}'\nitems = ['{'d' * 120}', 'b', 'c']"))
    assert lesson.title == long_title and lesson.steps[0].activity.spec.items[0].label == "d" * 120
    for low, high in (("time_limit = 5", "time_limit = 3600"), ("points = 0", "points = 1000")):
        first, last = (read_lesson(_lesson(change=c)).steps[0] for c in (low, high))
        assert (first.time_limit, last.time_limit) in ((5, 3600), (None, None))
        assert (first.points, last.points) in ((0, 1000), (None, None))
    fifty = TOP + "[[activity]]\nkind = 'practice'\nseed = 1\nexercises = 1\n" * MAX_ACTIVITIES
    assert len(read_lesson(fifty).steps) == MAX_ACTIVITIES


def test_a_file_of_the_largest_size_is_read_and_one_byte_more_is_refused():
    text = _lesson()
    full = text + "#" * (MAX_FILE_BYTES - len(text.encode("utf-8")))
    assert read_lesson(full.encode("utf-8")).title == "A lesson" and read_lesson(full).title == "A lesson"
    over = f"mine.toml has {MAX_FILE_BYTES + 1} bytes; a lesson file holds at most {MAX_FILE_BYTES}"
    assert _message(full + "#") == over
    with pytest.raises(InputError) as caught:
        read_lesson(full + "#", "mine.toml")
    assert str(caught.value) == over
    # Text is measured in UTF-8 bytes (two per "é"), and text past the limit in characters already is not encoded.
    wide = text + "#" + "é" * (MAX_FILE_BYTES // 2)
    with pytest.raises(InputError) as caught:
        read_lesson(wide, "mine.toml")
    assert caught.value.fields["count"] == len(text) + 1 + 2 * (MAX_FILE_BYTES // 2)
    longer = "é" * (MAX_FILE_BYTES + 1)
    with pytest.raises(InputError) as caught:
        read_lesson(longer, "mine.toml")
    assert caught.value.fields["count"] == MAX_FILE_BYTES + 1


def test_a_file_that_cannot_be_read_is_named_with_the_reason(tmp_path):
    (tmp_path / "a.toml").write_text(_lesson(), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_lesson_file(tmp_path / "a.toml" / "lesson.toml")  # a file is not a folder: NotADirectoryError
    assert str(caught.value) == "lesson.toml: cannot be read (Not a directory)"
    with pytest.raises(InputError) as caught:
        read_lesson_file(tmp_path)
    assert str(caught.value) == f"{tmp_path.name}: is a folder, not a file"


def test_a_question_in_each_language_is_its_own():
    assert Wording("Why?", "为什么？").get("en") == "Why?"
    assert Wording("Why?", "为什么？").get("zh") == "为什么？"


def _practice(points: int | None = None) -> Step:
    return Step(Practice(1, (0,)), points=points)


def test_the_outline_head_says_the_title_settings_and_scale():
    off = outline(Lesson("L", (_practice(),)))
    on = outline(Lesson("L", (_practice(7),), True, Scale(1, 3)))
    assert off.splitlines()[0] == "L: 1 activities, scores off, judging scale 0 to 4"
    assert on.splitlines()[0] == "L: 1 activities, scores on, judging scale 1 to 3"
    step = on.splitlines()[1]
    assert step.startswith("  1. ") and step.endswith("; worth 7 points") and len(step) > len("  1. ; worth 7 points")


def test_a_lesson_written_out_names_a_scale_only_where_it_differs():
    own = Judge(activity_list(("a", "b"), (1, 2), 2), Scale(1, 3))
    same = Judge(activity_list(("a", "b"), (1, 2), 2), Scale(1, 3))
    lesson = Lesson("L", (Step(own),), False, Scale(1, 3))
    written = tomllib.loads(lesson_to_toml(lesson))
    assert written["scale"] == [1, 3] and "scale" not in written["activity"][0]
    assert lesson_to_toml(lesson).startswith("# An NDCG Lab lesson (format 1).")
    default = tomllib.loads(lesson_to_toml(Lesson("L", (Step(same),))))
    assert "scale" not in default and default["activity"][0]["scale"] == [1, 3]
    assert read_lesson(lesson_to_toml(lesson)) == lesson


def test_a_lesson_s_activities_are_replaced_as_a_file_s_are_checked():
    lesson = Lesson("L", (_practice(),), True, Scale(1, 3))
    steps = [_practice(n) for n in range(MAX_ACTIVITIES)]
    assert with_steps(lesson, steps) == Lesson("L", tuple(steps), True, Scale(1, 3))
    with pytest.raises(InputError) as caught:
        with_steps(lesson, [])
    assert caught.value.code == "lesson.no_activities"
    with pytest.raises(InputError) as caught:
        with_steps(lesson, [*steps, _practice()])
    assert caught.value.code == "lesson.too_many"
    assert str(caught.value) == f"the lesson has {MAX_ACTIVITIES + 1} activities; at most {MAX_ACTIVITIES} fit"


def test_a_missing_required_choice_is_missing(tmp_path: Path):
    assert _message(_lesson(activity=COMPARE, change="-metric")) == "activity 1 (compare), field metric is missing"
