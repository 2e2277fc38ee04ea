"""How the app moves between pages in the browser: the browser's Back returns to the last page, not to one
page's earlier query string, and on a phone the sidebar closes once a page is picked in it.

A tiny ``st.components.v2`` component every page draws (``ui.page.start_page``); its script (``page_nav.js``,
run in the page, no iframe) installs itself once per browser tab. Streamlit pushes a history entry for every change
of the query string, and the pages write theirs on each run (``ui.state.set_link_value``); the script turns a push
to the page's own path into a replace, so only picking another page adds an entry.
"""

from __future__ import annotations

from ui.widgets.served import ServedComponent

_component = ServedComponent(
    "ndcg_lab.page_nav",
    html="<span hidden></span>",
    js="page_nav.js",
)


def page_nav(*, key: str = "page_nav") -> None:
    """Install the tab's history and sidebar rules (once per tab; later calls do nothing in the browser)."""
    _component(key=key, height=0)
