"""ndcg_core: every number NDCG Lab shows, computed without Streamlit.

Single lists: ``dcg``, ``ndcg_at_k``, ``breakdown``, ``ndcg_from_scores``.
Many queries: ``read_qrels``, ``read_run``, ``evaluate``, ``format_trec_eval``.
Conventions: the ``GAINS``, ``DISCOUNTS`` and ``TIE_POLICIES`` registries.
Bad input: every function raises ``InputError`` (a ``ValueError``) with a stable ``code``.
"""

from .errors import InputError, Place
from .evaluate import (
    IDEALS,
    TREC_EVAL_CUTOFFS,
    Evaluation,
    evaluate,
    format_trec_eval,
    parse_measure,
    query_ranking,
)
from .registry import Entry, Registry
from .single import (
    breakdown,
    cg,
    dcg,
    dcg_from_scores,
    idcg,
    ideal_grades,
    ndcg_at_every_k,
    ndcg_at_k,
    ndcg_bounds,
    ndcg_from_scores,
    order_by_scores,
    validate_grades,
    validate_k,
)
from .trec_io import Qrels, Run, read_qrels, read_run
from .variants import (
    DISCOUNTS,
    GAINS,
    TIE_POLICIES,
    Discount,
    Gain,
    resolve_discount,
    resolve_gain,
)

__all__ = [
    "DISCOUNTS", "GAINS", "IDEALS", "TIE_POLICIES", "TREC_EVAL_CUTOFFS",
    "Discount", "Entry", "Evaluation", "Gain", "InputError", "Place", "Qrels", "Registry", "Run",
    "breakdown", "cg", "dcg", "dcg_from_scores", "evaluate", "format_trec_eval", "idcg", "ideal_grades", "ndcg_at_every_k",
    "ndcg_at_k", "ndcg_bounds", "ndcg_from_scores", "order_by_scores", "parse_measure",
    "query_ranking", "read_qrels", "read_run", "resolve_discount", "resolve_gain",
    "validate_grades", "validate_k",
]
