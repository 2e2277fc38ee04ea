"""A change of one ranked list explained term by term (``explain_change``): why NDCG@k moved between two lists, for
any change (a move, a grade edited, k, the gain, the discount, where the ideal comes from), position by position and
item by item, with NDCG's change split into what the list's own terms did and what the ideal did.

The Playground explains each change with it; its figures are ``ListSpec.scores()``'s, so they agree with the
headline to the bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .items import Item
from .ndcg import dcg_terms
from .spec import ListSpec


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
