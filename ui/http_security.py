"""The headers every response of ``serve.py`` carries (Streamlit's pages and files, the phones' pages and JSON
routes), and the Content Security Policy of the phones' own pages, whose one script and one style block carry the
response's nonce."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# No page of the app is ever shown inside another site's frame, sends its address to the sites it links to, or has
# its files read as another type than the one they are served as.
SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


def new_nonce() -> str:
    """A fresh nonce for one page's script and style (128 random bits)."""
    return secrets.token_urlsafe(16)


def page_policy(nonce: str) -> str:
    """A phone page's Content Security Policy: only its own script and style (by ``nonce``), requests to its own
    server, no plugins, frames, forms posted elsewhere or changed base address."""
    return (
        "default-src 'none'; "
        f"script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
        "connect-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


class SecurityHeaders:
    """An ASGI middleware: ``SECURITY_HEADERS`` on every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in self.headers if name not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
