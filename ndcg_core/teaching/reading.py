"""Read a learner's number: right, a slip (and where), a mistake of the catalogue (and which), or unknown.

``read_answer(spec, answer, metric=..., position=...)`` is the layer above ``mistakes.diagnose``: it weighs the
catalogue's mistakes that give the answer against the slips that give it (``slips.find_slips``) and keeps the
likelier explanation, as a ``Reading``. Each explanation has a cost: a mistake of the catalogue ``MISTAKE``, two made
at once (or one made of two, as nothing cut at k) ``COMPOUND``, a slip its ``slips.COST``; each plus how far its
number is from the answer, in units of the answer's tolerance. An explanation weighs exp(-cost), and the mistakes'
weights added up are set against the slips' added up: an answer that many slips give (a number near the right one,
where a digit of any of several values explains it) is a slip, though one mistake's number is as near; one only a far
slip gives (two digits swapped) is the mistake. So 0.82 for 0.84 is a slip, not "list not cut + ideal not cut".
Every reading carries the right working (``slips.Worked``), so a learner can find the step.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .. import validate
from ..lists.spec import ListSpec
from .mistakes import Diagnosis, decimals, diagnose, tolerance
from .slips import Slip, Worked, find_slips, worked

VERDICTS = ("right", "slip", "mistake", "unknown")
MISTAKE = 0.5  # a catalogued mistake's cost against a slip's (``slips.COST``: a term's last digit costs 1.5)
COMPOUND = 1.5  # two mistakes at once: a mistake's cost and one more


@dataclass(frozen=True)
class Reading:
    """What an answer is: ``verdict`` (``VERDICTS``); for a slip, ``slip`` (the likeliest) and ``slips`` (all that
    give the answer); for a mistake, ``mistakes`` (``diagnose``'s, most likely first); always the answer's value and
    ``decimals`` as typed and the right ``worked`` working."""

    verdict: str
    value: float
    decimals: int
    worked: Worked
    slips: tuple[Slip, ...] = ()
    mistakes: tuple[Diagnosis, ...] = ()

    @property
    def slip(self) -> Slip | None:
        """The likeliest slip, for a slip."""
        return self.slips[0] if self.verdict == "slip" and self.slips else None

    @property
    def right(self) -> bool:
        return self.verdict == "right"


def mistake_cost(d: Diagnosis, value: float, decimals_: int) -> float:
    """How unlikely a named mistake is as the explanation of ``value``: its weight plus how far its number is."""
    yours = d.figures.get("yours")
    far = 0.0 if yours is None else abs(value - yours) / tolerance(decimals_)
    return (MISTAKE if len(d.parts) == 1 else COMPOUND) + far


def weight(costs: Iterable[float]) -> float:
    """How likely a set of explanations of one answer is, together: each weighs exp(-cost) (0 for none)."""
    return math.fsum(math.exp(-cost) for cost in costs)


def read_answer(spec: ListSpec, answer: Any, *, metric: str = "ndcg", position: int | None = None) -> Reading:
    """The reading of ``answer`` (as typed, or a number) to the question ``metric`` (and ``position``, for a term)
    on ``spec``: right, a slip located in the working, a catalogued mistake named, or unknown. An ``InputError``
    for an unreadable answer, metric or position, as ``diagnose`` gives."""
    found = diagnose(spec, answer, metric=metric, position=position)
    value = validate.answer(answer)
    places = decimals(answer)
    work = worked(spec, metric, position)
    if abs(value - work.value) <= tolerance(places):
        return Reading("right", value, places, work)
    slips = find_slips(spec, answer, metric=metric, position=position)
    if found and weight(mistake_cost(d, value, places) for d in found) >= weight(s.cost for s in slips):
        return Reading("mistake", value, places, work, slips, found)
    if slips:
        return Reading("slip", value, places, work, slips)
    return Reading("unknown", value, places, work)
