"""Predict first: a learner's guess of what a change will do to NDCG@k, judged against ``explain_change``.

Before a change is shown, the learner says whether NDCG@k will go up, down or stay, and roughly by how much (a
size: ``small``, ``medium`` or ``large``, bounded by ``SIZE_EDGES``). ``judge_guess`` puts the guess beside the
truth in the same words and, when the guess is wrong, names the mistake behind it where one fits
(``GUESS_MISTAKES``): a move past the cut, an ideal that moved too, the items a moved item passed, or the shape of
the discount. A guess no mistake explains is judged but not named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from ..errors import InputError
from .changes import ChangeExplained, explain_change
from .spec import ListSpec

Direction = Literal["up", "down", "same"]
Size = Literal["small", "medium", "large"]
GuessMistake = Literal["past_k", "ideal_moved", "items_passed", "top_weighs_most", "bottom_weighs_little"]

DIRECTIONS: tuple[Direction, ...] = get_args(Direction)
SIZES: tuple[Size, ...] = get_args(Size)
GUESS_MISTAKES: tuple[GuessMistake, ...] = get_args(GuessMistake)

# |change of NDCG@k| below SIZE_EDGES[0] is small, below SIZE_EDGES[1] medium, else large.
SIZE_EDGES = (0.05, 0.15)
# A change that rounds to +0.0000 on screen is no change.
SAME_BELOW = 0.00005
# The positions whose discount steps are the largest (log2: 1 -> 0.63 -> 0.5): a change there weighs most.
TOP_POSITIONS = 2


@dataclass(frozen=True)
class Guess:
    """Which way NDCG@k goes, and roughly how far (``None`` when it stays)."""

    direction: Direction
    size: Size | None = None


def read_guess(direction: Any, size: Any = None) -> Guess:
    """A guess from what the learner chose; an ``InputError`` when no direction, or no size for a change."""
    if direction not in DIRECTIONS:
        raise InputError("guess.direction")
    if direction == "same":
        return Guess("same")
    if size not in SIZES:
        raise InputError("guess.size")
    return Guess(direction, size)


def size_of(change: float) -> Size:
    """How large a change of NDCG@k is, in the guess's words."""
    magnitude = abs(change)
    if magnitude < SIZE_EDGES[0]:
        return "small"
    return "medium" if magnitude < SIZE_EDGES[1] else "large"


def truth_of(change: float) -> Guess:
    """What a perfect guess of ``change`` says."""
    if abs(change) < SAME_BELOW:
        return Guess("same")
    return Guess("up" if change > 0 else "down", size_of(change))


def _direction(change: float) -> Direction:
    return truth_of(change).direction


@dataclass(frozen=True)
class GuessVerdict:
    """A guess beside the truth: ``truth`` in the guess's words, ``change`` the true change of NDCG@k, and the
    mistake behind a wrong guess where one fits (``None`` for a right guess, or one no mistake explains)."""

    guess: Guess
    truth: Guess
    change: float
    mistake: GuessMistake | None

    @property
    def direction_right(self) -> bool:
        return self.guess.direction == self.truth.direction

    @property
    def right(self) -> bool:
        """The direction right and, for a change, the size too."""
        return self.guess == self.truth


def _mistake(guess: Guess, truth: Guess, explained: ChangeExplained, reordered: bool) -> GuessMistake | None:
    """The mistake a wrong guess shows, where one fits (the first that does, in this order)."""
    moves = explained.items_moved()
    if truth.direction == "same" and not explained.changed_terms and reordered:
        return "past_k"  # items moved, but only below the cut: no term of DCG@k changed
    dcg_change = explained.dcg[1] - explained.dcg[0]
    if explained.ideal_moved and guess.direction == _direction(dcg_change) != truth.direction:
        return "ideal_moved"  # the list's own terms went the guessed way, but IDCG moved further
    if guess.direction not in (truth.direction, "same") and not explained.ideal_moved:
        wanted = 1.0 if guess.direction == "up" else -1.0
        if any(move.change * wanted > 0 for move in moves):
            return "items_passed"  # one item went the guessed way; the items it passed went the other, further
    if guess.direction == truth.direction != "same" and guess.size != truth.size:
        top = min((t.position for t in explained.changed_terms), default=None)
        if top is None:
            return None
        too_small = SIZES.index(guess.size or "small") < SIZES.index(truth.size or "small")
        if too_small and top <= TOP_POSITIONS:
            return "top_weighs_most"
        if not too_small and top > TOP_POSITIONS:
            return "bottom_weighs_little"
    return None


def judge_guess(guess: Guess, before: ListSpec, after: ListSpec) -> GuessVerdict:
    """``guess`` beside what the change from ``before`` to ``after`` truly did to NDCG@k (``explain_change``)."""
    explained = explain_change(before, after)
    truth = truth_of(explained.change)
    reordered = before.items != after.items
    mistake = None if guess == truth else _mistake(guess, truth, explained, reordered)
    return GuessVerdict(guess, truth, explained.change, mistake)
