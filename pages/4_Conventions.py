"""Conventions: why NDCG figures differ between libraries, one example scored every way."""

from ui.conventions_view import render_page
from ui.page import start_page

render_page(start_page("conv.title", icon="⚖️"))
