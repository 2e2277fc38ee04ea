"""NDCG Lab home page: what NDCG is, in one live example, and where to go next."""

from ui.page import start_page
from ui.views.home import render_page

render_page(start_page("home.title"))
