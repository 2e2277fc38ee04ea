"""NDCG of one ranked list: CG, DCG, IDCG, NDCG@k and the per-position breakdown, exact at the edges.

NDCG is a ratio: when gains would overflow a double, both DCGs are scaled by the same power of two, which
changes no bit of it. As trec_eval, the ideal ranking stops at gains of 0 or less.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import validate
from ..errors import LARGEST_FLOAT, InputError, number_text
from .discounts import Discount, resolve_discount
from .gains import Gain, resolve_gain

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


def rank_positions(n: int) -> np.ndarray:
    return np.arange(1, n + 1, dtype=np.float64)


def cut_of(k: int | None, n: int) -> int:
    """How many positions a cutoff keeps of a list of ``n`` (a k beyond the list keeps it all)."""
    return n if k is None else min(k, n)


def sum_in_rank_order(terms: np.ndarray) -> float:
    # Summed in rank order, as trec_eval does, so the breakdown's running totals agree to the bit.
    return float(np.cumsum(terms)[-1]) if len(terms) else 0.0


def finite_or_error(value: float, measure: str) -> float:
    if not math.isfinite(value):
        raise InputError("result.too_large", measure=measure, limit=number_text(LARGEST_FLOAT))
    return value


def dcg_terms(grades: np.ndarray, gain: Gain, discount: Discount) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The gains, discount factors and DCG terms (gain times factor) of ``grades`` at positions 1..n."""
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


def _check_pool(grades: np.ndarray, pool: np.ndarray, gain: Gain) -> None:
    """Refuse a pool that contradicts the list: one lacking a grade with a positive gain that the list has.

    Each such grade must be in the pool at least as often as in the list, or the list would beat its own
    ideal. A grade whose gain is 0 or less adds nothing to an ideal, so it needs no entry: an unjudged
    item counts 0, as in trec_eval's, ranx's, Spark's and Elasticsearch's judgments.
    """
    with np.errstate(over="ignore", invalid="ignore"):  # an overflowing gain is inf: positive
        counted = gain(grades) > 0
    available = Counter(pool.tolist())
    for position, (grade, positive) in enumerate(zip(grades.tolist(), counted.tolist(), strict=True), start=1):
        if not positive:
            continue
        if available[grade] == 0:
            raise InputError("ideal.lacks_grade", value=number_text(grade), position=position)
        available[grade] -= 1


@dataclass(frozen=True)
class CheckedList:
    """The checked opening every single-list score shares: grades, the pool the ideal comes from, k, gain, discount.

    ``pool`` holds the judged grades, or the list's own when none were given; ``cut`` is how many
    positions the score looks at (a k beyond the list still reaches a longer pool's ideal).
    """

    grades: np.ndarray
    pool: np.ndarray
    k: int | None
    gain: Gain
    discount: Discount

    @property
    def cut(self) -> int:
        n = len(self.grades)
        return n if self.k is None else cut_of(self.k, max(n, len(self.pool)))


def checked_list(
    rels: Iterable[Any],
    k: Any = None,
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
) -> CheckedList:
    """Check a ranked list's grades, its judged ``pool`` (``None``: the list itself), k, gain and discount, in
    that order; an ``InputError`` names the first bad one."""
    grades = validate_grades(rels)
    judged = grades if pool is None else validate_grades(pool, "pool")
    checked = CheckedList(grades, judged, validate_k(k), resolve_gain(gain), resolve_discount(discount))
    if pool is not None:
        _check_pool(grades, judged, checked.gain)
    return checked


def _ndcg(grades: np.ndarray, pool: np.ndarray, cut: int, gain: Gain, discount: Discount) -> float:
    """DCG@cut over ideal DCG@cut, safe from overflow; 0.0 when the ideal DCG is 0."""
    gains, pool_gains = gains_for_ratio(gain, grades[:cut], pool)
    factors = discount(rank_positions(cut))
    actual = sum_in_rank_order(gains * factors[: len(gains)])
    ideal = ideal_gains_of(pool_gains, cut)
    best = sum_in_rank_order(ideal * factors[: len(ideal)])
    return ratio(actual, best)


def ratio(actual: float, best: float) -> float:
    # Rounding can put a perfect order a hair above its ideal (1.0000000000000002): NDCG is at most 1.
    return min(actual / best, 1.0) if best > 0 else 0.0


def cg(rels: Iterable[Any], k: int | None = None, *, gain: Any = "linear") -> float:
    """Cumulative gain: the gains of the top ``k`` added up, blind to their positions."""
    grades = validate_grades(rels)
    top = grades[: cut_of(validate_k(k), len(grades))]
    with np.errstate(over="ignore", invalid="ignore"):
        return finite_or_error(sum_in_rank_order(resolve_gain(gain)(top)), "CG")


def dcg(rels: Iterable[Any], k: int | None = None, *, gain: Any = "linear", discount: Any = "log2") -> float:
    """Discounted cumulative gain of grades in ranked order, over the top ``k`` (all if ``None``).

    >>> dcg([3, 0, 2])
    4.0
    """
    grades = validate_grades(rels)
    top = grades[: cut_of(validate_k(k), len(grades))]
    with np.errstate(over="ignore", invalid="ignore"):
        return finite_or_error(
            sum_in_rank_order(dcg_terms(top, resolve_gain(gain), resolve_discount(discount))[2]), "DCG"
        )


