"""The lesson format's building blocks, shared by the lesson reader (``lessons``) and the activity kinds
(``kinds``), each of which reads and writes its own fields: a field of the format, the reader of one TOML
table, and a question's own wording.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import InputError, shown

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

S = TypeVar("S", bound="DataclassInstance")  # a judging scale (``kinds.base.Scale``, which imports this module)

LANGUAGES = ("en", "zh")
MAX_TEXT = 500  # a question's own wording, in one language
MAX_QUERY = 200
MAX_ITEM = 120


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
class Field:
    """One field of the format: its name, type (``text``, ``whole``, ``bool``, ``grades``, ``texts``,
    ``choice``, ``scale``, ``wording``, ``exercises``, ``side``, ``mistakes``), whether it is required, the choices
    of a ``choice`` and what it means (for the schema and the README)."""

    name: str
    type: str
    required: bool = False
    choices: tuple[str, ...] = ()
    description: str = ""


SIDE_FIELDS = (
    Field("items", "texts", True, description="The results in ranked order."),
    Field("grades", "grades", True, description="The grade of each result."),
)
WORDING_FIELDS = tuple(Field(lang, "text") for lang in LANGUAGES)  # a wording's table: one text per language


class Reader:
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

    def raw(self, name: str, required: bool) -> Any:
        """A field's value as the file gives it (``None`` when absent and not required), for a field of more than one
        type."""
        return self._get(name, required)

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
        inner = Reader(table, lambda lang: self.place(f"{name}.{lang}"), WORDING_FIELDS)
        return Wording(*(inner.text(lang, MAX_TEXT, "") for lang in LANGUAGES))

    def scale(self, name: str, default: S) -> S:
        """A ``[low, high]`` pair: ``default`` with the file's bounds (checked as a ``Scale`` checks them)."""
        value = self.list(name, False)
        if value is None:
            return default
        if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise InputError("lesson.scale", place=self.place(name), value=shown(value))
        try:
            # ``replace`` rather than ``Scale(...)``: kinds/base.py imports this module, so it cannot import Scale.
            return replace(default, low=value[0], high=value[1])
        except InputError as error:
            raise InputError("lesson.problem", place=self.place(name), problem=error) from None
