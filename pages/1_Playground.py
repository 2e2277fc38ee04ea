"""Playground: edit a ranked list, drag items, and watch every term of NDCG move."""

from ui.page import start_page
from ui.views.playground import render_page

render_page(start_page("playground.title", icon="🎛️"))
