"""Slips: the right method with one number written wrong, found in the working and located.

``worked(spec, metric, position)`` is the right working of a question with every value a learner writes down
(``Worked``: each term's grade, gain, discount and value, DCG, the ideal's terms, IDCG, the answer).
``find_slips(spec, answer, ...)`` lists the slips (``KINDS``) whose working gives ``answer`` to its printed precision,
the likeliest first, each a ``Slip`` saying where: the step, its right value and the value that gives the answer.
An answer written to fewer than 2 decimals has none: it is too coarse to say which value was written wrong.

A learner writes each value to the answer's own decimals (2 at least, 4 at most). A slip changes one of them (or,
for a value rounded too early, every value of one step) and leaves the rest of the working right:

- ``digit``: one value's last digit wrong (a term 1.26 written 1.28);
- ``swap``: two neighbouring digits of one value swapped (a DCG of 6.39 added up as 6.93);
- ``rounded``: one step rounded too early (every term, every log, or DCG and IDCG to fewer decimals);
- ``truncated``: the answer cut to its decimals, not rounded (0.8397 as 0.83);
- ``dropped``: one term left out of a sum;
- ``neighbour``: one term's gain divided by the next position's log, or the one before's.

``COST`` weighs how unlikely each is (a slip in a term is likelier than one in the answer, whose every wrong last
digit would explain any number near the right one); ``reading.read_answer`` weighs them against the catalogue's
mistakes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import validate
from ..lists.spec import ListSpec
from .mistakes import Working, check_question, decimals, right_number, tolerance

KINDS = ("digit", "swap", "rounded", "truncated", "dropped", "neighbour")
# Where a slip is: one term of the list or the ideal (at a position), a sum, the answer, one term's log (a term
# question), or every value of one kind (``terms``, ``logs``, ``sums``: rounded too early).
STEPS = ("term", "ideal_term", "dcg", "idcg", "answer", "log", "terms", "logs", "sums")
MIN_PLACES, MAX_PLACES = 2, 4  # the decimals a learner writes intermediate values to
# How unlikely a slip is, by kind and step (lower: likelier); ``reading`` weighs a catalogued mistake at 1.
COST: dict[tuple[str, str], float] = {
    ("digit", "term"): 1.5,
    ("digit", "ideal_term"): 1.5,
    ("digit", "log"): 1.5,
    ("digit", "dcg"): 1.0,
    ("digit", "idcg"): 1.0,
    ("digit", "answer"): 3.5,  # any last digit: it would explain every number near the right one
    ("swap", "term"): 2.5,  # a swap moves a value far, where the catalogue's mistakes are: named over it when closer
    ("swap", "ideal_term"): 2.5,
    ("swap", "log"): 2.5,
    ("swap", "dcg"): 2.5,
    ("swap", "idcg"): 2.5,
    ("swap", "answer"): 2.5,
    ("rounded", "terms"): 1.5,
    ("rounded", "logs"): 1.5,
    ("rounded", "sums"): 1.5,
    ("truncated", "answer"): 1.5,
    ("dropped", "term"): 3.0,
    ("dropped", "ideal_term"): 3.0,
    ("neighbour", "term"): 3.0,
    ("neighbour", "ideal_term"): 3.0,
}


@dataclass(frozen=True)
class Line:
    """One term of a DCG as it is worked out: its position, grade, gain, the log it is divided by (``log``, its
    formula ``log2(4)``; 1 where the discount leaves the gain whole) and the term, gain / log."""

    position: int
    grade: float
    gain: float
    log_formula: str
    log: float
    term: float


@dataclass(frozen=True)
class Worked:
    """The right working of one question (``metric``, ``position`` as ``mistakes.diagnose`` takes them), every
    value exact: the list's terms to k (a term question: its one), the ideal's terms to k (NDCG and IDCG only),
    DCG@k, IDCG@k and the answer ``value``."""

    metric: str
    position: int | None
    k: int
    lines: tuple[Line, ...]
    ideal: tuple[Line, ...]
    dcg: float
    idcg: float
    value: float


@dataclass(frozen=True)
class Slip:
    """A slip that gives the answer: its ``kind`` (``KINDS``) and ``step`` (``STEPS``; ``position`` for one term,
    else ``None``); the step's ``right`` value and the ``written`` one that gives the answer, both to ``places``
    decimals (for a step rounded too early: the first value it changes, ``places`` the decimals it was rounded to);
    ``gives``, the number the slipped working gives; ``cost``, how unlikely it is with how far ``gives`` is from
    the answer (lower: likelier)."""

    kind: str
    step: str
    position: int | None
    right: float
    written: float
    gives: float
    places: int
    cost: float


def _lines(w: Working, grades: Sequence[float]) -> tuple[Line, ...]:
    g = np.asarray(grades, dtype=np.float64)
    positions = np.arange(1, len(g) + 1, dtype=np.float64)
    gains, factors = w.gain(g), w.discount(positions)
    return tuple(
        Line(i, float(grade), float(gain), w.discount.formula(i), float(1.0 / factor), float(gain * factor))
        for i, grade, gain, factor in zip(range(1, len(g) + 1), g, gains, factors, strict=True)
    )


@lru_cache(maxsize=256)
def worked(spec: ListSpec, metric: str = "ndcg", position: int | None = None) -> Worked:
    """The right working of the question, with every intermediate value (an ``InputError`` as ``diagnose``
    gives for a bad metric or position)."""
    check_question(metric, position, spec)
    w = Working.of(spec)
    every = _lines(w, w.grades)
    lines = (every[(position or 1) - 1],) if metric == "term" else every[: w.list_cut]
    ideal: tuple[Line, ...] = ()
    if metric in ("ndcg", "idcg"):
        pool = np.sort(np.asarray(w.grades if w.ideal_from is None else w.ideal_from, dtype=np.float64))[::-1]
        ideal = _lines(w, [float(x) for x in pool[: w.ideal_cut]])
    return Worked(
        metric,
        position,
        w.list_cut,
        lines,
        ideal,
        w.list_dcg(),
        w.ideal_dcg(),
        right_number(spec, metric, position),
    )


def places_for(answer_decimals: int) -> int:
    """The decimals a learner who answered to ``answer_decimals`` writes intermediate values to."""
    return min(max(answer_decimals, MIN_PLACES), MAX_PLACES)


def _text(value: float, places: int) -> str:
    return f"{value:.{places}f}"


def digit_variants(value: float, places: int) -> Iterator[float]:
    """``value`` to ``places`` decimals with its last digit replaced by each other digit."""
    text = _text(value, places)
    for d in "0123456789":
        if d != text[-1]:
            yield float(text[:-1] + d)


def swap_variants(value: float, places: int) -> Iterator[float]:
    """``value`` to ``places`` decimals with two neighbouring digits swapped (the point stays; a leading 0 is not
    moved)."""
    text = _text(value, places)
    spots = [i for i, c in enumerate(text) if c.isdigit()]
    for a, b in zip(spots, spots[1:], strict=False):
        if text[a] == text[b] or (a == spots[0] and text[a] == "0"):
            continue
        chars = list(text)
        chars[a], chars[b] = chars[b], chars[a]
        yield float("".join(chars))


class _Sheet:
    """The working's values as a learner writes them, and the answer they give with one value changed."""

    def __init__(self, work: Worked, places: int) -> None:
        self.work, self.places = work, places

    def answer_from(self, dcg: float, idcg: float) -> float:
        metric = self.work.metric
        if metric == "ndcg":
            return dcg / idcg if idcg > 0 else math.nan
        return dcg if metric == "dcg" else idcg

    def with_term(self, step: str, position: int, new: float) -> float:
        """The answer with one term (of the list or the ideal) written ``new``."""
        w = self.work
        if w.metric == "term":
            return new
        lines = w.lines if step == "term" else w.ideal
        delta = new - lines[position - 1].term
        return self.answer_from(w.dcg + delta, w.idcg) if step == "term" else self.answer_from(w.dcg, w.idcg + delta)


