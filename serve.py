"""The web server: Streamlit's own ASGI app (``st.App``) over ``app.py`` and ``pages/`` (the file-based router,
unchanged), with one JSON route the live classroom's phones poll, and Nagle's algorithm off.

    python -m streamlit run serve.py

``streamlit run app.py`` still serves every page; without this file the classroom's phones fall back to asking
the server through their page every two seconds, and every websocket message can wait 40 ms (see below).
"""

from __future__ import annotations

import asyncio.base_events
import socket

import streamlit as st
from starlette.routing import Route

from ui.routes import room_revision_route


def _set_nodelay(sock: socket.socket) -> None:
    """Turn Nagle's algorithm off on a TCP connection.

    asyncio does this itself only for sockets created with ``proto=IPPROTO_TCP``; Streamlit binds its listening
    socket with ``socket.socket(family)`` (proto 0), so every websocket kept Nagle on. A page's rerun is many
    small messages: after the first, the next waited for the browser's delayed ACK, 40 ms on Linux, before any
    element arrived (``benchmarks/bench_instant.py``).
    """
    if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


asyncio.base_events._set_nodelay = _set_nodelay  # type: ignore[attr-defined]

app = st.App("app.py", routes=[Route("/api/room/{code}/revision", room_revision_route)])
