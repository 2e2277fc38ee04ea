"""The browser's memory of classroom rooms: a student's id and a teacher's key kept in the browser's own
storage, so a reload or the join link opened again keeps the same identity. A tiny ``st.components.v2``
component with no visible part."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ui.widgets.served import ServedComponent

_component = ServedComponent(
    "ndcg_lab.browser_memory",
    html="<span hidden></span>",
    js="browser_memory.js",
)


def browser_memory(
    room: str,
    *,
    known: dict | None,
    remember: dict | None = None,
    forget: bool = False,
    on_change: Callable[[], None],
    key: str = "cr_memory",
) -> Any:
    """Keep ``remember`` ({"me": id} or {"key": key}) for ``room`` in this browser, or ``forget`` the room; the
    browser reports what it holds for the room (``on_change`` runs when that differs from ``known``)."""
    return _component(
        key=key,
        data={"room": room, "remember": remember, "forget": forget, "known": known},
        default={"memory": None},
        on_memory_change=on_change,
        height=0,
    )
