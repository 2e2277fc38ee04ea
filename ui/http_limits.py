"""What bounds one client's use of the phones' HTTP routes (``ui/phones/routes.py``): the size of a request's body, the
event streams open at once per student and per client address, and the addresses whose ``X-Forwarded-For`` is
believed. Each limit can be set by an environment variable (``NDCG_LAB_<NAME>``), read once per process."""

from __future__ import annotations

import os
import threading
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, fields

import streamlit as st

from ndcg_core.errors import InputError, shown

TRUSTED_PROXIES_ENV = "NDCG_LAB_TRUSTED_PROXIES"


@dataclass(frozen=True)
class HttpLimits:
    """The routes' limits; each can be set by an environment variable (``NDCG_LAB_MAX_BODY_BYTES``, ...)."""

    # A phone's join or answer is under 1 KB (a Practice set's five numbers, an order of 20 results): a body is
    # refused with a 413 before more than this is read.
    max_body_bytes: int = 4096
    # A phone keeps one stream open; a second or third is a reload or a new tab whose old one is not yet closed.
    streams_per_student: int = 3
    # A teacher's control page and projector view keep one stream each; a school behind one address may run a
    # few rooms at once.
    watch_streams_per_client: int = 12

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> HttpLimits:
        """The limits, with any ``NDCG_LAB_MAX_BODY_BYTES``-style variable applied (a whole number above 0; any
        other is an ``InputError``)."""
        environ = os.environ if environ is None else environ
        values: dict[str, int] = {}
        for field in fields(cls):
            name = f"NDCG_LAB_{field.name.upper()}"
            if name in environ:
                text = environ[name].strip()
                if not (text.isascii() and text.isdigit() and int(text) > 0):
                    raise InputError("room.setting", name=name, value=shown(environ[name]))
                values[field.name] = int(text)
        return cls(**values)


def trusted_proxies(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The addresses whose ``X-Forwarded-For`` is believed (``NDCG_LAB_TRUSTED_PROXIES``, comma-separated; none by
    default: then the header is ignored and a request comes from the address that connected)."""
    environ = os.environ if environ is None else environ
    return tuple(part.strip() for part in environ.get(TRUSTED_PROXIES_ENV, "").split(",") if part.strip())


@st.cache_resource(show_spinner=False)
def http_limits() -> HttpLimits:
    """This process's limits, read from its environment once."""
    return HttpLimits.from_environment()


class StreamSlots:
    """How many event streams are open per key (a student of a room, a client address): a stream takes a slot
    while it is open, and none is given past a key's limit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[Hashable, int] = {}

    def take(self, key: Hashable, limit: int) -> bool:
        """Take a slot of ``key`` if fewer than ``limit`` are taken (``False``: none left)."""
        with self._lock:
            count = self._open.get(key, 0)
            if count >= limit:
                return False
            self._open[key] = count + 1
            return True

    def give_back(self, key: Hashable) -> None:
        """A stream of ``key`` has ended."""
        with self._lock:
            count = self._open.get(key, 0) - 1
            if count > 0:
                self._open[key] = count
            else:
                self._open.pop(key, None)

    def taken(self, key: Hashable) -> int:
        with self._lock:
            return self._open.get(key, 0)


@st.cache_resource(show_spinner=False)
def stream_slots() -> StreamSlots:
    """The open streams of this process's routes."""
    return StreamSlots()
