"""Predict first: a learner's guess at what a change does to NDCG@k, and the truth beside it.

A ``Guess`` is a direction (``DIRECTIONS``: up, down, the same) and, for a move up or down, roughly how far
(``BANDS``: how large the change of NDCG is). ``reveal(guess, before, after)`` explains the change
(``changes.explain_change``) and gives a ``Revealed``: the true direction and band beside the guess, and, for a
wrong direction, the catalogue's mistakes (``mistakes.MISTAKES``) under which the change would go the way the
learner guessed. Figures only: the UI words them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError
from ..lists.changes import ChangeExplained, explain_change
from ..lists.spec import ListSpec
from .mistakes import mistakes

DIRECTIONS = ("up", "down", "same")
# How far NDCG moves, by the size of its change: (name, from, below).
BANDS: tuple[tuple[str, float, float], ...] = (
    ("tiny", 0.0, 0.01),
    ("small", 0.01, 0.05),
    ("medium", 0.05, 0.15),
    ("large", 0.15, math.inf),
)
SAME = 1e-9  # a change of NDCG smaller than this is none
MAX_NAMED = 2  # the mistakes named behind one wrong guess, at most


@dataclass(frozen=True)
class Guess:
    """A prediction: ``direction`` (one of ``DIRECTIONS``) and, unless it is ``same``, ``band`` (a name in
    ``BANDS``). ``InputError("answer.no_choice")`` when a part is missing or not one of the choices."""

    direction: str
    band: str | None = None

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise InputError("answer.no_choice")
        if self.direction == "same":
            object.__setattr__(self, "band", None)
        elif self.band not in band_names():
            raise InputError("answer.no_choice")


def band_names() -> tuple[str, ...]:
    return tuple(name for name, _, _ in BANDS)


def direction_of(change: float) -> str:
    """``up``, ``down`` or ``same`` for a change of NDCG."""
    if abs(change) < SAME:
        return "same"
    return "up" if change > 0 else "down"


def band_of(change: float) -> str | None:
    """The band of a change's size (``None`` for no change)."""
    size = abs(change)
    if size < SAME:
        return None
    return next(name for name, low, high in BANDS if low <= size < high)


@dataclass(frozen=True)
class Revealed:
    """A guess beside the truth: the change explained, its direction and band, and for a wrong direction the
    catalogue's mistakes (codes) under which the change goes the way the guess said."""

    guess: Guess
    explained: ChangeExplained
    direction: str
    band: str | None
    mistakes: tuple[str, ...] = ()

    @property
    def direction_right(self) -> bool:
        return self.guess.direction == self.direction

    @property
    def band_right(self) -> bool:
        """Whether the guess sized the change right (a guess of no change is right only for none)."""
        return self.direction_right and self.guess.band == self.band

    @property
    def right(self) -> bool:
        return self.band_right


def reveal(guess: Guess, before: ListSpec, after: ListSpec) -> Revealed:
    """The truth of the change ``before`` -> ``after`` beside ``guess`` (``Revealed``)."""
    explained = explain_change(before, after)
    change = explained.change
    direction = direction_of(change)
    found: tuple[str, ...] = ()
    if guess.direction != direction:
        found = behind(guess.direction, before, after)
    return Revealed(guess, explained, direction, band_of(change), found)


def behind(direction: str, before: ListSpec, after: ListSpec) -> tuple[str, ...]:
    """The catalogue's mistakes (single ones, most likely first, at most ``MAX_NAMED``) under which NDCG@k goes
    ``direction`` from ``before`` to ``after``: one that shows in neither list is left out, and on a list where
    it does not show the right number stands."""
    right = before.ndcg(), after.ndcg()
    found = []
    for mistake in mistakes():
        if "+" in mistake.code:
            continue
        shows = mistake.shows(before, "ndcg"), mistake.shows(after, "ndcg")
        if not any(shows):
            continue
        numbers = [
            mistake.number(spec, "ndcg") if show else number
            for spec, show, number in zip((before, after), shows, right, strict=True)
        ]
        old, new = numbers
        if old is None or new is None or not (math.isfinite(old) and math.isfinite(new)):
            continue
        if direction_of(new - old) == direction:
            found.append(mistake.code)
    return tuple(found[:MAX_NAMED])
