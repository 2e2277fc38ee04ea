"""Metrics: NDCG beside P@k, recall@k, reciprocal rank, AP and ERR on rankings the learner edits."""

from ui.metrics_view import render_page
from ui.page import start_page

render_page(start_page("metrics.title", icon="📏"))
