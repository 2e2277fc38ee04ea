"""A learner's editable ranked list: items, the one move function, orderings, checks and scores under a ``Scoring``.

The Playground, Learn and Practice keep a list of ``Item``s in ranked order; every way of reordering (drag,
keyboard, buttons, the swap map) goes through ``move``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .. import validate
from ..errors import InputError, Place, shown
from .gains import resolve_gain
from .moves import ndcg_after_moves, ndcg_after_swaps
from .ndcg import breakdown, dcg, idcg, ndcg_at_every_k, ndcg_at_k
from .scoring import Scoring

MAX_ITEMS = 100


DEFAULT_TOP_GRADE = 4


@dataclass(frozen=True)
class Item:
    """One ranked item: a stable id (survives moves and edits), a label and a relevance grade."""

    id: int
    label: str
    grade: float


def make_items(labels: Sequence[str], grades: Sequence[float], first_id: int = 1) -> list[Item]:
    """Items with ids ``first_id, first_id + 1, ...`` in the given order."""
    if len(labels) != len(grades):
        raise InputError("count.labels", labels=len(labels), grades=len(grades))
    return [Item(first_id + i, str(lab), float(g)) for i, (lab, g) in enumerate(zip(labels, grades, strict=False))]


def next_id(items: Iterable[Item]) -> int:
    """An id no item in ``items`` uses."""
    return max((it.id for it in items), default=0) + 1


def move(items: Sequence[Item], source: int, target: int) -> list[Item]:
    """The list with the item at index ``source`` moved to index ``target`` (0-based)."""
    n = len(items)
    for index in (source, target):
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
            raise InputError("list.move", source=_one_based(source), target=_one_based(target), count=n)
    out = list(items)
    out.insert(target, out.pop(source))
    return out


def _one_based(index: Any) -> str:
    return str(index + 1) if isinstance(index, int) and not isinstance(index, bool) else shown(index)


def swap(items: Sequence[Item], first: int, second: int) -> list[Item]:
    """The list with the items at indices ``first`` and ``second`` (0-based) exchanged, as two moves."""
    low, high = sorted((first, second)) if isinstance(first, int) and isinstance(second, int) else (first, second)
    out = move(items, high, low)  # checks both indices
    return move(out, low + 1, high) if low != high else out


def index_of(items: Sequence[Item], item_id: Any) -> int:
    """Index of the item with id ``item_id``; an ``InputError`` if none has it."""
    for i, it in enumerate(items):
        if it.id == item_id:
            return i
    raise InputError("item.unknown", value=shown(item_id))


def ideal_order(items: Sequence[Item], gain: Any = "linear") -> list[Item]:
    """Highest gain first; equal gains keep their current relative order."""
    g = resolve_gain(gain)
    gains: Sequence[float] | np.ndarray = g([it.grade for it in items]) if items else []
    return [items[i] for i in sorted(range(len(items)), key=lambda i: -gains[i])]


def worst_order(items: Sequence[Item], gain: Any = "linear") -> list[Item]:
    """Lowest gain first: the ideal order reversed."""
    return ideal_order(items, gain)[::-1]


def shuffled(items: Sequence[Item], seed: int) -> list[Item]:
    """The items in a random order that ``seed`` fixes, so a class can share it."""
    out = list(items)
    random.Random(seed).shuffle(out)
    return out


def check_grade(value: Any, top_grade: float, where: Place) -> float:
    """A grade typed by a learner, from 0 to ``top_grade``; an ``InputError`` says what is wrong where."""
    return validate.grade(value, where, top_grade)


def check_label(value: Any, where: Place) -> str:
    """A label, trimmed; blank or too long is an ``InputError``. Any characters are kept as text."""
    return validate.label(value, where)


check_top_grade = validate.top_grade


def check_size(n: int) -> None:
    """An ``InputError`` if a list of ``n`` items is longer than the Playground holds."""
    validate.list_size(n, MAX_ITEMS)


def default_k(n: int) -> int:
    """The Playground's starting k: min(10, n), at least 1."""
    return max(1, min(10, n))


@dataclass(frozen=True)
class Scores:
    """Headline figures of a list under a scoring."""

    k: int
    ndcg: float
    dcg: float
    idcg: float


def _grades(items: Sequence[Item]) -> list[float]:
    return [it.grade for it in items]


def _pool(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item]) -> list[float] | None:
    return scoring.pool(_grades(items), _grades(extra))


def score(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item] = ()) -> Scores:
    """NDCG@k, DCG@k and IDCG@k of ``items`` in their order; ``extra`` holds the judged items the list did not
    retrieve (its ideal counts them when ``scoring.ideal`` is "pool")."""
    grades = _grades(items)
    k = scoring.cutoff(len(items))
    gain, discount = scoring.gain_function(), scoring.discount_function()
    pool = _pool(items, scoring, extra)
    return Scores(
        k=k,
        ndcg=ndcg_at_k(grades, k, gain=gain, discount=discount, pool=pool),
        dcg=dcg(grades, k, gain=gain, discount=discount),
        idcg=idcg(grades, k, gain=gain, discount=discount, pool=pool),
    )


def list_ndcg(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item] = ()) -> float:
    """NDCG@k of ``items`` in their order (``score``'s ``ndcg`` alone)."""
    return ndcg_at_k(
        _grades(items),
        scoring.cutoff(len(items)),
        gain=scoring.gain_function(),
        discount=scoring.discount_function(),
        pool=_pool(items, scoring, extra),
    )


def ndcg_after_each_move(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item] = ()) -> np.ndarray:
    """NDCG@k after moving the item at i to j, for every (i, j): ``ndcg_core.moves.ndcg_after_moves``."""
    return ndcg_after_moves(
        _grades(items),
        scoring.cutoff(len(items)),
        gain=scoring.gain_function(),
        discount=scoring.discount_function(),
        pool=_pool(items, scoring, extra),
    )


def ndcg_after_each_swap(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item] = ()) -> np.ndarray:
    """NDCG@k after swapping the items at i and j, for every (i, j): ``ndcg_core.moves.ndcg_after_swaps``."""
    return ndcg_after_swaps(
        _grades(items),
        scoring.cutoff(len(items)),
        gain=scoring.gain_function(),
        discount=scoring.discount_function(),
        pool=_pool(items, scoring, extra),
    )


def list_breakdown(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item] = ()) -> pd.DataFrame:
    """``ndcg_core.breakdown`` of the list, with its labels, under ``scoring``."""
    return breakdown(
        _grades(items),
        scoring.cutoff(len(items)),
        items=[it.label for it in items],
        gain=scoring.gain_function(),
        discount=scoring.discount_function(),
        pool=_pool(items, scoring, extra),
    )


def ndcg_for_every_k(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item] = ()) -> list[float]:
    """NDCG@1 .. NDCG@n of the list."""
    return list(
        ndcg_at_every_k(
            _grades(items),
            gain=scoring.gain_function(),
            discount=scoring.discount_function(),
            pool=_pool(items, scoring, extra),
        )
    )


def with_grade(items: Sequence[Item], item_id: Any, grade: float) -> list[Item]:
    """The list with one item's grade replaced."""
    i = index_of(items, item_id)
    out = list(items)
    out[i] = replace(out[i], grade=float(grade))
    return out


def without(items: Sequence[Item], item_id: Any) -> list[Item]:
    """The list with one item removed."""
    i = index_of(items, item_id)
    return list(items[:i]) + list(items[i + 1 :])
