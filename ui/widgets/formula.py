"""The Playground's formula with the list's own numbers, a small ``st.components.v2`` component: DCG@k as the sum
of its terms, each a focusable view of its position (linked to the list, the table and the charts through
``ui.widgets.pointer``), the pointed position's own formula written out below, and NDCG = DCG / IDCG.

The page makes every text (``formula_data``'s caller, ``ui/views/playground/figures.py``); this draws them.
"""

from __future__ import annotations

from typing import Any

from ui.widgets import as_json
from ui.widgets.served import ServedComponent

_component = ServedComponent(
    "ndcg_lab.formula",
    html=(
        '<div class="ndcg-formula"><p class="sum"></p><p class="detail" aria-live="polite"></p>'
        '<p class="ratio"></p></div>'
    ),
    css="formula.entry.css",
    js="formula.js",
)

MAX_TERMS = 20  # a longer sum names its first terms and says how many more


def show_formula(data: dict[str, Any], *, key: str) -> None:
    """Draw the formula: ``data`` holds ``lhs`` ("DCG@5 ="), ``terms`` (each with ``position``, ``text``, ``was``,
    ``changed`` and ``detail``), ``more``, ``total``, ``details`` (one per position of the list), ``idle`` and
    ``ratio``."""
    _component(key=key, data=as_json(data))
