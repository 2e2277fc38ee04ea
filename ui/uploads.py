"""How much the Evaluate page's uploads may hold: a file at most ``NDCG_LAB_MAX_UPLOAD_MB`` megabytes (and never
more than Streamlit's ``server.maxUploadSize``), and all the uploads this server process holds for its visitors at
once at most ``NDCG_LAB_UPLOADS_MB``.

Streamlit keeps every uploaded file in the process's memory until its visitor removes it or leaves, so without a
bound on the whole a few visitors could fill the server's memory. ``UploadBudget``, an ASGI middleware (``serve.py``),
refuses an upload that would go over either limit before its body is read (HTTP 413, or 411 for an upload that does
not say its size); the Evaluate page says beforehand how much room is left (``ui/views/evaluate.py``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

MB = 1024 * 1024
MAX_UPLOAD_ENV = "NDCG_LAB_MAX_UPLOAD_MB"
UPLOADS_ENV = "NDCG_LAB_UPLOADS_MB"
DEFAULT_UPLOADS_MB = 1000  # three files of the largest kind (a 7,000-query x 1,000-document run is about 250 MB)
UPLOAD_PATH = "/_stcore/upload_file/"  # Streamlit's upload route (PUT), under any base path


@dataclass(frozen=True)
class UploadLimits:
    """The largest file one upload may be, and all the uploads a server process may hold at once (megabytes)."""

    per_file_mb: int
    total_mb: int = DEFAULT_UPLOADS_MB

    @classmethod
    def from_environment(cls, streamlit_mb: int, environ: Mapping[str, str] | None = None) -> UploadLimits:
        """The limits from ``NDCG_LAB_MAX_UPLOAD_MB`` (at most ``streamlit_mb``, Streamlit's own
        ``server.maxUploadSize``, its default) and ``NDCG_LAB_UPLOADS_MB``; a value that is not a whole number of
        1 or more is ignored (the server must start)."""
        environ = os.environ if environ is None else environ
        per_file = min(_megabytes(environ.get(MAX_UPLOAD_ENV)) or streamlit_mb, streamlit_mb)
        total = _megabytes(environ.get(UPLOADS_ENV)) or DEFAULT_UPLOADS_MB
        return cls(per_file, total)


def _megabytes(text: str | None) -> int | None:
    try:
        value = int(text or "")
    except ValueError:
        return None
    return value if value >= 1 else None


def limits() -> UploadLimits:
    """This process's limits (Streamlit's ``server.maxUploadSize`` and the environment)."""
    from streamlit import config

    return UploadLimits.from_environment(int(config.get_option("server.maxUploadSize")))


def held_bytes() -> int:
    """The bytes of every upload this process's Streamlit holds now, for all its visitors."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return 0
    stats = Runtime.instance().uploaded_file_mgr.get_stats()
    return sum(int(getattr(stat, "byte_length", 0)) for family in stats.values() for stat in family)


Scope = dict[str, Any]
Send = Callable[[dict[str, Any]], Any]


class UploadBudget:
    """ASGI middleware: an upload to Streamlit's route (PUT ``/_stcore/upload_file/...``) larger than a file may be,
    or one that would make the process hold more uploads than ``total_mb``, is refused with 413 before its body is
    read; one that does not say its size (``Content-Length``) with 411. Uploads under way are counted too."""

    def __init__(
        self,
        app: Callable[..., Any],
        get_limits: Callable[[], UploadLimits] = limits,
        held: Callable[[], int] = held_bytes,
    ) -> None:
        self.app = app
        self.get_limits = get_limits
        self.held = held
        self._lock = threading.Lock()
        self._arriving = 0  # bytes of uploads let through whose files Streamlit does not hold yet

    async def __call__(self, scope: Scope, receive: Callable[[], Any], send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "PUT" or UPLOAD_PATH not in scope["path"]:
            await self.app(scope, receive, send)
            return
        length = _content_length(scope)
        if length is None:
            await _refuse(send, 411, "An upload must say its size (Content-Length).")
            return
        bound = self.get_limits()
        if length > bound.per_file_mb * MB + MB:  # a megabyte for the form's own framing, as Streamlit allows
            await _refuse(send, 413, f"A file may be {bound.per_file_mb} MB at most.")
            return
        with self._lock:
            if self.held() + self._arriving + length > bound.total_mb * MB:
                full = True
            else:
                full = False
                self._arriving += length
        if full:
            await _refuse(send, 413, f"The server holds {bound.total_mb} MB of uploads already; try again later.")
            return
        try:
            await self.app(scope, receive, send)
        finally:
            with self._lock:
                self._arriving -= length


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                length = int(value)
            except ValueError:
                return None
            return length if length >= 0 else None
    return None


async def _refuse(send: Send, status: int, text: str) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
