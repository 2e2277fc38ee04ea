"""Send the browser to another address of this server at once (``location.replace``: the Back button then skips the
page that sent it): a tiny ``st.components.v2`` component with no visible part."""

from __future__ import annotations

from typing import Any

import streamlit as st

_component = st.components.v2.component(
    "ndcg_lab.go_to",
    html="<span hidden></span>",
    js="""export default function (component) {
  const url = component.data && component.data.url;
  if (url && url.startsWith("/") && !url.startsWith("//")) window.location.replace(url);
}
""",
)


def go_to(url: str, *, key: str = "go_to") -> Any:
    """Open ``url`` (a path on this server) in this tab, in place of the page."""
    return _component(key=key, data={"url": url}, height=0)
