"""Gains, discounts and tie policies: the conventions that make NDCG figures differ.

Every variant is an entry of a registry (``GAINS``, ``DISCOUNTS``, ``TIE_POLICIES``)
with a one-line description; ``resolve_gain`` and ``resolve_discount`` turn what a
caller passes (a name, a mapping, or a ready object) into the object the maths uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

from . import validate
from .errors import InputError, Place, shown
from .registry import Registry


@dataclass(frozen=True)
class Gain:
    """A grade-to-gain function, vectorised over numpy arrays.

    ``scaled(grades, shift)`` is ``gain * 2**-shift`` computed without overflowing on the way, for
    gains too large for a float (2^1024 - 1): NDCG is a ratio, so scaling both DCGs by the same power
    of two leaves it unchanged, to the bit. ``log2_bound(grades)`` bounds log2 of the largest gain.
    """

    name: str
    apply: Callable[[np.ndarray], np.ndarray]
    formula: Callable[[float], str]
    scaled_apply: Callable[[np.ndarray, Any], np.ndarray] | None = None
    log2_of_each: Callable[[np.ndarray], np.ndarray] | None = None

    def __call__(self, grades: Any) -> np.ndarray:
        with np.errstate(over="ignore"):  # an overflow becomes inf, which callers check
            return self.apply(np.asarray(grades, dtype=np.float64))

    def scaled(self, grades: Any, shift: Any) -> np.ndarray:
        """``gain * 2**-shift``; ``shift`` is a whole number or one per grade."""
        values = np.asarray(grades, dtype=np.float64)
        if self.scaled_apply is not None:
            return self.scaled_apply(values, shift)
        return np.ldexp(self.apply(values), -np.asarray(shift, dtype=np.int64))

    def log2_each(self, grades: Any) -> np.ndarray:
        """An upper bound of log2 |gain| for each grade (-inf for a gain of 0)."""
        values = np.asarray(grades, dtype=np.float64)
        if self.log2_of_each is not None:
            return self.log2_of_each(values)
        with np.errstate(divide="ignore"):
            return np.log2(np.abs(self.apply(values)))

    def log2_bound(self, grades: Any) -> float:
        """An upper bound of log2 of the largest |gain| (0.0 for no grades)."""
        each = self.log2_each(grades)
        return float(np.max(each)) if len(each) else 0.0


@dataclass(frozen=True)
class Discount:
    """A position-to-discount function; positions count from 1."""

    name: str
    apply: Callable[[np.ndarray], np.ndarray]
    formula: Callable[[int], str]
    divides: bool = True  # whether the term is written "gain / d" rather than "gain x d"

    def __call__(self, positions: Any) -> np.ndarray:
        return self.apply(np.asarray(positions, dtype=np.float64))


@dataclass(frozen=True)
class TiePolicy:
    """How items with equal scores are ordered or averaged."""

    name: str


def _num(x: float) -> str:
    """A grade or gain written the short way: 3 rather than 3.0."""
    return f"{x:g}"


GAINS: Registry[Gain] = Registry("gain")
DISCOUNTS: Registry[Discount] = Registry("discount")
TIE_POLICIES: Registry[TiePolicy] = Registry("ties")


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


@DISCOUNTS.register("log2", "log2(i + 1)", "Divide the gain at position i by log2(i + 1) (the usual NDCG).")
def log2_discount() -> Discount:
    return Discount("log2", lambda p: 1.0 / np.log2(p + 1.0), lambda i: f"log2({i + 1})")


@DISCOUNTS.register(
    "jk",
    "Järvelin-Kekäläinen",
    "Järvelin and Kekäläinen (2002): no discount before rank b, then divide by log_b(i).",
    params={"base": 2.0},
)
def jk_discount(base: float = 2.0) -> Discount:
    b = validate.number(base, Place("discount.base"))
    if b <= 1.0:
        raise InputError("discount.base", place=Place("discount.base"), value=shown(base))

    def apply(p: np.ndarray) -> np.ndarray:
        return np.where(p < b, 1.0, np.log(b) / np.log(np.maximum(p, b)))

    def formula(i: int) -> str:
        return "1" if i < b else f"log_{_num(b)}({i})"

    return Discount(f"jk(b={_num(b)})", apply, formula)


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


def resolve_gain(gain: Any) -> Gain:
    """A ``Gain`` from a registry name, a grade-to-gain mapping, or a ``Gain``."""
    if isinstance(gain, Gain):
        return gain
    if isinstance(gain, Mapping):
        return GAINS.build("custom", mapping=gain)
    return GAINS.build(gain)


def resolve_discount(discount: Any) -> Discount:
    """A ``Discount`` from a registry name or a ``Discount``."""
    if isinstance(discount, Discount):
        return discount
    return DISCOUNTS.build(discount)


def resolve_ties(ties: Any) -> str:
    """The name of a registered tie policy."""
    if isinstance(ties, TiePolicy):
        return ties.name
    return TIE_POLICIES.build(ties).name
