"""The classroom store for this server process: one engine per database, shared by every session."""

from __future__ import annotations

import streamlit as st

from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.store import Store, database_url


@st.cache_resource(show_spinner=False)
def _store_for(url: str) -> Store:
    store = Store(url, limits=Limits.from_environment())
    store.purge()
    return store


def store() -> Store:
    """The store for ``NDCG_LAB_DATABASE_URL`` (or the SQLite file in ``NDCG_LAB_DATA_DIR``)."""
    return _store_for(database_url())


def client_source() -> str:
    """Where a request comes from, for slowing wrong join codes: the client's address (or "local").

    X-Forwarded-For is not read: without a proxy that sets it, any client could write its own.
    """
    address = st.context.ip_address
    return address if isinstance(address, str) and address else "local"
