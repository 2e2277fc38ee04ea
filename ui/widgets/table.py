"""The breakdown table as a small ``st.components.v2`` component: rows after k greyed, cells as text.

A styled ``st.dataframe`` (pandas Styler) cost a third of the server's time per move under a class's load;
this sends the formatted cells as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd
import streamlit as st

from ui.widgets import as_json

_HERE = Path(__file__).parent
_component = st.components.v2.component(
    "ndcg_lab.breakdown_table",
    html='<div class="ndcg-table"><table><caption></caption><thead></thead><tbody></tbody></table></div>',
    css=(_HERE / "table.css").read_text(encoding="utf-8"),
    js=(_HERE / "table.js").read_text(encoding="utf-8"),
)

COLUMNS = ("position", "item", "grade", "term", "cumulative_dcg", "ideal_grade", "cumulative_idcg", "ndcg")
NUMERIC = {"position", "grade", "cumulative_dcg", "ideal_grade", "cumulative_idcg", "ndcg"}


def _cell(column: str, value: object) -> str:
    if column in ("cumulative_dcg", "cumulative_idcg", "ndcg"):
        return f"{value:.4f}"
    if column in ("grade", "ideal_grade"):
        return "" if pd.isna(value) else f"{value:g}"
    return str(value)


def table_data(
    frame: pd.DataFrame,
    headers: Mapping[str, str],
    caption: str,
    beyond: str,
    columns: Sequence[str] = COLUMNS,
    large: bool = False,
) -> dict:
    """What the browser needs to draw the table (JSON): header labels, formatted cells, rows inside k."""
    values = {c: frame[c].tolist() for c in columns}
    return {
        "columns": [headers[c] for c in columns],
        "numeric": [c in NUMERIC for c in columns],
        "rows": [[_cell(c, values[c][i]) for c in columns] for i in range(len(frame))],
        "inside": [bool(x) for x in frame["in_top_k"].tolist()],
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
