"""How many moves a learner has made: one item carried to a new place is one move, however it got there.

A drag carries an item from one place to any other in one gesture; ▲ and ▼ carry it one place per tap. Counted per
action, D taken from 4 to 2 was one move by a drag and two by ▲▲, and the reach exercise (whose fewest moves are
single-item moves, ``teaching.exercises.fewest_moves``) told a learner on a phone, tapping, that they had used more
moves than a drag would. Here the actions on one item in a row, each starting where the last one left it, make one
move, from where the first one took it to where the last one put it (none if that is where it was).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Carried:
    """The item the last action moved: its id, the place its run of actions took it from, and where it is now."""

    item: int
    start: int
    now: int


@dataclass(frozen=True)
class MoveCount:
    """The moves made so far (``count``), and the item the last one carried (``carried``), which a next action on
    the same item, from where it lies, carries on rather than starting another move."""

    count: int = 0
    carried: Carried | None = None

    def after(self, item: int, source: int, to: int) -> MoveCount:
        """The count after item ``item`` was moved from place ``source`` to place ``to`` (0-based, in one drag or by
        one ▲ or ▼). Moving an item to where it is changes nothing."""
        if source == to:
            return self
        last = self.carried
        if last is not None and last.item == item and last.now == source:
            # The same item carried on from where its last action put it: still one move, from where it began.
            count = self.count - (last.start != last.now) + (last.start != to)
            return MoveCount(count, Carried(item, last.start, to))
        return MoveCount(self.count + 1, Carried(item, source, to))
