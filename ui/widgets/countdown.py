"""A lesson activity's countdown: a small ``st.components.v2`` component that counts down in the browser (no page
run per second) and, at zero, shows "Time is up", or with ``wake`` reruns the fragment it is in once, whose run
draws it again with nothing left (so "Time is up" shows with what that run draws beside it)."""

from __future__ import annotations

from typing import Any

from ui.widgets.served import ServedComponent

_component = ServedComponent(
    "ndcg_lab.countdown",
    html='<div class="countdown" role="timer" aria-live="off"></div>',
    css=(
        ".countdown { font-weight: 700; font-variant-numeric: tabular-nums; padding: 0.1rem 0; }"
        ".countdown.soon, .countdown.up { color: #b42318; }"
    ),
    js="countdown.js",
)


def countdown(
    left: float, label: str, up: str, *, size: int = 20, wake: bool = False, key: str = "cr_countdown"
) -> Any:
    """Count ``left`` seconds down, as "{label} 0:42", then "{up}"; with ``wake`` the fragment this is in reruns
    at zero instead, and "{up}" waits for that run. ``size`` is the text's size in pixels."""
    return _component(
        key=key,
        data={"left": max(0.0, float(left)), "label": label, "up": up, "size": size, "wake": wake},
        on_up_change=lambda: None,
    )
