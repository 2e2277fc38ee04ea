"""Every move at once: the NDCG@k a list would have after each possible move or swap.

``ndcg_after_moves`` answers "if I drop the item at position i at position j, what is NDCG@k?" for
every (i, j) in one call, so a list can preview a drag before the drop; ``ndcg_after_swaps``
does the same for exchanging the items at i and j (the swap map, and LambdaRank's |delta NDCG|).
Each reordered list is scored exactly as ``ndcg_at_k`` scores it (the same gains, discounts and
rank-order sums, the same overflow scaling), so a preview and the score after the move agree to the bit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .. import validate
from .discounts import resolve_discount
from .gains import resolve_gain
from .ndcg import (
    cut_of,
    gains_for_ratio,
    ideal_gains_of,
    judged_pool,
    rank_positions,
    validate_grades,
    validate_k,
)

MAX_MOVE_ITEMS = 200  # n x n x n numbers are made at once: 64 MB at 200 items


def _scores(
    orders_of: Callable[[int], np.ndarray],
    grades: np.ndarray,
    k: int | None,
    gain: Any,
    discount: Any,
    judged: np.ndarray,
) -> np.ndarray:
    """NDCG@k after each reordering: ``orders_of(m)`` gives, per reordering, the positions that land at 1..m."""
    n = len(grades)
    cut = n if k is None else cut_of(k, max(n, len(judged)))
    g, d = resolve_gain(gain), resolve_discount(discount)
    gains, pool_gains = gains_for_ratio(g, grades, judged)
    shown = min(cut, n)
    factors = d(rank_positions(cut))
    orders = orders_of(shown)  # only the top positions count: at k = 10 of 100 items, a tenth of the work
    terms = gains[orders] * factors[:shown]
    # Summed in rank order along each row, as ndcg_at_k sums: the same bits.
    actual = np.cumsum(terms, axis=-1)[..., -1] if shown else np.zeros(orders.shape[:-1])
    best = ideal_gains_of(pool_gains, cut)
    ideal_dcg = float(np.cumsum(best * factors[: len(best)])[-1]) if len(best) else 0.0
    if ideal_dcg <= 0:
        return np.zeros(actual.shape)
    return np.minimum(actual / ideal_dcg, 1.0)


def _check_size(grades: np.ndarray) -> None:
    validate.list_size(len(grades), MAX_MOVE_ITEMS)


def ndcg_after_moves(
    ranked_rels: Iterable[Any],
    k: int | None = None,
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
    ideal: Iterable[Any] | None = None,
) -> np.ndarray:
    """An n x n array: entry [i, j] is NDCG@k after moving the item at position i to position j (0-based).

    The diagonal is the list's own NDCG@k. Options are those of ``ndcg_at_k``.
    """
    grades = validate_grades(ranked_rels)
    judged = judged_pool(grades, pool, ideal)
    _check_size(grades)
    n = len(grades)

    def orders_of(shown: int) -> np.ndarray:
        source = np.arange(n)[:, None, None]
        target = np.arange(n)[None, :, None]
        position = np.arange(shown)[None, None, :]
        # Dropping i at j: the positions between them shift by one towards i's old place.
        down = (source < target) & (position >= source) & (position < target)
        up = (source > target) & (position > target) & (position <= source)
        return np.where(position == target, source, np.where(down, position + 1, np.where(up, position - 1, position)))

    return _scores(orders_of, grades, validate_k(k), gain, discount, judged)


def ndcg_after_swaps(
    ranked_rels: Iterable[Any],
    k: int | None = None,
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
    ideal: Iterable[Any] | None = None,
) -> np.ndarray:
    """An n x n symmetric array: entry [i, j] is NDCG@k after swapping the items at positions i and j.

    The diagonal is the list's own NDCG@k; subtract it for the change a swap makes.
    """
    grades = validate_grades(ranked_rels)
    judged = judged_pool(grades, pool, ideal)
    _check_size(grades)
    n = len(grades)

    def orders_of(shown: int) -> np.ndarray:
        first = np.arange(n)[:, None, None]
        second = np.arange(n)[None, :, None]
        position = np.arange(shown)[None, None, :]
        orders = np.where(position == first, second, np.where(position == second, first, position))
        return np.broadcast_to(orders, (n, n, shown))

    return _scores(orders_of, grades, validate_k(k), gain, discount, judged)
