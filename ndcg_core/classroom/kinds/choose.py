"""Which is right?: one list and four numbers for its NDCG@k, the right one and three made by named mistakes of
``ndcg_core.teaching.mistakes``; at the reveal each wrong option is named by its mistake."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ... import validate
from ...errors import InputError, number_text, shown
from ...lists.spec import ListSpec
from ...teaching import mistakes as mistake_catalogue
from ..lesson_fields import Field, Reader
from .base import EPS, POINTS, ActivityKind, Answer, KindEntry, Payload, Result, Scale, Solution
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
from .tally import RIGHT, Group, grouped, mistake_codes

CHOOSE_WRONG = 3  # the wrong numbers beside the right one: four options in all
CHOOSE_APART = 0.01  # automatically chosen numbers are at least this far from each other and from the right one
CHOOSE_DECIMALS = (2, 3, 4)  # the options are shown with the fewest of these decimals that tells them apart
OPTION_LETTERS = ("a", "b", "c", "d")


@dataclass(frozen=True)
class ChooseOption:
    """One of the four numbers as the class sees it: its letter, the number, and the mistake that makes it
    (``None``: the right one)."""

    letter: str
    number: float
    mistake: str | None


@dataclass(frozen=True)
class ChooseDetail:
    """A marked choice: the option chosen (its mistake names what a wrong one did) and the right one."""

    chosen: ChooseOption
    right: ChooseOption


@dataclass(frozen=True)
class ChooseSummary:
    """The class's choices: how many chose, the votes per option letter (in the options' order), and how many
    chose the right one (``right`` is its letter)."""

    count: int
    votes: dict[str, int]
    right: str
    chose_right: int
    groups: tuple[Group, ...] = ()  # the choices counted as right or by the mistake that makes the option

    @property
    def share_right(self) -> float | None:
        """The share of choices that were right (``None`` without choices)."""
        return self.chose_right / self.count if self.count else None


def _mistake_numbers(spec: ListSpec) -> dict[str, float]:
    return mistake_catalogue.numbers(spec, metric="ndcg")


def _same_shown(a: float, b: float, decimals: int = 4) -> bool:
    return f"{a:.{decimals}f}" == f"{b:.{decimals}f}"


@dataclass(frozen=True)
class Choose(OverAList[str]):
    """Which is right?: one list and four numbers for its NDCG@k, the right one and three made by named mistakes
    of ``ndcg_core.teaching.mistakes`` (``mistakes``, codes of its catalogue), in an order shuffled by ``seed``.
    Each student picks one (its letter, ``a`` to ``d``); at the reveal each wrong option is named by its mistake.
    A mistake that cannot be made on the list, gives the right number, or gives another option's number (to the 4
    decimals shown at most) is an ``InputError``: every option is a distinct number on the phones."""

    spec: ListSpec
    mistakes: tuple[str, ...]
    seed: int = 0
    kind: str = "choose"

    def __post_init__(self) -> None:
        _check_mistakes(self.spec, self.mistakes)
        if len(self.mistakes) != CHOOSE_WRONG:
            raise InputError(
                "activity.mistakes_few",
                count=len(self.mistakes),
                apart=number_text(CHOOSE_APART),
                k=self.spec.k,
                needed=CHOOSE_WRONG,
            )

    def payload(self) -> Payload:
        return {"list": list_to_json(self.spec), "mistakes": list(self.mistakes), "seed": self.seed}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Choose:
        mistakes = tuple(str(code) for code in payload["mistakes"])
        return cls(list_from_json(payload["list"]), mistakes, int(payload.get("seed", 0)))

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]:
        return (
            *LIST_FIELDS,
            Field(
                "options",
                "mistakes",
                choices=mistake_codes(),
                description=f"The mistakes that make the wrong numbers (1 to {CHOOSE_WRONG}, such as "
                '["no_normalisation", "ideal_from_list"]); the rest are chosen: the likeliest whose numbers '
                f"differ by {CHOOSE_APART} or more.",
            ),
            Field("seed", "whole", description="Shuffles the order of the four numbers (0)."),
        )

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Choose:
        """The list, the mistakes the lesson names (the rest chosen) and the seed of the options' order."""
        spec = list_from_lesson(r)
        named = r.list("options", False) or []
        if len(named) > CHOOSE_WRONG:
            place = r.place("options")
            raise InputError("lesson.out_of_range", place=place, value=len(named), low=1, high=CHOOSE_WRONG)
        seed = r.whole("seed", 0, (0, validate.MAX_SEED))
        try:
            return choose_activity(spec, named, seed)
        except InputError as error:
            raise InputError("lesson.problem", place=r.place("options"), problem=error) from None

    def lesson_data(self, scale: Scale) -> Payload:
        extra = {"seed": self.seed} if self.seed else {}
        return {**list_lesson_data(self.spec), "options": list(self.mistakes), **extra}

    def right(self) -> float:
        """The list's NDCG@k, as the mistakes catalogue works it out (the core's ``ndcg_at_k``)."""
        return mistake_catalogue.right_number(self.spec, "ndcg")

    def options(self) -> tuple[ChooseOption, ...]:
        """The four options in the order the class sees them, lettered ``a`` to ``d``: the same for a seed, list
        and mistakes on every replica (a string seed is hashed with SHA-512, not Python's salted hash)."""
        numbers = _mistake_numbers(self.spec)
        entries: list[tuple[str | None, float]] = [(None, self.right())]
        entries += [(code, numbers[code]) for code in self.mistakes]
        rng = random.Random(f"choose|{self.seed}|{self.spec.labels}|{self.spec.grades}|{self.spec.k}|{self.mistakes}")
        rng.shuffle(entries)
        return tuple(ChooseOption(letter, n, code) for letter, (code, n) in zip(OPTION_LETTERS, entries, strict=False))

    def decimals(self) -> int:
        """How many decimals the options are shown with: the fewest of 2 to 4 that tell all four apart."""
        values = [o.number for o in self.options()]
        for places in CHOOSE_DECIMALS[:-1]:
            if len({f"{v:.{places}f}" for v in values}) == len(values):
                return places
        return CHOOSE_DECIMALS[-1]  # the most: ``_check_mistakes`` made every option's number distinct at 4 decimals

    def shown(self, option: ChooseOption) -> str:
        """An option's number as the phones show it."""
        return f"{option.number:.{self.decimals()}f}"

    def option(self, letter: str) -> ChooseOption:
        return next(o for o in self.options() if o.letter == letter)

    def right_option(self) -> ChooseOption:
        return next(o for o in self.options() if o.mistake is None)

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline: the options in order, each wrong one with its
        mistake."""
        spec = self.spec
        options = ", ".join(f"{o.letter.upper()} {self.shown(o)} ({o.mistake or 'right'})" for o in self.options())
        return f"Which is right?{quoted(spec.query)}: {len(spec.grades)} results, {outline_ndcg(spec)}: {options}"

    def solutions(self) -> tuple[Solution, ...]:
        """The right option's letter."""
        return (self.right_option().letter,)

    @classmethod
    def from_list(cls, spec: ListSpec) -> Choose:
        """Which is right? on ``spec``, with its likeliest mistaken numbers."""
        return choose_activity(spec)

    def check(self, raw: object, part: int = 0) -> str:
        """An option's letter."""
        self.own_part(part)
        if raw in (None, ""):
            raise InputError("answer.no_choice")
        letters = OPTION_LETTERS[: len(self.options())]
        if raw not in letters:
            raise InputError("activity.choice", value=shown(raw), choices=", ".join(x.upper() for x in letters))
        return str(raw)

    def summary(self, answers: Sequence[Answer]) -> ChooseSummary:
        votes = Counter(a.value for a in answers)
        right = self.right_option().letter
        letters = [o.letter for o in self.options()]
        named = {value: self.group(value) for value in votes}  # each option named once, not once per answer
        groups = grouped(named[a.value] for a in answers)
        return ChooseSummary(len(answers), {x: votes.get(x, 0) for x in letters}, right, votes.get(right, 0), groups)

    def group(self, value: str) -> str:
        """A choice's group: ``right``, or the code of the mistake that makes the option chosen."""
        return self.option(str(value)).mistake or RIGHT

    def result(self, value: str, part: int = 0) -> Result[ChooseDetail]:
        chosen, right = self.option(str(value)), self.right_option()
        return Result(
            right=chosen == right,
            ndcg=None,
            answer=f"{chosen.letter.upper()} {self.shown(chosen)}",
            detail=ChooseDetail(chosen, right),
            points=POINTS if chosen == right else 0,
        )


