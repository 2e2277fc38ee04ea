"""The projector view (``?view=screen``): a slim join bar, then the live activity at projector size, no controls."""

from __future__ import annotations

import streamlit as st

from ndcg_core.classroom.storage import Room
from ui.i18n import Translator
from ui.join_link import join_link, join_note
from ui.views.classroom.live import screen_panel
from ui.widgets.qr import qr_png

# Fixed CSS, no user text, for the projector view only: no sidebar, toolbar or top padding in the way, and every
# text at 20 px or more at 720p (Altair's labels are set on the charts themselves, see big_chart). The page is laid
# out for 1280x720 and scales with the screen: the root font size, which every rem here and in Streamlit's own styles
# follows, is 16 px at 720p and the same share of a larger screen's height (or width, on a screen narrower than 16:9;
# never under 16 px), as ui.projector.SCALE_EXPR scales the charts. So a 1080p or 4K projector shows the same view,
# only larger, where its text had stayed at 20-22 px with the lower half of the screen blank.
SCREEN_CSS = """
<style>
html { font-size: max(16px, min(calc(100vh / 45), calc(100vw / 80))) !important; }
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
header[data-testid="stHeader"] { display: none !important; }
section.main .block-container, .stMainBlockContainer {
  max-width: 100% !important; padding: 0.75rem 1rem 1rem !important; }
.stApp p, .stApp li, .stApp label, .stApp .stMarkdown, .stApp td, .stApp th,
.stApp [data-testid="stCaptionContainer"], .stApp [data-testid="stCaptionContainer"] p,
.stApp [data-testid="stCode"] code, .stApp button p, .stApp p code { font-size: 1.35rem !important; }
.stApp [data-testid="stCaptionContainer"], .stApp [data-testid="stCaptionContainer"] p { opacity: 1; }
.stApp [data-testid="stMetricLabel"] p { font-size: 1.35rem !important; }
.stApp [data-testid="stMetricValue"] > div, .stApp [data-testid="stMetricValue"] p {
  font-size: min(2.5rem, 17cqi) !important; line-height: 1.1; }
.stApp h3 { font-size: 2rem !important; padding: 0.25rem 0 !important; }
.stApp [data-testid="stImage"] img { image-rendering: pixelated; }
.stMainBlockContainer [data-testid="stVerticalBlock"] { gap: 0.6rem; }
.stApp [data-testid="stMarkdownContainer"] td, .stApp [data-testid="stMarkdownContainer"] th {
  padding: 0.1rem 0.6rem !important; }
.stApp [data-testid="stTable"] td, .stApp [data-testid="stTable"] th { padding: 0.15rem 0.4rem !important; }
.stApp [data-testid="stCaptionContainer"] li { margin: 0; }
.stApp [data-testid="stCaptionContainer"] p, .stApp [data-testid="stCaptionContainer"] li { line-height: 1.4; }
.stApp [data-testid="stCaptionContainer"] ul { padding-left: 1.2em; margin: 0; }
body .st-key-cr_room_code p, body .st-key-cr_big_code p {
  font-family: "Source Code Pro", monospace; font-weight: 700; font-size: 6rem !important; line-height: 1.1;
  margin: 0; white-space: nowrap; }
.st-key-cr_join_text p, .st-key-cr_big_link p { margin: 0; }
.st-key-cr_join_text code, .st-key-cr_big_link code { white-space: nowrap; }
body .st-key-cr_big_code p { font-size: 8rem !important; }
[data-testid="stDialog"] [data-testid="stImage"] img, div[role="dialog"] img {
  max-height: calc(100vh - 15rem) !important; width: auto !important; }
.st-key-cr_join_qr img { width: 6.25rem !important; height: auto !important; }
.st-key-cr_wait_qr img { height: 55vh !important; width: auto !important; max-width: 100% !important; }
</style>
"""


# The room code at 6rem (96 px tall lines, capitals of about 65 px; on a 3 m wide screen, letters 15 cm tall), and
# larger still in the large QR code's dialog.
# The join link is kept on one line: its monospace characters are 0.6 em wide, so a link of n characters fits a
# column w wide at a font size of w / (0.6 (n + 1)), the code span's padding included.
def link_css(key: str, url: str, width_vw: float, largest: str = "1.35rem") -> str:
    """Fixed CSS (sizes only, no user text) that keeps ``url`` on one line in the container ``key`` that is about
    ``width_vw`` of the window's width, at most ``largest``."""
    size = f"min({largest}, {width_vw / (0.6 * (len(url) + 1)):.2f}vw)"  # and the code span's padding
    return f"<style>body .st-key-{key} p code {{ font-size: {size} !important; }}</style>"


def render_join_info(t: Translator, room: Room, compact: bool) -> None:
    """How to join: the code, the link and its QR code (small; "show large" fills the screen), or why phones cannot
    open a link from here. On the projector the code is large enough to read from the back of a lecture hall and
    the link stays on one line."""
    link = join_link(room.code)
    if link.url is None:  # no QR code of an address no phone could open
        if compact:
            st.markdown(t("classroom.join_code_only", code=room.code))
            join_note(t, link)
        else:  # the class's screen says only that there is no link; the why is on the control page
            text, code = st.columns([3, 2], vertical_alignment="center")
            text.warning(t("classroom.join_note.none"), icon=":material/wifi_off:")
            code.container(key="cr_room_code").markdown(room.code)
        return
    if compact:
        st.markdown(t("classroom.join_line", code=room.code, url=md_link_text(link.url)))
        join_note(t, link)
        return
    qr, text, code = st.columns([1, 6.4, 3.6], gap="xsmall", vertical_alignment="center")
    qr.container(key="cr_join_qr").image(qr_png(link.url), width=100)  # 6.25rem: 100 px at 720p
    # The notes on reaching this computer are for the teacher (the control page has them), not the class's screen.
    st.html(link_css("cr_join_text", link.url, 54))
    with text:
        words, large = st.columns([3, 2], vertical_alignment="center")
        words.markdown(t("classroom.join_bar"))
        clicked = large.button(
            t("classroom.big_qr_short"), key="btn_cr_big_qr", icon=":material/qr_code_2:", width="stretch"
        )
        st.container(key="cr_join_text").markdown(md_link_text(link.url))
    code.container(key="cr_room_code").markdown(room.code)
    if clicked:
        big_qr(t, link.url, room.code)


def md_link_text(url: str) -> str:
    """A URL shown as text, not a link Markdown would make (the link is for reading out and typing)."""
    return "`" + url.replace("`", "") + "`"


def render_screen(t: Translator, room: Room) -> None:
    """The projector view: a slim join bar, the question, the live count and chart, and the reveal. No controls."""
    st.html(SCREEN_CSS)
    if not room.ended:  # an ended room invites nobody to join
        render_join_info(t, room, compact=False)
    screen_panel(t.lang, room.code, room.ended)


def big_qr(t: Translator, url: str, code_text: str) -> None:
    """The QR code as large as the screen allows, for the back of a lecture hall."""

    def show() -> None:
        # As tall as a 720-pixel projector leaves room for: the QR code and the room code side by side, the link on
        # one line under them.
        st.html(link_css("cr_big_link", url, 85, "2rem"))
        image, code = st.columns([1, 1], vertical_alignment="center")
        image.image(qr_png(url, scale=20), width="stretch")
        code.container(key="cr_big_code").markdown(code_text)
        st.container(key="cr_big_link").markdown(md_link_text(url))

    st.dialog(t("classroom.room_heading_plain", code=code_text), width="large")(show)()
