"""Nagle's algorithm off on the web server's TCP connections: the one place the app reaches into asyncio.

Streamlit (1.67, on uvicorn) binds its listening socket itself as ``socket.socket(family)``, with proto 0, and
offers no hook for socket options: no ``server.*`` option, no uvicorn setting, no websocket handler of ours
(uvicorn #3149 reports the same for its pre-bound sockets). asyncio turns Nagle off on each accepted connection
in ``asyncio.base_events._set_nodelay``, but only for sockets made with ``proto=IPPROTO_TCP``, so every websocket
kept Nagle on: a rerun is many small messages, and after the first the next waited for the browser's delayed
ACK, 40 ms on Linux, before any element arrived (``benchmarks/bench_instant.py``). This module replaces that
private function for the process, and refuses loudly if it has moved.
"""

from __future__ import annotations

import asyncio.base_events
import socket
import sys

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
