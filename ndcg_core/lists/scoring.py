"""How a ranking is scored, as one frozen value: ``Scoring``.

A ``Scoring`` holds the gain (a name in ``GAINS``; with the custom gain, its table), the discount (a name in
``DISCOUNTS``; with Järvelin-Kekäläinen's, its base), the cutoff k (``None``: the whole ranking), where the
ideal comes from (one of ``IDEAL_SOURCES``), the tie policy (a name in ``TIE_POLICIES``) and whether scores are
compared as 32-bit floats. It is checked when made, so a value that exists is a valid one, and equal scorings
are equal values with one hash: the Playground's list (``ListSpec.scoring``), an evaluation
(``EvaluationOptions.scoring``), the Conventions page's presets and the classroom's lists hold one, and caches
key on it. Copies are made with ``dataclasses.replace``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .. import validate
from ..errors import InputError, Place, number_text, shown
from .discounts import DISCOUNTS, Discount
from .gains import GAINS, Gain
from .ties import resolve_ties

# Where the ideal comes from: "list", the ranking's own grades (for a run, the judged documents it retrieved,
# re-sorted: scikit-learn); "pool", every judged grade, retrieved or not (trec_eval, pytrec_eval).
IDEAL_SOURCES = {
    "list": "The ranking's own grades, re-sorted: judged items it missed are ignored (scikit-learn).",
    "pool": "Every judged item, retrieved or not (trec_eval, pytrec_eval).",
}


@dataclass(frozen=True)
class Scoring:
    """How a ranking is scored; checked when made (an ``InputError`` names the first bad part).

    ``gain_table`` is the custom gain's table as (grade, gain) pairs in the order they were set (a grade left
    out is worth its grade); it is kept whatever the gain and used when ``gain`` is "custom". ``base`` is used
    when the discount takes one. ``k`` is the cutoff (``None``: the whole ranking). ``ties`` and
    ``float32_scores`` decide the order of items given by score (``ndcg_core.lists.ties``).
    """

    gain: str = "linear"
    gain_table: tuple[tuple[float, float], ...] = ()
    discount: str = "log2"
    base: float = 2.0
    k: int | None = None
    ideal: str = "list"
    ties: str = "trec_eval"
    float32_scores: bool = False

    def __post_init__(self) -> None:
        if self.gain not in GAINS:
            raise InputError("gain.unknown", value=shown(self.gain), choices=", ".join(GAINS.names()))
        table = []
        for grade, value in self.gain_table:
            g = validate.number(grade, Place("gain.grade"))
            table.append((_plain(g), validate.number(value, Place("gain.of", grade=number_text(g)))))
        object.__setattr__(self, "gain_table", tuple(table))
        if self.discount not in DISCOUNTS:
            raise InputError("discount.unknown", value=shown(self.discount), choices=", ".join(DISCOUNTS.names()))
        base = validate.number(self.base, Place("discount.base"))
        if base <= 1:
            raise InputError("discount.base", place=Place("discount.base"), value=shown(self.base))
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "k", validate.k(self.k))
        if not isinstance(self.ideal, str) or self.ideal not in IDEAL_SOURCES:
            raise InputError("ideal.unknown", value=shown(self.ideal), choices=", ".join(IDEAL_SOURCES))
        object.__setattr__(self, "ties", resolve_ties(self.ties))
        object.__setattr__(self, "float32_scores", validate.flag(self.float32_scores, "float32_scores"))

    def gain_function(self) -> Gain:
        """The gain as a function of grades (the custom one with this table)."""
        if self.gain == "custom":
            return GAINS.build("custom", mapping=dict(self.gain_table))
        return GAINS.build(self.gain)

    def discount_function(self) -> Discount:
        """The discount as a function of positions (with this base, if it takes one)."""
        entry = DISCOUNTS[self.discount]
        return entry.build(base=self.base) if "base" in entry.params else entry.build()

    @property
    def takes_base(self) -> bool:
        """Whether the discount uses ``base``."""
        return "base" in DISCOUNTS[self.discount].params

    def cutoff(self, n: int) -> int:
        """k clamped to a ranking of ``n`` items: 1 to n (the whole ranking when k is unset)."""
        if self.k is None:
            return max(n, 1)
        return max(1, min(self.k, max(n, 1)))

    def pool(self, grades: Sequence[float], extra: Sequence[float]) -> list[float] | None:
        """The grades the ideal comes from: ``None`` for the ranking's own, else its grades and ``extra``'s (the
        judged items it did not retrieve)."""
        return None if self.ideal == "list" else [*grades, *extra]

    def with_gain_of(self, grade: float, value: float) -> Scoring:
        """The custom gain's table with ``grade`` worth ``value``."""
        table = dict(self.gain_table)
        table[grade] = value
        return replace(self, gain_table=tuple(table.items()))


def _plain(x: float) -> float:
    """A whole grade as an int (so a table reads ``3: 9``), others as they are."""
    return int(x) if float(x).is_integer() else x


# The usual NDCG of one list: linear gain, log2 discount, the ideal from the list's own grades, cut at its end.
USUAL = Scoring()

# trec_eval's own scoring: linear gain, log2 discount, the ideal from every judged document, ties by docno.
TREC_EVAL = Scoring(ideal="pool")
