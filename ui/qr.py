"""The current link as a QR code beside the link itself, for presenter view: a class scans it to open
the same page, in the same state, on their phones. segno makes the code (pure Python, no network)."""

from __future__ import annotations

import io

import segno
import streamlit as st

from ui.i18n import Translator

QR_MIN_PX = 320  # on a 1280 px projector image, about a quarter of the screen's width: readable from the back


def shortest_link(url: str) -> str:
    """The shortest link to this state that there is; today the page's own link.

    The one place a shorter link (a short code kept by the server) would be put in.
    """
    return url


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as SVG text: black on white, with the standard quiet zone of 4 modules."""
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="svg", scale=10, border=4, dark="#000000",
                                                 light="#ffffff", xmldecl=False, svgclass="ndcg-qr")
    return out.getvalue().decode("ascii")


def render_share_qr(t: Translator, url: str) -> None:
    """The link's QR code, large, with the link beside it (below it on a narrow screen)."""
    link = shortest_link(url)
    st.subheader(t("share.qr_title"))
    left, right = st.columns(2, gap="large", vertical_alignment="center")
    with left:
        st.image(qr_svg(link), width="stretch", alt=t("share.qr_alt"))
    with right:
        st.markdown(t("share.qr_help"))
        st.code(link, language=None, wrap_lines=True)
