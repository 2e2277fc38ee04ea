"""A lesson: a class prepared in advance, as an ordered list of activities with their content and settings, kept
in a TOML file the teacher edits, checks and reuses.

TOML because a teacher writes comments in it (JSON cannot), Python reads it without a new dependency (``tomllib``),
and unlike YAML it has no implicit types (``no`` is not false, ``3.10`` is not 3.1). ``lesson.schema.json`` beside
this module describes the same format for editors; it is generated from ``LESSON_FIELDS`` and ``ACTIVITY_FIELDS``
below (``python -m ndcg_core.classroom schema``), so the reader and the schema cannot drift apart.

This module reads and writes the lesson's top level and the fields every activity has; each kind of activity reads
and writes its own fields (its class in ``kinds``: ``lesson_fields``, ``from_lesson``, ``lesson_data``) through
the same ``Reader`` (``lesson_fields``). Every check is in ``ndcg_core``, each problem an ``InputError`` whose place
names the activity and the field, so the app and ``python -m ndcg_core.classroom check FILE`` say the same thing.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import tomli_w

from ..errors import InputError, Place, number_text, shown
from .kinds import KINDS, Activity, kind_class
from .kinds.base import POINTS, Scale
from .kinds.choose import CHOOSE_WRONG
from .kinds.practice import MAX_EXERCISES
from .kinds.practice import PRACTICE_KINDS as PRACTICE_KINDS
from .lesson_fields import LANGUAGES, MAX_ITEM, MAX_QUERY, MAX_TEXT, SIDE_FIELDS, Field, Reader, Wording
from .lesson_shape import check_shape

__all__ = ["LANGUAGES", "MAX_ITEM", "MAX_QUERY", "MAX_TEXT", "PRACTICE_KINDS", "Field", "Reader", "Wording"]

FORMAT = 1
MAX_ACTIVITIES = 50
MAX_FILE_BYTES = 64 * 1024  # a 50-activity lesson takes about 20 KB; tomllib reads 64 KB in well under a second
MAX_TITLE = 120
TIME_LIMITS = (5, 3600)  # seconds
ACTIVITY_POINTS = (0, 1000)  # what one activity may be worth when the lesson keeps scores (``POINTS`` unless set)


@dataclass(frozen=True)
class Step:
    """One activity of a lesson, with its optional own wording, time limit (seconds; ``None``: none) and points (what
    the whole activity is worth when the lesson keeps scores; ``None``: ``POINTS``, whatever its number of
    questions)."""

    activity: Activity
    question: Wording = Wording()
    time_limit: int | None = None
    points: int | None = None


@dataclass(frozen=True)
class Lesson:
    """A lesson: its title, its activities in order, whether answers score points (and a leaderboard ends the
    class), and the judging scale its Judge activities use unless they name their own."""

    title: str
    steps: tuple[Step, ...]
    scores: bool = False
    scale: Scale = Scale()


# --- the format: one table of fields, read by the reader and written into the JSON Schema --------------------


LESSON_FIELDS = (
    Field("format", "whole", True, description=f"The lesson format's version: {FORMAT}."),
    Field("title", "text", True, description="The lesson's title, shown to the teacher."),
    Field("scores", "bool", description="Whether answers score points, with a leaderboard at the end (false)."),
    Field("scale", "scale", description="The grades students judge with, [low, high] ([0, 4])."),
)

_COMMON = (
    Field("kind", "choice", True, tuple(KINDS.names()), "What the class does."),
    Field("question", "wording", description='The question\'s own wording: { en = "...", zh = "..." }.'),
    Field("time_limit", "whole", description=f"Seconds to answer ({TIME_LIMITS[0]} to {TIME_LIMITS[1]})."),
    Field(
        "points",
        "whole",
        description=f"What the whole activity is worth when the lesson keeps scores ({ACTIVITY_POINTS[0]} to "
        f"{ACTIVITY_POINTS[1]}; {POINTS} unless set, however many questions it asks; Judge scores none).",
    ),
)
# Every kind's fields: the ones every activity has, then the kind's own (its class's ``lesson_fields``).
ACTIVITY_FIELDS: dict[str, tuple[Field, ...]] = {
    entry.name: (*_COMMON, *entry.build().lesson_fields()) for entry in KINDS
}


# --- reading -------------------------------------------------------------------------------------------


def read_lesson_file(path: str | Path) -> Lesson:
    """The lesson in the TOML file ``path``; an ``InputError`` naming the file, activity and field otherwise."""
    path = Path(path)
    name = path.name
    if path.is_dir():
        raise InputError("file.folder", file=name)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file.missing", file=name) from None
    except OSError as error:
        raise InputError("file.unreadable", file=name, reason=error.strerror or type(error).__name__) from None
    return read_lesson(data, name)


def read_lesson(data: bytes | str, file: str = "lesson.toml") -> Lesson:
    """The lesson in ``data`` (a TOML file's bytes or text, named ``file`` in messages). A file larger than
    ``MAX_FILE_BYTES``, nested too deep or with too long a dotted key is refused before ``tomllib`` reads it
    (``lesson_shape``), so no file costs the server more than a moment."""
    if isinstance(data, bytes):
        _check_size(len(data), file)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            raise InputError("file.not_utf8", place=Place("file.line", line=line, file=file)) from None
    else:
        text = data
        _check_size(len(text) if len(text) > MAX_FILE_BYTES else len(text.encode("utf-8", "surrogatepass")), file)
    if not text.strip():
        raise InputError("file.empty", file=file)
    check_shape(text, file)
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _syntax(error, file) from None
    except RecursionError:
        # check_shape bounds the nesting well below Python's recursion limit; this is the last guard.
        raise InputError("lesson.nested", file=file) from None
    return lesson_from_data(parsed)


def _check_size(size: int, file: str) -> None:
    if size > MAX_FILE_BYTES:
        raise InputError("lesson.too_large", file=file, count=size, limit=MAX_FILE_BYTES)


def _syntax(error: tomllib.TOMLDecodeError, file: str) -> InputError:
    # tomllib puts the place at the end of its message: "Invalid value (at line 3, column 9)".
    text = str(error)
    found = re.search(r"\(at line (\d+), column (\d+)\)$", text)
    if found is None:
        found_end = re.search(r"\(at end of document\)$", text)
        reason = text[: found_end.start()].strip() if found_end else text
        return InputError("lesson.syntax_end", file=file, reason=reason)
    return InputError(
        "lesson.syntax", file=file, line=int(found[1]), column=int(found[2]), reason=text[: found.start()].strip()
    )


def lesson_from_data(data: Mapping[str, Any]) -> Lesson:
    """A lesson from the TOML file's tables (``tomllib``'s result), every field checked."""
    top = Reader(data, lambda field: Place("lesson.field", field=field), LESSON_FIELDS, "activity")
    version = top.whole("format")
    if version != FORMAT:
        raise InputError("lesson.format", place=top.place("format"), value=shown(version), version=FORMAT)
    title = top.text("title", MAX_TITLE)
    scores = top.flag("scores", False)
    scale = top.scale("scale", Scale())
    activities = data.get("activity")
    if activities is None or activities == []:
        raise InputError("lesson.no_activities")
    if not isinstance(activities, list):
        raise InputError("lesson.not_list", place=top.place("activity"), value=shown(activities))
    if len(activities) > MAX_ACTIVITIES:
        raise InputError("lesson.too_many", count=len(activities), limit=MAX_ACTIVITIES)
    steps = tuple(_step(number, table, scale) for number, table in enumerate(activities, start=1))
    return Lesson(title, steps, scores, scale)


def _step(number: int, table: Any, scale: Scale) -> Step:
    if not isinstance(table, dict):
        raise InputError("lesson.not_activity", number=number, value=shown(table))
    kind = table.get("kind")
    kinds = ACTIVITY_FIELDS.keys()
    if kind is None:
        raise InputError("lesson.missing", place=Place("lesson.activity_field", number=number, kind="?", field="kind"))
    if not isinstance(kind, str) or kind not in kinds:
        place = Place("lesson.activity_field", number=number, kind="?", field="kind")
        raise InputError("lesson.choice", place=place, value=shown(kind), choices=", ".join(kinds))
    fields = ACTIVITY_FIELDS[kind]
    r = Reader(table, lambda field: Place("lesson.activity_field", number=number, kind=kind, field=field), fields)
    question = r.wording("question")
    time_limit = r.whole("time_limit", None, TIME_LIMITS)
    points = r.whole("points", None, ACTIVITY_POINTS)
    try:
        activity = kind_class(kind).from_lesson(r, scale)
    except InputError as error:
        if error.code.startswith("lesson."):
            raise
        # A check of the activity itself (a grade, k, a list too long): said with the activity it is in.
        place = Place("lesson.activity", number=number, kind=kind)
        raise InputError("lesson.problem", place=place, problem=error) from None
    return Step(activity, question, time_limit, points)


# --- writing -----------------------------------------------------------------------------------------------

HEADER = """\
# An NDCG Lab lesson (format {format}). Check it with:  python -m ndcg_core.classroom check FILE
# Every field is described in docs/lecturer/lessons.md and in ndcg_core/classroom/lesson.schema.json.
"""


def lesson_to_toml(lesson: Lesson) -> str:
    """The lesson as a TOML file that ``read_lesson`` reads back to the same lesson."""
    data: dict[str, Any] = {"format": FORMAT, "title": lesson.title}
    if lesson.scores:
        data["scores"] = True
    if lesson.scale != Scale():
        data["scale"] = [lesson.scale.low, lesson.scale.high]
    data["activity"] = [_step_data(step, lesson.scale) for step in lesson.steps]
    return HEADER.format(format=FORMAT) + "\n" + tomli_w.dumps(data)


def _step_data(step: Step, scale: Scale) -> dict[str, Any]:
    a = step.activity
    data: dict[str, Any] = {"kind": a.kind, **a.lesson_data(scale)}
    wording = {lang: getattr(step.question, lang) for lang in LANGUAGES if getattr(step.question, lang)}
    if wording:
        data["question"] = wording
    if step.time_limit is not None:
        data["time_limit"] = step.time_limit
    if step.points is not None:
        data["points"] = step.points
    return data


def with_steps(lesson: Lesson, steps: Sequence[Step]) -> Lesson:
    """The same lesson with other activities (added, removed, reordered), checked as a file's would be."""
    if not steps:
        raise InputError("lesson.no_activities")
    if len(steps) > MAX_ACTIVITIES:
        raise InputError("lesson.too_many", count=len(steps), limit=MAX_ACTIVITIES)
    return replace(lesson, steps=tuple(steps))


