"""The Playground's formula with the list's own numbers, a small ``st.components.v2`` component: DCG@k as the sum
of its terms, each a focusable view of its position (linked to the list, the table and the charts through
``ui.widgets.pointer``), the pointed position's own formula written out below, and NDCG = DCG / IDCG.

The page makes every text (``formula_data``'s caller, ``ui/views/playground/figures.py``); this draws them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from ui.widgets import as_json
from ui.widgets.pointer import LINKED_CSS, POINTER_JS

_HERE = Path(__file__).parent
_component = st.components.v2.component(
    "ndcg_lab.formula",
    html=(
        '<div class="ndcg-formula"><p class="sum"></p><p class="detail" aria-live="polite"></p>'
        '<p class="ratio"></p></div>'
    ),
    css=(_HERE / "formula.css").read_text(encoding="utf-8") + "\n" + LINKED_CSS,
    js=POINTER_JS + "\n" + (_HERE / "formula.js").read_text(encoding="utf-8"),
)

MAX_TERMS = 20  # a longer sum names its first terms and says how many more


def show_formula(data: dict[str, Any] | str, *, key: str) -> None:
    """Draw the formula: ``data`` holds ``lhs`` ("DCG@5 ="), ``terms`` (each with ``position``, ``text``, ``was``,
    ``changed`` and ``detail``), ``more``, ``total``, ``details`` (one per position of the list), ``idle`` and
    ``ratio``; or that as JSON text made beforehand (``ui.widgets.as_json``)."""
    _component(key=key, data=data if isinstance(data, str) else as_json(data))
