"""Evaluate: NDCG over many queries from TREC files, two systems compared, drill-down and export."""

from ui.page import start_page
from ui.views.evaluate import render_page

render_page(start_page("evaluate.title", icon="📊"))
