"""Every move at once: the NDCG@k a list would have after each possible move or swap.

``ndcg_after_moves`` answers "if I drop the item at position i at position j, what is NDCG@k?" for
every (i, j) in one call, so a list can preview a drag before the drop; ``ndcg_after_swaps``
does the same for exchanging the items at i and j (the swap map, and LambdaRank's |delta NDCG|).
Each reordered list is scored exactly as ``ndcg_at_k`` scores it (the same gains, discounts and
rank-order sums, the same overflow scaling), so a preview and the score after the move agree to the bit.

``explain_change`` says why NDCG@k moved between two lists (any change: a move, a grade, k, the gain, the
discount, the ideal's source), term by term, and splits the change into what the list's terms did and what the
ideal did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .. import validate
from .ndcg import CheckedList, checked_list, dcg_terms, gains_for_ratio, ideal_gains_of, rank_positions

if TYPE_CHECKING:
    from .items import Item
    from .spec import ListSpec

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


@dataclass(frozen=True)
class TermChange:
    """One position's DCG term before and after a change: ``before`` and ``after`` are its contributions (0 past
    the cut or past the list's end), with the item there, its gain and its discount factor on each side (``None``
    where the side has no item at that position). A moved item keeps its id, so its two places can be paired."""

    position: int
    before: float
    after: float
    item_before: Item | None
    item_after: Item | None
    gain_before: float | None
    gain_after: float | None
    discount_before: float | None
    discount_after: float | None

    @property
    def change(self) -> float:
        """What this position adds to DCG after the change minus what it added before."""
        return self.after - self.before

    @property
    def changed(self) -> bool:
        """Whether the term is another number after the change."""
        return self.after != self.before


@dataclass(frozen=True)
class ChangeExplained:
    """What a change did to NDCG@k, term by term (``explain_change``).

    ``dcg``, ``idcg`` and ``ndcg`` are (before, after) pairs, as ``ListSpec.scores()`` gives them; ``terms`` has one
    ``TermChange`` per position 1..max(k before, k after). ``from_list`` is the part of NDCG's change that the list's
    own terms make, (DCG' - DCG) / IDCG' (0 when IDCG' is 0), and ``from_ideal`` the rest, the part a changed ideal
    makes (by a grade edited, k, the gain, the discount or the ideal's source): the two add up to the change of NDCG.
    """

    dcg: tuple[float, float]
    idcg: tuple[float, float]
    ndcg: tuple[float, float]
    terms: tuple[TermChange, ...]
    from_list: float
    from_ideal: float

    @property
    def change(self) -> float:
        """NDCG@k after minus before."""
        return self.ndcg[1] - self.ndcg[0]

    @property
    def changed_terms(self) -> tuple[TermChange, ...]:
        """The terms that are another number after the change, top position first."""
        return tuple(t for t in self.terms if t.changed)

    @property
    def ideal_moved(self) -> bool:
        """Whether IDCG is another number after the change."""
        return self.idcg[0] != self.idcg[1]

    def items_moved(self) -> list[ItemMove]:
        """Each item whose term changed, by where it ends (its term before, at its old place, and after, at its new
        one; 0 past a cut): what a reorder or an edit did, item by item."""
        before = {t.item_before.id: t for t in self.terms if t.item_before is not None}
        after = {t.item_after.id: t for t in self.terms if t.item_after is not None}
        items = {t.item_before.id: t.item_before for t in self.terms if t.item_before is not None}
        items.update({t.item_after.id: t.item_after for t in self.terms if t.item_after is not None})
        moves = []
        for item_id in [*after, *(i for i in before if i not in after)]:
            old, new = before.get(item_id), after.get(item_id)
            move = ItemMove(
                item=items[item_id],
                position_before=old.position if old else None,
                position_after=new.position if new else None,
                before=old.before if old else 0.0,
                after=new.after if new else 0.0,
            )
            if move.before != move.after:
                moves.append(move)
        return moves


@dataclass(frozen=True)
class ItemMove:
    """One item's DCG term before and after a change, at its place on each side (``None``: beyond the positions
    explained, so it counts 0 there)."""

    item: Item
    position_before: int | None
    position_after: int | None
    before: float
    after: float

    @property
    def change(self) -> float:
        """What the item adds to DCG after the change minus what it added before."""
        return self.after - self.before


class _Side(NamedTuple):
    """A position's term on one side of a change: its contribution, item, gain and discount factor."""

    term: float
    item: Item | None
    gain: float | None
    discount: float | None


def _sides(spec: ListSpec, positions: int) -> list[_Side]:
    """Positions 1..``positions`` of ``spec``: 0 and no item past its end, 0 with the item past its cut."""
    scoring = spec.scoring
    gains, factors, terms = dcg_terms(
        np.asarray(spec.grades, dtype=np.float64), scoring.gain_function(), scoring.discount_function()
    )
    sides = []
    for index in range(positions):
        if index >= len(spec.items):
            sides.append(_Side(0.0, None, None, None))
        else:
            term = float(terms[index]) if index < spec.k else 0.0
            sides.append(_Side(term, spec.items[index], float(gains[index]), float(factors[index])))
    return sides


def explain_change(before: ListSpec, after: ListSpec) -> ChangeExplained:
    """Why NDCG@k moved from ``before`` to ``after``: any change of one list (a reorder, a grade edited, k, the gain,
    the discount, where the ideal comes from), explained position by position (``ChangeExplained``)."""
    old, new = before.scores(), after.scores()
    positions = max(before.k, after.k)
    pairs = zip(_sides(before, positions), _sides(after, positions), strict=True)
    terms = tuple(
        TermChange(p, b.term, a.term, b.item, a.item, b.gain, a.gain, b.discount, a.discount)
        for p, (b, a) in enumerate(pairs, start=1)
    )
    from_list = (new.dcg - old.dcg) / new.idcg if new.idcg > 0 else 0.0
    change = new.ndcg - old.ndcg
    return ChangeExplained(
        dcg=(old.dcg, new.dcg),
        idcg=(old.idcg, new.idcg),
        ndcg=(old.ndcg, new.ndcg),
        terms=terms,
        from_list=from_list,
        from_ideal=change - from_list,
    )
