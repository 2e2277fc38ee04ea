"""Run the trec_eval-compatible command line: ``python -m ndcg_core QRELS RUN``, the same as ``ndcg-lab-eval``."""

from .trec.cli import script

script()