def _check_mistakes(spec: ListSpec, codes: Sequence[object]) -> None:
    """Each named mistake is a code of the catalogue that can be made on this list and gives a number of its own
    there: not the right number, nor another option's, nor (for two made at once) one of its parts', to 4
    decimals."""
    known, numbers = mistake_codes(), _mistake_numbers(spec)
    right = mistake_catalogue.right_number(spec, "ndcg")
    here = ", ".join(numbers) or "-"
    given: list[tuple[str, float]] = []
    for position, code in enumerate(codes, start=1):
        if code not in known:
            raise InputError("activity.mistake_unknown", position=position, value=shown(code), choices=", ".join(known))
        mistake = next(m for m in mistake_catalogue.mistakes() if m.code == code)
        number = mistake.number(spec, "ndcg") if mistake.shows(spec, "ndcg") else None
        if number is None or not math.isfinite(number):
            raise InputError("activity.mistake_not_here", position=position, value=shown(code), choices=here)
        if _same_shown(number, right):
            raise InputError(
                "activity.mistake_right",
                position=position,
                value=shown(code),
                k=spec.k,
                number=f"{right:.4f}",
                choices=here,
            )
        parts = [(part, numbers[part]) for part in mistake.parts if part != code and part in numbers]
        for other, value in [*given, *parts]:
            if _same_shown(number, value):
                raise InputError(
                    "activity.mistake_same",
                    position=position,
                    one=shown(code),
                    other=shown(other),
                    number=f"{number:.4f}",
                )
        given.append((code, number))


