"""The projector's waiting screen, before the first activity: the join link's QR code large enough to scan from the
middle of a lecture hall, beside what the room is waiting for."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ndcg_core.classroom.storage import Room
from ui.join_link import join_link
from ui.widgets.qr import qr_png

# The QR code's height on the waiting screen, as a share of the screen's (the projector's CSS, .st-key-cr_wait_qr):
# more than a third, so a phone's camera finds it from the middle of a hall; the room code and link stay in the join
# bar above it.
WAIT_QR_VH = 55


def waiting_join(room: Room) -> Any:
    """The join link's QR code at ``WAIT_QR_VH`` of the screen's height, and the column beside it to draw in (the
    page itself where phones cannot open a link: no QR code then, the join bar says why)."""
    url = join_link(room.code).url
    if url is None:
        return st.container()
    image, beside = st.columns([5, 6], gap="large", vertical_alignment="center")
    # 16 px a module: sharp at any size the CSS gives it (drawn pixelated, never blurred).
    image.container(key="cr_wait_qr").image(qr_png(url, scale=16), width="content")
    return beside
