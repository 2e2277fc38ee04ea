"""Predict the NDCG: each student estimates NDCG@k of one list; the class sees the estimates' histogram, how many
were within 0.05 and each estimate's verdict (right, close, the mistake it matches, or other).

An estimate is kept as typed (``Estimate``): its decimals say how precisely it was meant, so a mistake's number is
matched to them and the phone quotes it back as written. A number outside 0 to 1 is taken when a catalogued mistake
gives it (the DCG typed for the NDCG is the commonest), so the mistake is named; any other is refused."""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ... import validate
from ...errors import InputError, Note, shown
from ...lists.spec import ListSpec
from ...teaching import mistakes as mistake_catalogue
from ..lesson_fields import Field, Reader
from .base import POINTS, ActivityKind, Answer, Json, KindEntry, Payload, Result, Scale, Solution
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
from .tally import RIGHT_DECIMALS, Bin, Group, Verdict, estimate_groups, estimate_verdict, histogram, quartiles, within

NO_POINTS_OFF = 0.5  # a Predict estimate this far from the true NDCG, or farther, scores nothing
MAX_TYPED = 24  # characters of an estimate kept as typed; a longer one is kept as its number's shortest form
MOST_PLACES = 5  # the distance's decimals at most: past mistakes.FLOOR (5e-5) every wrong estimate shows as non-zero
# An estimate written in plain decimals ("0.70", ".7", "0,75", "0，75"); any other form (1e-1, 0.7_0) is kept as its
# number's shortest form, so what is quoted back is digits only.
_PLAIN = re.compile(r"[+-]?(?:[0-9]+(?:[.,，][0-9]*)?|[.,，][0-9]+)")


class Estimate(float):
    """An estimate as a student gave it: the number it is, and the number as typed (``typed``: "0.70", "0,75"),
    whose decimals say how precisely it was meant. A float, so it counts, sorts and compares as its number does
    (``Estimate.read("0.70") == 0.7``); the decimals it was typed with are what a mistake is matched to."""

    __slots__ = ("typed",)
    typed: str

    def __new__(cls, value: float, typed: str) -> Estimate:
        made = super().__new__(cls, value)
        made.typed = typed
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (Estimate, (float(self), self.typed))

    def __repr__(self) -> str:
        return f"Estimate({float(self)!r}, {self.typed!r})"

    @classmethod
    def read(cls, raw: object) -> Estimate:
        """An estimate from what was typed, read as ``validate.reading`` reads it ("0,75" is 0.75); an
        ``InputError`` if it is no number. Kept as typed when written in plain decimals (at most ``MAX_TYPED``
        characters), else as its number's shortest form."""
        return cls.reading(raw)[0]

    @classmethod
    def reading(cls, raw: object) -> tuple[Estimate, Note | None]:
        """``read``'s estimate and how the number was read ("read 0,62 as 0.62"), from one reading of it."""
        read = validate.reading(raw)
        text = str(raw).strip()
        typed = text if len(text) <= MAX_TYPED and _PLAIN.fullmatch(text) else repr(read.value)
        return cls(read.value, typed), read.note

    @classmethod
    def of(cls, given: object) -> Estimate:
        """An estimate from what the store keeps: the text typed, or (as earlier versions kept it) a number, whose
        shortest form (``repr``) stands for what was typed; an ``Estimate`` as it is."""
        if isinstance(given, Estimate):
            return given
        if isinstance(given, str):
            return cls.read(given)
        value = validate.answer(given)
        return cls(value, repr(value))

    @property
    def value(self) -> float:
        """The number, as a plain float."""
        return float(self)

    @property
    def decimals(self) -> int:
        """How many decimals it was written with (``mistakes.decimals``)."""
        return mistake_catalogue.decimals(self.typed)

    @property
    def text(self) -> str:
        """The estimate written with a decimal point, to the decimals it was typed with ("0,70" is "0.70")."""
        return f"{float(self):.{self.decimals}f}"


