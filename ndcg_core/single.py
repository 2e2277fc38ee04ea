"""NDCG of one ranked list: DCG, IDCG, NDCG@k, ties among scores, and the per-position breakdown."""

from __future__ import annotations

import math
from numbers import Number
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np

from .variants import Discount, Gain, resolve_discount, resolve_gain, resolve_ties

if TYPE_CHECKING:
    import pandas as pd


def validate_grades(grades: Iterable[Any], where: str = "grade", *, allow_negative: bool = False) -> np.ndarray:
    """Grades as a float array; a ``ValueError`` names the first bad one and its position."""
    if isinstance(grades, (str, bytes)):
        raise ValueError(f"{where}s must be a list of numbers, got the text {grades!r}")
    try:
        values = list(grades)
    except TypeError:
        raise ValueError(f"{where}s must be a list of numbers, got {grades!r}") from None
    out = np.empty(len(values), dtype=np.float64)
    for i, value in enumerate(values):
        out[i] = _grade(value, f"{where} at position {i + 1}", allow_negative)
    return out


def _grade(value: Any, where: str, allow_negative: bool) -> float:
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{where} is {value!r}: a grade must be a number, not true/false")
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise ValueError(f"{where} is blank: enter a number")
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"{where} is {value!r}: not a number") from None
    elif isinstance(value, (Number, np.number)):
        number = float(value)
    else:
        raise ValueError(f"{where} is {value!r}: not a number")
    if math.isnan(number):
        raise ValueError(f"{where} is NaN: a grade must be a number")
    if math.isinf(number):
        raise ValueError(f"{where} is {number}: a grade must be finite")
    if number < 0 and not allow_negative:
        raise ValueError(f"{where} is {value!r}: grades cannot be negative")
    return number


def validate_k(k: Any, n: int | None = None) -> int | None:
    """``k`` as an int >= 1 (``None`` stays ``None``, meaning the whole list)."""
    if k is None:
        return None
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        if isinstance(k, (float, np.floating)) and float(k).is_integer():
            k = int(k)
        else:
            raise ValueError(f"k must be a whole number of positions, got {k!r}")
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    return int(k)


def validate_flag(value: Any, name: str) -> bool:
    """An on/off option as a bool; anything but True or False (numpy's too) is a ``ValueError``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _positions(n: int) -> np.ndarray:
    return np.arange(1, n + 1, dtype=np.float64)


def _dcg_terms(grades: np.ndarray, gain: Gain, discount: Discount) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    gains = gain(grades)
    factors = discount(_positions(len(grades)))
    return gains, factors, gains * factors


def _sum(terms: np.ndarray) -> float:
    # Summed in rank order, as trec_eval does, so the breakdown's running totals agree to the bit.
    return float(np.cumsum(terms)[-1]) if len(terms) else 0.0


def cg(rels: Iterable[Any], k: int | None = None, *, gain: Any = "linear") -> float:
    """Cumulative gain: the gains of the top ``k`` added up, blind to their positions."""
    grades = validate_grades(rels)
    k = validate_k(k)
    return _sum(resolve_gain(gain)(grades if k is None else grades[:k]))


def dcg(rels: Iterable[Any], k: int | None = None, *, gain: Any = "linear", discount: Any = "log2") -> float:
    """Discounted cumulative gain of grades in ranked order, over the top ``k`` (all if ``None``).

    >>> dcg([3, 0, 2])
    4.0
    """
    grades = validate_grades(rels)
    k = validate_k(k)
    top = grades if k is None else grades[:k]
    return _sum(_dcg_terms(top, resolve_gain(gain), resolve_discount(discount))[2])


def ideal_grades(rels: Iterable[Any], ideal: Iterable[Any] | None = None) -> np.ndarray:
    """The grades of the ideal ranking: the list's own (``ideal=None``) or a judgment pool's, best first."""
    source = validate_grades(rels) if ideal is None else validate_grades(ideal, "judged grade")
    return np.sort(source)[::-1]


def _ideal_sorted_by_gain(pool: np.ndarray, gain: Gain) -> np.ndarray:
    # Sort by gain, not grade: a custom gain need not rise with the grade.
    return pool[np.argsort(-gain(pool), kind="stable")]


def _ideal_dcg(pool: np.ndarray, cut: int, gain: Gain, discount: Discount) -> float:
    """DCG of the best order of ``pool``, over its top ``cut`` positions."""
    return _sum(_dcg_terms(_ideal_sorted_by_gain(pool, gain)[:cut], gain, discount)[2])


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
    pool = grades if ideal is None else validate_grades(ideal, "judged grade")
    k = validate_k(k)
    return _ideal_dcg(pool, len(grades) if k is None else k, resolve_gain(gain), resolve_discount(discount))


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
    ``k=None`` means the whole list.
    """
    grades = validate_grades(ranked_rels)
    pool = grades if ideal is None else validate_grades(ideal, "judged grade")
    k = validate_k(k)
    cut = len(grades) if k is None else k
    g, d = resolve_gain(gain), resolve_discount(discount)
    actual = _sum(_dcg_terms(grades[:cut], g, d)[2])
    best = _ideal_dcg(pool, cut, g, d)
    return actual / best if best > 0 else 0.0


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
    labels = [f"item {i + 1}" for i in range(n)] if items is None else [str(x) for x in items]
    if len(labels) != n:
        raise ValueError(f"items has {len(labels)} labels for {n} grades")
    pool = grades if ideal is None else validate_grades(ideal, "judged grade")
    k = validate_k(k)
    g, d = resolve_gain(gain), resolve_discount(discount)
    gains, factors, contrib = _dcg_terms(grades, g, d)
    ideal_all = _ideal_sorted_by_gain(pool, g)
    ideal_top = np.zeros(n)
    ideal_top[: min(n, len(ideal_all))] = ideal_all[:n]
    has_ideal = np.arange(n) < len(ideal_all)
    i_gains, _, i_contrib = _dcg_terms(ideal_top, g, d)
    i_contrib = np.where(has_ideal, i_contrib, 0.0)
    cum_dcg = np.cumsum(contrib)
    cum_idcg = np.cumsum(i_contrib)
    with np.errstate(divide="ignore", invalid="ignore"):
        running_ndcg = np.where(cum_idcg > 0, cum_dcg / np.where(cum_idcg > 0, cum_idcg, 1.0), 0.0)
    cut = n if k is None else k
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
            "ideal_gain": np.where(has_ideal, i_gains, 0.0),
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
    float32_scores: bool = False,
) -> np.ndarray:
    """Indices that rank items by score, highest first, ties ordered by the policy.

    ``trec_eval``: item id descending as a string; ``best``/``worst``: grade high/low first;
    ``average`` has no single order, so it returns the trec_eval order (use ``ndcg_from_scores``).
    Scores are compared as doubles (trec_eval 10.0); ``float32_scores=True`` rounds them to 32-bit
    floats first (trec_eval 9.x, pytrec_eval), so scores equal as float32 tie.
    """
    s = _compared_scores(scores, float32_scores)
    g = validate_grades(grades)
    if len(s) != len(g):
        raise ValueError(f"{len(s)} scores for {len(g)} grades")
    policy = resolve_ties(ties)
    ids = [str(i) for i in range(len(s))] if items is None else [str(x) for x in items]
    if len(ids) != len(s):
        raise ValueError(f"{len(ids)} items for {len(s)} scores")
    if policy in ("trec_eval", "average"):
        tie_key = _descending_string_rank(ids)
    elif policy == "best":
        tie_key = -g
    else:
        tie_key = g
    return np.lexsort((tie_key, -s))