def _steps(work: Worked) -> Iterator[tuple[str, int | None, float]]:
    """Every value of the working a learner writes (step, position, exact value), the answer last."""
    if work.metric == "term":
        line = work.lines[0]
        if line.log != 1.0:
            yield "log", line.position, line.log
        yield "answer", None, work.value
        return
    if work.metric in ("ndcg", "dcg"):
        for line in work.lines:
            yield "term", line.position, line.term
    if work.metric in ("ndcg", "idcg"):
        for line in work.ideal:
            yield "ideal_term", line.position, line.term
    if work.metric == "ndcg":
        yield "dcg", None, work.dcg
        yield "idcg", None, work.idcg
    yield "answer", None, work.value


def _gives(sheet: _Sheet, step: str, position: int | None, new: float) -> float:
    w = sheet.work
    if step == "answer":
        return new
    if step in ("term", "ideal_term"):
        return sheet.with_term(step, position or 1, new)
    if step == "log":
        line = w.lines[0]
        return line.gain / new if new else math.nan
    if step == "dcg":
        return sheet.answer_from(new, w.idcg)
    return sheet.answer_from(w.dcg, new)  # idcg


def _candidates(
    work: Worked, places: int, answer_decimals: int
) -> Iterator[tuple[str, str, int | None, float, float, float, int]]:
    """Every slip of the working: (kind, step, position, right value, written value, the answer it gives, places)."""
    sheet = _Sheet(work, places)
    for step, position, value in _steps(work):
        shown_places = answer_decimals if step == "answer" else places
        right = round(value, shown_places)
        if right == 0:
            continue  # a term of 0 is written 0: no digit to slip
        for kind, variants in (("digit", digit_variants), ("swap", swap_variants)):
            for written in variants(value, shown_places):
                yield kind, step, position, right, written, _gives(sheet, step, position, written), shown_places
    if work.metric != "term":
        yield from _rounded(work, places)
        for kind, shift in (("dropped", None), ("neighbour", -1), ("neighbour", 1)):
            for step, lines in (("term", work.lines), ("ideal_term", work.ideal)):
                for line in lines:
                    if line.term == 0:
                        continue
                    other = 0.0 if shift is None else _neighbour_term(work, line, shift)
                    if other is None:
                        continue
                    written = other
                    yield (
                        kind,
                        step,
                        line.position,
                        line.term,
                        written,
                        sheet.with_term(step, line.position, written),
                        places,
                    )
    else:
        line = work.lines[0]
        for to in range(1, places):
            log = round(line.log, to)
            if log != line.log and log > 0:
                yield "rounded", "logs", line.position, line.log, log, line.gain / log, to
    decimals_ = answer_decimals
    cut = math.floor(work.value * 10**decimals_ + 1e-9) / 10**decimals_
    if round(work.value, decimals_) != round(cut, decimals_):
        yield "truncated", "answer", None, work.value, cut, cut, decimals_


