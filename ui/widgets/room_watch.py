"""A student's phone watching its classroom room where the Classroom page draws the phone's card itself (the app
started without ``serve.py``, whose phones have a page of their own): a small ``st.components.v2`` component with no
visible part.

It polls ``GET /api/room/CODE/revision?me=STUDENT`` (``ui.routes``, served by ``serve.py``) from the browser,
which costs the server no page run, and sends a trigger only when the revision differs from the one it was drawn
with; placed inside a fragment, that trigger reruns only the fragment. Without the route it triggers every ``fallback``
seconds, so the page still follows the teacher.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import streamlit as st


def compact_js(source: str) -> str:
    """``source`` without its whole-line comments and indentation (it has no template literals): a component's
    script goes out with every run that draws it, and this one with every phone's run."""
    lines = (line.strip() for line in source.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))


_component = st.components.v2.component(
    "ndcg_lab.room_watch",
    html="<span hidden></span>",
    js=compact_js((Path(__file__).parent / "room_watch.js").read_text(encoding="utf-8")),
)

POLL_SECONDS = 1.0  # a phone asks this often: an HTTP request of well under a millisecond of the server's time
FALLBACK_SECONDS = 2.0


def room_watch(code: str, student: str, revision: int, *, key: str = "cr_watch") -> Any:
    """Watch room ``code`` as its ``student``, drawn at ``revision``; a change reruns the fragment this is in (or
    the page). The route answers only a student of the room."""
    return _component(
        key=key,
        data={
            "url": f"/api/room/{code}/revision?{urlencode({'me': student})}",
            "revision": revision,
            "every": int(POLL_SECONDS * 1000),
            "fallback": int(FALLBACK_SECONDS * 1000),
        },
        on_changed_change=lambda: None,
        height=0,
    )
