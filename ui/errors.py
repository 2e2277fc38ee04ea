"""The UI's own error codes, with their English templates: what only the pages check.

The core (``ndcg_core.errors``) holds the templates of the codes it raises. These are raised by the UI alone:
the Evaluate page's typed table (``typed.*``, ``ui/editing.py``) and what the browser sends back (``editor.*``,
``ui/editing.py``; ``action.*``, ``ui/widgets/sortable.py``; ``answer.malformed``, a phone's card); the places
here include the Learn and Practice pages' link numbers, which the core's ``link_number`` checks under its own
``link.*`` codes. Importing this module registers them with the core's ``InputError`` and ``Place``, under the
same rule: one English template per code, and a Chinese one in ``ui/locales/zh.json``. Modules that raise them
import ``InputError`` and ``Place`` from here.
"""

from __future__ import annotations

from ndcg_core.errors import TEMPLATES, InputError, Place, register, shown

# Where a value was.
PLACES: dict[str, str] = {
    "typed.grade": "grade {position}",
    "link.step": "step",
    "link.exercise": "exercise number",
}

MESSAGES: dict[str, str] = {
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
    # What a phone's card sends (ui/routes.py).
    "answer.malformed": "the phone sent {value}, not an answer",
}

register(messages=MESSAGES, places=PLACES)

__all__ = ["MESSAGES", "PLACES", "TEMPLATES", "InputError", "Place", "shown"]
