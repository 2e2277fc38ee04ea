"""The teacher's key from a control link's fragment (``#key=SECRET``), which no browser sends to a server: a tiny
``st.components.v2`` component with no visible part reads ``window.location.hash``, hands the key to the page (a
trigger, ``on_key``) and takes it out of the address bar (``link_key.js``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ui.widgets.served import ServedComponent

_component = ServedComponent(
    "ndcg_lab.link_key",
    html="<span hidden></span>",
    js="link_key.js",
)


def link_key(on_key: Callable[[], None], *, key: str) -> Any:
    """Call ``on_key`` when the page's address carries ``#key=...`` (the widget ``key``'s value then holds it under
    ``"key"``)."""
    return _component(key=key, on_key_change=on_key, height=0)
