"""Conventions: why NDCG figures differ between libraries, one example scored every way."""

from ui.page import start_page
from ui.views.conventions import render_page

render_page(start_page("conv.title", icon="⚖️"))
