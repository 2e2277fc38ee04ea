"""NDCG of items given as scores: ranked by score, with equal scores settled by a tie policy (``ties``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .discounts import resolve_discount
from .gains import resolve_gain
from .ndcg import (
    checked_list,
    cut_of,
    finite_or_error,
    gains_for_ratio,
    ideal_gains_of,
    rank_positions,
    ratio,
    sum_in_rank_order,
    validate_grades,
    validate_k,
)
from .ties import compared_scores, order_by_scores, ranked_gains


def dcg_from_scores(
    grades: Sequence[Any],
    scores: Sequence[Any],
    k: int | None = None,
    *,
    items: Sequence[Any] | None = None,
    ties: str = "trec_eval",
    gain: Any = "linear",
    discount: Any = "log2",
    float32_scores: bool = False,
) -> float:
    """DCG@k of items ranked by their scores, with ties resolved by ``ties``.

    ``average`` gives every tied item the mean gain of its group (McSherry and Najork),
    as scikit-learn's ``dcg_score`` and ``ndcg_score`` do by default. Scores are compared as
    doubles, or as 32-bit floats with ``float32_scores`` (see ``order_by_scores``).
    """
    g_arr = validate_grades(grades)
    order = order_by_scores(scores, g_arr, items, ties=ties, gain=gain, float32_scores=float32_scores)
    cut = cut_of(validate_k(k), len(g_arr))
    gain_fn, disc_fn = resolve_gain(gain), resolve_discount(discount)
    with np.errstate(over="ignore", invalid="ignore"):
        ranked = ranked_gains(compared_scores(scores, float32_scores), order, gain_fn(g_arr), ties)
        return finite_or_error(sum_in_rank_order(ranked[:cut] * disc_fn(rank_positions(cut))), "DCG")


def ndcg_from_scores(
    grades: Sequence[Any],
    scores: Sequence[Any],
    k: int | None = None,
    *,
    items: Sequence[Any] | None = None,
    ties: str = "trec_eval",
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
    float32_scores: bool = False,
) -> float:
    """NDCG@k of items ranked by their scores: ``dcg_from_scores`` over the ideal DCG@k.

    Scores are compared as doubles (trec_eval 10.0), or as 32-bit floats with ``float32_scores``
    (trec_eval 9.x, pytrec_eval). ``pool`` as for ``ndcg_at_k``.
    """
    g_arr = validate_grades(grades)
    order = order_by_scores(scores, g_arr, items, ties=ties, gain=gain, float32_scores=float32_scores)
    scored = checked_list(g_arr, k, gain=gain, discount=discount, pool=pool)
    cut = scored.cut
    gains, pool_gains = gains_for_ratio(scored.gain, g_arr, scored.pool)
    ranked = ranked_gains(compared_scores(scores, float32_scores), order, gains, ties)[:cut]
    factors = scored.discount(rank_positions(cut))
    best = ideal_gains_of(pool_gains, cut)
    return ratio(sum_in_rank_order(ranked * factors[: len(ranked)]), sum_in_rank_order(best * factors[: len(best)]))


def ndcg_bounds(
    grades: Sequence[Any],
    scores: Sequence[Any],
    k: int | None = None,
    *,
    items: Sequence[Any] | None = None,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
    float32_scores: bool = False,
) -> tuple[float, float]:
    """The worst and best NDCG@k over every order of the tied items: ``ndcg_from_scores`` with the ties
    ``worst`` and ``best``, and the same items, gain, discount and pool.

    With ``float32_scores`` scores equal as 32-bit floats count as tied.
    """
    worst, best = (
        ndcg_from_scores(
            grades,
            scores,
            k,
            items=items,
            ties=ties,
            gain=gain,
            discount=discount,
            pool=pool,
            float32_scores=float32_scores,
        )
        for ties in ("worst", "best")
    )
    return worst, best
