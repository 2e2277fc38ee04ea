"""Two systems compared query by query: wins, ties and losses, and paired significance tests (SciPy).

Kept out of ``ndcg_core`` (numpy, pandas and pyarrow only); imported by the Evaluate page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ndcg_core.errors import InputError

TIE_TOLERANCE = 1e-12  # differences this small count as ties (the two runs agree to rounding)
PERMUTATIONS = 10_000
SEED = 20091  # the randomization test is seeded, so the page shows the same p-value every time


@dataclass(frozen=True)
class Comparison:
    """System B against system A over the same queries (differences are B - A)."""

    n: int
    wins: int
    ties: int
    losses: int
    mean_difference: float
    t_statistic: float
    t_p_value: float
    wilcoxon_p_value: float
    randomization_p_value: float


def paired_comparison(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> Comparison:
    """Paired t-test, Wilcoxon signed-rank test and a randomization test of B - A (two-sided)."""
    from scipy import stats  # imported here: only the comparison needs SciPy

    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise InputError("paired.mismatch", a=len(x), b=len(y))
    if len(x) < 2:
        raise InputError("paired.too_few", count=len(x))
    d = y - x
    wins, losses = int(np.sum(d > TIE_TOLERANCE)), int(np.sum(d < -TIE_TOLERANCE))
    if np.all(np.abs(d) <= TIE_TOLERANCE):
        t_stat, p_t, p_w, p_r = 0.0, 1.0, 1.0, 1.0
    else:
        if np.ptp(d) <= TIE_TOLERANCE:  # one and the same non-zero difference everywhere: no variance
            t_stat, p_t = float(np.sign(d.mean()) * np.inf), 0.0
        else:
            t = stats.ttest_rel(y, x)
            t_stat, p_t = float(t.statistic), float(t.pvalue)
        p_w = float(stats.wilcoxon(y, x, zero_method="wilcox").pvalue)
        p_r = float(
            stats.permutation_test(
                (d,),
                np.mean,
                permutation_type="samples",
                n_resamples=PERMUTATIONS,
                alternative="two-sided",
                random_state=SEED,
            ).pvalue
        )
    return Comparison(len(d), wins, len(d) - wins - losses, losses, float(d.mean()), t_stat, p_t, p_w, p_r)


def reading_key(p_value: float) -> str:
    """The catalogue key of a plain-language reading of a p-value."""
    if p_value < 0.01:
        return "evaluate.reading.strong"
    if p_value < 0.05:
        return "evaluate.reading.moderate"
    if p_value < 0.1:
        return "evaluate.reading.weak"
    return "evaluate.reading.none"
