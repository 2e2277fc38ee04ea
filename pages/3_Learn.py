"""Learn: a guided walk from graded relevance to NDCG@k, with a check at every step."""

from ui.page import start_page
from ui.views.learn import render_page

render_page(start_page("learn.title", icon="📘"))