@dataclass(frozen=True)
class Predict(OverAList[Estimate]):
    """Predict the NDCG: each student estimates NDCG@k of one list (``ActivityKind[Estimate, PredictSummary,
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

    def check(self, raw: object, part: int = 0) -> Estimate:
        """An estimate as typed, read as ``validate.reading`` reads it ("0,75" is 0.75; ``note`` says so): from 0 to
        1, or outside them when a catalogued mistake gives it (the DCG itself, an ideal sorted worst first), so the
        mistake is named; any other number outside 0 to 1 is refused with the range."""
        return self.read_answer(raw, part)[0]

    def read_answer(self, raw: object, part: int = 0) -> tuple[Estimate, Note | None]:
        """``check``'s estimate and ``note``'s note from one reading of what was typed."""
        self.own_part(part)
        estimate, note = Estimate.reading(raw)
        if not 0 <= estimate.value <= 1 and not mistake_catalogue.diagnose(self.spec, estimate.typed):
            raise InputError("activity.estimate_range", value=shown(str(raw).strip()[:20]))
        return estimate, note

    @classmethod
    def answer_to_json(cls, value: Estimate) -> Json:
        """The estimate as typed (a number stored by an earlier version reads back as its shortest form)."""
        return Estimate.of(value).typed

    @classmethod
    def answer_from_json(cls, data: Json) -> Estimate:
        return Estimate.of(data)

    def summary(self, answers: Sequence[Answer]) -> PredictSummary:
        """The estimates' histogram (those from 0 to 1; ``outside`` counts the others, each a mistake's number), how
        many were within 0.05, their median and quartiles, and each estimate's verdict counted (``estimate_groups``:
        every answer diagnosed once, per summary, to the decimals it was typed with)."""
        estimates = [Estimate.of(a.value) for a in answers]
        guesses = [e.value for e in estimates]
        truth = self.truth()
        inside = [g for g in guesses if 0 <= g <= 1]
        return PredictSummary(
            len(guesses),
            histogram(inside),
            truth,
            sum(within(g, truth) for g in guesses),
            statistics.median(guesses) if guesses else None,
            quartiles(guesses),
            estimate_groups(self.spec, [e.typed for e in estimates]),
            len(guesses) - len(inside),
        )

    def nothing_sent(self) -> InputError:
        """An empty estimate's own problem ("type a number")."""
        try:
            self.check("")
        except InputError as error:
            return error
        return super().nothing_sent()  # not reached: an empty estimate is no number

    def note(self, raw: object, part: int = 0) -> Note | None:
        """How a typed estimate was read ("read 0,62 as 0.62"); ``None`` if unreadable or nothing to tell."""
        try:
            return validate.reading(raw).note
        except InputError:
            return None

    def group(self, value: Estimate) -> str:
        """An estimate's verdict: right, close, a mistake's code or other."""
        return self.verdict(value).group

    def verdict(self, value: object) -> Verdict:
        """What an estimate was: right, close, the mistake it matches (to the decimals it was typed with), or other
        (``estimate_verdict``)."""
        return estimate_verdict(self.spec, Estimate.of(value).typed)

    def result(self, value: Estimate, part: int = 0) -> Result[PredictDetail]:
        estimate = Estimate.of(value)
        guess, truth = estimate.value, self.truth()
        return Result(
            right=within(guess, truth),
            ndcg=truth,
            answer=estimate.text,
            detail=PredictDetail(guess, truth, abs(guess - truth), distance_places(estimate.decimals)),
            points=closeness_points(guess, truth),
        )


def closeness_points(guess: float, truth: float) -> int:
    """Points for an estimate: all of them at the true NDCG, falling in a straight line to none at
    ``NO_POINTS_OFF`` away (an estimate within 0.05, counted right, scores at least 90)."""
    return round(POINTS * max(0.0, 1 - abs(guess - truth) / NO_POINTS_OFF))


def distance_places(decimals: int) -> int:
    """The decimals an estimate's distance from the truth is shown to: one more than the estimate's own (two at
    least, as a right estimate has), at most ``MOST_PLACES``. An estimate not right to its decimals is more than
    half a unit of its last decimal away, so its distance never shows as 0."""
    return min(max(decimals, RIGHT_DECIMALS) + 1, MOST_PLACES)


@dataclass(frozen=True)
class PredictDetail:
    """A marked estimate: the guess, the true NDCG@k, how far off the guess was, and the decimals that distance is
    shown to (``distance_places``)."""

    guess: float
    truth: float
    off: float
    places: int = RIGHT_DECIMALS + 1


@dataclass(frozen=True)
class PredictSummary:
    """The class's estimates: how many, their histogram (of those from 0 to 1), the true NDCG@k, how many were
    within 0.05 (right), their median and quartiles (``None`` without estimates), their verdicts counted
    (``Group``s, as ``grouped``) and how many fell outside 0 to 1."""

    count: int
    bins: list[Bin]
    truth: float
    within: int
    median: float | None
    quartiles: tuple[float, float] | None = None
    groups: tuple[Group, ...] = ()
    outside: int = 0  # estimates outside 0 to 1 (each a mistake's number), left out of the histogram

    @property
    def share_right(self) -> float | None:
        """The share of estimates within 0.05 (``None`` without estimates)."""
        return self.within / self.count if self.count else None


if TYPE_CHECKING:

    def _is_a_kind(activity: Predict) -> ActivityKind[Estimate, PredictSummary, PredictDetail]:
        return activity  # mypy checks here that the class has every hook of the protocol, with these types


KIND = KindEntry(Predict, "Predict the NDCG", order=10)
