"""A whole NDCG@k worked by hand, cell by cell, each cell checked as it is typed (``check_cell``).

A ``Worksheet`` is one list (a ``ListSpec``) and the cells a learner fills to reach its NDCG@k: at each position
1..k the gain, the discount factor and the term; the DCG; the ideal order (the grade at each of its positions
1..k); the ideal's DCG; NDCG. ``check_cell`` reads one typed cell, with the cells typed so far, and gives a
``CellCheck``: right (to the precision it was typed in, at least two decimals), carried (wrong only because it
follows from the learner's own wrong cells, which it names), a mistake of the catalogue (``mistakes.diagnose``)
or a slip, located in that cell. A ``CellCheck`` holds figures, not sentences: the UI words it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError, Note, shown
from ..lists.ndcg import ideal_grades
from ..lists.spec import ListSpec
from .mistakes import Diagnosis, decimals, diagnose, explain

# What a cell holds, in the order a learner fills them: per position (``PER_POSITION``) or one for the sheet.
KINDS = ("gain", "discount", "term", "dcg", "ideal", "idcg", "ndcg")
PER_POSITION = frozenset({"gain", "discount", "term", "ideal"})
# The verdicts of a typed cell.
VERDICTS = ("right", "carried", "mistake", "slip")
# A number typed to two decimals is right: the tolerance is half a unit in its last decimal, at least this ...
ROUNDING = 0.005
CEILING = 0.05  # ... and at most this (a whole number is read to one decimal)


@dataclass(frozen=True)
class Cell:
    """One cell of the worksheet: its kind (one of ``KINDS``) and, for a per-position kind, its position."""

    kind: str
    position: int | None = None

    @property
    def key(self) -> str:
        """Its name, ``term.3`` or ``dcg`` (the UI keeps what was typed under it)."""
        return self.kind if self.position is None else f"{self.kind}.{self.position}"

    @classmethod
    def parse(cls, key: Any) -> Cell:
        """The cell named ``key`` (``term.3``, ``dcg``); an ``InputError`` for any other text."""
        text = str(key)
        kind, _, position = text.partition(".")
        if kind in PER_POSITION and position.isdigit() and int(position) >= 1:
            return cls(kind, int(position))
        if kind in KINDS and kind not in PER_POSITION and not position:
            return cls(kind)
        raise InputError("worksheet.cell", value=shown(key))


@dataclass(frozen=True)
class CellCheck:
    """A typed cell, checked: ``verdict`` (one of ``VERDICTS``), the number as read (``typed``) and as typed
    (``text``), the right number, and ``decimals`` (the typed precision).

    ``carried``: the learner's own earlier cells this one follows from, the wrong ones among them (so the slip is
    found there, not here). ``mistakes``: the catalogue's mistakes this number matches (for a gain, a discount,
    a term, a DCG, the ideal's DCG or NDCG, as ``diagnose`` names them; an ideal sorted worst first for a cell
    of the ideal order). ``note``: how the text was read ("0,62" as 0.62), when the learner should be told.
    """

    cell: Cell
    verdict: str
    typed: float
    text: str
    right: float
    decimals: int
    carried: tuple[Cell, ...] = ()
    mistakes: tuple[Diagnosis, ...] = ()
    note: Note | None = None

    @property
    def ok(self) -> bool:
        """Whether the cell is right (a number that follows from the learner's own right cells is right)."""
        return self.verdict == "right"


@dataclass(frozen=True)
class Worksheet:
    """One list's NDCG@k as cells to fill: positions 1..k of the list, and of its ideal."""

    spec: ListSpec

    @property
    def k(self) -> int:
        return self.spec.k

    def cells(self) -> tuple[Cell, ...]:
        """Every cell, in the order a learner fills them: each position's gain, discount and term, then DCG, the
        ideal order, IDCG and NDCG."""
        rows = [Cell(kind, p) for p in range(1, self.k + 1) for kind in ("gain", "discount", "term")]
        ideal = [Cell("ideal", p) for p in range(1, self.k + 1)]
        return (*rows, Cell("dcg"), *ideal, Cell("idcg"), Cell("ndcg"))

    def gains(self) -> np.ndarray:
        """The gain at each position of the list, 1..k."""
        grades = np.asarray(self.spec.grades[: self.k], dtype=np.float64)
        return self.spec.scoring.gain_function()(grades)

    def discounts(self) -> np.ndarray:
        """The discount factor at each position 1..k."""
        return self.spec.scoring.discount_function()(np.arange(1, self.k + 1, dtype=np.float64))

    def ideal(self) -> tuple[float, ...]:
        """The ideal order's grades at positions 1..k (from the pool where the list's ideal comes from it)."""
        pool = self.spec.judged_pool()
        gain = self.spec.scoring.gain_function()
        best = ideal_grades(self.spec.grades, pool, gain=gain)
        return tuple(float(g) for g in best[: self.k])

    def right(self, cell: Cell) -> float:
        """The right number in ``cell``, from the core."""
        self._check(cell)
        scores = self.spec.scores()
        if cell.position is not None:
            i = cell.position - 1
            return {
                "gain": lambda: float(self.gains()[i]),
                "discount": lambda: float(self.discounts()[i]),
                "term": lambda: float(self.gains()[i] * self.discounts()[i]),
                "ideal": lambda: self.ideal()[i],
            }[cell.kind]()
        return {"dcg": scores.dcg, "idcg": scores.idcg, "ndcg": scores.ndcg}[cell.kind]

    def _check(self, cell: Cell) -> None:
        if cell.kind not in KINDS or (cell.position is None) == (cell.kind in PER_POSITION):
            raise InputError("worksheet.cell", value=shown(cell.key))
        if cell.position is not None and not 1 <= cell.position <= self.k:
            raise InputError("worksheet.cell", value=shown(cell.key))


def tolerance(places: int) -> float:
    """How far a number typed with ``places`` decimals may be from the right one: half a unit in its last decimal,
    at least ``ROUNDING`` (two decimals are enough), at most ``CEILING``."""
    return min(max(0.5 * 10.0**-places, ROUNDING), CEILING) * (1 + 1e-9)


def check_cell(sheet: Worksheet, cell: Cell, text: Any, typed: Mapping[str, Any] | None = None) -> CellCheck:
    """``text`` typed in ``cell`` of ``sheet``, checked (``CellCheck``); ``typed`` holds what the learner typed in
    the other cells so far, by ``Cell.key`` (unreadable or empty ones are left out). An ``InputError`` when
    ``text`` is not a number."""
    read = validate.reading(text)
    places = decimals(text)
    right = sheet.right(cell)
    base = CellCheck(cell, "right", read.value, str(text).strip(), right, places, note=read.note)
    mine = _learners(sheet, typed or {})
    follows = _follows(sheet, cell, mine)
    near = tolerance(places)
    if abs(read.value - right) <= near:
        return base
    if follows is not None and abs(read.value - follows[0]) <= near:
        wrong = follows[1]
        return base if not wrong else replace(base, verdict="carried", carried=wrong)
    found = _mistakes(sheet, cell, read.value, str(text).strip())
    if found:
        return replace(base, verdict="mistake", mistakes=found)
    return replace(base, verdict="slip")


def _learners(sheet: Worksheet, typed: Mapping[str, Any]) -> dict[Cell, tuple[float, bool]]:
    """The learner's readable cells: each one's number and whether it is right."""
    out = {}
    for key, text in typed.items():
        try:
            cell = Cell.parse(key)
            value = validate.answer(text)
            right = sheet.right(cell)
        except InputError:
            continue
        out[cell] = (value, abs(value - right) <= tolerance(decimals(text)))
    return out


def _follows(
    sheet: Worksheet, cell: Cell, mine: Mapping[Cell, tuple[float, bool]]
) -> tuple[float, tuple[Cell, ...]] | None:
    """What ``cell`` comes to from the learner's own cells it is made of, and the wrong ones among them; ``None``
    for a cell made of none, or before every cell it is made of is typed."""
    k = sheet.k
    discounts = sheet.discounts()
    gain = sheet.spec.scoring.gain_function()
    parts: list[Cell]
    if cell.kind == "term" and cell.position is not None:
        parts = [Cell("gain", cell.position), Cell("discount", cell.position)]
    elif cell.kind == "dcg":
        parts = [Cell("term", p) for p in range(1, k + 1)]
    elif cell.kind == "idcg":
        parts = [Cell("ideal", p) for p in range(1, k + 1)]
    elif cell.kind == "ndcg":
        parts = [Cell("dcg"), Cell("idcg")]
    else:
        return None
    if any(part not in mine for part in parts):
        return None
    values = [mine[part][0] for part in parts]
    wrong = tuple(part for part in parts if not mine[part][1])
    if cell.kind == "term":
        value = values[0] * values[1]
    elif cell.kind == "dcg":
        value = sum(values)
    elif cell.kind == "idcg":
        # The ideal's grades as the learner typed them, each worth its gain at that position's discount (the
        # learner's own factor where they typed one).
        factors = [mine.get(Cell("discount", p), (float(discounts[p - 1]), True))[0] for p in range(1, k + 1)]
        value = float(sum(gain(np.asarray(values, dtype=np.float64)) * np.asarray(factors)))
    else:
        value = values[0] / values[1] if values[1] else 0.0
    return value, wrong


def _mistakes(sheet: Worksheet, cell: Cell, value: float, text: str) -> tuple[Diagnosis, ...]:
    """The catalogue's mistakes a wrong number in ``cell`` matches."""
    spec = sheet.spec
    if cell.kind == "ideal" and cell.position is not None:
        worst_first = sorted(sheet.ideal())  # the same grades, worst first
        if abs(value - worst_first[cell.position - 1]) <= 1e-9:
            return (explain(spec, "ideal_ascending", metric="idcg"),)
        return ()
    if cell.kind in ("dcg", "idcg", "ndcg"):
        return diagnose(spec, text, metric=cell.kind)
    position = cell.position or 1
    if cell.kind == "term":
        return diagnose(spec, text, metric="term", position=position)
    if cell.kind == "discount":
        # The factor at a position is the term of a grade of 1 there.
        ones = ListSpec.from_grades(
            [str(p) for p in range(1, sheet.k + 1)], [1] * sheet.k, sheet.k, scoring=spec.scoring
        )
        return diagnose(ones, text, metric="term", position=position)
    # A gain is the term of its grade at position 1, where every discount but a mistaken one keeps it whole.
    grade = spec.grades[position - 1]
    alone = ListSpec.from_grades(["1"], [grade], 1, top=spec.top, scoring=spec.scoring)
    return tuple(d for d in diagnose(alone, text, metric="term", position=1) if d.code.startswith("gain_"))
