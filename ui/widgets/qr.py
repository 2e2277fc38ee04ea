"""A QR code of a link, as PNG bytes for ``st.image`` (segno: pure Python, no user HTML involved)."""

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
    segno.make(text, error="m", micro=False).save(buffer, kind="png", scale=scale, border=4, dark="#000000",
                                                  light="#ffffff")
    return buffer.getvalue()
