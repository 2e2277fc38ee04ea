"""Who a request comes from, for the limits kept per client (rooms started, joins, wrong codes), and the lecturer's
passphrase that a server open to the internet can ask for before starting a room. No Streamlit and no HTTP here:
the UI hands over the peer's address and the ``X-Forwarded-For`` header as it received them."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
from collections.abc import Mapping

from ..errors import InputError, shown

ENV_TRUSTED_PROXIES = "NDCG_LAB_TRUSTED_PROXIES"
ENV_TEACHER_PASSPHRASE = "NDCG_LAB_TEACHER_PASSPHRASE"
MAX_FORWARDED = 20  # addresses of X-Forwarded-For looked at, from the right: no real chain of proxies is longer

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_proxies(environ: Mapping[str, str] | None = None) -> tuple[Network, ...]:
    """The proxies whose ``X-Forwarded-For`` is believed: ``NDCG_LAB_TRUSTED_PROXIES``, addresses or networks
    separated by commas (``127.0.0.1, 10.0.0.0/8``); none when unset (a bad entry is an ``InputError`` naming it)."""
    environ = os.environ if environ is None else environ
    text = environ.get(ENV_TRUSTED_PROXIES, "")
    networks = []
    for part in text.split(","):
        if part.strip():
            try:
                networks.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError:
                raise InputError("room.proxy_setting", name=ENV_TRUSTED_PROXIES, value=shown(part.strip())) from None
    return tuple(networks)


def _trusted(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_address(peer: str | None, forwarded_for: str | None, trusted: tuple[Network, ...]) -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy; then the right-most address of
    ``X-Forwarded-For`` that is not itself a trusted proxy (what the client wrote further left is not believed).
    ``"local"`` when nothing says."""
    address = (peer or "").strip() or "local"
    if not forwarded_for or not _trusted(address, trusted):
        return address
    for hop in reversed(forwarded_for.split(",")[-MAX_FORWARDED:]):
        hop = hop.strip()
        if not hop:
            continue
        if not _trusted(hop, trusted):
            return hop
        address = hop
    return address


def source_key(source: object) -> str:
    """What is stored of a client's address: a short hash (an address is personal data; the limits need only to
    tell clients apart)."""
    return hashlib.sha256(str(source).encode("utf-8", "replace")).hexdigest()[:32]


def teacher_passphrase(environ: Mapping[str, str] | None = None) -> str | None:
    """The passphrase a lecturer gives to start a room (``NDCG_LAB_TEACHER_PASSPHRASE``); ``None``: none asked."""
    environ = os.environ if environ is None else environ
    value = environ.get(ENV_TEACHER_PASSPHRASE, "").strip()
    return value or None


def passphrase_matches(given: object, expected: str | None) -> bool:
    """Whether ``given`` is the passphrase (always, when none is set), compared in constant time: both are hashed
    first, so neither the time nor a length difference tells how much of a guess was right."""
    if expected is None:
        return True
    if not isinstance(given, str):
        return False
    mine = hashlib.sha256(given.strip().encode("utf-8", "replace")).digest()
    theirs = hashlib.sha256(expected.encode("utf-8", "replace")).digest()
    return hmac.compare_digest(mine, theirs)
