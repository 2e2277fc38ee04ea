"""Rank it best: each student reorders a list to maximise NDCG@k under a twist; the class sees the NDCG@k its
orders reached and the most common first slip."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import InputError, shown
from ...lists.gains import resolve_gain
from ...lists.spec import ListSpec
from ..lesson_fields import Field, Reader
from .base import EPS, POINTS, ActivityKind, Answer, KindEntry, Payload, Result, Scale, Solution
from .lists import (
    LIST_FIELDS,
    OverAList,
    activity_list,
    list_from_json,
    list_from_lesson,
    list_lesson_data,
    list_to_json,
    outline_ndcg,
    quoted,
)
from .tally import Bin, histogram

TWISTS = ("exponential", "small_k", "pool")
SMALL_K = 3


@dataclass(frozen=True)
class Rank(OverAList[list[int]]):
    """Rank it best: each student reorders the list to maximise NDCG@k under a twist. With ``show_grades``
    off (a new activity's default) the phones show the results without their grades: the class judges
    relevance from the titles, and the grades appear at the reveal. A payload stored before the option
    existed had them shown, and reads back so."""

    spec: ListSpec
    twist: str
    show_grades: bool = False
    kind: str = "rank"

    def payload(self) -> Payload:
        return {"list": list_to_json(self.spec), "twist": self.twist, "show_grades": self.show_grades}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Rank:
        # Before the option existed every phone showed the grades: an old payload keeps them shown.
        return cls(list_from_json(payload["list"]), str(payload["twist"]), bool(payload.get("show_grades", True)))

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]:
        return (*LIST_FIELDS, Field("show_grades", "bool", description="Show the grades on the phones (false)."))

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Rank:
        """A lesson's list, ranked as the lesson states it (no twist)."""
        return cls(list_from_lesson(r), "", r.flag("show_grades", False))

    def lesson_data(self, scale: Scale) -> Payload:
        return {**list_lesson_data(self.spec), **({"show_grades": True} if self.show_grades else {})}

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline, from the list's NDCG@k to the best."""
        spec, shown = self.spec, "shown" if self.show_grades else "hidden"
        line = f"Rank it best{quoted(spec.query)}: {len(spec.grades)} results, grades {shown} on phones, "
        line += outline_ndcg(spec)
        return line + f" from {spec.ndcg():.4f} to at best {self.maximum():.4f}"

    def solutions(self) -> tuple[Solution, ...]:
        """The highest NDCG@k an order reaches."""
        return (self.maximum(),)

    @classmethod
    def from_list(cls, spec: ListSpec) -> Rank:
        """Rank it best on ``spec``, with no twist."""
        return cls(spec, "")

    def maximum(self) -> float:
        return self.spec.reordered(self.spec.best_order()).ndcg()

    def check(self, raw: object, part: int = 0) -> list[int]:
        self.own_part(part)
        n = len(self.spec.grades)
        if (
            not isinstance(raw, (list, tuple))
            or len(raw) != n
            or sorted(x for x in raw if isinstance(x, int) and not isinstance(x, bool)) != list(range(n))
        ):
            raise InputError("activity.order", value=shown(raw), count=n)
        return list(raw)

    def score(self, order: Sequence[int]) -> float:
        return self.spec.reordered(order).ndcg()

    def summary(self, answers: Sequence[Answer]) -> RankSummary:
        best = self.maximum()
        # Each distinct order scored once: a class of 1,000 sends a few dozen orders, counted again at every answer.
        scored = {order: self.score(order) for order in {tuple(a.value) for a in answers}}
        scores = [scored[tuple(a.value)] for a in answers]
        found = sum(s >= best - EPS for s in scores)
        return RankSummary(
            len(scores),
            histogram(scores),
            scores,
            best,
            found,
            self.common_mistake([a.value for a, s in zip(answers, scores, strict=False) if s < best - EPS]),
        )

    def common_mistake(self, orders: Sequence[Sequence[int]]) -> Mistake | None:
        """The (item, position) most often found at the first place in the top k where an order falls below
        the ideal's gain."""
        gains = resolve_gain(self.spec.gain)(list(self.spec.grades))
        best = [gains[i] for i in self.spec.best_order()]
        places: Counter[tuple[int, int]] = Counter()
        for order in orders:
            for position, index in enumerate(order[: self.spec.k]):
                if gains[index] < best[position] - EPS:
                    places[(index, position)] += 1
                    break
        if not places:
            return None
        (index, position), count = min(places.items(), key=lambda kv: (-kv[1], kv[0][1], kv[0][0]))
        ideal_index = self.spec.best_order()[position]
        return Mistake(
            self.spec.labels[index], position + 1, count, self.spec.grades[index], self.spec.grades[ideal_index]
        )

    def reached(self, value: list[int]) -> float:
        """The NDCG@k the order reaches."""
        return self.score(value)

    def result(self, value: list[int], part: int = 0) -> Result[RankDetail]:
        reached, best = self.score(value), self.maximum()
        return Result(
            right=reached >= best - EPS,
            ndcg=reached,
            answer=" > ".join(self.spec.labels[i] for i in value),
            detail=RankDetail(reached, best),
            # The share of the best NDCG@k reached (a list whose best is 0 cannot be ranked wrong).
            points=round(POINTS * min(1.0, reached / best)) if best > 0 else POINTS,
        )


def twisted(spec: ListSpec, twist: str) -> ListSpec:
    """The list under the teacher's twist: exponential gain, a small k, or judged items the list missed."""
    if twist == "exponential":
        return spec.with_scoring(gain="exponential")
    if twist == "small_k":
        return spec.with_k(min(SMALL_K, len(spec.grades)))
    if twist == "pool":
        top = max(spec.grades)
        pool = spec.pool or tuple(g for g in (top, max(top - 1, 1)) if g > 0) or (1.0,)
        return activity_list(spec.labels, spec.grades, spec.k, spec.gain, pool, spec.query, spec.discount)
    raise InputError("activity.twist", value=shown(twist), choices=", ".join(TWISTS))


def rank_activity(spec: ListSpec, twist: str, show_grades: bool = False) -> Rank:
    """A Rank-it-best activity, grades hidden on the phones unless ``show_grades``; a list that is already in
    its best order starts shuffled (the same for all)."""
    spec = twisted(spec, twist)
    best_order = spec.best_order()
    best = spec.reordered(best_order).ndcg()
    # Shuffled only if some order falls below the best: the worst order (the best reversed, lowest gain first)
    # is the lowest NDCG@k, and grades such as 1000 and 1000.000001 keep even it within EPS of the best.
    if spec.ndcg() >= best - EPS and spec.reordered(best_order[::-1]).ndcg() < best - EPS:
        order = list(range(len(spec.grades)))
        rng = random.Random(len(order))
        while spec.reordered(order).ndcg() >= best - EPS:
            rng.shuffle(order)
        labels, grades = tuple(spec.labels[i] for i in order), tuple(spec.grades[i] for i in order)
        spec = activity_list(labels, grades, spec.k, spec.gain, spec.pool, spec.query, spec.discount)
    return Rank(spec, twist, bool(show_grades))


@dataclass(frozen=True)
class RankDetail:
    """A marked order: the NDCG@k it reached and the best an order reaches."""

    reached: float
    best: float


@dataclass(frozen=True)
class Mistake:
    """The most common first slip in the top k: an item at a position where the ideal has a higher gain."""

    label: str
    position: int
    count: int
    grade: float
    ideal_grade: float


@dataclass(frozen=True)
class RankSummary:
    count: int
    bins: list[Bin]
    scores: list[float]
    maximum: float
    found: int
    mistake: Mistake | None


if TYPE_CHECKING:

    def _is_a_kind(activity: Rank) -> ActivityKind[list[int], RankSummary, RankDetail]:
        return activity  # mypy checks here that the class has every hook of the protocol, with these types


KIND = KindEntry(Rank, "Rank it best", order=20)
