"""Predict the NDCG: each student estimates NDCG@k of one list; the class sees the estimates' histogram, how many
were within 0.05 and each estimate's verdict (right, close, the mistake it matches, or other)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ... import validate
from ...errors import InputError, Note, number_text, shown
from ...lists.spec import ListSpec
from ..lesson_fields import Field, Reader
from .base import POINTS, ActivityKind, Answer, KindEntry, Payload, Result, Scale, Solution
from .lists import (
    LIST_FIELDS,
    OverAList,
    list_from_json,
    list_from_lesson,
    list_lesson_data,
    list_to_json,
    outline_ndcg,
    quoted,
)
from .tally import Bin, Group, Verdict, estimate_groups, estimate_verdict, histogram, quartiles, within

NO_POINTS_OFF = 0.5  # a Predict estimate this far from the true NDCG, or farther, scores nothing


@dataclass(frozen=True)
class Predict(OverAList[float]):
    """Predict the NDCG: each student estimates NDCG@k of one list (``ActivityKind[float, PredictSummary,
    PredictDetail]``)."""

    spec: ListSpec
    kind: str = "predict"

    def payload(self) -> Payload:
        return {"list": list_to_json(self.spec)}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Predict:
        return cls(list_from_json(payload["list"]))

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]:
        return LIST_FIELDS

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Predict:
        return cls(list_from_lesson(r))

    def lesson_data(self, scale: Scale) -> Payload:
        return list_lesson_data(self.spec)

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline, with the true NDCG@k."""
        spec = self.spec
        line = f"Predict the NDCG{quoted(spec.query)}: {len(spec.grades)} results, {outline_ndcg(spec)}"
        return line + f" = {self.truth():.4f}"

    def solutions(self) -> tuple[Solution, ...]:
        """The true NDCG@k."""
        return (self.truth(),)

    def truth(self) -> float:
        return self.spec.ndcg()

    def check(self, raw: object, part: int = 0) -> float:
        """An estimate from 0 to 1, read as ``validate.reading`` reads it ("0,75" is 0.75; ``note`` says so)."""
        value = validate.answer(raw)
        if not 0 <= value <= 1:
            raise InputError("activity.estimate_range", value=shown(str(raw).strip()[:20]))
        return value

    def summary(self, answers: Sequence[Answer]) -> PredictSummary:
        """The estimates' histogram, how many were within 0.05, their median and quartiles, and each estimate's
        verdict counted (``estimate_groups``: every answer diagnosed once, per summary)."""
        guesses = [float(a.value) for a in answers]
        truth = self.truth()
        return PredictSummary(
            len(guesses),
            histogram(guesses),
            truth,
            sum(within(g, truth) for g in guesses),
            statistics.median(guesses) if guesses else None,
            quartiles(guesses),
            estimate_groups(self.spec, guesses),
        )

    def nothing_sent(self) -> InputError:
        """An empty estimate's own problem ("type a number")."""
        try:
            self.check("")
        except InputError as error:
            return error
        return super().nothing_sent()  # not reached: an empty estimate is no number

    def note(self, raw: object, part: int = 0) -> Note | None:
        """How a typed estimate was read ("'0,62' read as 0.62"); ``None`` if unreadable or nothing to tell."""
        try:
            return validate.reading(raw).note
        except InputError:
            return None

    def group(self, value: float) -> str:
        """An estimate's verdict: right, close, a mistake's code or other."""
        return self.verdict(value).group

    def verdict(self, value: object) -> Verdict:
        """What an estimate was: right, close, the mistake it matches, or other (``estimate_verdict``)."""
        return estimate_verdict(self.spec, value)

    def result(self, value: float, part: int = 0) -> Result[PredictDetail]:
        truth = self.truth()
        return Result(
            right=within(float(value), truth),
            ndcg=truth,
            answer=number_text(float(value)),
            detail=PredictDetail(float(value), truth, abs(float(value) - truth)),
            points=closeness_points(float(value), truth),
        )


def closeness_points(guess: float, truth: float) -> int:
    """Points for an estimate: all of them at the true NDCG, falling in a straight line to none at
    ``NO_POINTS_OFF`` away (an estimate within 0.05, counted right, scores at least 90)."""
    return round(POINTS * max(0.0, 1 - abs(guess - truth) / NO_POINTS_OFF))


@dataclass(frozen=True)
class PredictDetail:
    """A marked estimate: the guess, the true NDCG@k and how far off the guess was."""

    guess: float
    truth: float
    off: float


@dataclass(frozen=True)
class PredictSummary:
    """The class's estimates: how many, their histogram, the true NDCG@k, how many were within 0.05 (right), their
    median and quartiles (``None`` without estimates), and their verdicts counted (``Group``s, as ``grouped``)."""

    count: int
    bins: list[Bin]
    truth: float
    within: int
    median: float | None
    quartiles: tuple[float, float] | None = None
    groups: tuple[Group, ...] = ()

    @property
    def share_right(self) -> float | None:
        """The share of estimates within 0.05 (``None`` without estimates)."""
        return self.within / self.count if self.count else None


if TYPE_CHECKING:

    def _is_a_kind(activity: Predict) -> ActivityKind[float, PredictSummary, PredictDetail]:
        return activity  # mypy checks here that the class has every hook of the protocol, with these types


KIND = KindEntry(Predict, "Predict the NDCG", order=10)
