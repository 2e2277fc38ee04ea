"""Ready-made lists: the seeds' worked examples, Wikipedia's example, all zeros and a long list (``PRESETS``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..registry import Registry
from .items import DEFAULT_TOP_GRADE, Item, default_k, make_items
from .scoring import Scoring
from .spec import ListSpec


@dataclass(frozen=True)
class Preset:
    """A ready-made list: labels, grades, a k (``None``: ``default_k``), extra judged items, the ideal's source
    and the top grade."""

    labels: tuple[str, ...]
    grades: tuple[float, ...]
    k: int | None = None
    extra: tuple[tuple[str, float], ...] = ()
    ideal: str = "list"
    top_grade: int = DEFAULT_TOP_GRADE

    def items(self) -> list[Item]:
        return make_items(self.labels, self.grades)

    def extra_items(self) -> list[Item]:
        first = len(self.labels) + 1
        return make_items([lab for lab, _ in self.extra], [g for _, g in self.extra], first_id=first)

    def spec(self) -> ListSpec:
        """The preset as a ``ListSpec`` (linear gain, log2 discount)."""
        items = self.items()
        scoring = Scoring(k=self.k or default_k(len(items)), ideal=self.ideal)
        return ListSpec(tuple(items), scoring, self.top_grade, tuple(self.extra_items()))


PRESETS: Registry[Preset] = Registry("preset")


def _docs(n: int, prefix: str = "doc ") -> tuple[str, ...]:
    return tuple(f"{prefix}{chr(ord('A') + i)}" if n <= 26 else f"{prefix}{i + 1}" for i in range(n))


@PRESETS.register(
    "lesson", "Lesson: dcg([3, 0, 2]) = 4.0", "The lesson's hand check: 3/log2(2) + 0/log2(3) + 2/log2(4) = 3 + 0 + 1."
)
def _lesson() -> Preset:
    return Preset(_docs(3), (3, 0, 2), k=3, top_grade=3)


@PRESETS.register(
    "reversed",
    "Lesson: a perfect order, reversed",
    "Grades 3, 2, 1, 0 in the worst order; press Ideal order to compare with the perfect one.",
)
def _reversed() -> Preset:
    return Preset(_docs(4), (0, 1, 2, 3), k=4, top_grade=3)


@PRESETS.register(
    "five",
    "Five results: 3, 2, 3, 0, 1",
    "A common textbook list: NDCG@5 is about 0.972, because one 3 sits below a 2.",
)
def _five() -> Preset:
    return Preset(_docs(5), (3, 2, 3, 0, 1), k=5, top_grade=3)


@PRESETS.register(
    "chengdu_trip",
    "成都三日游 (Chengdu, a 3-day trip)",
    "A travel search graded 0-4: DCG@5 about 6.85 against an ideal of about 7.32.",
)
def _chengdu_trip() -> Preset:
    return Preset(("成都3天攻略", "成都美食推荐", "北京旅游", "成都7天游", "成都住宿"), (4, 2, 0, 1, 3), k=5)


@PRESETS.register(
    "chengdu_food",
    "成都美食 (Chengdu, food)",
    "A food search graded 0-4: DCG@5 about 7.85 against an ideal of about 8.45.",
)
def _chengdu_food() -> Preset:
    return Preset(("成都火锅大全", "重庆火锅", "成都小吃街", "成都美食地图", "北京烤鸭"), (4, 1, 3, 4, 0), k=5)


@PRESETS.register(
    "doc_xyzw",
    "doc_X, doc_Y, doc_Z, doc_W",
    "A highly relevant doc_W retrieved last; swapping it with doc_Z raises NDCG.",
)
def _doc_xyzw() -> Preset:
    return Preset(("doc_X", "doc_Y", "doc_Z", "doc_W"), (4, 2, 0, 3), k=4)


@PRESETS.register(
    "wikipedia",
    "Wikipedia: 3, 2, 3, 0, 1, 2 and two unretrieved",
    "Against all judgments (two more items graded 3 and 2) NDCG@6 is 0.785; against the list, 0.961.",
)
def _wikipedia() -> Preset:
    return Preset(
        tuple(f"D{i}" for i in range(1, 7)),
        (3, 2, 3, 0, 1, 2),
        k=6,
        extra=(("D7", 3), ("D8", 2)),
        ideal="pool",
        top_grade=3,
    )


@PRESETS.register(
    "all_zero", "Nothing relevant: all zeros", "Every grade 0: the ideal DCG is 0 too, and NDCG is defined as 0.0."
)
def _all_zero() -> Preset:
    return Preset(_docs(5), (0, 0, 0, 0, 0), k=5)


@PRESETS.register("long", "A long list of 50", "Fifty results from a seeded mix of grades, for NDCG@k at many cutoffs.")
def _long() -> Preset:
    rng = random.Random(50)
    grades = tuple(float(rng.choices(range(5), weights=(40, 25, 15, 12, 8))[0]) for _ in range(50))
    return Preset(tuple(f"result {i}" for i in range(1, 51)), grades, k=10)
