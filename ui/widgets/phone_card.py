"""A student's phone card: a small ``st.components.v2`` component that draws the current activity in the browser
from the card route (``ui.routes``, ``ui.views.classroom.card``) and sends answers to the answer route, so a class
seeing a new activity costs the server no page runs. Drawn only where ``serve.py`` serves those routes."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from ui.widgets import as_json
from ui.widgets.room_watch import FALLBACK_SECONDS, POLL_SECONDS

_HERE = Path(__file__).parent

# Set to "1" by serve.py, which serves the card routes: a phone then draws its card in the browser; without it
# (``streamlit run app.py``, AppTest) the phone's page draws the activity with Streamlit (``kinds.VIEWS`` student).
ROUTES_ENV = "NDCG_LAB_PHONE_ROUTES"

_component = st.components.v2.component(
    "ndcg_lab.phone_card",
    html='<div class="ndcg-card"><div class="notice" role="alert" hidden></div><div class="body"></div></div>',
    css=(_HERE / "phone_card.css").read_text(encoding="utf-8"),
    # SortableJS first (it defines globalThis.Sortable), then the card; nothing is fetched at run time.
    js=(_HERE / "Sortable.min.js").read_text(encoding="utf-8")
    + "\n"
    + (_HERE / "phone_card.js").read_text(encoding="utf-8"),
)


def phone_card(code: str, student: str, lang: str, texts: Mapping[str, str], *, key: str = "cr_card") -> Any:
    """Draw student ``student``'s card for room ``code`` in language ``lang``; ``texts`` are what the phone says
    when it cannot get a card: ``outage`` (the database is not answering), ``unknown`` (no such room for this
    student) and ``not_sent`` (an answer that got no reply)."""
    me = urlencode({"me": student})
    return _component(
        key=key,
        data=as_json(
            {
                "code": code,
                "me": student,
                "lang": lang,
                "watch": f"/api/room/{code}/revision?{me}",
                "card": f"/api/room/{code}/card?{me}&{urlencode({'lang': lang})}",
                "answer": f"/api/room/{code}/answer",
                "every": int(POLL_SECONDS * 1000),
                "fallback": int(FALLBACK_SECONDS * 1000),
                "texts": dict(texts),
            }
        ),
    )


def cards_served() -> bool:
    """Whether this process serves the card routes (it was started through ``serve.py``)."""
    return os.environ.get(ROUTES_ENV) == "1"
