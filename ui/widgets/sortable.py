"""The Playground's sortable list, a small ``st.components.v2`` component (no iframe).

Why our own component rather than a Streamlit package: the learner needs three equal ways to move an
item (drag, Alt+Arrow keys on a focused row, labelled up/down buttons), the order must be held by the
server so that "Ideal order", "Reset" and presets always win over what the browser shows, and a label
must stay text. streamlit-sortables overwrites reorders made from code unless its key changes, and
streamlit-dnd has no keyboard support. The drag itself is SortableJS (vendored as ``Sortable.min.js``,
MIT): touch-friendly, by a handle on touch screens so a swipe scrolls the page, with auto-scroll.
The component only reports actions (move, grade, remove, and the page's one-click orderings drawn under the
list); ``apply_action`` turns them into a new list, through ``ndcg_core.lists.items.move`` like every other
reordering, and ``ordering`` reads which ordering was asked for. The orderings are real buttons of the component
rather than ``st.button``s: the page sends a move's rerun one element, not six (two rows and four buttons).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st

from ndcg_core.lists.items import Item, check_grade, index_of, move, with_grade, without
from ui.charts import grade_color, grade_text_color
from ui.errors import InputError, Place, UiInputError, shown
from ui.widgets import as_json
from ui.widgets.pointer import LINKED_CSS, POINTER_JS

_HERE = Path(__file__).parent
_HTML = (
    '<div class="ndcg-sortable"><div class="summary" aria-hidden="true" hidden></div><p class="hint"></p><ol></ol>'
    '<div class="orders" role="group" hidden></div><div class="live" aria-live="polite"></div></div>'
)

_component = st.components.v2.component(
    "ndcg_lab.sortable_list",
    html=_HTML,
    css=(_HERE / "sortable.css").read_text(encoding="utf-8") + "\n" + LINKED_CSS,
    # SortableJS first (it defines globalThis.Sortable), then the linked views' pointer, then our module; nothing
    # is fetched at run time.
    js=(_HERE / "Sortable.min.js").read_text(encoding="utf-8")
    + "\n"
    + POINTER_JS
    + "\n"
    + (_HERE / "sortable.js").read_text(encoding="utf-8"),
)


def preview_data(after: np.ndarray, k: int) -> dict:
    """The drop preview the list shows while an item is dragged: NDCG@k after each move, and its change.

    ``after[i, j]`` is ndcg_core's NDCG@k after moving the item at i to j (``ndcg_after_each_move``); both
    figures are rounded here to the 4 decimals shown, so the browser only displays them. A move between two
    positions below k changes nothing, so those rows list only the moves into the top k.
    """
    n = len(after)
    now = float(after[0, 0]) if n else 0.0
    shown_after = np.round(after, 4)
    shown_change = np.round(after - now, 4) + 0.0  # + 0.0: no "-0.0000"
    rows = [slice(None) if i < k else slice(0, min(k, n)) for i in range(n)]
    return {
        "k": k,
        "now": round(now, 4),
        "after": [shown_after[i, cols].tolist() for i, cols in enumerate(rows)],
        "change": [shown_change[i, cols].tolist() for i, cols in enumerate(rows)],
    }


def component_data(
    items: Sequence[Item],
    k: int,
    top: int,
    texts: Mapping[str, str],
    large: bool = False,
    readonly: bool = False,
    summary: Mapping[str, str] | None = None,
    preview: Mapping[str, Any] | None = None,
    show_grades: bool = True,
    changed: Sequence[int] = (),
    version: int = 0,
    orders: Mapping[str, str] | None = None,
) -> dict:
    """What the browser needs to draw the list (JSON). ``summary`` ({"label", "value", "delta"}) is the figure
    kept in view above the list on a narrow screen; ``preview`` is ``preview_data``. Without ``show_grades``
    (a class judging relevance from the titles) no grade is sent to the browser at all, only the labels.
    ``changed``: the ids of the items whose DCG term the last change changed (marked until the next change);
    ``version`` a number the page changes to have the list drawn again from the server's order even when it is
    the same as last time (a move held by predict first, which the browser has already shown made); ``orders``
    the one-click orderings drawn under the list ({kind: button's text}, in order; none without it)."""
    return {
        "items": [
            {
                "id": it.id,
                "label": it.label,
                "grade": int(it.grade) if float(it.grade).is_integer() else it.grade,
                "color": grade_color(it.grade, top),
                "text_color": grade_text_color(it.grade, top),
            }
            if show_grades
            else {"id": it.id, "label": it.label}
            for it in items
        ],
        "show_grades": show_grades,
        "k": k,
        "top": top,
        "texts": dict(texts),
        "large": large,
        "readonly": readonly,
        "summary": dict(summary) if summary else None,
        "preview": dict(preview) if preview else None,
        "changed": list(changed),
        "version": version,
        "orders": [{"kind": kind, "label": label} for kind, label in (orders or {}).items()],
    }


def sortable_list(
    items: Sequence[Item],
    *,
    key: str,
    k: int,
    top: int,
    texts: Mapping[str, str],
    on_action: Callable[[], None],
    large: bool = False,
    readonly: bool = False,
    summary: Mapping[str, str] | None = None,
    preview: Mapping[str, Any] | None = None,
    show_grades: bool = True,
    changed: Sequence[int] = (),
    version: int = 0,
    orders: Mapping[str, str] | None = None,
) -> Any:
    """Draw the list; ``on_action`` runs (before the rerun) when the learner moves, regrades, removes or asks
    for one of ``orders`` (``ordering``). ``show_grades=False`` draws the labels only (read-only: there is no grade
    to edit)."""
    return _component(
        key=key,
        data=as_json(
            component_data(
                items, k, top, texts, large, readonly, summary, preview, show_grades, changed, version, orders
            )
        ),
        on_action_change=on_action,
    )


def apply_action(items: Sequence[Item], action: Any, top: int) -> tuple[list[Item], tuple[int, int] | None]:
    """The list after one action from the component, and (from, to) if it was a move.

    An ``InputError`` for anything malformed: the action comes from the browser, so it is input.
    """
    if not isinstance(action, Mapping):
        raise UiInputError("action.not_action", value=shown(action))
    kind = action.get("type")
    item_id = action.get("id")
    if kind == "move":
        to: Any = action.get("to")  # from the browser: move() checks it is an index into the list
        if isinstance(to, float) and to.is_integer():
            to = int(to)
        source = index_of(items, item_id)
        return move(items, source, to), (source, to)
    if kind == "grade":
        index_of(items, item_id)
        return with_grade(items, item_id, check_grade(action.get("grade"), top, Place("new.grade"))), None
    if kind == "remove":
        if len(items) <= 1:
            raise InputError("list.empty")
        return without(items, item_id), None
    raise UiInputError("action.unknown", value=shown(kind))


def ordering(action: Any, kinds: Sequence[str]) -> str | None:
    """The one-click ordering an action from the component asks for (one of ``kinds``), or ``None`` when it is
    another action. An ``InputError`` for an ordering not in ``kinds``: the action comes from the browser."""
    if not isinstance(action, Mapping) or action.get("type") != "order":
        return None
    kind = action.get("kind")
    if kind not in kinds:
        raise UiInputError("action.unknown", value=shown(kind))
    return str(kind)
