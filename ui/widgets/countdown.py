"""A lesson activity's countdown: a small ``st.components.v2`` component that counts down in the browser (no page
run per second) and stops at "0:00"; with ``wake`` it reruns the fragment it is in once at zero, so that what that
run draws beside it (the status saying the time is up) follows the clock. It never says "Time is up" itself: a
page's run leaves the last run's elements in place until it has drawn their successors, and a countdown of an
activity whose clock ran out, left standing beside the next activity's "Answers: open", would contradict it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

_component = st.components.v2.component(
    "ndcg_lab.countdown",
    html='<div class="countdown" role="timer" aria-live="off"></div>',
    css=(
        ".countdown { font-weight: 700; font-variant-numeric: tabular-nums; padding: 0.1rem 0; }"
        ".countdown.soon { color: #b42318; }"
    ),
    js=(Path(__file__).parent / "countdown.js").read_text(encoding="utf-8"),
)


def countdown(left: float, label: str, *, size: int = 20, wake: bool = False, key: str = "cr_countdown") -> Any:
    """Count ``left`` seconds down, as "{label} 0:42", to "{label} 0:00"; with ``wake`` the fragment this is in
    reruns at zero. ``size`` is the text's size in pixels."""
    return _component(
        key=key,
        data={"left": max(0.0, float(left)), "label": label, "size": size, "wake": wake},
        on_up_change=lambda: None,
    )
