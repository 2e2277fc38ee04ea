"""Gains, discounts and tie policies: the conventions that make NDCG figures differ.

Every variant is an entry of a registry (``GAINS``, ``DISCOUNTS``, ``TIE_POLICIES``)
with a one-line description; ``resolve_gain`` and ``resolve_discount`` turn what a
caller passes (a name, a mapping, or a ready object) into the object the maths uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

from .registry import Registry


@dataclass(frozen=True)
class Gain:
    """A grade-to-gain function, vectorised over numpy arrays."""

    name: str
    apply: Callable[[np.ndarray], np.ndarray]
    formula: Callable[[float], str]

    def __call__(self, grades: Any) -> np.ndarray:
        return self.apply(np.asarray(grades, dtype=np.float64))


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
TIE_POLICIES: Registry[TiePolicy] = Registry("tie policy")


@GAINS.register("linear", "Linear", "The gain is the grade itself (trec_eval, scikit-learn).")
def linear_gain() -> Gain:
    return Gain("linear", lambda g: g.astype(np.float64, copy=True), lambda g: _num(g))


@GAINS.register(
    "exponential",
    "Exponential",
    "The gain is 2^grade - 1, stressing highly relevant items (Burges et al. 2005).",
)
def exponential_gain() -> Gain:
    return Gain("exponential", lambda g: np.exp2(g) - 1.0, lambda g: f"2^{_num(g)} - 1")


@GAINS.register(
    "custom",
    "Custom per grade",
    "Your own gain for each grade; grades left out keep their grade as gain (trec_eval's ndcg.1=3,2=9).",
    params={"mapping": {}},
)
def custom_gain(mapping: Mapping[Any, Any]) -> Gain:
    table = validate_gain_mapping(mapping)

    def apply(grades: np.ndarray) -> np.ndarray:
        out = grades.astype(np.float64, copy=True)
        for grade, gain in table.items():
            out[grades == grade] = gain
        return out

    def formula(grade: float) -> str:
        return _num(table.get(float(grade), grade))

    label = ",".join(f"{_num(k)}={_num(v)}" for k, v in table.items())
    return Gain(f"custom({label})", apply, formula)


def validate_gain_mapping(mapping: Mapping[Any, Any]) -> dict[float, float]:
    """A grade-to-gain table with every grade and gain a finite number; a ``ValueError`` names a bad one."""
    if not isinstance(mapping, Mapping):
        raise ValueError(f"a custom gain needs a mapping of grade to gain, got {mapping!r}")
    table: dict[float, float] = {}
    for grade, gain in mapping.items():
        g, v = _finite(grade, "grade in the custom gain"), _finite(gain, f"gain for grade {grade!r}")
        table[g] = v
    return table


def _finite(value: Any, what: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{what} must be finite, got {value!r}")
    return number


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
    b = _finite(base, "the Järvelin-Kekäläinen base b")
    if b <= 1.0:
        raise ValueError(f"the Järvelin-Kekäläinen base b must be greater than 1, got {base!r}")

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
