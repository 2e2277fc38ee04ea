"""The join link a teacher's page projects, from this server's setting, the page's address and this machine's
network address (the decision is ``ndcg_core.classroom.joining``'s), and the note that goes under it.

    link = join_link(room.code)        # JoinLink(url, case, problem, server_local)
    if link.url: ... show link.url and its QR code ...
    join_note(t, link)                 # the line or warning that says what phones need

The page's address is ``st.context.url``: what the teacher's browser shows, not a header a client could send
(``X-Forwarded-*`` is never read).
"""

from __future__ import annotations

import os
import socket

import streamlit as st

from ndcg_core.classroom import joining
from ndcg_core.classroom.joining import DEPLOY_LISTEN_OPTION, FRONT_ADDRESS_VARIABLE, PUBLIC_URL_VARIABLE, JoinLink
from ui.i18n import Translator
from ui.phones.phone_page import pages_served

# A documentation address (TEST-NET-1, RFC 5737): connecting a UDP socket to it makes the kernel choose the
# outgoing interface without sending a packet.
_PROBE = ("192.0.2.1", 9)


def network_address() -> str | None:
    """This machine's IPv4 address on the network a phone would use (the outgoing interface's), or ``None``."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            found = joining.usable_network_address(probe.getsockname()[0])
    except OSError:  # no route at all: no network
        found = None
    if found is not None:
        return found
    # No default route (a lecturer's own access point may give none): any address the host name resolves to.
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    return next((a for a in (joining.usable_network_address(str(i[4][0])) for i in infos) if a), None)


def page_address() -> str | None:
    """The page's address as the teacher's browser has it (no query string), or ``None`` outside a browser."""
    return st.context.url


def join_link(code: str, phones: bool = True) -> JoinLink:
    """Room ``code``'s join link for the teacher's page: ``link.url`` is ``None`` when no phone could open one.
    ``phones``: the phones' own join page where this server serves it (``/join/CODE``); else, and for the
    teacher's control link on another device, the Classroom page (``/Classroom?room=CODE``)."""
    return joining.join_link(
        code,
        public_url=os.environ.get(PUBLIC_URL_VARIABLE),
        page_url=page_address(),
        network_address=network_address(),
        listen_address=str(st.get_option("server.address") or ""),
        front_address=os.environ.get(FRONT_ADDRESS_VARIABLE),
        join_page=phones and pages_served(),
    )


def join_note(t: Translator, link: JoinLink) -> None:
    """Under the link: a bad ``NDCG_LAB_PUBLIC_URL``, what phones need for a network link, or why there is none."""
    if link.problem is not None:
        st.error(t("classroom.public_url_bad", message=t.explain(link.problem)), icon=":material/error:")
    if link.server_local:
        note = "deploy_local" if link.listen_option == DEPLOY_LISTEN_OPTION else "server_local"
        st.warning(t(f"classroom.join_note.{note}"), icon=":material/wifi_off:")
    elif link.case == "network":
        st.caption(t("classroom.join_note.network"))
    elif link.case == "none":
        st.warning(t("classroom.join_note.none"), icon=":material/wifi_off:")