def _compared_scores(scores: Sequence[Any], float32_scores: bool) -> np.ndarray:
    """Scores as the ranking compares them: doubles, or doubles holding 32-bit floats."""
    s = validate_grades(scores, "score", allow_negative=True)
    if validate_flag(float32_scores, "float32_scores"):
        with np.errstate(over="ignore"):  # beyond float32's range a score becomes an infinity, as in C
            s = s.astype(np.float32).astype(np.float64)
    return s + 0.0  # -0.0 and 0.0 tie, as in C


def _descending_string_rank(ids: list[str]) -> np.ndarray:
    order = sorted(range(len(ids)), key=lambda i: ids[i].encode("utf-8"), reverse=True)
    rank = np.empty(len(ids), dtype=np.int64)
    rank[order] = np.arange(len(ids))
    return rank


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
    order = order_by_scores(scores, g_arr, items, ties=ties, float32_scores=float32_scores)
    if resolve_ties(ties) != "average":
        return dcg(g_arr[order], k, gain=gain, discount=discount)
    k = validate_k(k)
    gain_fn, disc_fn = resolve_gain(gain), resolve_discount(discount)
    ranked_scores = _compared_scores(scores, float32_scores)[order]
    cut = len(g_arr) if k is None else k
    factors = disc_fn(_positions(len(g_arr)))
    factors[cut:] = 0.0
    _, group, counts = np.unique(-ranked_scores, return_inverse=True, return_counts=True)
    group_mean = np.bincount(group, weights=gain_fn(g_arr[order])) / counts
    return _sum(group_mean[group] * factors)


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
    actual = dcg_from_scores(grades, scores, k, items=items, ties=ties, gain=gain, discount=discount,
                             float32_scores=float32_scores)
    g_arr = validate_grades(grades)
    pool = g_arr if ideal is None else validate_grades(ideal, "judged grade")
    k = validate_k(k)
    cut = len(g_arr) if k is None else k
    best = _ideal_dcg(pool, cut, resolve_gain(gain), resolve_discount(discount))
    return actual / best if best > 0 else 0.0


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
    """NDCG@k for k = 1..n, as in the breakdown's ``ndcg`` column."""
    return breakdown(ranked_rels, gain=gain, discount=discount, ideal=ideal)["ndcg"].to_numpy()
