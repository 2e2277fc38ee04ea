"""Speed and memory scripts (``python -m benchmarks.NAME``); their figures are in docs/benchmarks.md."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``q`` (0.9 for p90) of the values at or
    below it, so it is one of the values measured and never below the median."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]
