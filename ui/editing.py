"""Turning what a learner typed into a new list, or a clear message (no Streamlit here, so it is unit-tested).

``apply_table_edits`` reads the delta Streamlit's data editor reports
({"edited_rows", "added_rows", "deleted_rows"}) against the rows it was shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ndcg_core import validate
from ndcg_core.lists.items import Item, check_grade, check_label, check_size, next_id
from ui.errors import InputError, Place, UiCode, UiInputError, UiPlace, shown

LABEL, GRADE = "label", "grade"


def grade_text(grade: float) -> str:
    """A grade as the table shows it: 3 rather than 3.0."""
    return f"{grade:g}"


def table_rows(items: Sequence[Item]) -> list[dict[str, str]]:
    """The rows the data editor is given: one per item, in ranked order."""
    return [{LABEL: it.label, GRADE: grade_text(it.grade)} for it in items]


def apply_table_edits(
    items: Sequence[Item], edits: Mapping[str, Any], top: float, *, allow_empty: bool = False
) -> list[Item]:
    """The list after the editor's edits; an ``InputError`` naming the row and column if any cell is bad.

    Nothing is applied unless every edit is valid, so the last valid list is kept.
    """
    out = list(items)
    for row_key, change in (edits.get("edited_rows") or {}).items():
        row = _row_index(row_key, len(items))
        label = out[row].label
        if LABEL in change:
            label = check_label(change[LABEL], Place("table.label", row=row + 1))
        grade = out[row].grade
        if GRADE in change:
            grade = check_grade(change[GRADE], top, Place("table.grade", row=row + 1))
        out[row] = replace(out[row], label=label, grade=grade)
    deleted = {_row_index(r, len(items)) for r in (edits.get("deleted_rows") or [])}
    out = [it for i, it in enumerate(out) if i not in deleted]
    new_id = next_id(items)
    for added in edits.get("added_rows") or []:
        row = len(out) + 1
        raw_label = added.get(LABEL)
        label = f"item {new_id}" if raw_label in (None, "") else check_label(raw_label, Place("table.label", row=row))
        raw_grade = added.get(GRADE)
        grade = 0.0 if raw_grade in (None, "") else check_grade(raw_grade, top, Place("table.grade", row=row))
        out.append(Item(new_id, label, grade))
        new_id += 1
    check_size(len(out))
    if not out and not allow_empty:
        raise InputError("list.empty")
    return out


typed_tokens = validate.tokens


def grades_from_text(items: Sequence[Item], text: str, top: float) -> list[Item]:
    """The list with grades typed as text, in ranked order ("3, 2, 0" or "3 2 0").

    The first items keep their labels; extra grades get new items, missing ones drop items.
    """
    parts = typed_tokens(text)
    if not parts:
        raise InputError("list.none_typed")
    check_size(len(parts))
    grades = [check_grade(p, top, UiPlace("typed.grade", position=i + 1)) for i, p in enumerate(parts)]
    out = [replace(it, grade=g) for it, g in zip(items, grades, strict=False)]
    new_id = next_id(items)
    for g in grades[len(items) :]:
        out.append(Item(new_id, f"item {new_id}", g))
        new_id += 1
    return out


def _row_index(key: Any, n: int) -> int:
    try:
        row = int(key)
    except (TypeError, ValueError):
        raise UiInputError("editor.row", value=shown(key), count=n) from None
    if not 0 <= row < n:
        raise UiInputError("editor.row", value=shown(row + 1), count=n)
    return row


def parse_gain_mapping(values: Mapping[Any, Any], top: int) -> dict[float, float]:
    """A custom gain table for grades 0..top (a grade left out keeps its grade as gain), checked by the core."""
    return validate.gain_mapping({g: values.get(g, g) for g in range(top + 1)})


TYPED_COLUMNS = ("query", "document", "grade", "rank")
BLANK: dict[str, UiCode] = {"query": "typed.query_blank", "document": "typed.document_blank"}
SPACE: dict[str, UiCode] = {"query": "typed.query_space", "document": "typed.document_space"}


def typed_queries_to_trec(rows: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    """Qrels and run text from a classroom table: one row per (query, document), with a grade and/or a rank.

    A row with a grade is a judgment; a row with a rank was retrieved at that rank (1 = first).
    An ``InputError`` names the row and column of anything unreadable.
    """
    qrels, run = [], []
    for i, row in enumerate(rows, start=1):
        values = {c: ("" if row.get(c) is None else str(row.get(c)).strip()) for c in TYPED_COLUMNS}
        if not any(values.values()):
            continue
        for column in ("query", "document"):
            if not values[column]:
                raise UiInputError(BLANK[column], row=i)
            validate.encodable(values[column], Place("table.item", row=i))
            if any(ch.isspace() for ch in values[column]):
                raise UiInputError(SPACE[column], row=i, value=shown(values[column]))
        if not values["grade"] and not values["rank"]:
            raise UiInputError("typed.needs_grade_or_rank", row=i)
        if values["grade"]:
            try:
                grade = float(values["grade"])
            except ValueError:
                raise UiInputError("typed.grade_not_number", row=i, value=shown(values["grade"])) from None
            if not grade.is_integer():
                raise UiInputError("typed.grade_not_whole", row=i, value=shown(values["grade"]))
            qrels.append(f"{values['query']} 0 {values['document']} {int(grade)}")
        if values["rank"]:
            try:
                rank = int(values["rank"])
            except ValueError:
                raise UiInputError("typed.rank_not_whole", row=i, value=shown(values["rank"])) from None
            if rank < 1:
                raise UiInputError("typed.rank_too_small", row=i, value=shown(rank))
            run.append(f"{values['query']} Q0 {values['document']} {rank} {-rank} typed")
    if not qrels:
        raise UiInputError("typed.no_grades")
    if not run:
        raise UiInputError("typed.no_ranks")
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"
