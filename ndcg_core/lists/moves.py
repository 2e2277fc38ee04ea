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
from .ndcg import CheckedList, checked_list, gains_for_ratio, ideal_gains_of, rank_positions

MAX_MOVE_ITEMS = 200  # n x n x n numbers are made at once: 64 MB at 200 items


def _scores(orders_of: Callable[[int], np.ndarray], scored: CheckedList) -> np.ndarray:
    """NDCG@k after each reordering: ``orders_of(m)`` gives, per reordering, the positions that land at 1..m."""
    n, cut = len(scored.grades), scored.cut
    gains, pool_gains = gains_for_ratio(scored.gain, scored.grades, scored.pool)
    shown = min(cut, n)
    factors = scored.discount(rank_positions(cut))
    orders = orders_of(shown)  # only the top positions count: at k = 10 of 100 items, a tenth of the work
    terms = gains[orders] * factors[:shown]
    # Summed in rank order along each row, as ndcg_at_k sums: the same bits.
    actual = np.cumsum(terms, axis=-1)[..., -1] if shown else np.zeros(orders.shape[:-1])
    best = ideal_gains_of(pool_gains, cut)
    ideal_dcg = float(np.cumsum(best * factors[: len(best)])[-1]) if len(best) else 0.0
    if ideal_dcg <= 0:
        return np.zeros(actual.shape)
    return np.minimum(actual / ideal_dcg, 1.0)


def _checked_moves(
    ranked_rels: Iterable[Any], k: Any, gain: Any, discount: Any, pool: Iterable[Any] | None
) -> CheckedList:
    """``checked_list``, then the size: n x n x n numbers are made at once."""
    scored = checked_list(ranked_rels, k, gain=gain, discount=discount, pool=pool)
    validate.list_size(len(scored.grades), MAX_MOVE_ITEMS)
    return scored


def ndcg_after_moves(
    ranked_rels: Iterable[Any],
    k: int | None = None,
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
) -> np.ndarray:
    """An n x n array: entry [i, j] is NDCG@k after moving the item at position i to position j (0-based).

    The diagonal is the list's own NDCG@k. Options are those of ``ndcg_at_k``.
    """
    scored = _checked_moves(ranked_rels, k, gain, discount, pool)
    n = len(scored.grades)

    def orders_of(shown: int) -> np.ndarray:
        source = np.arange(n)[:, None, None]
        target = np.arange(n)[None, :, None]
        position = np.arange(shown)[None, None, :]
        # Dropping i at j: the positions between them shift by one towards i's old place.
        down = (source < target) & (position >= source) & (position < target)
        up = (source > target) & (position > target) & (position <= source)
        return np.where(position == target, source, np.where(down, position + 1, np.where(up, position - 1, position)))

    return _scores(orders_of, scored)


def ndcg_after_swaps(
    ranked_rels: Iterable[Any],
    k: int | None = None,
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
) -> np.ndarray:
    """An n x n symmetric array: entry [i, j] is NDCG@k after swapping the items at positions i and j.

    The diagonal is the list's own NDCG@k; subtract it for the change a swap makes.
    """
    scored = _checked_moves(ranked_rels, k, gain, discount, pool)
    n = len(scored.grades)

    def orders_of(shown: int) -> np.ndarray:
        first = np.arange(n)[:, None, None]
        second = np.arange(n)[None, :, None]
        position = np.arange(shown)[None, None, :]
        orders = np.where(position == first, second, np.where(position == second, first, position))
        return np.broadcast_to(orders, (n, n, shown))

    return _scores(orders_of, scored)
