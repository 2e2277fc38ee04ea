"""Metrics: NDCG beside P@k, recall@k, reciprocal rank, AP and ERR on rankings the learner edits."""

from ui.page import start_page
from ui.views.metrics import render_page

render_page(start_page("metrics.title", icon="📏"))
