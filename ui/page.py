"""What every page does first: page config, state, the language switch and the presenter toggle."""

from __future__ import annotations

import gc
import threading

import streamlit as st

from ui.i18n import LANGUAGES, Translator
from ui.state import PRESENT_PARAM, app_state, bind, init_state, new_link_value, set_link_value
from ui.widgets.connection_notice import connection_notice
from ui.widgets.page_nav import page_nav

PAGES = (
    ("app.py", "nav.home", ":material/home:"),
    ("pages/1_Playground.py", "nav.playground", ":material/tune:"),
    ("pages/2_Evaluate.py", "nav.evaluate", ":material/table_chart:"),
    ("pages/3_Learn.py", "nav.learn", ":material/school:"),
    ("pages/4_Conventions.py", "nav.conventions", ":material/compare_arrows:"),
    ("pages/5_Metrics.py", "nav.metrics", ":material/bar_chart:"),
    ("pages/6_Practice.py", "nav.practice", ":material/edit_note:"),
    ("pages/7_Classroom.py", "nav.classroom", ":material/groups:"),
)

# Fixed CSS, no user text. On every page: a headline figure shrinks to fit its column rather than being cut
# to "0.9…" (a projector at 1280x720 with the sidebar open, 150% zoom, a phone), and captions keep the text
# colour (Streamlit fades them to about 4:1, below WCAG AA on a projector). A display formula wider than its
# column (a phone) breaks after its = and + signs, KaTeX's break points, and what still does not fit scrolls
# inside the formula's own box: it was cut at the screen's edge. On a touch screen a table's or chart's toolbar
# (search, download, full screen) is always shown, 44 px above the element, over the end of the text before it:
# such an element gets that room above it.
BASE_CSS = """
<style>
[data-testid="stMetric"] { container-type: inline-size; }
[data-testid="stMetricValue"] > div, [data-testid="stMetricValue"] p {
  font-size: min(2.25rem, 17cqi) !important; overflow: visible !important; text-overflow: clip !important; }
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p { color: inherit !important; opacity: 0.9; }
/* The Playground's DCG@k and IDCG@k (one element: ui/views/playground/figures.py), drawn as two metrics. */
.pg-dcg-idcg { display: flex; gap: 1rem; }
.pg-dcg-idcg-item { flex: 1 1 0; min-width: 0; container-type: inline-size; display: flex; flex-direction: column; }
.pg-dcg-idcg-label { font-size: 0.875rem; line-height: 1.6; min-height: 1.5rem; }
.pg-dcg-idcg-value { font-size: min(2.25rem, 17cqi); line-height: 1.6; white-space: nowrap; }
.stApp .katex-display { overflow-x: auto; overflow-y: hidden; max-width: 100%; }
.stApp .katex-display > .katex, .stApp .katex-display > .katex > .katex-html {
  white-space: normal; text-wrap: balance; max-width: 100%; }
.stApp .katex-display > .katex > .katex-html > .base { margin: 0.25em 0; }
@media (max-width: 767px) { .stApp .katex-display > .katex { font-size: 1.05em; } }
/* The history rules' component draws nothing: no gap for it at the top of every page. */
.stElementContainer.st-key-page_nav { display: none; }
@media (hover: none) {
  [data-testid="stElementContainer"]:has([data-testid="stElementToolbar"]) { margin-top: 2rem; }
}
</style>
"""

