"""The room's results CSV, downloaded once per "Prepare the results" (issue 46).

Streamlit serves a download button's file from its media address (``/media/HASH.csv``) to anyone who has the
address, without a session, for as long as the teacher's session keeps the button, and offers no way to tie it to
the session that drew the button. So each press of "Prepare the results" allows one download of that room's file,
within ``DOWNLOAD_SECONDS``: the teacher's own, at once; the address seen later (in the browser's history, a log, a
screenshot of the developer tools) serves nothing. ``OneDownload`` is the server's side of it, a middleware that
refuses a results file not allowed just before (404, as for a file Streamlit no longer has).

Streamlit's page asks for a download button's address itself as soon as it draws the button (a ``fetch`` that only
looks at the status); the download is the browser's navigation to it. So the file goes out only to a navigation
(``Sec-Fetch-Mode: navigate``), and any other request for an allowed file gets an empty 200 and uses nothing up.
Whoever sends a navigation's header first gets the file once; the address is only ever sent to the teacher's page."""

from __future__ import annotations

import re
import threading
import time

import streamlit as st

from ui.http_security import ASGIApp, Message, Receive, Scope, Send

DOWNLOAD_SECONDS = 300.0  # how long a prepared file waits for its one download
_RESULTS_FILE = re.compile(r'filename="ndcg_lab_room_([A-Z0-9]+)\.csv"')


def results_file_name(code: str) -> str:
    """The results file's name for room ``code`` (what the browser saves, and what the middleware knows it by)."""
    return f"ndcg_lab_room_{code}.csv"


class Allowed:
    """The results downloads allowed now: per room, until when its next download is allowed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._until: dict[str, float] = {}

    def allow(self, code: str, seconds: float = DOWNLOAD_SECONDS) -> None:
        """One download of room ``code``'s results, within ``seconds``."""
        with self._lock:
            self._until[code] = time.monotonic() + seconds

    def take(self, code: str, use: bool = True) -> bool:
        """Whether a download of room ``code``'s results is allowed now; it is then used up (unless not ``use``)."""
        with self._lock:
            until = self._until.pop(code, None) if use else self._until.get(code)
        return until is not None and time.monotonic() <= until


@st.cache_resource(show_spinner=False)
def allowed_downloads() -> Allowed:
    """This process's allowed downloads (the teacher's session and its media files live in one process)."""
    return Allowed()


class OneDownload:
    """An ASGI middleware: a response that is a room's results file (by its ``Content-Disposition``) goes out only
    to a navigation ``allowed_downloads`` allows, once; while allowed, any other request gets an empty 200 (the
    page's look at the address); otherwise a 404."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith("/media/"):
            await self.app(scope, receive, send)
            return
        navigation = dict(scope.get("headers", [])).get(b"sec-fetch-mode") == b"navigate"
        held = False  # the file's body is not sent: the response is another's

        async def send_if_allowed(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", []))
                found = _RESULTS_FILE.search(headers.get(b"content-disposition", b"").decode("latin-1"))
                if found and not allowed_downloads().take(found[1], use=navigation):
                    held = True
                    await send({"type": "http.response.start", "status": 404, "headers": PLAIN_HEADERS})
                    await send({"type": "http.response.body", "body": b"Not found"})
                    return
                if found and not navigation:
                    held = True
                    await send({"type": "http.response.start", "status": 200, "headers": PLAIN_HEADERS})
                    await send({"type": "http.response.body", "body": b""})
                    return
            if not held:
                await send(message)

        await self.app(scope, receive, send_if_allowed)


PLAIN_HEADERS = [(b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")]
