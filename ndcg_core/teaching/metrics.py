"""NDCG's neighbours for one ranked list: P@k, recall@k, reciprocal rank, average precision, ERR.

Binary metrics count an item as relevant when its grade is at least ``threshold`` (1 by
default, as trec_eval). ``n_relevant`` is the number of relevant items in all judgments
(retrieved or not); it defaults to those in the list.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError, Place, number_text, shown
from ..lists.ndcg import dcg, ndcg_at_k, validate_grades, validate_k

_cutoff = validate.required_k


def _relevant(rels: Iterable[Any], threshold: float) -> np.ndarray:
    return validate_grades(rels) >= threshold


def _n_relevant(found: np.ndarray, n_relevant: int | None) -> int:
    if n_relevant is None:
        return int(found.sum())
    place = Place("metric.n_relevant")
    if isinstance(n_relevant, bool) or not isinstance(n_relevant, (int, np.integer)) or n_relevant < 0:
        raise InputError("metric.n_relevant", place=place, value=shown(n_relevant))
    if n_relevant < found.sum():
        raise InputError("metric.n_relevant_small", place=place, value=shown(n_relevant), count=int(found.sum()))
    return int(n_relevant)


def precision_at_k(rels: Iterable[Any], k: int, *, threshold: float = 1) -> float:
    """Relevant items in the top k, divided by k (missing positions count as not relevant, as trec_eval's P_k)."""
    k = _cutoff(k)
    return float(_relevant(rels, threshold)[:k].sum()) / k


def recall_at_k(rels: Iterable[Any], k: int, *, threshold: float = 1, n_relevant: int | None = None) -> float:
    """Relevant items in the top k, divided by all relevant items (0.0 when there are none)."""
    k = _cutoff(k)
    found = _relevant(rels, threshold)
    total = _n_relevant(found, n_relevant)
    return float(found[:k].sum()) / total if total else 0.0


def reciprocal_rank(rels: Iterable[Any], *, threshold: float = 1) -> float:
    """1 / the position of the first relevant item (0.0 if none)."""
    hits = np.flatnonzero(_relevant(rels, threshold))
    return 1.0 / float(hits[0] + 1) if len(hits) else 0.0


def average_precision(rels: Iterable[Any], *, threshold: float = 1, n_relevant: int | None = None) -> float:
    """Mean of P@i over the positions i of relevant items, divided by all relevant items (trec_eval's map)."""
    found = _relevant(rels, threshold)
    total = _n_relevant(found, n_relevant)
    if not total:
        return 0.0
    positions = np.flatnonzero(found) + 1
    precisions = np.arange(1, len(positions) + 1) / positions
    return float(np.cumsum(precisions)[-1] / total) if len(positions) else 0.0


def err(rels: Iterable[Any], k: int | None = None, *, max_grade: float | None = None) -> float:
    """Expected reciprocal rank (Chapelle et al. 2009): sum over r of (1/r) R_r prod_{i<r} (1 - R_i),
    with R = (2^grade - 1) / 2^max_grade (the top grade of the scale; the list's highest by default)."""
    grades = validate_grades(rels)
    k = validate_k(k)
    top = grades if k is None else grades[:k]
    place = Place("metric.max_grade")
    top_grade = validate.grade(max_grade, place) if max_grade is not None else float(grades.max(initial=0.0))
    if len(grades) and top_grade < grades.max():
        raise InputError(
            "metric.max_grade_below", place=place, value=number_text(top_grade), grade=number_text(float(grades.max()))
        )
    # (2^g - 1) / 2^max written as 2^(g - max) - 2^-max: the same bits, and no overflow for large grades.
    stop = np.exp2(top - top_grade) - np.exp2(-top_grade)
    reach = np.concatenate([[1.0], np.cumprod(1.0 - stop)[:-1]])
    return float(np.sum(reach * stop / np.arange(1, len(top) + 1)))


METRICS = {
    "precision": "P@k",
    "recall": "Recall@k",
    "rr": "Reciprocal rank",
    "ap": "Average precision",
    "err": "ERR@k",
    "dcg": "DCG@k",
    "ndcg": "NDCG@k",
}


def all_metrics(
    rels: Iterable[Any],
    k: int,
    *,
    n_relevant: int | None = None,
    max_grade: float | None = None,
    pool: Iterable[Any] | None = None,
) -> dict[str, float]:
    """Every metric of ``METRICS`` for one list, keyed by its short name (``pool`` as for ``ndcg_at_k``)."""
    grades = validate_grades(rels)
    return {
        "precision": precision_at_k(grades, k),
        "recall": recall_at_k(grades, k, n_relevant=n_relevant),
        "rr": reciprocal_rank(grades),
        "ap": average_precision(grades, n_relevant=n_relevant),
        "err": err(grades, k, max_grade=max_grade),
        "dcg": dcg(grades, k),
        "ndcg": ndcg_at_k(grades, k, pool=pool),
    }
