"""The web server: Streamlit's own ASGI app (``st.App``) over ``app.py`` and ``pages/`` (the file-based router,
unchanged), with one JSON route the live classroom's phones poll, and Nagle's algorithm off.

    python -m streamlit run serve.py

``streamlit run app.py`` still serves every page; without this file the classroom's phones fall back to asking
the server through their page every two seconds, and every websocket message can wait 40 ms
(``ui/server_tuning.py``).
"""

from __future__ import annotations

import streamlit as st
from starlette.routing import Route

from ui.routes import room_revision_route
from ui.server_tuning import turn_nagle_off

turn_nagle_off()  # see ui/server_tuning.py: Streamlit's server offers no supported hook for it

app = st.App("app.py", routes=[Route("/api/room/{code}/revision", room_revision_route)])
