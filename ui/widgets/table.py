"""The breakdown table as a small ``st.components.v2`` component: rows after k greyed, cells as text.

A styled ``st.dataframe`` (pandas Styler) cost a third of the server's time per move under a class's load;
this sends the formatted cells as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ui.columns import Table
from ui.columns import column as listed
from ui.i18n import Translator
from ui.widgets import as_json
from ui.widgets.served import ServedComponent

# table.js imports the pointer (a row pointed at is marked on every linked view); the marks' CSS comes after the
# table's (table.entry.css).
_component = ServedComponent(
    "ndcg_lab.breakdown_table",
    html='<div class="ndcg-table"><table><caption></caption><thead></thead><tbody></tbody></table></div>',
    css="table.entry.css",
    js="table.js",
)

COLUMNS = ("position", "item", "grade", "term", "cumulative_dcg", "ideal_grade", "cumulative_idcg", "ndcg")
NUMERIC = {"position", "grade", "cumulative_dcg", "ideal_grade", "cumulative_idcg", "ndcg"}


def _cell(column: str, value: object) -> str:
    if column in ("cumulative_dcg", "cumulative_idcg", "ndcg"):
        return f"{value:.4f}"
    if column in ("grade", "ideal_grade"):
        return grade_text(value)
    return str(value)


RUNNING = ("cumulative_dcg", "cumulative_idcg", "ndcg")  # running totals: past k they are no part of the answer


def grade_text(value: object) -> str:
    """A grade as given: 3, not 3.0000 (2.5 stays 2.5); blank where there is none."""
    return "" if pd.isna(value) else f"{value:g}"


def cut_texts(t: Translator, columns: Sequence[str], k: int) -> dict[str, str]:
    """The texts ``cut_at_k`` needs, in ``t``'s language: a header per column, the totals row's, the past-k mark."""
    return {c: t(f"table.{c}") for c in columns} | {
        "total": t("table.total_at_k", k=k),
        "total_term": t("table.total_term", k=k, dcg="{dcg}", idcg="{idcg}", ndcg="{ndcg}"),
        "past": t("table.past_k", k=k),
    }


def cut_at_k(frame: pd.DataFrame, columns: Sequence[str], texts: Mapping[str, str]) -> tuple[pd.DataFrame, list[str]]:
    """The breakdown's worked terms as text, cut at k: positions 1 to k, then one row of the totals at k (DCG@k,
    ideal DCG@k and NDCG@k, the k-th row's running totals from ``ndcg_core.breakdown``), then the positions past k
    with their term but no running total, marked ``texts["past"]``. Returns the rows and each row's kind
    (``in``, ``total``, ``past``), for styling.

    ``texts``: a header per column, ``total`` (the totals row's first cell), ``total_term`` (its term cell, a
    template of ``{dcg}``, ``{idcg}`` and ``{ndcg}``) and ``past``.
    """
    cut = int(frame["in_top_k"].sum())
    cells = [[_cell(c, v) for c, v in zip(columns, row, strict=True)] for row in frame[list(columns)].itertuples(False)]
    kinds = ["in"] * cut + ["past"] * (len(frame) - cut)
    for row in cells[cut:]:
        for j, c in enumerate(columns):
            if c in RUNNING:
                row[j] = ""
        row[next(j for j, c in enumerate(columns) if c in RUNNING or c == columns[-1])] = texts["past"]
    if cut:
        at_k = frame.iloc[cut - 1]
        total = ["" for _ in columns]
        total[0] = texts["total"]
        for j, c in enumerate(columns):
            if c in RUNNING:
                total[j] = _cell(c, at_k[c])
            elif c == "term":
                dcg, idcg, ndcg = (_cell(r, at_k[r]) for r in RUNNING)
                total[j] = texts["total_term"].format(dcg=dcg, idcg=idcg, ndcg=ndcg)
        cells.insert(cut, total)
        kinds.insert(cut, "total")
    headers = [texts[c] for c in columns]
    return pd.DataFrame(cells, columns=headers), kinds


def table_data(
    frame: Table,
    headers: Mapping[str, str],
    caption: str,
    beyond: str,
    columns: Sequence[str] = COLUMNS,
    large: bool = False,
    before: Table | None = None,
    changed: frozenset[int] = frozenset(),
    change: int | None = None,
) -> dict:
    """What the browser needs to draw the table (JSON): header labels, formatted cells, rows inside k; with
    ``before`` (the breakdown before the last change), each row in ``changed`` (positions) keeps its old term, and
    ``change`` (the change's id, ``ui.live.change_id``) starts the charts' animation of it."""
    values = {c: listed(frame, c) for c in columns}
    old = {} if before is None else dict(zip(listed(before, "position"), listed(before, "term"), strict=True))
    was = [old.get(p, "") if p in changed else "" for p in listed(frame, "position")]
    return {
        "columns": [headers[c] for c in columns],
        "numeric": [c in NUMERIC for c in columns],
        "rows": [[_cell(c, values[c][i]) for c in columns] for i in range(len(frame))],
        "inside": [bool(x) for x in listed(frame, "in_top_k")],
        "was": was,
        "term_column": list(columns).index("term") if "term" in columns else -1,
        "change": change,
        "caption": caption,
        "beyond": beyond,
        "large": large,
    }


def breakdown_table(
    frame: pd.DataFrame, *, headers: Mapping[str, str], caption: str, beyond: str, key: str, large: bool = False
) -> None:
    """Draw the table; ``large`` for presenter view (type a projector can carry)."""
    show_table(table_data(frame, headers, caption, beyond, large=large), key=key)


def show_table(data: dict, *, key: str) -> None:
    """Draw a table from ``table_data`` made beforehand."""
    _component(key=key, data=as_json(data))
