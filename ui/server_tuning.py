"""Nagle's algorithm off on the web server's TCP connections, the phones' event streams ended first when the
server stops, and ``X-Forwarded-For`` believed only from the proxies named: the one place the app reaches into
asyncio and uvicorn.

Streamlit (1.67, on uvicorn) binds its listening socket itself as ``socket.socket(family)``, with proto 0, and
offers no hook for socket options: no ``server.*`` option, no uvicorn setting, no websocket handler of ours
(uvicorn #3149 reports the same for its pre-bound sockets). asyncio turns Nagle off on each accepted connection
in ``asyncio.base_events._set_nodelay``, but only for sockets made with ``proto=IPPROTO_TCP``, so every websocket
kept Nagle on: a rerun is many small messages, and after the first the next waited for the browser's delayed
ACK, 40 ms on Linux, before any element arrived (``benchmarks/bench_instant.py``). This module replaces that
private function for the process, and refuses loudly if it has moved.

When asked to stop, uvicorn waits for every response to finish before it stops (Streamlit sets no graceful
timeout), and a phone's event stream never finishes by itself: ``end_streams_first`` makes uvicorn's
``Server.shutdown`` end them first, so a SIGTERM stops the process at once, as before the streams.

uvicorn replaces a request's client address by the one ``X-Forwarded-For`` names when the request comes from an
address of its ``forwarded_allow_ips`` (127.0.0.1 and ::1 unless ``FORWARDED_ALLOW_IPS`` says otherwise), and
Streamlit passes no setting for it. Streamlit makes uvicorn's ``Config`` before it imports ``serve.py``, and the
``Config`` wraps the app in ``ProxyHeadersMiddleware`` after that import: ``trust_forwarded_for_only_from`` replaces
that class, for the process, by one that believes only the addresses given (none: the header is ignored).
"""

from __future__ import annotations

import asyncio.base_events
import socket
import sys
from collections.abc import Callable, Sequence
from typing import Any

PRIVATE_NAME = "_set_nodelay"  # asyncio.base_events's, called by every selector socket transport it makes


def set_nodelay(sock: socket.socket) -> None:
    """Turn Nagle's algorithm off on a TCP stream socket, whatever proto it was created with."""
    if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def turn_nagle_off() -> None:
    """Make asyncio turn Nagle off on every TCP connection of this process; a ``RuntimeError`` if it cannot."""
    if not callable(getattr(asyncio.base_events, PRIVATE_NAME, None)):
        raise RuntimeError(
            f"asyncio.base_events.{PRIVATE_NAME} is gone (Python {sys.version.split()[0]}): "
            "find where asyncio now sets TCP_NODELAY on accepted sockets, or a server option that does"
        )
    setattr(asyncio.base_events, PRIVATE_NAME, set_nodelay)


def end_streams_first(end: Callable[[], None]) -> None:
    """Call ``end`` (which ends every open event stream) when uvicorn begins to stop, before it waits for the
    responses under way; a ``RuntimeError`` if uvicorn's ``Server.shutdown`` is gone."""
    import uvicorn

    original = getattr(uvicorn.Server, "shutdown", None)
    if not callable(original):
        raise RuntimeError("uvicorn.Server.shutdown is gone: find how uvicorn now stops, to end the event streams")
    if getattr(original, "ends_streams", False):
        return

    async def shutdown(self: Any, *args: Any, **kwargs: Any) -> None:
        end()
        await original(self, *args, **kwargs)

    shutdown.ends_streams = True  # type: ignore[attr-defined]
    uvicorn.Server.shutdown = shutdown  # type: ignore[method-assign]


def trust_forwarded_for_only_from(proxies: Sequence[str]) -> None:
    """Make uvicorn believe ``X-Forwarded-For`` (and ``X-Forwarded-Proto``) only from ``proxies`` (addresses or
    networks; none: never); a ``RuntimeError`` if uvicorn's ``Config`` no longer wraps the app in its
    ``ProxyHeadersMiddleware``."""
    import uvicorn.config
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    if not isinstance(getattr(uvicorn.config, "ProxyHeadersMiddleware", None), type):
        raise RuntimeError("uvicorn.config.ProxyHeadersMiddleware is gone: find how uvicorn now reads X-Forwarded-For")
    trusted = list(proxies)

    class OnlyTrustedProxies(ProxyHeadersMiddleware):
        def __init__(self, app: Any, trusted_hosts: Any = None) -> None:
            super().__init__(app, trusted_hosts=trusted)

    uvicorn.config.ProxyHeadersMiddleware = OnlyTrustedProxies  # type: ignore[attr-defined]


THEME_FUNCTION = "_populate_theme_msg"  # streamlit.runtime.app_session's: six calls in every run's new_session


def reuse_theme_messages() -> None:
    """Make Streamlit fill each run's theme (the ``new_session`` message's six theme sections) from a copy made
    once per section and configuration, where it read every option of the section again and turned each name into
    snake case by regular expressions: 13% of the server's CPU per Playground move (``benchmarks/
    bench_cpu_per_move.py --profile``). A theme is read from the configuration once, when the server starts (a new
    reading of it is a new copy). A ``RuntimeError`` if Streamlit no longer has the function."""
    from streamlit import config
    from streamlit.runtime import app_session

    original = getattr(app_session, THEME_FUNCTION, None)
    if not callable(original):
        raise RuntimeError(
            f"streamlit.runtime.app_session.{THEME_FUNCTION} is gone: find how Streamlit now fills a run's theme"
        )
    if getattr(original, "reuses", False):
        return
    made: dict[tuple[str, int], Any] = {}

    def populate(msg: Any, section: str = "theme") -> None:
        key = (section, id(getattr(config, "_config_options", None)))  # a new reading of the configuration: anew
        copy = made.get(key)
        if copy is None:
            copy = type(msg)()
            original(copy, section)
            made[key] = copy
        msg.MergeFrom(copy)

    populate.reuses = True  # type: ignore[attr-defined]
    setattr(app_session, THEME_FUNCTION, populate)