PRESENTER_CSS = """
<style>
section.main .block-container, .stMainBlockContainer { max-width: 100% !important; }
.stApp p, .stApp li, .stApp label, .stApp .stMarkdown { font-size: 1.35rem !important; }
.stApp [data-testid="stMetricValue"] > div, .stApp [data-testid="stMetricValue"] p {
  font-size: min(3.6rem, 17cqi) !important; line-height: 1.2; }
.stApp [data-testid="stMetricLabel"] p, .stApp .pg-dcg-idcg-label { font-size: 1.5rem !important; }
.stApp .pg-dcg-idcg-value { font-size: min(3.6rem, 17cqi); line-height: 1.2; }
.stApp [data-testid="stMetricDelta"] div { font-size: 1.3rem !important; }
.stApp input, .stApp textarea, [role="listbox"] [role="option"],
.stApp [data-testid="stTable"] td, .stApp [data-testid="stTable"] th, .stApp [data-testid="stCode"] code,
.stApp [data-testid="stCaptionContainer"], .stApp [data-testid="stCaptionContainer"] p,
/* Small print set with :small[...] (a chart's reading under its title) carries its size inline. */
.stApp [data-testid="stMarkdownContainer"] span[style*="font-size"] {
  font-size: 1.2rem !important; }
.stApp [data-testid="stCaptionContainer"], .stApp [data-testid="stCaptionContainer"] p { opacity: 1; }
h1 { font-size: 3rem !important; }
</style>
"""


SHORT_LINK_PAGES = {"playground.title": "playground", "learn.title": "learn", "practice.title": "practice"}


_frozen = False
_freeze_lock = threading.Lock()


def freeze_startup_objects() -> None:
    """Set the objects the server's modules made at start (Streamlit, pandas, Altair's schema classes: they live
    as long as the server) aside from the garbage collector, once, at the first page run.

    Python's full collections walk every tracked object. With these included, each one held the server for
    about 300 ms under a class's load (with 30 learners moving, about five every 20 s, and a pause in every
    session's next figure); without them, about 40 ms. ``gc.freeze`` leaves them out of every later collection;
    objects made afterwards (sessions, their lists) are collected as before.
    """
    global _frozen
    with _freeze_lock:
        if _frozen:
            return
        import ui.charts  # noqa: F401  (Altair: more objects than any other module a page loads)

        gc.collect()  # garbage made while starting is freed first, not kept for good
        gc.freeze()
        _frozen = True


def start_page(title_key: str, icon: str = "📐") -> Translator:
    """Set up a page and return the translator for the chosen language."""
    from ui.widgets.short_link import follow_short_link  # the database layer loads only when a page runs

    freeze_startup_objects()
    init_state()
    follow_short_link(Translator(app_state().lang), SHORT_LINK_PAGES.get(title_key))
    lang = new_link_value("lang")
    if lang is not None:
        if lang in LANGUAGES:
            app_state().lang = lang
        else:
            app_state().notice = Translator(app_state().lang)("share.bad_lang", lang=lang[:20])
    present = new_link_value(PRESENT_PARAM)
    if present is not None:
        # A prepared deep link opens in presenter view; "0" (or anything else) opens the usual view.
        app_state().presenter = present == "1"
    t = Translator(app_state().lang)
    st.set_page_config(page_title=f"{t(title_key)} · NDCG Lab", page_icon=icon, layout="wide")
    # Early, so that the page's own query string (written below and by the page) replaces its history entry.
    page_nav()
    with st.sidebar:
        for path, key, page_icon in PAGES:
            st.page_link(path, label=t(key), icon=page_icon)
        st.divider()
        st.selectbox(
            t("common.language"),
            list(LANGUAGES),
            format_func=LANGUAGES.__getitem__,
            **bind(app_state(), "lang"),
        )
        st.toggle(t("common.presenter"), help=t("common.presenter_help"), **bind(app_state(), "presenter"))
    show_notice()
    write_present_param()
    st.html(BASE_CSS + (PRESENTER_CSS if app_state().presenter else ""))
    # The "Reconnecting…" notice's texts, in the page before the connection can drop (the server cannot send
    # them then); its watcher replaces Streamlit's developer dialog while the server is away.
    connection_notice(t)
    return t


def write_present_param() -> None:
    """Presenter view is part of the address (``present=1``), so a reload or a bookmark keeps it."""
    if app_state().presenter:
        set_link_value(PRESENT_PARAM, "1")
    elif PRESENT_PARAM in st.query_params:
        del st.query_params[PRESENT_PARAM]
        set_link_value(PRESENT_PARAM, None)


def show_notice() -> None:
    """A one-time notice (for example about a link that could not be read), shown once and then cleared."""
    notice = app_state().notice
    if notice:
        st.warning(notice, icon="🔗")
        app_state().notice = None
