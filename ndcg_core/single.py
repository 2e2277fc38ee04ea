"""NDCG of one ranked list: DCG, IDCG, NDCG@k, ties among scores, and the per-position breakdown."""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np

from . import validate
from .errors import LARGEST_FLOAT, InputError, number_text, shown
from .variants import Discount, Gain, resolve_discount, resolve_gain, resolve_ties

if TYPE_CHECKING:
    import pandas as pd


def validate_grades(grades: Iterable[Any], where: str = "list") -> np.ndarray:
    """Grades as a float array; an ``InputError`` names the first bad one and its position.

    ``where`` is "list" (a ranked list's grades), "pool" (the judged grades an ideal comes from)
    or "scores" (scores of any sign).
    """
    return validate.numbers(grades, where)


def validate_k(k: Any, n: int | None = None) -> int | None:
    """``k`` as an int >= 1 (``None`` stays ``None``, meaning the whole list)."""
    return validate.k(k)


SAFE_LOG2_GAIN = 900  # gains below 2^900 cannot overflow a sum of a few million terms


def validate_flag(value: Any, name: str) -> bool:
    """An on/off option as a bool; anything but True or False (numpy's too) is an ``InputError``."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputError("flag.not_bool", name=name, value=shown(value))
    return bool(value)


def rank_positions(n: int) -> np.ndarray:
    return np.arange(1, n + 1, dtype=np.float64)


def cut_of(k: int | None, n: int) -> int:
    """How many positions a cutoff keeps of a list of ``n`` (a k beyond the list keeps it all)."""
    return n if k is None else min(k, n)


def _sum(terms: np.ndarray) -> float:
    # Summed in rank order, as trec_eval does, so the breakdown's running totals agree to the bit.
    return float(np.cumsum(terms)[-1]) if len(terms) else 0.0


def _finite(value: float, measure: str) -> float:
    if not math.isfinite(value):
        raise InputError("result.too_large", measure=measure, limit=number_text(LARGEST_FLOAT))
    return value


def _dcg_terms(grades: np.ndarray, gain: Gain, discount: Discount) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    gains = gain(grades)
    factors = discount(rank_positions(len(grades)))
    with np.errstate(over="ignore", invalid="ignore"):  # too large is inf, reported by _finite
        return gains, factors, gains * factors


def gains_for_ratio(gain: Gain, *grade_lists: np.ndarray) -> list[np.ndarray]:
    """The gains of each list, all scaled by one power of two when they would overflow a float.

    NDCG is DCG / IDCG: dividing both by 2^s changes neither the ratio nor, for a power of two,
    any bit of it.
    """
    bound = max((gain.log2_bound(g) for g in grade_lists if len(g)), default=0.0)
    if bound <= SAFE_LOG2_GAIN:
        return [gain(g) for g in grade_lists]
    shift = int(math.ceil(bound))
    return [gain.scaled(g, shift) for g in grade_lists]


def ideal_gains_of(pool_gains: np.ndarray, cut: int) -> np.ndarray:
    """The ideal ranking's gains: the positive ones, largest first, the top ``cut``.

    As trec_eval: the ideal ranking stops where gains reach 0, so a negative custom gain never
    lowers the ideal (it can only lower the list's own DCG).
    """
    positive = pool_gains[pool_gains > 0]
    return -np.sort(-positive)[:cut]


def _check_pool(grades: np.ndarray, pool: np.ndarray) -> None:
    """The judged pool must hold every item of the list: each grade at least as often as the list has it."""
    available = Counter(pool.tolist())
    for position, grade in enumerate(grades.tolist(), start=1):
        if available[grade] == 0:
            raise InputError("ideal.lacks_grade", value=number_text(grade), position=position)
        available[grade] -= 1


def judged_pool(grades: np.ndarray, ideal: Iterable[Any] | None) -> np.ndarray:
    if ideal is None:
        return grades
    pool = validate_grades(ideal, "pool")
    _check_pool(grades, pool)
    return pool


def _ndcg(grades: np.ndarray, pool: np.ndarray, cut: int, gain: Gain, discount: Discount) -> float:
    """DCG@cut over ideal DCG@cut, safe from overflow; 0.0 when the ideal DCG is 0."""
    gains, pool_gains = gains_for_ratio(gain, grades[:cut], pool)
    factors = discount(rank_positions(cut))
    actual = _sum(gains * factors[: len(gains)])
    ideal = ideal_gains_of(pool_gains, cut)
    best = _sum(ideal * factors[: len(ideal)])
    return ratio(actual, best)


def ratio(actual: float, best: float) -> float:
    # Rounding can put a perfect order a hair above its ideal (1.0000000000000002): NDCG is at most 1.
    return min(actual / best, 1.0) if best > 0 else 0.0


def cg(rels: Iterable[Any], k: int | None = None, *, gain: Any = "linear") -> float:
    """Cumulative gain: the gains of the top ``k`` added up, blind to their positions."""
    grades = validate_grades(rels)
    top = grades[: cut_of(validate_k(k), len(grades))]
    with np.errstate(over="ignore", invalid="ignore"):
        return _finite(_sum(resolve_gain(gain)(top)), "CG")


def dcg(rels: Iterable[Any], k: int | None = None, *, gain: Any = "linear", discount: Any = "log2") -> float:
    """Discounted cumulative gain of grades in ranked order, over the top ``k`` (all if ``None``).

    >>> dcg([3, 0, 2])
    4.0
    """
    grades = validate_grades(rels)
    top = grades[: cut_of(validate_k(k), len(grades))]
    with np.errstate(over="ignore", invalid="ignore"):
        return _finite(_sum(_dcg_terms(top, resolve_gain(gain), resolve_discount(discount))[2]), "DCG")


def ideal_grades(rels: Iterable[Any], ideal: Iterable[Any] | None = None) -> np.ndarray:
    """The grades of the ideal ranking: the list's own (``ideal=None``) or a judgment pool's, best first."""
    grades = validate_grades(rels)
    return np.sort(judged_pool(grades, ideal))[::-1]


def idcg(
    rels: Iterable[Any],
    k: int | None = None,
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    ideal: Iterable[Any] | None = None,
) -> float:
    """DCG of the ideal top ``k``: the list's own grades (``ideal=None``) or a judgment pool's, best gain first."""
    grades = validate_grades(rels)
    pool = judged_pool(grades, ideal)
    cut = cut_of(validate_k(k), max(len(grades), len(pool))) if k is not None else len(grades)
    g, d = resolve_gain(gain), resolve_discount(discount)
    best = ideal_gains_of(g(pool), cut)
    with np.errstate(over="ignore", invalid="ignore"):
        return _finite(_sum(best * d(rank_positions(len(best)))), "IDCG")


def ndcg_at_k(
    ranked_rels: Iterable[Any],
    k: int | None = None,
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    ideal: Iterable[Any] | None = None,
) -> float:
    """DCG of the top ``k`` divided by the DCG of the ideal top ``k``; 0.0 when the ideal DCG is 0.

    ``ideal=None`` takes the ideal from the list itself; otherwise ``ideal`` holds the
    grades of every judged item (retrieved or not), and the ideal is their best order.
    ``k=None`` means the whole list. As trec_eval, the ideal stops at gains of 0 or less.
    """
    grades = validate_grades(ranked_rels)
    pool = judged_pool(grades, ideal)
    k = validate_k(k)
    cut = len(grades) if k is None else cut_of(k, max(len(grades), len(pool)))
    return _ndcg(grades, pool, cut, resolve_gain(gain), resolve_discount(discount))


def breakdown(
    rels: Iterable[Any],
    k: int | None = None,
    *,
    items: Sequence[Any] | None = None,
    gain: Any = "linear",
    discount: Any = "log2",
    ideal: Iterable[Any] | None = None,
) -> "pd.DataFrame":
    """One row per position with every term of NDCG, for tables and charts.

    Columns: position, item, grade, gain, discount, contribution, cumulative_dcg,
    ideal_grade, ideal_gain, ideal_contribution, cumulative_idcg, ndcg, in_top_k,
    term (the contribution written out, e.g. ``3 / log2(2) = 3.000``).
    ``discount`` is the factor the gain is multiplied by (1/log2(i+1) for log2).
    """
    import pandas as pd  # imported here so the command line does not pay for it

    grades = validate_grades(rels)
    n = len(grades)
    labels = [f"item {i + 1}" for i in range(n)] if items is None else validate.item_ids(items, n,
                                                                                          what="count.labels")
    pool = judged_pool(grades, ideal)
    k = validate_k(k)
    g, d = resolve_gain(gain), resolve_discount(discount)
    gains, factors, contrib = _dcg_terms(grades, g, d)
    ideal_all = pool[np.argsort(-g(pool), kind="stable")]  # by gain, not grade: a custom gain need not rise
    ideal_top = np.zeros(n)
    ideal_top[: min(n, len(ideal_all))] = ideal_all[:n]
    has_ideal = np.arange(n) < len(ideal_all)
    i_gains, _, i_contrib = _dcg_terms(ideal_top, g, d)
    counts = has_ideal & (i_gains > 0)  # the ideal stops where gains reach 0
    i_contrib = np.where(counts, i_contrib, 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        cum_dcg = np.cumsum(contrib)
        cum_idcg = np.cumsum(i_contrib)
    for values in (gains, contrib, cum_dcg, cum_idcg):
        if not np.isfinite(values).all():
            _finite(math.inf, "DCG")
    running_ndcg = np.array([ratio(a, b) for a, b in zip(cum_dcg.tolist(), cum_idcg.tolist())])
    cut = cut_of(k, n)
    frame = pd.DataFrame(
        {
            "position": np.arange(1, n + 1),
            "item": labels,
            "grade": grades,
            "gain": gains,
            "discount": factors,
            "contribution": contrib,
            "cumulative_dcg": cum_dcg,
            "ideal_grade": np.where(has_ideal, ideal_top, np.nan),
            "ideal_gain": np.where(counts, i_gains, 0.0),
            "ideal_contribution": i_contrib,
            "cumulative_idcg": cum_idcg,
            "ndcg": running_ndcg,
            "in_top_k": np.arange(1, n + 1) <= cut,
        }
    )
    frame["term"] = [
        _term_text(grade, gain_value, pos, factor, c, g, d)
        for grade, gain_value, pos, factor, c in zip(grades, gains, frame["position"], factors, contrib)
    ]
    return frame


def _term_text(grade: float, gain_value: float, position: int, factor: float, contribution: float,
               gain: Gain, discount: Discount) -> str:
    numerator = gain.formula(grade)
    if gain.name != "linear" and numerator != f"{gain_value:g}":
        numerator = f"({numerator})"
    return f"{numerator} / {discount.formula(int(position))} = {contribution:.3f}"


def order_by_scores(
    scores: Sequence[Any],
    grades: Sequence[Any],
    items: Sequence[Any] | None = None,
    *,
    ties: str = "trec_eval",
    gain: Any = "linear",
    float32_scores: bool = False,
) -> np.ndarray:
    """Indices that rank items by score, highest first, ties ordered by the policy.

    ``trec_eval``: item id descending as a string; ``best``/``worst``: gain high/low first;
    ``average`` has no single order, so it returns the trec_eval order (use ``ndcg_from_scores``).
    Scores are compared as doubles (trec_eval 10.0); ``float32_scores=True`` rounds them to 32-bit
    floats first (trec_eval 9.x, pytrec_eval), so scores equal as float32 tie.
    """
    s = compared_scores(scores, float32_scores)
    g = validate_grades(grades)
    if len(s) != len(g):
        raise InputError("count.scores", scores=len(s), grades=len(g))
    policy = resolve_ties(ties)
    ids = validate.item_ids(items, len(s))
    if policy in ("trec_eval", "average"):
        tie_key = _descending_string_rank(ids)
    else:
        # By gain, not grade: a custom gain need not rise with the grade.
        with np.errstate(over="ignore"):
            gains = resolve_gain(gain)(g)
        tie_key = -gains if policy == "best" else gains
    return np.lexsort((tie_key, -s))


def compared_scores(scores: Sequence[Any], float32_scores: bool = False) -> np.ndarray:
    """Scores as the ranking compares them: doubles, or doubles holding 32-bit floats."""
    s = validate_grades(scores, "scores")
    if validate_flag(float32_scores, "float32_scores"):
        with np.errstate(over="ignore"):  # beyond float32's range a score becomes an infinity, as in C
            s = s.astype(np.float32).astype(np.float64)
    return s + 0.0  # -0.0 and 0.0 tie, as in C


def _descending_string_rank(ids: list[str]) -> np.ndarray:
    order = sorted(range(len(ids)), key=lambda i: ids[i].encode("utf-8"), reverse=True)
    rank = np.empty(len(ids), dtype=np.int64)
    rank[order] = np.arange(len(ids))
    return rank


def _ranked_gains(scores: np.ndarray, order: np.ndarray, gains: np.ndarray, ties: str) -> np.ndarray:
    """The gains in ranked order; with ``average``, each tied group's mean gain (McSherry and Najork).

    ``scores`` are as ``compared_scores`` gives them, so what ties is what the ranking treats as tied.
    """
    if resolve_ties(ties) != "average":
        return gains[order]
    _, group, counts = np.unique(-scores[order], return_inverse=True, return_counts=True)
    group_mean = np.bincount(group, weights=gains[order]) / counts
    return group_mean[group]


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
        ranked = _ranked_gains(compared_scores(scores, float32_scores), order, gain_fn(g_arr), ties)
        return _finite(_sum(ranked[:cut] * disc_fn(rank_positions(cut))), "DCG")


def ndcg_from_scores(
    grades: Sequence[Any],
    scores: Sequence[Any],
    k: int | None = None,
    *,
    items: Sequence[Any] | None = None,
    ties: str = "trec_eval",
    gain: Any = "linear",
    discount: Any = "log2",
    ideal: Iterable[Any] | None = None,
    float32_scores: bool = False,
) -> float:
    """NDCG@k of items ranked by their scores: ``dcg_from_scores`` over the ideal DCG@k.

    Scores are compared as doubles (trec_eval 10.0), or as 32-bit floats with ``float32_scores``
    (trec_eval 9.x, pytrec_eval).
    """
    g_arr = validate_grades(grades)
    order = order_by_scores(scores, g_arr, items, ties=ties, gain=gain, float32_scores=float32_scores)
    pool = judged_pool(g_arr, ideal)
    k = validate_k(k)
    cut = len(g_arr) if k is None else cut_of(k, max(len(g_arr), len(pool)))
    gain_fn, disc_fn = resolve_gain(gain), resolve_discount(discount)
    gains, pool_gains = gains_for_ratio(gain_fn, g_arr, pool)
    ranked = _ranked_gains(compared_scores(scores, float32_scores), order, gains, ties)[:cut]
    factors = disc_fn(rank_positions(cut))
    best = ideal_gains_of(pool_gains, cut)
    return ratio(_sum(ranked * factors[: len(ranked)]), _sum(best * factors[: len(best)]))


def ndcg_bounds(
    grades: Sequence[Any],
    scores: Sequence[Any],
    k: int | None = None,
    *,
    float32_scores: bool = False,
    **options: Any,
) -> tuple[float, float]:
    """The worst and best NDCG@k over every order of the tied items.

    With ``float32_scores`` scores equal as 32-bit floats count as tied; ``options`` go to ``ndcg_from_scores``.
    """
    return (
        ndcg_from_scores(grades, scores, k, ties="worst", float32_scores=float32_scores, **options),
        ndcg_from_scores(grades, scores, k, ties="best", float32_scores=float32_scores, **options),
    )


def ndcg_at_every_k(
    ranked_rels: Iterable[Any], *, gain: Any = "linear", discount: Any = "log2", ideal: Iterable[Any] | None = None
) -> np.ndarray:
    """NDCG@k for k = 1..n: each computed as ``ndcg_at_k`` does, safe from overflow."""
    grades = validate_grades(ranked_rels)
    pool = judged_pool(grades, ideal)
    g, d = resolve_gain(gain), resolve_discount(discount)
    n = len(grades)
    gains, pool_gains = gains_for_ratio(g, grades, pool)
    factors = d(rank_positions(n))
    actual = np.cumsum(gains * factors)
    best = ideal_gains_of(pool_gains, n)
    ideal_terms = np.zeros(n)
    ideal_terms[: len(best)] = best * factors[: len(best)]
    return np.array([ratio(a, b) for a, b in zip(actual.tolist(), np.cumsum(ideal_terms).tolist())])