def ideal_grades(rels: Iterable[Any], pool: Iterable[Any] | None = None, *, gain: Any = "linear") -> np.ndarray:
    """The grades of the ideal ranking: the list's own (``pool=None``) or a judgment pool's, best first.

    ``gain`` only says which grades of the list the pool must hold (those with a positive gain)."""
    return np.sort(checked_list(rels, gain=gain, pool=pool).pool)[::-1]


def idcg(
    rels: Iterable[Any],
    k: int | None = None,
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
) -> float:
    """DCG of the ideal top ``k``: the list's own grades (``pool=None``) or a judgment pool's, best gain first."""
    scored = checked_list(rels, k, gain=gain, discount=discount, pool=pool)
    best = ideal_gains_of(scored.gain(scored.pool), scored.cut)
    with np.errstate(over="ignore", invalid="ignore"):
        return finite_or_error(sum_in_rank_order(best * scored.discount(rank_positions(len(best)))), "IDCG")


def ndcg_at_k(
    ranked_rels: Iterable[Any],
    k: int | None = None,
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
) -> float:
    """DCG of the top ``k`` divided by the DCG of the ideal top ``k``; 0.0 when the ideal DCG is 0.

    ``pool=None`` takes the ideal from the list itself; otherwise ``pool`` holds the grades of the
    judged items (retrieved or not), and the ideal is their best order. As in trec_eval's, ranx's or
    Spark's judgments, an unjudged item counts 0: the pool needs only the grades with a positive gain
    (see ``checked_list``). ``k=None`` means the whole list. As trec_eval, the ideal stops at gains of 0 or less.
    """
    scored = checked_list(ranked_rels, k, gain=gain, discount=discount, pool=pool)
    return _ndcg(scored.grades, scored.pool, scored.cut, scored.gain, scored.discount)


def breakdown(
    rels: Iterable[Any],
    k: int | None = None,
    *,
    items: Sequence[Any] | None = None,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
) -> pd.DataFrame:
    """One row per position with every term of NDCG, for tables and charts.

    Columns: position, item, grade, gain, discount, contribution, cumulative_dcg,
    ideal_grade, ideal_gain, ideal_contribution, cumulative_idcg, ndcg, in_top_k,
    term (the contribution written out, e.g. ``3 / log2(2) = 3.000``).
    ``discount`` is the factor the gain is multiplied by (1/log2(i+1) for log2). ``pool`` as for ``ndcg_at_k``.
    """
    import pandas as pd  # imported here so the command line does not pay for it

    scored = checked_list(rels, k, gain=gain, discount=discount, pool=pool)
    grades, judged, k, g, d = scored.grades, scored.pool, scored.k, scored.gain, scored.discount
    n = len(grades)
    labels = [f"item {i + 1}" for i in range(n)] if items is None else validate.item_ids(items, n, what="count.labels")
    gains, factors, contrib = dcg_terms(grades, g, d)
    ideal_all = judged[np.argsort(-g(judged), kind="stable")]  # by gain, not grade: a custom gain need not rise
    ideal_top = np.zeros(n)
    ideal_top[: min(n, len(ideal_all))] = ideal_all[:n]
    has_ideal = np.arange(n) < len(ideal_all)
    i_gains, _, i_contrib = dcg_terms(ideal_top, g, d)
    counts = has_ideal & (i_gains > 0)  # the ideal stops where gains reach 0
    i_contrib = np.where(counts, i_contrib, 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        cum_dcg = np.cumsum(contrib)
        cum_idcg = np.cumsum(i_contrib)
    for values in (gains, contrib, cum_dcg, cum_idcg):
        if not np.isfinite(values).all():
            finite_or_error(math.inf, "DCG")
    running_ndcg = np.array([ratio(a, b) for a, b in zip(cum_dcg.tolist(), cum_idcg.tolist(), strict=False)])
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
        for grade, gain_value, pos, factor, c in zip(grades, gains, frame["position"], factors, contrib, strict=False)
    ]
    return frame


def _term_text(
    grade: float, gain_value: float, position: int, factor: float, contribution: float, gain: Gain, discount: Discount
) -> str:
    numerator = gain.formula(grade)
    if gain.name != "linear" and numerator != f"{gain_value:g}":
        numerator = f"({numerator})"
    return f"{numerator} / {discount.formula(int(position))} = {contribution:.3f}"


def ndcg_at_every_k(
    ranked_rels: Iterable[Any],
    *,
    gain: Any = "linear",
    discount: Any = "log2",
    pool: Iterable[Any] | None = None,
) -> np.ndarray:
    """NDCG@k for k = 1..n: each computed as ``ndcg_at_k`` does, safe from overflow."""
    scored = checked_list(ranked_rels, gain=gain, discount=discount, pool=pool)
    grades, judged, g, d = scored.grades, scored.pool, scored.gain, scored.discount
    n = len(grades)
    gains, pool_gains = gains_for_ratio(g, grades, judged)
    factors = d(rank_positions(n))
    actual = np.cumsum(gains * factors)
    best = ideal_gains_of(pool_gains, n)
    ideal_terms = np.zeros(n)
    ideal_terms[: len(best)] = best * factors[: len(best)]
    return np.array([ratio(a, b) for a, b in zip(actual.tolist(), np.cumsum(ideal_terms).tolist(), strict=False)])
