"""Discounts: how much a position keeps of its gain. Each is an entry of ``DISCOUNTS``: log2(i + 1), the usual
one, and Järvelin and Kekäläinen's original with a base b."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError, Place, shown
from ..errors import number_text as _num
from ..registry import Registry


@dataclass(frozen=True)
class Discount:
    """A position-to-discount function; positions count from 1."""

    name: str
    # Equal, and hashed alike, by name (a base is part of it), as ``Gain``.
    apply: Callable[[np.ndarray], np.ndarray] = field(compare=False)
    formula: Callable[[int], str] = field(compare=False)
    divides: bool = True  # whether the term is written "gain / d" rather than "gain x d"

    def __call__(self, positions: Any) -> np.ndarray:
        return self.apply(np.asarray(positions, dtype=np.float64))


DISCOUNTS: Registry[Discount] = Registry("discount")


@DISCOUNTS.register("log2", "log2(i + 1)", "Divide the gain at position i by log2(i + 1) (the usual NDCG).")
def log2_discount() -> Discount:
    return Discount("log2", lambda p: 1.0 / np.log2(p + 1.0), lambda i: f"log2({i + 1})")


@DISCOUNTS.register(
    "jk",
    "Järvelin-Kekäläinen",
    "Järvelin and Kekäläinen (2002): positions before b undiscounted, then 1/log_b(i), of i itself (not i + 1).",
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


def resolve_discount(discount: Any) -> Discount:
    """A ``Discount`` from a registry name or a ``Discount``."""
    if isinstance(discount, Discount):
        return discount
    return DISCOUNTS.build(discount)
