"""The projector view (``?view=screen``): a slim join bar, then the live activity at projector size, no controls."""

from __future__ import annotations

import streamlit as st

from ndcg_core.classroom.store import Room
from ui.i18n import Translator
from ui.join_link import join_link, join_note
from ui.views.classroom.live import screen_panel
from ui.widgets.qr import qr_png

# Fixed CSS, no user text, for the projector view only: no sidebar, toolbar or top padding in the way, and every
# text at 20 px or more (Altair's labels are set on the charts themselves, see big_chart).
SCREEN_CSS = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
header[data-testid="stHeader"] { display: none !important; }
section.main .block-container, .stMainBlockContainer {
  max-width: 100% !important; padding: 0.75rem 2rem 1rem !important; }
.stApp p, .stApp li, .stApp label, .stApp .stMarkdown, .stApp td, .stApp th,
.stApp [data-testid="stCaptionContainer"], .stApp [data-testid="stCaptionContainer"] p,
.stApp [data-testid="stCode"] code, .stApp button p, .stApp p code { font-size: 1.35rem !important; }
.stApp [data-testid="stCaptionContainer"], .stApp [data-testid="stCaptionContainer"] p { opacity: 1; }
.stApp [data-testid="stMetricLabel"] p { font-size: 1.35rem !important; }
.stApp [data-testid="stMetricValue"] > div, .stApp [data-testid="stMetricValue"] p {
  font-size: min(3rem, 17cqi) !important; line-height: 1.15; }
.stApp h3 { font-size: 2rem !important; padding: 0.25rem 0 !important; }
.stApp [data-testid="stImage"] img { image-rendering: pixelated; }
</style>
"""


def render_join_info(t: Translator, room: Room, compact: bool) -> None:
    """How to join: the code, the link and its QR code (small; "show large" fills the screen), or why phones cannot
    open a link from here."""
    link = join_link(room.code)
    if link.url is None:  # no QR code of an address no phone could open
        st.markdown(t("classroom.join_code_only", code=room.code))
        if compact:
            join_note(t, link)
        else:  # the class's screen says only that there is no link; the why is on the control page
            st.warning(t("classroom.join_note.none"), icon=":material/wifi_off:")
        return
    if compact:
        st.markdown(t("classroom.join_line", code=room.code, url=md_link_text(link.url)))
        join_note(t, link)
        return
    qr, text, large = st.columns([1, 8, 2], vertical_alignment="center")
    qr.image(qr_png(link.url), width=110)
    # The notes on reaching this computer are for the teacher (the control page has them), not the class's screen.
    text.markdown(t("classroom.join_bar", code=room.code, url=md_link_text(link.url)))
    if large.button(t("classroom.big_qr_short"), key="btn_cr_big_qr", icon=":material/qr_code_2:", width="stretch"):
        big_qr(t, link.url, room.code)


def md_link_text(url: str) -> str:
    """A URL shown as text, not a link Markdown would make (the link is for reading out and typing)."""
    return "`" + url.replace("`", "") + "`"


def render_screen(t: Translator, room: Room) -> None:
    """The projector view: a slim join bar, the question, the live count and chart, and the reveal. No controls."""
    st.html(SCREEN_CSS)
    render_join_info(t, room, compact=False)
    screen_panel(t.lang, room.code)


def big_qr(t: Translator, url: str, code: str) -> None:
    """The QR code as large as the screen allows, for the back of a lecture hall."""

    def show() -> None:
        # As tall as a 720-pixel projector leaves room for: the middle half of a large dialog.
        _, middle, _ = st.columns([1, 2, 1])
        middle.image(qr_png(url, scale=20), width="stretch")
        middle.code(url, language=None, wrap_lines=True)

    st.dialog(t("classroom.room_heading_plain", code=code), width="large")(show)()
