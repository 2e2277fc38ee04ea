"""A lesson: a class prepared in advance, as an ordered list of activities with their content and settings, kept
in a TOML file the teacher edits, checks and reuses.

TOML because a teacher writes comments in it (JSON cannot), Python reads it without a new dependency (``tomllib``),
and unlike YAML it has no implicit types (``no`` is not false, ``3.10`` is not 3.1). ``lesson.schema.json`` beside
this module describes the same format for editors; it is generated from ``FIELDS`` below
(``python -m ndcg_core.classroom schema``), so the reader and the schema cannot drift apart.

Every check is here, each problem an ``InputError`` whose place names the activity and the field, so the app and
``python -m ndcg_core.classroom check FILE`` say the same thing.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import tomli_w

from ..errors import InputError, Place, number_text, shown
from ..lists.discounts import DISCOUNTS
from ..teaching.exercises import KINDS as EXERCISE_KINDS
from ..teaching.exercises import exercise
from .activities import (
    ACTIVITY_GAINS,
    DISCOUNT,
    MAX_EXERCISES,
    METRICS,
    Activity,
    Compare,
    Judge,
    ListSpec,
    Pair,
    Practice,
    Predict,
    Rank,
    Scale,
    practice_activity,
)

FORMAT = 1
LANGUAGES = ("en", "zh")
MAX_ACTIVITIES = 50
MAX_FILE_BYTES = 1_000_000
MAX_TITLE = 120
MAX_TEXT = 500  # a question's own wording, in one language
MAX_QUERY = 200
MAX_ITEM = 120
TIME_LIMITS = (5, 3600)  # seconds
PRACTICE_KINDS = tuple(k for k in EXERCISE_KINDS if k != "reach")  # reach needs many moves: not in class


@dataclass(frozen=True)
class Wording:
    """A question's own wording, per language (``""``: the app's standard question in that language)."""

    en: str = ""
    zh: str = ""

    def get(self, lang: str) -> str:
        """The wording in ``lang``, else in the other language if only that one was given, else ``""``."""
        own = self.zh if lang == "zh" else self.en
        return own or self.en or self.zh


@dataclass(frozen=True)
class Step:
    """One activity of a lesson, with its optional own wording and time limit (seconds; ``None``: none)."""

    activity: Activity
    question: Wording = Wording()
    time_limit: int | None = None


@dataclass(frozen=True)
class Lesson:
    """A lesson: its title, its activities in order, whether answers score points (and a leaderboard ends the
    class), and the judging scale its Judge activities use unless they name their own."""

    title: str
    steps: tuple[Step, ...]
    scores: bool = False
    scale: Scale = Scale()


# --- the format: one table of fields, read by the reader and written into the JSON Schema --------------------


@dataclass(frozen=True)
class Field:
    """One field of the format: its name, type (``text``, ``whole``, ``bool``, ``grades``, ``texts``,
    ``choice``, ``scale``, ``wording``, ``exercises``, ``side``), whether it is required, the choices of a
    ``choice`` and what it means (for the schema and the README)."""

    name: str
    type: str
    required: bool = False
    choices: tuple[str, ...] = ()
    description: str = ""


LESSON_FIELDS = (
    Field("format", "whole", True, description=f"The lesson format's version: {FORMAT}."),
    Field("title", "text", True, description="The lesson's title, shown to the teacher."),
    Field("scores", "bool", description="Whether answers score points, with a leaderboard at the end (false)."),
    Field("scale", "scale", description="The grades students judge with, [low, high] ([0, 4])."),
)

_COMMON = (
    Field("kind", "choice", True, ("predict", "rank", "compare", "practice", "judge"), "What the class does."),
    Field("question", "wording", description='The question\'s own wording: { en = "...", zh = "..." }.'),
    Field("time_limit", "whole", description=f"Seconds to answer ({TIME_LIMITS[0]} to {TIME_LIMITS[1]})."),
)
_LIST = (
    Field("query", "text", description="The query the results answer."),
    Field("items", "texts", True, description="The results in ranked order (titles or ids)."),
    Field("grades", "grades", True, description="The grade of each result, in the same order."),
    Field("k", "whole", True, description="The cutoff: NDCG@k."),
    Field("gain", "choice", choices=ACTIVITY_GAINS, description="The gain (linear)."),
    Field("discount", "choice", choices=tuple(DISCOUNTS.names()), description=f"The discount ({DISCOUNT})."),
    Field(
        "missed",
        "grades",
        description="Grades of judged results the list did not retrieve: the ideal then comes from every judged "
        "result, not only the list's.",
    ),
)
ACTIVITY_FIELDS: dict[str, tuple[Field, ...]] = {
    "predict": (*_COMMON, *_LIST),
    "rank": (*_COMMON, *_LIST, Field("show_grades", "bool", description="Show the grades on the phones (false).")),
    "compare": (
        *_COMMON,
        Field("query", "text", description="The query both rankings answer."),
        Field("a", "side", True, description="Ranking A: { items = [...], grades = [...] }."),
        Field("b", "side", True, description="Ranking B: { items = [...], grades = [...] }."),
        Field("missed", "grades", description="Grades of judged results neither ranking retrieved."),
        Field("metric", "choice", True, METRICS, "What the class votes under: ndcg, mrr or precision."),
        Field("k", "whole", True, description="The cutoff of NDCG@k and P@k."),
    ),
    "practice": (
        *_COMMON,
        Field("seed", "whole", True, description="The exercise set, as on the Practice page."),
        Field(
            "exercises",
            "exercises",
            True,
            PRACTICE_KINDS,
            f'How many exercises (1 to {MAX_EXERCISES}), or which kinds in order, such as ["dcg", "swap"].',
        ),
    ),
    "judge": (
        *_COMMON,
        *(f for f in _LIST if f.name != "missed"),
        Field("scale", "scale", description="The grades students judge with, [low, high] (the lesson's)."),
    ),
}
SIDE_FIELDS = (
    Field("items", "texts", True, description="The results in ranked order."),
    Field("grades", "grades", True, description="The grade of each result."),
)


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
    """The lesson in ``data`` (a TOML file's bytes or text, named ``file`` in messages)."""
    if isinstance(data, bytes):
        if len(data) > MAX_FILE_BYTES:
            raise InputError("lesson.too_large", file=file, count=len(data), limit=MAX_FILE_BYTES)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            raise InputError("file.not_utf8", place=Place("file.line", line=line, file=file)) from None
    else:
        text = data
    if not text.strip():
        raise InputError("file.empty", file=file)
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _syntax(error, file) from None
    return lesson_from_data(parsed)


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
    top = _Reader(data, lambda field: Place("lesson.field", field=field), LESSON_FIELDS, "activity")
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
    r = _Reader(table, lambda field: Place("lesson.activity_field", number=number, kind=kind, field=field), fields)
    question = r.wording("question")
    time_limit = r.whole("time_limit", None, TIME_LIMITS)
    try:
        activity = _BUILDERS[kind](r, scale)
    except InputError as error:
        if error.code.startswith("lesson."):
            raise
        # A check of the activity itself (a grade, k, a list too long): said with the activity it is in.
        place = Place("lesson.activity", number=number, kind=kind)
        raise InputError("lesson.problem", place=place, problem=error) from None
    return Step(activity, question, time_limit)


class _Reader:
    """Reads one table's fields by their type, refusing fields the format does not have."""

    def __init__(self, table: Mapping[str, Any], place: Any, fields: Sequence[Field], *extra: str) -> None:
        self.table, self.place = table, place
        known = [*(f.name for f in fields), *extra]
        for name in table:
            if name not in known:
                names = ", ".join(known)
                raise InputError("lesson.unknown_field", place=place(name), fields=names)

    def _get(self, name: str, required: bool) -> Any:
        if name not in self.table:
            if required:
                raise InputError("lesson.missing", place=self.place(name))
            return None
        return self.table[name]

    def text(self, name: str, limit: int, default: str | None = None) -> str:
        value = self._get(name, default is None)
        if value is None:
            return default or ""
        if not isinstance(value, str):
            raise InputError("lesson.not_text", place=self.place(name), value=shown(value))
        value = value.strip()
        if not value and default is None:
            raise InputError("lesson.text_blank", place=self.place(name))
        if len(value) > limit:
            raise InputError("lesson.text_long", place=self.place(name), count=len(value), limit=limit)
        return value

    def whole(self, name: str, default: Any = ..., bounds: tuple[int, int] | None = None) -> Any:
        value = self._get(name, default is ...)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError("lesson.not_whole", place=self.place(name), value=shown(value))
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            raise InputError(
                "lesson.out_of_range", place=self.place(name), value=shown(value), low=bounds[0], high=bounds[1]
            )
        return value

    def flag(self, name: str, default: bool) -> bool:
        value = self._get(name, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise InputError("lesson.not_bool", place=self.place(name), value=shown(value))
        return value

    def choice(self, name: str, choices: Sequence[str], default: str | None = None) -> str:
        value = self._get(name, default is None)
        if value is None:
            return default or ""
        if value not in choices:
            raise InputError("lesson.choice", place=self.place(name), value=shown(value), choices=", ".join(choices))
        return str(value)

    def list(self, name: str, required: bool) -> list[Any] | None:
        value = self._get(name, required)
        if value is None:
            return None
        if not isinstance(value, list):
            raise InputError("lesson.not_list", place=self.place(name), value=shown(value))
        return value

    def grades(self, name: str, required: bool = True) -> tuple[float, ...]:
        value = self.list(name, required)
        if value is None:
            return ()
        for position, grade in enumerate(value, start=1):
            if isinstance(grade, bool) or not isinstance(grade, int | float) or not math.isfinite(grade):
                raise InputError("lesson.grade", place=self.place(name), position=position, value=shown(grade))
            if grade < 0:
                raise InputError("lesson.grade_negative", place=self.place(name), position=position, value=shown(grade))
        return tuple(float(g) for g in value)

    def texts(self, name: str) -> tuple[str, ...]:
        value = self.list(name, True) or []
        out = []
        for position, item in enumerate(value, start=1):
            if not isinstance(item, str):
                raise InputError("lesson.item_not_text", place=self.place(name), position=position, value=shown(item))
            item = item.strip()
            if not item:
                raise InputError("lesson.item_blank", place=self.place(name), position=position)
            if len(item) > MAX_ITEM:
                raise InputError(
                    "lesson.item_long", place=self.place(name), position=position, count=len(item), limit=MAX_ITEM
                )
            out.append(item)
        return tuple(out)

    def table_of(self, name: str, required: bool) -> Mapping[str, Any] | None:
        value = self._get(name, required)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise InputError("lesson.not_table", place=self.place(name), value=shown(value))
        return value

    def wording(self, name: str) -> Wording:
        table = self.table_of(name, False)
        if table is None:
            return Wording()
        languages = [Field(lang, "text") for lang in LANGUAGES]
        inner = _Reader(table, lambda lang: self.place(f"{name}.{lang}"), languages)
        return Wording(*(inner.text(lang, MAX_TEXT, "") for lang in LANGUAGES))

    def scale(self, name: str, default: Scale) -> Scale:
        value = self.list(name, False)
        if value is None:
            return default
        if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise InputError("lesson.scale", place=self.place(name), value=shown(value))
        try:
            return Scale(value[0], value[1])
        except InputError as error:
            raise InputError("lesson.problem", place=self.place(name), problem=error) from None


def _spec(r: _Reader, pool: bool = True) -> ListSpec:
    items, grades = r.texts("items"), r.grades("grades")
    if len(items) != len(grades):
        raise InputError("lesson.count", place=r.place("grades"), grades=len(grades), items=len(items))
    return ListSpec(
        items,
        grades,
        r.whole("k"),
        r.choice("gain", ACTIVITY_GAINS, "linear"),
        r.grades("missed", False) if pool else (),
        r.text("query", MAX_QUERY, ""),
        r.choice("discount", tuple(DISCOUNTS.names()), DISCOUNT),
    )


def _predict(r: _Reader, scale: Scale) -> Activity:
    return Predict(_spec(r))


def _rank(r: _Reader, scale: Scale) -> Activity:
    return Rank(_spec(r), "", r.flag("show_grades", False))


def _compare(r: _Reader, scale: Scale) -> Activity:
    sides = []
    for side in ("a", "b"):
        table = r.table_of(side, True) or {}
        inner = _Reader(table, lambda field, side=side: r.place(f"{side}.{field}"), SIDE_FIELDS)
        items, grades = inner.texts("items"), inner.grades("grades")
        if len(items) != len(grades):
            raise InputError("lesson.count", place=inner.place("grades"), grades=len(grades), items=len(items))
        sides.append((items, grades))
    (items_a, a), (items_b, b) = sides
    judged: dict[str, float] = {}
    for side, items, grades in (("a", items_a, a), ("b", items_b, b)):
        for item, grade in zip(items, grades, strict=True):
            if item in judged and judged[item] != grade:
                raise InputError(
                    "lesson.grade_disagrees",
                    place=r.place(f"{side}.grades"),
                    value=shown(item),
                    first=number_text(judged[item]),
                    second=number_text(grade),
                )
            judged[item] = grade
    k = r.whole("k")
    if not 1 <= k <= min(len(a), len(b)):
        raise InputError("lesson.out_of_range", place=r.place("k"), value=shown(k), low=1, high=min(len(a), len(b)))
    pair = Pair(items_a, a, items_b, b, (*judged.values(), *r.grades("missed", False)), k)
    return Compare(pair, r.choice("metric", METRICS), "", r.text("query", MAX_QUERY, ""))


def _practice(r: _Reader, scale: Scale) -> Activity:
    seed = r.whole("seed")
    chosen = r._get("exercises", True)
    if isinstance(chosen, int) and not isinstance(chosen, bool):
        return practice_activity(seed, chosen)
    kinds = r.list("exercises", True) or []
    if not 1 <= len(kinds) <= MAX_EXERCISES:
        raise InputError("lesson.out_of_range", place=r.place("exercises"), value=len(kinds), low=1, high=MAX_EXERCISES)
    numbers: list[int] = []
    for position, kind in enumerate(kinds, start=1):
        if kind not in PRACTICE_KINDS:
            raise InputError(
                "lesson.exercise_kind",
                place=r.place("exercises"),
                position=position,
                value=shown(kind),
                choices=", ".join(PRACTICE_KINDS),
            )
        # The kinds rotate through the exercise numbers: the next exercise of this kind not taken yet.
        number = EXERCISE_KINDS.index(kind)
        while number in numbers:
            number += len(EXERCISE_KINDS)
        numbers.append(number)
    exercise(seed, numbers[0])  # the seed checked as the Practice page checks it
    return Practice(seed, tuple(numbers))


def _judge(r: _Reader, scale: Scale) -> Activity:
    return Judge(_spec(r, pool=False), r.scale("scale", scale))


_BUILDERS = {"predict": _predict, "rank": _rank, "compare": _compare, "practice": _practice, "judge": _judge}


# --- writing -----------------------------------------------------------------------------------------------

HEADER = """\
# An NDCG Lab lesson (format {format}). Check it with:  python -m ndcg_core.classroom check FILE
# Every field is described in the README ("Lessons") and in ndcg_core/classroom/lesson.schema.json.
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


def _numbers(values: Sequence[float]) -> list[float | int]:
    return [int(v) if float(v).is_integer() else float(v) for v in values]


def _list_data(spec: ListSpec, pool: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if spec.query:
        data["query"] = spec.query
    data.update(items=list(spec.labels), grades=_numbers(spec.grades), k=spec.k)
    if spec.gain != "linear":
        data["gain"] = spec.gain
    if spec.discount != DISCOUNT:
        data["discount"] = spec.discount
    if pool and spec.pool:
        data["missed"] = _numbers(spec.pool)
    return data


def _step_data(step: Step, scale: Scale) -> dict[str, Any]:
    a = step.activity
    data: dict[str, Any] = {"kind": a.kind}
    if isinstance(a, Predict):
        data.update(_list_data(a.spec))
    elif isinstance(a, Rank):
        data.update(_list_data(a.spec))
        if a.show_grades:
            data["show_grades"] = True
    elif isinstance(a, Compare):
        p = a.pair
        if a.query:
            data["query"] = a.query
        data["a"] = {"items": list(p.labels_a), "grades": _numbers(p.a)}
        data["b"] = {"items": list(p.labels_b), "grades": _numbers(p.b)}
        retrieved = dict(zip(p.labels_a, p.a, strict=True)) | dict(zip(p.labels_b, p.b, strict=True))
        missed = list(p.judged)
        for grade in retrieved.values():
            missed.remove(grade)
        if missed:
            data["missed"] = _numbers(missed)
        data.update(metric=a.metric, k=p.k)
    elif isinstance(a, Practice):
        data["seed"] = a.seed
        count = len(a.numbers)
        if practice_activity(a.seed, count).numbers == a.numbers:
            data["exercises"] = count
        else:
            data["exercises"] = [EXERCISE_KINDS[n % len(EXERCISE_KINDS)] for n in a.numbers]
    else:
        data.update(_list_data(a.spec, pool=False))
        if a.scale != scale:
            data["scale"] = [a.scale.low, a.scale.high]
    wording = {lang: getattr(step.question, lang) for lang in LANGUAGES if getattr(step.question, lang)}
    if wording:
        data["question"] = wording
    if step.time_limit is not None:
        data["time_limit"] = step.time_limit
    return data


def with_steps(lesson: Lesson, steps: Sequence[Step]) -> Lesson:
    """The same lesson with other activities (added, removed, reordered), checked as a file's would be."""
    if not steps:
        raise InputError("lesson.no_activities")
    if len(steps) > MAX_ACTIVITIES:
        raise InputError("lesson.too_many", count=len(steps), limit=MAX_ACTIVITIES)
    return replace(lesson, steps=tuple(steps))


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
