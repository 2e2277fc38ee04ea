"""What a class's answers add up to, for every kind: histograms over [0, 1], answers within 0.05, quartiles, an
estimate's verdict (right, close, the mistake it matches, or other) and answers counted by group."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat

from ... import validate
from ...lists.spec import ListSpec
from ...teaching import mistakes as mistake_catalogue
from ...teaching.reading import read_answer
from .base import EPS

WITHIN = 0.05  # a guess this close to the true NDCG counts as right
BINS = 20  # histogram bins of width 0.05 over [0, 1]


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int


def histogram(values: Iterable[float], bins: int = BINS) -> list[Bin]:
    """Counts of ``values`` in ``bins`` equal bins over [0, 1]; 1.0 falls in the last bin."""
    counts = [0] * bins
    for v in values:
        index = min(bins - 1, max(0, math.floor(v * bins + EPS)))
        counts[index] += 1
    return [Bin(i / bins, (i + 1) / bins, c) for i, c in enumerate(counts)]


def within(guess: float, truth: float) -> bool:
    """Whether a guess is within 0.05 of the true value."""
    return abs(guess - truth) <= WITHIN + EPS


def quartiles(values: Sequence[float]) -> tuple[float, float] | None:
    """The lower and upper quartiles (the middle half lies between them; ``None`` without values)."""
    if not values:
        return None
    if len(values) == 1:
        return values[0], values[0]
    low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    return low, high


# --- what an answer was: right, close, the mistake it matches, or other -----------------------------------

RIGHT, CLOSE, OTHER = "right", "close", "other"  # an answer's groups beside the mistakes' codes
RIGHT_DECIMALS = 2  # an estimate is right when it is the true NDCG to its own decimals, and to two at least


@dataclass(frozen=True)
class Verdict:
    """What an estimate of NDCG@k was: ``right`` (the true NDCG to the decimals it was written with, two at least),
    ``close``
    (within ``WITHIN`` of it: counted right too), a mistake's code (farther, and the number of a mistake of
    ``ndcg_core.teaching.mistakes``: ``found`` holds every mistake it matches, most likely first, and the group is
    the first's code), or ``other`` (farther, and no known mistake gives it, or a slip explains it better:
    ``reading.read_answer``)."""

    group: str
    found: tuple[mistake_catalogue.Diagnosis, ...] = ()

    @property
    def right(self) -> bool:
        return self.group in (RIGHT, CLOSE)


def estimate_verdict(spec: ListSpec, guess: object, truth: float | None = None) -> Verdict:
    """The verdict on an estimate (as typed, or a number) of ``spec``'s NDCG@k (``truth``: that NDCG@k, when
    already computed)."""
    if isinstance(guess, (str, int, float)):
        return _judged(spec, guess)
    return _judge(spec, guess, spec.ndcg() if truth is None else truth)


# The projector counts a class's estimates again at each run of its live part: each distinct estimate of a list is
# judged once per process (a slip searched for in the working is milliseconds), not once per run.
VERDICTS_KEPT = 4096


@lru_cache(maxsize=VERDICTS_KEPT, typed=True)
def _judged(spec: ListSpec, guess: str | int | float) -> Verdict:
    return _judge(spec, guess, spec.ndcg())


def _judge(spec: ListSpec, guess: object, truth: float) -> Verdict:
    if within(validate.answer(guess), truth):
        # Right: the truth to two decimals or more. "0.9" for 0.9386 is close, as "0.95" is, not right.
        return Verdict(RIGHT if mistake_catalogue.matches(guess, truth, decimals=RIGHT_DECIMALS) else CLOSE)
    # Read as Practice reads a number: a slip near the right one (a digit, two swapped) is not named as a concept.
    reading = read_answer(spec, guess)
    found = reading.mistakes  # only a reading whose verdict is a mistake names any
    return Verdict(found[0].code, found) if found else Verdict(OTHER)


@dataclass(frozen=True)
class Group:
    """How many answers fell in one group: ``right``, ``close``, ``other`` or a mistake's code."""

    code: str
    count: int


def grouped(codes: Iterable[str]) -> tuple[Group, ...]:
    """Answers counted by group: right, close, then the mistakes, the most common first (equal counts in the
    catalogue's order, the likeliest first), then other; a group without answers is left out."""
    counts = Counter(codes)
    likely = {code: i for i, code in enumerate(mistake_codes())}
    named = sorted(
        (c for c in counts if c not in (RIGHT, CLOSE, OTHER)), key=lambda c: (-counts[c], likely.get(c, len(likely)), c)
    )
    order = [c for c in (RIGHT, CLOSE) if c in counts] + named + [c for c in (OTHER,) if c in counts]
    return tuple(Group(c, counts[c]) for c in order)


def estimate_groups(spec: ListSpec, guesses: Iterable[object]) -> tuple[Group, ...]:
    """A class's estimates of ``spec``'s NDCG@k counted by verdict (``grouped``)."""
    # Each distinct estimate judged once: a class of 1,000 types a few dozen numbers, and the projector counts
    # them again each time an answer comes in.
    counts = Counter(guesses)
    truth = spec.ndcg()
    verdicts = {guess: estimate_verdict(spec, guess, truth).group for guess in counts}
    return grouped(code for guess, n in counts.items() for code in repeat(verdicts[guess], n))


def mistakes_only(groups: Iterable[Group]) -> tuple[Group, ...]:
    """The groups that are mistakes (not right, close or other), in their order."""
    return tuple(g for g in groups if g.code not in (RIGHT, CLOSE, OTHER))


def side_by_side(before: Sequence[Group], after: Sequence[Group]) -> tuple[tuple[str, int, int], ...]:
    """Two rounds' groups on one list: every group of either, ordered as ``grouped`` orders their counts added
    together, with its count in the first round and in the second (0 where it had none)."""
    first, second = {g.code: g.count for g in before}, {g.code: g.count for g in after}
    both = grouped((Counter(first) + Counter(second)).elements())
    return tuple((g.code, first.get(g.code, 0), second.get(g.code, 0)) for g in both)


def mistake_codes() -> tuple[str, ...]:
    """Every mistake a Which-is-right? option can be made by: the catalogue's codes and its pairs (``a+b``)."""
    return tuple(m.code for m in mistake_catalogue.mistakes())
