"""Evaluate: NDCG over many queries from TREC files, two systems compared, drill-down and export."""

from ui.evaluate_view import render_page
from ui.page import start_page

render_page(start_page("evaluate.title", icon="📊"))
