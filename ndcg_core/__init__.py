"""ndcg_core: every number NDCG Lab shows, computed without Streamlit.

Rooms by job (see docs/architecture/index.md, "The map"):

- ``ndcg_core.lists``: one ranked list: gains, discounts, tie policies, DCG and NDCG, every move at once,
  editable items and presets.
- ``ndcg_core.trec``: many queries, as trec_eval: readers, the segmented reader, evaluation, measures,
  output and the command line.
- ``ndcg_core.teaching``: conventions, practice exercises and NDCG's neighbouring metrics.
- ``ndcg_core.classroom``: the live classroom: rules, lessons, activity kinds, the phones' service, results and
  storage; ``ndcg_core.links``: the pages' short links.
- ``errors`` (``InputError``, one English template per code of ``error_codes``) and ``validate`` (the one place
  that checks input).

The names below are the public API, importable from ``ndcg_core`` itself.
"""

from .errors import InputError, Place
from .lists.discounts import DISCOUNTS, Discount, resolve_discount
from .lists.gains import GAINS, Gain, resolve_gain
from .lists.ndcg import (
    breakdown,
    cg,
    dcg,
    idcg,
    ideal_grades,
    ndcg_at_every_k,
    ndcg_at_k,
    validate_grades,
    validate_k,
)
from .lists.scores import dcg_from_scores, ndcg_bounds, ndcg_from_scores
from .lists.scoring import TREC_EVAL, Scoring
from .lists.ties import TIE_POLICIES, order_by_scores
from .registry import Entry, Registry
from .trec.evaluate import IDEALS, Evaluation, EvaluationOptions, evaluate, query_ranking
from .trec.measures import TREC_EVAL_CUTOFFS, Measure, parse_measure
from .trec.output import format_trec_eval
from .trec.readers import Qrels, Run, read_qrels, read_run

__all__ = [
    "DISCOUNTS",
    "GAINS",
    "IDEALS",
    "TIE_POLICIES",
    "TREC_EVAL",
    "TREC_EVAL_CUTOFFS",
    "Discount",
    "Entry",
    "Evaluation",
    "EvaluationOptions",
    "Gain",
    "InputError",
    "Measure",
    "Place",
    "Qrels",
    "Registry",
    "Run",
    "Scoring",
    "breakdown",
    "cg",
    "dcg",
    "dcg_from_scores",
    "evaluate",
    "format_trec_eval",
    "idcg",
    "ideal_grades",
    "ndcg_at_every_k",
    "ndcg_at_k",
    "ndcg_bounds",
    "ndcg_from_scores",
    "order_by_scores",
    "parse_measure",
    "query_ranking",
    "read_qrels",
    "read_run",
    "resolve_discount",
    "resolve_gain",
    "validate_grades",
    "validate_k",
]
