"""The web server: Streamlit's own ASGI app (``st.App``) over ``app.py`` and ``pages/`` (the file-based router,
unchanged), with the routes the live classroom's phones use (joining, their page, their card, their answers),
Nagle's algorithm off, ``X-Forwarded-For`` believed only from ``NDCG_LAB_TRUSTED_PROXIES``, the security headers on
every response (``ui/http_security.py``) and the room's results file downloaded once per preparing
(``ui/results_download.py``).

    python -m streamlit run serve.py

``streamlit run app.py`` still serves every page; without this file a phone stays on the Classroom page, which
draws its card with Streamlit and looks at the room every two seconds, and every websocket message can wait 40 ms
(``ui/server_tuning.py``).
"""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import streamlit as st
from starlette.middleware import Middleware
from starlette.routing import Route

from ui.http_limits import trusted_proxies
from ui.http_security import SecurityHeaders
from ui.i18n import LANGUAGES
from ui.phones.phone_page import ROUTES_ENV
from ui.phones.routes import (
    answer_route,
    end_streams,
    events_route,
    join_page_route,
    join_route,
    phone_card_route,
    phone_page_route,
    watch_route,
)
from ui.results_download import OneDownload
from ui.server_tuning import end_streams_first, reuse_theme_messages, trust_forwarded_for_only_from, turn_nagle_off
from ui.uploads import UploadBudget
from ui.views.classroom.common import make_opening_forms

turn_nagle_off()  # see ui/server_tuning.py: Streamlit's server offers no supported hook for it
end_streams_first(end_streams)  # the same: a SIGTERM must not wait for the phones' streams, which never end
# The same again: uvicorn believes X-Forwarded-For from 127.0.0.1 (and FORWARDED_ALLOW_IPS), so any process on the
# machine, or a tunnel's clients, could name their own address and so their own limits; only NDCG_LAB_TRUSTED_PROXIES.
trust_forwarded_for_only_from(trusted_proxies())
reuse_theme_messages()  # every run's theme worked out once: Streamlit read and renamed every option at each run

os.environ[ROUTES_ENV] = "1"  # this process serves the phone page and its routes below (phone_page.py)


@asynccontextmanager
async def ready(_app: st.App) -> AsyncIterator[None]:
    """Before the first request (Streamlit's runtime, and so its caches, are up by now): what a process's first
    opening would otherwise make while a class waits."""
    make_opening_forms(LANGUAGES)
    yield


app = st.App(
    "app.py",
    lifespan=ready,
    # Streamlit holds uploads in memory: a file, and all of them at once, are bounded (ui/uploads.py).
    middleware=[Middleware(SecurityHeaders), Middleware(UploadBudget), Middleware(OneDownload)],
    routes=[
        Route("/api/room/{code}/card", phone_card_route),
        Route("/api/room/{code}/events", events_route),
        Route("/api/room/{code}/watch", watch_route),
        Route("/api/room/{code}/answer", answer_route, methods=["POST"]),
        Route("/api/room/{code}/join", join_route, methods=["POST"]),
        Route("/phone/{code}", phone_page_route),
        Route("/join/{code}", join_page_route),
    ],
)

# What is imported by now (Streamlit, pandas, Altair, the app's modules) lives as long as the process: moved out of
# the cyclic collector's way, a full collection scans only what came after it (2 ms against 150 ms measured, a pause
# of every thread of the process, its phones' cards and answers included, while a class answers).
gc.collect()
gc.freeze()
