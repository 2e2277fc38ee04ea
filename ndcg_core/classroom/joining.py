"""The join link a teacher projects: an address a phone in the room can open, or none, and why.

A teacher who follows "open http://localhost:8501" gets a page whose own address means *the phone itself* on a
phone. So the link is decided, in this order:

1. ``public``: ``NDCG_LAB_PUBLIC_URL`` (a server behind a proxy or a domain, e.g. ``https://ndcg.example.edu`` or
   ``https://host/ndcg``), plus ``/Classroom?room=CODE`` (or ``/join/CODE``, the phones' own join page, where
   ``serve.py`` serves it). A bad value is set aside, with its ``InputError``.
2. ``network``: the page was opened on a loopback address (``localhost``, ``127.x.x.x``, ``::1``, or ``0.0.0.0``,
   which a browser takes for this machine): this machine's network address with the page's port and path.
3. ``page``: the page was opened on another host (the Network URL, a server's name): that address as it is.
4. ``none``: opened on a loopback address and this machine has no network address: no link (a QR code of a
   loopback address would send every phone to itself).

The page's address is what the teacher's browser shows (Streamlit's ``st.context.url``); no ``X-Forwarded-*``
header a client sends is read. No Streamlit and no network access here: the caller finds the addresses.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlencode, urlsplit, urlunsplit

from ..errors import InputError, shown

PUBLIC_URL_VARIABLE = "NDCG_LAB_PUBLIC_URL"
# Set by ``python -m deploy up`` for its replicas: the address nginx, the front phones reach, listens on (its
# ``--listen``). The replicas themselves listen on 127.0.0.1 behind it, which alone says nothing about phones.
FRONT_ADDRESS_VARIABLE = "NDCG_LAB_FRONT_ADDRESS"
STREAMLIT_LISTEN_OPTION = "--server.address"
DEPLOY_LISTEN_OPTION = "--listen"
JOIN_PAGE = "Classroom"  # the page pages/7_Classroom.py is served at
JOIN_ROUTE = "join"  # serve.py's join page for phones: /join/CODE

JoinCase = Literal["public", "network", "page", "none"]


@dataclass(frozen=True)
class JoinLink:
    """A room's join link (``None`` when no phone could open one), which rule gave it, a bad public URL that
    was set aside (``problem``, shown to the teacher), and whether the server listens where no phone reaches."""

    url: str | None
    case: JoinCase
    problem: InputError | None = None
    server_local: bool = False  # a network link, but the server listens on a loopback address only
    listen_option: str = STREAMLIT_LISTEN_OPTION  # the option that set that address: what to restart without


def _join_path(page_path: str, code: str) -> str:
    """The join page's path beside the Classroom page at ``page_path`` (under the same base path, if any)."""
    trimmed = page_path.rstrip("/")
    base = trimmed[: -len(JOIN_PAGE) - 1] if trimmed.endswith(f"/{JOIN_PAGE}") else trimmed.rpartition("/")[0]
    return f"{base}/{JOIN_ROUTE}/{code}"


def read_public_url(text: str, name: str = PUBLIC_URL_VARIABLE) -> str:
    """The public base address from a setting: ``http(s)://host[:port][/path]`` without a trailing slash.

    Spaces around it are forgiven; a value with no http(s) scheme, no host (or a bad port), a user name, a query,
    a fragment or a space inside is an ``InputError`` that names the setting and quotes the value.
    """
    raw = text.strip()
    if any(c.isspace() or ord(c) < 32 or ord(c) == 0x7F for c in raw):
        raise InputError("room.public_url_space", name=name, value=_quoted(text))
    parts = urlsplit(raw)
    if parts.scheme.lower() not in ("http", "https") or not raw.lower().startswith(f"{parts.scheme.lower()}://"):
        raise InputError("room.public_url_scheme", name=name, value=_quoted(text))
    try:
        parts.port  # noqa: B018  (parsing the port is the check)
    except ValueError:
        raise InputError("room.public_url_host", name=name, value=_quoted(text)) from None
    if not parts.hostname:
        raise InputError("room.public_url_host", name=name, value=_quoted(text))
    if "?" in raw or "#" in raw or "@" in parts.netloc:  # a query or a fragment, even an empty one; a user name
        raise InputError("room.public_url_extra", name=name, value=_quoted(text))
    return urlunsplit((parts.scheme.lower(), parts.netloc, parts.path.rstrip("/"), "", ""))


def _quoted(text: str) -> str:
    """The setting's value as a message quotes it (it is projected: a password in it is masked)."""
    return shown(re.sub(r"//[^/?#]*@", "//***@", text), 100)


def is_loopback(host: str, *, unspecified: bool = False) -> bool:
    """Whether ``host`` (a URL's host, IPv6 with or without brackets) is a loopback address: ``localhost`` and its
    subdomains, ``127.0.0.0/8``, ``::1`` (also as ``::ffff:127.0.0.1``); with ``unspecified``, ``0.0.0.0`` and ``::``
    too, which a browser takes for this machine."""
    name = host.strip().strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or (unspecified and address.is_unspecified)


def usable_network_address(address: str | None) -> str | None:
    """``address`` if a phone on the same network could reach this machine by it (an IPv4 address that is
    neither loopback nor unspecified), else ``None``."""
    if not address:
        return None
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return None
    if not isinstance(parsed, ipaddress.IPv4Address) or parsed.is_loopback or parsed.is_unspecified:
        return None
    return str(parsed)


def join_link(
    code: str,
    *,
    public_url: str | None,
    page_url: str | None,
    network_address: str | None,
    listen_address: str,
    front_address: str | None = None,
    join_page: bool = False,
) -> JoinLink:
    """The join link of room ``code``, from the ``NDCG_LAB_PUBLIC_URL`` setting (``None`` or blank when unset),
    the Classroom page's address as the teacher's browser has it, this machine's network address, and the address
    the server listens on (Streamlit's ``server.address``; blank means every interface). Behind ``deploy up``,
    ``front_address`` (``NDCG_LAB_FRONT_ADDRESS``) is nginx's ``--listen`` address, and it, not the replica's own
    loopback address, decides whether phones can connect. ``join_page``: the server serves the phones' own join
    page (``serve.py``), and the link is ``/join/CODE`` beside the Classroom page instead of
    ``/Classroom?room=CODE``."""
    query = "" if join_page else urlencode({"room": code})
    problem = None
    if public_url is not None and public_url.strip():
        try:
            base = read_public_url(public_url)
        except InputError as err:
            problem = err
        else:
            if join_page:
                return JoinLink(f"{base}/{JOIN_ROUTE}/{code}", "public")
            return JoinLink(f"{base}/{JOIN_PAGE}?{query}", "public")
    page = urlsplit(page_url or "")
    if page.scheme not in ("http", "https") or not page.hostname:
        return JoinLink(None, "none", problem)
    path = _join_path(page.path, code) if join_page else page.path
    if not is_loopback(page.hostname, unspecified=True):
        return JoinLink(urlunsplit((page.scheme, page.netloc, path, query, "")), "page", problem)
    address = usable_network_address(network_address)
    if address is None:
        return JoinLink(None, "none", problem)
    try:
        port = page.port
    except ValueError:
        port = None
    netloc = address if port is None else f"{address}:{port}"
    url = urlunsplit((page.scheme, netloc, path, query, ""))
    if front_address is not None and front_address.strip():
        listen, option = front_address.strip(), DEPLOY_LISTEN_OPTION
    else:
        listen, option = listen_address, STREAMLIT_LISTEN_OPTION
    return JoinLink(url, "network", problem, server_local=bool(listen) and is_loopback(listen), listen_option=option)
