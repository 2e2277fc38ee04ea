"""One number per activity, on every screen, in the CSV and in the summary: "Activity 2 of 5 · Round 2".

A room stores its activities in the order they opened; a round run again ("Vote again", "Run again") is a row of
its own. The number a person sees is not that order: a round is a round of its activity and shares its number,
and a lesson's step is numbered by its place in the lesson, whatever was opened before it. ``numbered`` is the one
place that says so; the store gives every activity it reads the number it returns.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Opened:
    """An activity as its room opened it, for numbering: its id, kind and payload (the JSON text as stored), the
    lesson step (from 0) that opened it (``None``: a round run again, or an activity of the teacher's own) and what
    that step set for it (``settings``: its wording, time limit and points, as a value; ``None``: nothing)."""

    id: int
    kind: str
    payload: str
    step: int | None = None
    settings: Hashable = None


@dataclass(frozen=True)
class Numbered:
    """An activity's number as every screen shows it, its round (1 for its first run) and, for a lesson's step or
    a round of one, the lesson's number of activities (``of``; ``None``: not one of a lesson's)."""

    number: int
    round: int = 1
    of: int | None = None


def numbered(opened: Sequence[Opened], steps: int = 0) -> dict[int, Numbered]:
    """Every activity of a room numbered, by id; ``opened`` in the order the room opened them, ``steps`` the number
    of activities in the room's lesson (0: it runs none).

    A lesson's step is activity ``step + 1`` of ``steps``. An activity with the kind, payload and settings of an
    earlier one (run again, or opened again with the same choices) is the next round of the latest such one and
    keeps its number. Any other activity (the teacher's own) takes the next number after the lesson's and the room's
    so far, so that it never shares a number with a step, opened yet or not."""
    out: dict[int, Numbered] = {}
    latest: dict[tuple[str, str, Hashable], int] = {}  # an activity's kind, payload, settings -> its latest run
    rounds: dict[int, int] = {}  # a number -> its rounds so far
    last = max(steps, 0)
    for activity in opened:
        same = (activity.kind, activity.payload, activity.settings)
        of: int | None
        if activity.step is not None:
            number, of = activity.step + 1, steps
        elif same in latest:
            earlier = out[latest[same]]
            number, of = earlier.number, earlier.of
        else:
            last += 1
            number, of = last, None
        last = max(last, number)
        rounds[number] = rounds.get(number, 0) + 1
        out[activity.id] = Numbered(number, rounds[number], of)
        latest[same] = activity.id
    return out