def choose_activity(spec: ListSpec, named: Sequence[object] = (), seed: int = 0) -> Choose:
    """A Which-is-right? activity on ``spec``: the mistakes ``named`` (checked as ``Choose`` checks them), then the
    likeliest others whose NDCG lies from 0 to 1 (a number above 1 gives itself away), then any others, each at
    least ``CHOOSE_APART`` from the right number and every option before it; an ``InputError`` where the list
    gives too few."""
    _check_mistakes(spec, named)
    numbers = _mistake_numbers(spec)
    chosen = [str(code) for code in named]
    taken = [mistake_catalogue.right_number(spec, "ndcg"), *(numbers[code] for code in chosen)]
    # Stable: the catalogue's order (likeliest first) within the plausible numbers, then the rest.
    for code, number in sorted(numbers.items(), key=lambda item: not 0 <= item[1] <= 1):
        if len(chosen) == CHOOSE_WRONG:
            break
        if code not in chosen and all(abs(number - other) >= CHOOSE_APART - EPS for other in taken):
            chosen.append(code)
            taken.append(number)
    return Choose(spec, tuple(chosen), validate.seed(seed))


if TYPE_CHECKING:

    def _is_a_kind(activity: Choose) -> ActivityKind[str, ChooseSummary, ChooseDetail]:
        return activity  # mypy checks here that the class has every hook of the protocol, with these types


KIND = KindEntry(Choose, "Which is right?", order=60)
