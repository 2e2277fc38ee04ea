"""What makes a teacher's live part run: a tiny ``st.components.v2`` component with no visible part that keeps one
event stream of the room's changes (the watch route, ``ui/phones/routes.py``) and reruns the part it is in at each one
(``room_watch.js``), instead of a run every half second whether or not anything changed: a projector view left
open cost its browser a fifth of a core and the server 4.5% of one, doing nothing
(``benchmarks/bench_idle_pages.py``)."""

from __future__ import annotations

from typing import Any

from ui.widgets.served import ServedComponent

_component = ServedComponent(
    "ndcg_lab.room_watch",
    html="<span hidden></span>",
    js="room_watch.js",
)


def room_watch(code: str, seen: str, every: float, *, key: str) -> Any:
    """Rerun the part this is drawn in whenever room ``code`` changes after mark ``seen`` (``Mark.text``, taken
    before the part read the room); every ``every`` seconds while the stream cannot be had."""
    return _component(
        key=key,
        data={"url": f"/api/room/{code}/watch", "seen": seen, "every": every},
        on_changed_change=lambda: None,
        height=0,
    )
