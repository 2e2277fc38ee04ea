"""A QR code of a link, as PNG bytes or SVG text for ``st.image`` (segno: pure Python, no network, no user HTML)."""

from __future__ import annotations

import io

import segno
import streamlit as st


@st.cache_data(max_entries=64, show_spinner=False)
def qr_png(text: str, scale: int = 12) -> bytes:
    """A QR code of ``text`` (error correction M, a quiet zone of 4 modules), ``scale`` pixels a module.

    Dark on white whatever the theme: a phone's camera reads that best from the back of a hall.
    """
    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        buffer, kind="png", scale=scale, border=4, dark="#000000", light="#ffffff"
    )
    return buffer.getvalue()


QR_MIN_PX = 320  # on a 1280 px projector image, about a quarter of the screen's width: readable from the back


@st.cache_data(max_entries=64, show_spinner=False)
def qr_svg(text: str) -> str:
    """The QR code of ``text`` as SVG text: black on white, with the standard quiet zone of 4 modules."""
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        out, kind="svg", scale=10, border=4, dark="#000000", light="#ffffff", xmldecl=False, svgclass="ndcg-qr"
    )
    return out.getvalue().decode("ascii")
