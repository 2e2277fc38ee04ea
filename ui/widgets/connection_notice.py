"""A notice while the page has lost its server: "Reconnecting…" in the reader's language, in place of Streamlit's
developer dialog ("Connection error ... streamlit run yourscript.py") and its status texts.

The server cannot send anything once the connection is gone, so every page draws this tiny ``st.components.v2``
component (``ui.page.start_page``) with the translated texts beforehand. Its script (``connection_notice.js``,
run in the page, no iframe) installs one watcher per browser tab: it reads the connection state Streamlit writes on
its app element (``data-test-connection-state``), shows a small fixed banner while that is not ``CONNECTED``, hides
Streamlit's connection dialog and status, and removes the banner when Streamlit has reconnected by itself. Then,
unless Streamlit runs the page itself, it sends a trigger so the new server session runs the whole page (a button
in a fragment would otherwise ask the new session for a fragment it has never run, and do nothing).
"""

from __future__ import annotations

from typing import Any

from ui.i18n import Translator
from ui.widgets.served import ServedComponent

_component = ServedComponent(
    "ndcg_lab.connection_notice",
    html="<span hidden></span>",
    js="connection_notice.js",
)


def connection_notice(t: Translator, *, key: str = "connection_notice") -> Any:
    """Give this tab the notice's texts in ``t``'s language (the watcher is installed once, at the first call)."""
    return _component(
        key=key,
        data={"lang": t.lang, "title": t("connection.lost"), "detail": t("connection.kept")},
        on_back_change=lambda: None,  # the connection is back: the trigger runs the page in the new session
        height=0,
    )
