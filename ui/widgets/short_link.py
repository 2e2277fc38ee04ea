"""Short links: any Playground, Learn or Practice state saved under a six-character code (``/?go=K7P3QX``), so a
projected link and its QR code stay short. The codes live in the app's database (``ndcg_core.links``)."""

from __future__ import annotations

import json
from urllib.parse import urlsplit, urlunsplit

import streamlit as st

from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import client_source, short_links
from ui.i18n import Translator
from ui.state import app_state, classroom_state, new_link_value
from ui.widgets.qr import qr_png, qr_svg

PAGE_FILES = {"playground": "pages/1_Playground.py", "learn": "pages/3_Learn.py", "practice": "pages/6_Practice.py"}
PARAM = "go"


def follow_short_link(t: Translator, here: str | None) -> None:
    """Open the state a ``?go=CODE`` link stands for: on this page, its parameters take the code's place in the
    address; on another page, that page opens with them. A code that is not known is a notice."""
    code = new_link_value(PARAM)
    if code is None:
        return
    try:
        page, params = short_links().load(code)
    except (InputError, StoreUnavailable) as err:
        app_state().notice = t("share.bad_short", message=t.explain(err))
        return
    if page != here:
        st.switch_page(PAGE_FILES[page], query_params=params)
    del st.query_params[PARAM]
    for name, value in params.items():
        st.query_params[name] = value


def short_url(code: str) -> str:
    """The app's home address with ``?go=CODE``."""
    parts = urlsplit(st.context.url or "")
    return urlunsplit((parts.scheme, parts.netloc, "/", f"{PARAM}={code}", ""))


def _make(page: str, params: dict[str, str], slot: str) -> None:
    t = Translator(app_state().lang)
    try:
        classroom_state().short_links[slot] = short_links().save(page, params, client_source())
    except (InputError, StoreUnavailable) as err:
        classroom_state().short_links[slot] = ""
        app_state().notice = t("share.bad_short", message=t.explain(err))


def _slot(page: str, params: dict[str, str]) -> str:
    return page + json.dumps(params, sort_keys=True)


def share_box(
    t: Translator,
    page: str,
    params: dict[str, str],
    url: str,
    *,
    title_key: str = "share.heading",
    help_key: str | None = None,
) -> None:
    """How to pass this state on. In presenter view: the QR code of the shortest link there is (the short one
    once made), large, beside the link and the button that makes a short one. Otherwise the link and that
    button in an expander, drawn only while it is open."""
    if not app_state().presenter:
        # Drawn only while open (a closed expander is one element): the link changes with every move, and
        # moves are what a class's server does most.
        box = st.expander(t(title_key), key=f"share_open_{page}", on_change="rerun")
        if box.open:
            with box:
                if help_key:
                    st.caption(t(help_key))
                st.code(url, language=None, wrap_lines=True)
                short_link_box(t, page, params)
        return
    slot = _slot(page, params)
    code = classroom_state().short_links.get(slot)
    link = short_url(code) if code else url
    st.subheader(t("share.qr_title"))
    left, right = st.columns(2, gap="large", vertical_alignment="center")
    with left:
        st.image(qr_svg(link), width="stretch", alt=t("share.qr_alt"))
    with right:
        st.markdown(t("share.qr_help"))
        st.code(link, language=None, wrap_lines=True)
        if not code:
            st.button(
                t("share.short"),
                on_click=_make,
                args=(page, params, slot),
                key=f"btn_short_{page}",
                icon=":material/link:",
                help=t("share.short_help"),
            )


def short_link_box(t: Translator, page: str, params: dict[str, str], *, large: bool = False) -> None:
    """A "short link" button; once pressed, the short link and its QR code for exactly this state."""
    slot = _slot(page, params)
    code = classroom_state().short_links.get(slot)
    if not code:
        st.button(
            t("share.short"),
            on_click=_make,
            args=(page, params, slot),
            key=f"btn_short_{page}",
            icon=":material/link:",
            help=t("share.short_help"),
        )
        return
    url = short_url(code)
    left, right = st.columns([1, 2] if large else [1, 3], vertical_alignment="center")
    left.image(qr_png(url), width="stretch")
    right.caption(t("share.short_ready"))
    right.code(url, language=None)
