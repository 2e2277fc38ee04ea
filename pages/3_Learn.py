"""Learn: a guided walk from graded relevance to NDCG@k, with a check at every step."""

from ui.learn_view import render_page
from ui.page import start_page

render_page(start_page("learn.title", icon="📘"))
