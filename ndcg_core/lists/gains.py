"""Gains: how a grade becomes what DCG adds up. Each is an entry of ``GAINS`` the UI lists: linear,
exponential (2^grade - 1) and a custom gain per grade (trec_eval's ``ndcg.1=3,2=9``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import validate
from ..errors import number_text as _num
from ..registry import Registry


@dataclass(frozen=True)
class Gain:
    """A grade-to-gain function, vectorised over numpy arrays.

    ``scaled(grades, shift)`` is ``gain * 2**-shift`` computed without overflowing on the way, for
    gains too large for a float (2^1024 - 1): NDCG is a ratio, so scaling both DCGs by the same power
    of two leaves it unchanged, to the bit. ``log2_bound(grades)`` bounds log2 of the largest gain.
    """

    name: str
    # The name says the whole function (a custom gain's carries its table), so two gains are equal, and hash
    # alike, by name: settings that hold one can key a cache.
    apply: Callable[[np.ndarray], np.ndarray] = field(compare=False)
    formula: Callable[[float], str] = field(compare=False)
    scaled_apply: Callable[[np.ndarray, Any], np.ndarray] | None = field(default=None, compare=False)
    log2_of_each: Callable[[np.ndarray], np.ndarray] | None = field(default=None, compare=False)

    def __call__(self, grades: Any) -> np.ndarray:
        with np.errstate(over="ignore"):  # an overflow becomes inf, which callers check
            return self.apply(np.asarray(grades, dtype=np.float64))

    def scaled(self, grades: Any, shift: Any) -> np.ndarray:
        """``gain * 2**-shift``; ``shift`` is a whole number or one per grade."""
        values = np.asarray(grades, dtype=np.float64)
        if self.scaled_apply is not None:
            return np.asarray(self.scaled_apply(values, shift))
        return np.asarray(np.ldexp(self.apply(values), -np.asarray(shift, dtype=np.int64)))

    def log2_each(self, grades: Any) -> np.ndarray:
        """An upper bound of log2 |gain| for each grade (-inf for a gain of 0)."""
        values = np.asarray(grades, dtype=np.float64)
        if self.log2_of_each is not None:
            return np.asarray(self.log2_of_each(values))
        with np.errstate(divide="ignore"):
            return np.asarray(np.log2(np.abs(self.apply(values))))

    def log2_bound(self, grades: Any) -> float:
        """An upper bound of log2 of the largest |gain| (0.0 for no grades)."""
        each = self.log2_each(grades)
        return float(np.max(each)) if len(each) else 0.0


GAINS: Registry[Gain] = Registry("gain")


@GAINS.register("linear", "Linear", "The gain is the grade itself (trec_eval, scikit-learn).")
def linear_gain() -> Gain:
    return Gain("linear", lambda g: g.astype(np.float64, copy=True), lambda g: _num(g))


@GAINS.register(
    "exponential",
    "Exponential",
    "The gain is 2^grade - 1, stressing highly relevant items (Burges et al. 2005).",
)
def exponential_gain() -> Gain:
    return Gain(
        "exponential",
        lambda g: np.exp2(g) - 1.0,
        lambda g: f"2^{_num(g)} - 1",
        # (2^g - 1) / 2^s, written so that neither part overflows.
        scaled_apply=lambda g, s: np.exp2(g - s) - np.exp2(-np.asarray(s, dtype=np.float64)),
        log2_of_each=lambda g: g.copy(),
    )


@GAINS.register(
    "custom",
    "Custom per grade",
    "Your own gain for each grade; grades left out keep their grade as gain (trec_eval's ndcg.1=3,2=9).",
    params={"mapping": {}},
)
def custom_gain(mapping: Mapping[Any, Any]) -> Gain:
    table = validate.gain_mapping(mapping)

    def apply(grades: np.ndarray) -> np.ndarray:
        out = grades.astype(np.float64, copy=True)
        for grade, gain in table.items():
            out[grades == grade] = gain
        return out

    def formula(grade: float) -> str:
        return _num(table.get(float(grade), grade))

    label = ",".join(f"{_num(k)}={_num(v)}" for k, v in table.items())
    return Gain(f"custom({label})", apply, formula)


validate_gain_mapping = validate.gain_mapping


def resolve_gain(gain: Any) -> Gain:
    """A ``Gain`` from a registry name, a grade-to-gain mapping, or a ``Gain``."""
    if isinstance(gain, Gain):
        return gain
    if isinstance(gain, Mapping):
        return GAINS.build("custom", mapping=gain)
    return GAINS.build(gain)
