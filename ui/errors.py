"""The UI's own error codes, with their English templates: what only the pages check.

The core (``ndcg_core.errors``) holds the templates of the codes it raises. These are raised by the UI alone:
the Evaluate page's typed table (``typed.*``, ``ui/editing.py``) and what the browser sends back (``editor.*``,
``ui/editing.py``; ``action.*``, ``ui/widgets/sortable.py``; ``answer.malformed``, a phone's card); the places
here include the Learn and Practice pages' link numbers, which the core's ``link_number`` checks under its own
``link.*`` codes. They are declared as the core's are: each code is a type (``UiCode``, ``UiPlaceCode``), so a
raise with a code that does not exist fails the type check, and this module checks when it loads that each has
one English template (and a Chinese one in ``ui/locales/zh.json``). ``TEMPLATES`` is the core's lookup with
these over it; the core's own is not changed. Raise them with ``UiInputError`` and ``UiPlace``, which take the
core's codes too; catch ``InputError`` (the core's class, which every error of either layer is).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from ndcg_core.error_codes import Code, PlaceCode
from ndcg_core.errors import InputError, Place, check_codes, layered, shown

UiCode = Literal[
    "typed.query_blank",
    "typed.document_blank",
    "typed.query_space",
    "typed.document_space",
    "typed.needs_grade_or_rank",
    "typed.grade_not_number",
    "typed.grade_not_whole",
    "typed.rank_not_whole",
    "typed.rank_too_small",
    "typed.no_grades",
    "typed.no_ranks",
    "editor.row",
    "action.not_action",
    "action.unknown",
    "answer.malformed",
]

UiPlaceCode = Literal["typed.grade", "link.step", "link.exercise"]

# Where a value was.
PLACES: dict[UiPlaceCode, str] = {
    "typed.grade": "grade {position}",
    "link.step": "step",
    "link.exercise": "exercise number",
}

MESSAGES: dict[UiCode, str] = {
    # A classroom table of queries typed on the Evaluate page.
    "typed.query_blank": "row {row}: the query is blank",
    "typed.document_blank": "row {row}: the document is blank",
    "typed.query_space": "row {row}: the query {value} has a space; use one word",
    "typed.document_space": "row {row}: the document {value} has a space; use one word",
    "typed.needs_grade_or_rank": "row {row}: give a grade, a rank, or both",
    "typed.grade_not_number": "row {row}: the grade {value} is not a number",
    "typed.grade_not_whole": "row {row}: the grade {value} must be a whole number",
    "typed.rank_not_whole": "row {row}: the rank {value} is not a whole number",
    "typed.rank_too_small": "row {row}: the rank must be 1 or more, got {value}",
    "typed.no_grades": "the table has no grades: judge at least one document",
    "typed.no_ranks": "the table has no ranks: rank at least one document",
    # What the browser sends back (a table edit, a list action).
    "editor.row": "the table reported row {value}, but it has {count} rows",
    "action.not_action": "the list sent {value}, not an action",
    "action.unknown": "unknown action {value}",
    # What a phone's card sends (ui/phones/routes.py).
    "answer.malformed": "the phone sent {value}, not an answer",
}

check_codes(UiCode, MESSAGES, "ui.errors.MESSAGES")
check_codes(UiPlaceCode, PLACES, "ui.errors.PLACES")

# Every English template the UI renders: the core's, with the UI's own over them.
TEMPLATES: Mapping[str, str] = layered(messages=MESSAGES, places=PLACES)


def english(key: str) -> str:
    """The English template of ``key``, the core's or the UI's (``error.<code>``, ``place.<code>``, ...)."""
    return TEMPLATES[key]


class UiPlace(Place):
    """A ``Place`` that may name one of the UI's places as well as the core's."""

    __slots__ = ()
    templates: ClassVar[Mapping[str, str]] = TEMPLATES

    def __init__(self, code: PlaceCode | UiPlaceCode, /, **fields: Any) -> None:
        self._make(code, fields)


class UiInputError(InputError):
    """An ``InputError`` that may carry one of the UI's codes as well as the core's."""

    templates: ClassVar[Mapping[str, str]] = TEMPLATES

    def __init__(
        self,
        code: Code | UiCode,
        /,
        *,
        quote: str | None = None,
        also: tuple[InputError, ...] = (),
        more: int = 0,
        **fields: Any,
    ) -> None:
        self._make(code, quote, also, more, fields)


__all__ = ["MESSAGES", "PLACES", "TEMPLATES", "InputError", "Place", "UiInputError", "UiPlace", "english", "shown"]