# --- the outline the check command prints (and the app previews) --------------------------------------------


def describe(step: Step) -> str:
    """One line of a lesson's outline: the activity, its content and conventions, and the right answer (the kind's
    ``outline``), then its own wording (English, else Chinese), time limit and points if any."""
    line = step.activity.outline()
    own = step.question.en or step.question.zh
    if own:
        line += f'; asks "{" ".join(own.split())}"'
    if step.time_limit is not None:
        line += f"; {number_text(step.time_limit)} s to answer"
    if step.points is not None:
        line += f"; worth {number_text(step.points)} points"
    return line


def outline(lesson: Lesson) -> str:
    """The lesson as the check command prints it: its title and settings, then one numbered line per activity."""
    scores = "scores on" if lesson.scores else "scores off"
    head = f"{lesson.title}: {len(lesson.steps)} activities, {scores}, judging scale {lesson.scale.low} to "
    head += f"{lesson.scale.high}"
    return "\n".join([head, *(f"{n:>3}. {describe(step)}" for n, step in enumerate(lesson.steps, start=1))])


# --- the JSON Schema ------------------------------------------------------------------------------------------


def _schema_of(f: Field) -> dict[str, Any]:
    text = {"type": "string"}
    types: dict[str, dict[str, Any]] = {
        "text": text,
        "whole": {"type": "integer"},
        "bool": {"type": "boolean"},
        "choice": {"enum": list(f.choices)},
        "grades": {"type": "array", "items": {"type": "number", "minimum": 0}},
        "texts": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1},
        "scale": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2},
        "wording": {
            "type": "object",
            "properties": {lang: text for lang in LANGUAGES},
            "additionalProperties": False,
        },
        "mistakes": {
            "type": "array",
            "items": {"enum": list(f.choices)},
            "minItems": 1,
            "maxItems": CHOOSE_WRONG,
            "uniqueItems": True,
        },
        "exercises": {
            "oneOf": [
                {"type": "integer", "minimum": 1, "maximum": MAX_EXERCISES},
                {"type": "array", "items": {"enum": list(f.choices)}, "minItems": 1, "maxItems": MAX_EXERCISES},
            ]
        },
    }
    schema = _object(SIDE_FIELDS) if f.type == "side" else dict(types[f.type])
    if f.name == "time_limit":
        schema.update(minimum=TIME_LIMITS[0], maximum=TIME_LIMITS[1])
    if f.name == "points":
        schema.update(minimum=ACTIVITY_POINTS[0], maximum=ACTIVITY_POINTS[1])
    if f.name == "k":
        schema["minimum"] = 1
    if f.description:
        schema["description"] = f.description
    return schema


def _object(fields: Sequence[Field], **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {f.name: _schema_of(f) for f in fields} | properties,
        "required": [f.name for f in fields if f.required],
        "additionalProperties": False,
    }


def json_schema() -> dict[str, Any]:
    """The lesson format as a JSON Schema (draft 2020-12), made from the same fields the reader checks."""
    activities = []
    for kind, fields in ACTIVITY_FIELDS.items():
        kind_field = replace(fields[0], choices=(kind,))
        activities.append(_object((kind_field, *fields[1:])))
    top = _object(
        LESSON_FIELDS,
        activity={"type": "array", "minItems": 1, "maxItems": MAX_ACTIVITIES, "items": {"oneOf": activities}},
    )
    top["required"].append("activity")
    top["properties"]["format"]["const"] = FORMAT
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://github.com/ndcg-lab/ndcg-lab/lesson.schema.json",
        "title": "NDCG Lab lesson",
        **top,
    }


SCHEMA_FILE = Path(__file__).with_name("lesson.schema.json")
