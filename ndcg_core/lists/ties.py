"""Ties: the one place that decides the order of items with equal scores, for one list and for a whole run.

Scores are compared as doubles (trec_eval 10.0) or, with ``float32_scores``, rounded to 32-bit floats first
(trec_eval 9.x, pytrec_eval); -0.0 and 0.0 tie, as in C. The policies (``TIE_POLICIES``): ``trec_eval`` orders
tied items by id descending as bytes, ``average`` gives each tied group its mean gain (McSherry and Najork),
``best`` and ``worst`` put the highest or lowest gain first, ``file`` keeps tied items in the order they were given
(ranx, and any stable sort over a run file).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import validate
from ..arrays import as_arrow, as_numpy
from ..errors import InputError
from ..registry import Registry
from .gains import resolve_gain


@dataclass(frozen=True)
class TiePolicy:
    """How items with equal scores are ordered or averaged."""

    name: str


TIE_POLICIES: Registry[TiePolicy] = Registry("ties")


@TIE_POLICIES.register(
    "trec_eval",
    "trec_eval order",
    "Score descending, ties broken by item id descending as a string (trec_eval, pytrec_eval).",
)
def trec_eval_ties() -> TiePolicy:
    return TiePolicy("trec_eval")


@TIE_POLICIES.register(
    "average",
    "Averaged over ties",
    "Each tied group shares its average gain (McSherry and Najork 2008; scikit-learn's default).",
)
def average_ties() -> TiePolicy:
    return TiePolicy("average")


@TIE_POLICIES.register("best", "Best case", "Tied items in their best order: highest grade first (an upper bound).")
def best_ties() -> TiePolicy:
    return TiePolicy("best")


@TIE_POLICIES.register("worst", "Worst case", "Tied items in their worst order: lowest grade first (a lower bound).")
def worst_ties() -> TiePolicy:
    return TiePolicy("worst")


@TIE_POLICIES.register(
    "file",
    "File order",
    "Tied items keep the order they were given in (ranx, and any stable sort over a run file).",
)
def file_ties() -> TiePolicy:
    return TiePolicy("file")


def resolve_ties(ties: Any) -> str:
    """The name of a registered tie policy."""
    if isinstance(ties, TiePolicy):
        return ties.name
    return TIE_POLICIES.build(ties).name


# --- one list ------------------------------------------------------------------------------------------


def order_by_scores(
    scores: Sequence[Any] | np.ndarray,
    grades: Sequence[Any] | np.ndarray,
    items: Sequence[Any] | None = None,
    *,
    ties: str = "trec_eval",
    gain: Any = "linear",
    float32_scores: bool = False,
) -> np.ndarray:
    """Indices that rank items by score, highest first, ties ordered by the policy.

    ``trec_eval``: item id descending as a string; ``best``/``worst``: gain high/low first; ``file``: as given;
    ``average`` has no single order, so it returns the trec_eval order (use ``ndcg_from_scores``).
    Scores are compared as doubles (trec_eval 10.0); ``float32_scores=True`` rounds them to 32-bit
    floats first (trec_eval 9.x, pytrec_eval), so scores equal as float32 tie.
    """
    s = compared_scores(scores, float32_scores)
    g = validate.numbers(grades)
    if len(s) != len(g):
        raise InputError("count.scores", scores=len(s), grades=len(g))
    policy = resolve_ties(ties)
    ids = validate.item_ids(items, len(s))
    if policy in ("trec_eval", "average"):
        tie_key = _descending_string_rank(ids)
    elif policy == "file":
        tie_key = np.arange(len(s))
    else:
        # By gain, not grade: a custom gain need not rise with the grade.
        with np.errstate(over="ignore"):
            gains = resolve_gain(gain)(g)
        tie_key = -gains if policy == "best" else gains
    return np.lexsort((tie_key, -s))


def compared_scores(scores: Sequence[Any] | np.ndarray, float32_scores: bool = False) -> np.ndarray:
    """Scores as the ranking compares them: doubles, or doubles holding 32-bit floats."""
    s = validate.numbers(scores, "scores")
    if validate.flag(float32_scores, "float32_scores"):
        with np.errstate(over="ignore"):  # beyond float32's range a score becomes an infinity, as in C
            s = s.astype(np.float32).astype(np.float64)
    return s + 0.0  # -0.0 and 0.0 tie, as in C


def _descending_string_rank(ids: list[str]) -> np.ndarray:
    order = sorted(range(len(ids)), key=lambda i: ids[i].encode("utf-8"), reverse=True)
    rank = np.empty(len(ids), dtype=np.int64)
    rank[order] = np.arange(len(ids))
    return rank


def ranked_gains(scores: np.ndarray, order: np.ndarray, gains: np.ndarray, ties: str) -> np.ndarray:
    """The gains in ranked order; with ``average``, each tied group's mean gain (McSherry and Najork).

    ``scores`` are as ``compared_scores`` gives them, so what ties is what the ranking treats as tied.
    """
    if resolve_ties(ties) != "average":
        return np.asarray(gains[order])
    _, group, counts = np.unique(-scores[order], return_inverse=True, return_counts=True)
    group_mean = np.bincount(group, weights=gains[order]) / counts
    return group_mean[group]


def ranking_order(scores: np.ndarray, ids: Sequence[str], float32_scores: bool = False) -> list[int]:
    """Indices of a run's rows for one query in trec_eval's order: score descending, then id descending."""
    compared = float32_rounded(scores) if float32_scores else np.asarray(scores, dtype=np.float64)
    return sorted(range(len(ids)), key=lambda i: (-float(compared[i]), _Descending(ids[i])))


def float32_rounded(scores: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):  # beyond float32's range a score becomes an infinity, as in C
        return np.asarray(scores, dtype=np.float64).astype(np.float32).astype(np.float64)


class _Descending:
    """Sort key that orders strings descending by bytes."""

    __slots__ = ("b",)

    def __init__(self, s: str) -> None:
        self.b = s.encode("utf-8")

    def __lt__(self, other: _Descending) -> bool:
        return self.b > other.b

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descending) and self.b == other.b


# --- a whole run: every query at once, vectorised --------------------------------------------------------


def _float32_descending_key(score: np.ndarray) -> np.ndarray:
    """A uint32 that sorts ascending as the score, rounded to float32, sorts descending."""
    with np.errstate(over="ignore"):  # beyond float32's range a score becomes an infinity, as in C
        as_int = (score.astype(np.float32) + np.float32(0.0)).view(np.int32)  # -0.0 and 0.0 tie, as in C
    # Positive floats: flip the 31 low bits (bigger first); negative floats keep their bits (sign bit set, after).
    return (as_int ^ (~(as_int >> 31) & np.int32(0x7FFFFFFF))).view(np.uint32)


def _double_descending_key(score: np.ndarray) -> np.ndarray:
    """A uint64 that sorts ascending as the score (a double) sorts descending."""
    as_int = (np.asarray(score, dtype=np.float64) + 0.0).view(np.int64)  # -0.0 and 0.0 tie, as in C
    return (as_int ^ (~(as_int >> 63) & np.int64(0x7FFF_FFFF_FFFF_FFFF))).view(np.uint64)


def sort_run(
    qslot: np.ndarray, score: np.ndarray, docno: pa.Array, gains: np.ndarray, ties: str, float32_scores: bool = False
) -> tuple[np.ndarray | None, tuple[np.ndarray, np.ndarray] | None, np.ndarray | None]:
    """How to put rows in ranking order: by query, score descending, ties by policy.

    Scores are compared as doubles, or as 32-bit floats with ``float32_scores`` (trec_eval 9.x).
    Returns a full row order (None when the rows are in order already), then the tied rows'
    moves within that order as (to, from) indices (None when nothing is tied), then each
    row's tie-group id in that order (only for the "average" policy, else None).
    """
    # Query and float32 score fit one uint64, so one sort does the work; rounding to float32 keeps
    # the order of doubles (it is monotonic), so only rows equal as float32 need their doubles compared.
    composite = (qslot.astype(np.uint64) << np.uint64(32)) | _float32_descending_key(score).astype(np.uint64)
    order: np.ndarray | None = None
    if len(composite) > 1 and (composite[1:] < composite[:-1]).any():
        order = np.argsort(composite, kind="stable")
        composite = composite[order]
    same_as_prev = np.zeros(len(composite), dtype=bool)
    same_as_prev[1:] = composite[1:] == composite[:-1]
    if not float32_scores and same_as_prev.any():
        order, same_as_prev = _by_doubles(order, same_as_prev, score)
    group = np.cumsum(~same_as_prev) - 1 if ties == "average" else None
    if ties == "file" or not same_as_prev.any():
        return order, None, group  # the sorts are stable: tied rows are in the file's order already
    tied = same_as_prev.copy()
    tied[:-1] |= same_as_prev[1:]
    slots = np.flatnonzero(tied)
    tie_group = np.cumsum(~same_as_prev[slots])  # each tied run of rows is one group
    rows = slots if order is None else order[slots]
    if ties in ("trec_eval", "average"):
        tied_docnos = docno.take(as_arrow(rows))
        if pa.types.is_dictionary(tied_docnos.type):
            tied_docnos = tied_docnos.dictionary_decode()
        table = pa.table({"g": as_arrow(tie_group), "d": tied_docnos})
        within = as_numpy(pc.sort_indices(table, sort_keys=[("g", "ascending"), ("d", "descending")]))
    else:
        sign = -1.0 if ties == "best" else 1.0
        within = np.lexsort((sign * gains[rows], tie_group))
    return order, (slots, slots[within]), group


def _by_doubles(
    order: np.ndarray | None, same_as_prev: np.ndarray, score: np.ndarray
) -> tuple[np.ndarray | None, np.ndarray]:
    """Reorder rows that tie as float32 by their double scores, and mark as tied only equal doubles."""
    tied = same_as_prev.copy()
    tied[:-1] |= same_as_prev[1:]
    slots = np.flatnonzero(tied)
    rows = slots if order is None else order[slots]
    keys = _double_descending_key(score[rows])
    # Each tied slot after the first of its group has its predecessor among the slots.
    inner = same_as_prev[slots[1:]]
    misplaced = inner & (keys[1:] < keys[:-1])
    if misplaced.any():
        # Sort only the groups with a pair out of order: most groups are exact ties, or in order already.
        group = np.cumsum(~same_as_prev[slots])
        unsorted = np.zeros(int(group[-1]) + 1, dtype=bool)
        unsorted[group[1:][misplaced]] = True
        at = np.flatnonzero(unsorted[group])
        moved = at[_sorted_within_groups(group[at], keys[at])]
        order = np.arange(len(same_as_prev)) if order is None else order.copy()
        order[slots[at]] = rows[moved]
        keys[at] = keys[moved]
    same_as_prev = same_as_prev.copy()
    same_as_prev[slots[1:]] = inner & (keys[1:] == keys[:-1])
    return order, same_as_prev


def _sorted_within_groups(group: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The stable order of rows by key within each group; ``group`` holds contiguous runs, ascending."""
    starts = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
    sizes = np.diff(np.append(starts, len(group)))
    offsets = keys - np.repeat(np.minimum.reduceat(keys, starts), sizes)
    if offsets.max() >> np.uint64(32):
        # A group's doubles span more than 2^32 keys only past float32's range (infinities, zeros).
        return np.lexsort((keys, group))
    dense = np.repeat(np.arange(len(starts), dtype=np.uint64), sizes)
    return np.argsort((dense << np.uint64(32)) | offsets, kind="stable")


def tie_averaged(gains: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Each row's gain replaced by its tie group's mean (``group``: non-negative group ids, one per row)."""
    if not len(group):
        return np.asarray(gains, dtype=np.float64)
    # Group ids are small non-negative ints: count by id directly (ids a cut left out count 0 and are never read).
    sums = np.bincount(group, weights=gains)
    counts = np.bincount(group)
    return np.asarray((sums / np.maximum(counts, 1))[group])