def _neighbour_term(work: Worked, line: Line, shift: int) -> float | None:
    """The term with the log of the position ``shift`` away (``None`` where there is none: position 0)."""
    every = work.lines if line in work.lines else work.ideal
    other = line.position + shift
    if other < 1:
        return None
    if other <= len(every):
        log = every[other - 1].log
    else:
        return None
    if log == line.log or log <= 0:
        return None
    return line.gain / log


def _rounded(work: Worked, places: int) -> Iterator[tuple[str, str, int | None, float, float, float, int]]:
    """Each step rounded too early: every term, every log, or DCG and IDCG, to each fewer number of decimals."""
    sheet = _Sheet(work, places)
    for to in range(0, places):
        terms = [round(x.term, to) for x in work.lines]
        ideal = [round(x.term, to) for x in work.ideal]
        first = next((x for x in (*work.lines, *work.ideal) if round(x.term, to) != round(x.term, places)), None)
        if first is not None and to >= 1:
            yield (
                "rounded",
                "terms",
                first.position,
                first.term,
                round(first.term, to),
                sheet.answer_from(sum(terms), sum(ideal)),
                to,
            )
        if to >= 1:
            logs = [(x, round(x.log, to)) for x in (*work.lines, *work.ideal)]
            changed = next(((x, r) for x, r in logs if r != round(x.log, places)), None)
            if changed is not None and all(r > 0 for _, r in logs):
                dcg = sum(x.gain / r for x, r in logs[: len(work.lines)])
                idcg = sum(x.gain / r for x, r in logs[len(work.lines) :])
                x, r = changed
                yield "rounded", "logs", x.position, x.log, r, sheet.answer_from(dcg, idcg), to
        if work.metric == "ndcg":
            dcg, idcg = round(work.dcg, to), round(work.idcg, to)
            if (dcg, idcg) != (round(work.dcg, places), round(work.idcg, places)) and idcg > 0:
                step_right, step_written = (work.dcg, dcg) if dcg != round(work.dcg, places) else (work.idcg, idcg)
                yield "rounded", "sums", None, step_right, step_written, dcg / idcg, to


def find_slips(
    spec: ListSpec, answer: object, *, metric: str = "ndcg", position: int | None = None
) -> tuple[Slip, ...]:
    """The slips whose working gives ``answer`` (as typed, or a number) to its printed precision, the likeliest
    first; none for the right answer or one written to fewer than ``MIN_PLACES`` decimals. An ``InputError`` for an
    unreadable answer, metric or position."""
    check_question(metric, position, spec)
    value = validate.answer(answer)
    places_typed = decimals(answer)
    tol = tolerance(places_typed)
    work = worked(spec, metric, position)
    if abs(value - work.value) <= tol or places_typed < MIN_PLACES:
        # To fewer than 2 decimals an answer's tolerance (0.05 at 1) takes in slips of nearly any step: "0.8" for
        # 0.30 is an estimate, not a number worked out and written wrong.
        return ()
    found: dict[tuple[str, str, int | None, float], Slip] = {}
    for kind, step, pos, right, written, gives, places in _candidates(work, places_for(places_typed), places_typed):
        if not math.isfinite(gives) or abs(gives - value) > tol:
            continue
        cost = COST[(kind, step)] + abs(gives - value) / tol
        key = (kind, step, pos, written)
        if key not in found or cost < found[key].cost:
            found[key] = Slip(kind, step, pos, right, written, gives, places, cost)
    return tuple(
        sorted(found.values(), key=lambda s: (s.cost, KINDS.index(s.kind), STEPS.index(s.step), s.position or 0))
    )
