"""Which is better?: each student votes A, B or the same for two rankings of one query under one named metric
(NDCG, MRR or precision)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import InputError, number_text, shown
from ...lists.ndcg import ndcg_at_k
from ...teaching.exercises import Conventions
from ...teaching.metrics import precision_at_k, reciprocal_rank
from ..lesson_fields import MAX_QUERY, SIDE_FIELDS, Field, Reader
from .base import EPS, POINTS, ActivityKind, Answer, KindBase, KindEntry, Material, Payload, Result, Scale, Solution
from .lists import DISCOUNT, number, numbers, quoted

METRICS = ("ndcg", "mrr", "precision")
VOTES = ("a", "b", "same")


@dataclass(frozen=True)
class Pair:
    """Two rankings of one query, and every judged grade (the ideal for NDCG)."""

    labels_a: tuple[str, ...]
    a: tuple[float, ...]
    labels_b: tuple[str, ...]
    b: tuple[float, ...]
    judged: tuple[float, ...]
    k: int = 5


# The seed note 003's "成都旅游攻略" systems come first: MRR cannot tell them apart, NDCG can.
PAIRS: dict[str, Pair] = {
    "seed003": Pair(
        ("成都3天游攻略", "成都美食推荐", "成都交通指南", "成都住宿推荐", "成都历史文化"),
        (4, 2, 2, 2, 1),
        ("成都3天游攻略", "北京旅游", "上海攻略", "广州美食", "深圳购物"),
        (4, 0, 0, 0, 0),
        (4, 2, 2, 2, 1, 0, 0, 0, 0),
    ),
    "early_or_many": Pair(
        ("doc A", "doc B", "doc C", "doc D", "doc E"),
        (3, 0, 0, 0, 0),
        ("doc F", "doc G", "doc H", "doc I", "doc J"),
        (0, 3, 3, 3, 0),
        (3, 0, 0, 0, 0, 0, 3, 3, 3, 0),
    ),
    "same_precision": Pair(
        ("doc A", "doc B", "doc C", "doc D", "doc E"),
        (2, 1, 0, 0, 0),
        ("doc C", "doc D", "doc E", "doc B", "doc A"),
        (0, 0, 0, 1, 2),
        (2, 1, 0, 0, 0),
    ),
}


@dataclass(frozen=True)
class Compare(KindBase[str]):
    """Which is better? Each student votes A, B or the same under one named metric."""

    pair: Pair
    metric: str
    name: str = ""
    query: str = ""
    kind: str = "compare"

    def payload(self) -> Payload:
        p = self.pair
        return {
            **({"query": self.query} if self.query else {}),
            "name": self.name,
            "metric": self.metric,
            "k": p.k,
            "labels_a": list(p.labels_a),
            "a": [number(g) for g in p.a],
            "labels_b": list(p.labels_b),
            "b": [number(g) for g in p.b],
            "judged": [number(g) for g in p.judged],
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Compare:
        pair = Pair(
            tuple(payload["labels_a"]),
            tuple(payload["a"]),
            tuple(payload["labels_b"]),
            tuple(payload["b"]),
            tuple(payload["judged"]),
            int(payload["k"]),
        )
        return cls(pair, str(payload["metric"]), str(payload.get("name", "")), str(payload.get("query", "")))

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]:
        return (
            Field("query", "text", description="The query both rankings answer."),
            Field("a", "side", True, description="Ranking A: { items = [...], grades = [...] }."),
            Field("b", "side", True, description="Ranking B: { items = [...], grades = [...] }."),
            Field("missed", "grades", description="Grades of judged results neither ranking retrieved."),
            Field("metric", "choice", True, METRICS, "What the class votes under: ndcg, mrr or precision."),
            Field("k", "whole", True, description="The cutoff of NDCG@k and P@k."),
        )

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Compare:
        """Two rankings whose shared results must have one grade; every judged grade is the ideal's."""
        sides = []
        for side in ("a", "b"):
            table = r.table_of(side, True) or {}
            inner = Reader(table, lambda name, side=side: r.place(f"{side}.{name}"), SIDE_FIELDS)
            items, grades = inner.texts("items"), inner.grades("grades")
            if len(items) != len(grades):
                raise InputError("lesson.count", place=inner.place("grades"), grades=len(grades), items=len(items))
            sides.append((items, grades))
        (items_a, a), (items_b, b) = sides
        judged: dict[str, float] = {}
        for side, items, grades in (("a", items_a, a), ("b", items_b, b)):
            for item, grade in zip(items, grades, strict=True):
                if item in judged and judged[item] != grade:
                    raise InputError(
                        "lesson.grade_disagrees",
                        place=r.place(f"{side}.grades"),
                        value=shown(item),
                        first=number_text(judged[item]),
                        second=number_text(grade),
                    )
                judged[item] = grade
        k = r.whole("k")
        if not 1 <= k <= min(len(a), len(b)):
            high = min(len(a), len(b))
            raise InputError("lesson.out_of_range", place=r.place("k"), value=shown(k), low=1, high=high)
        pair = Pair(items_a, a, items_b, b, (*judged.values(), *r.grades("missed", False)), k)
        return cls(pair, r.choice("metric", METRICS), "", r.text("query", MAX_QUERY, ""))

    def lesson_data(self, scale: Scale) -> Payload:
        p = self.pair
        data: Payload = {"query": self.query} if self.query else {}
        data["a"] = {"items": list(p.labels_a), "grades": numbers(p.a)}
        data["b"] = {"items": list(p.labels_b), "grades": numbers(p.b)}
        retrieved = dict(zip(p.labels_a, p.a, strict=True)) | dict(zip(p.labels_b, p.b, strict=True))
        missed = list(p.judged)
        for grade in retrieved.values():
            missed.remove(grade)
        if missed:
            data["missed"] = numbers(missed)
        data.update(metric=self.metric, k=p.k)
        return data

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline, with both rankings' values."""
        va, vb = self.values(self.metric)
        p = self.pair
        metric = {"ndcg": f"NDCG@{p.k}", "mrr": "MRR", "precision": f"P@{p.k}"}[self.metric]
        a, b = (", ".join(number_text(g) for g in side) for side in (p.a, p.b))
        line = f"Which is better?{quoted(self.query)} A (grades {a}) or B (grades {b}) under {metric}"
        return line + f": A {va:.4f}, B {vb:.4f}"

    def solutions(self) -> tuple[Solution, ...]:
        """The verdict under the activity's metric."""
        return (self.verdict(self.metric),)

    def conventions(self, part: int = 0, metric: str | None = None) -> Conventions:
        """What the vote is judged under (the activity's metric unless ``metric``): NDCG@k with linear gain,
        the log2 discount and every judged result as the ideal; MRR over the whole list; precision at k. For
        MRR and precision a result counts as relevant from grade 1."""
        metric = metric or self.metric
        if metric == "ndcg":
            return Conventions("ndcg", self.pair.k, "linear", DISCOUNT, "pool")
        return Conventions(metric, None if metric == "mrr" else self.pair.k)

    def material(self, part: int = 0) -> Material:
        return Material(self.query)

    def values(self, metric: str) -> tuple[float, float]:
        """The metric's value for A and for B."""
        p = self.pair
        if metric == "ndcg":
            return ndcg_at_k(p.a, p.k, pool=p.judged), ndcg_at_k(p.b, p.k, pool=p.judged)
        if metric == "mrr":
            return reciprocal_rank(p.a), reciprocal_rank(p.b)
        return precision_at_k(p.a, p.k), precision_at_k(p.b, p.k)

    def verdict(self, metric: str) -> str:
        va, vb = self.values(metric)
        return "same" if abs(va - vb) <= EPS else "a" if va > vb else "b"

    def check(self, raw: object, part: int = 0) -> str:
        self.own_part(part)
        if raw in (None, ""):
            raise InputError("answer.no_choice")
        if raw not in VOTES:
            raise InputError("activity.vote", value=shown(raw))
        return str(raw)

    def summary(self, answers: Sequence[Answer]) -> CompareSummary:
        votes = Counter(a.value for a in answers)
        verdicts = {m: (*self.values(m), self.verdict(m)) for m in METRICS}
        return CompareSummary(
            len(answers), {v: votes.get(v, 0) for v in VOTES}, verdicts, votes.get(self.verdict(self.metric), 0)
        )

    def result(self, value: str, part: int = 0) -> Result[CompareDetail]:
        return Result(
            right=value == self.verdict(self.metric),
            ndcg=None,
            answer=str(value),
            detail=CompareDetail(self.verdict(self.metric)),
            points=POINTS if value == self.verdict(self.metric) else 0,
        )


def compare_activity(name: str, metric: str) -> Compare:
    if name not in PAIRS:
        raise InputError("activity.pair", value=shown(name), choices=", ".join(PAIRS))
    if metric not in METRICS:
        raise InputError("activity.metric", value=shown(metric), choices=", ".join(METRICS))
    return Compare(PAIRS[name], metric, name)


@dataclass(frozen=True)
class CompareDetail:
    """A marked vote: the verdict under the activity's metric."""

    verdict: str


@dataclass(frozen=True)
class CompareSummary:
    count: int
    votes: dict[str, int]
    verdicts: dict[str, tuple[float, float, str]]
    agree: int


if TYPE_CHECKING:

    def _is_a_kind(activity: Compare) -> ActivityKind[str, CompareSummary, CompareDetail]:
        return activity  # mypy checks here that the class has every hook of the protocol, with these types


KIND = KindEntry(Compare, "Which is better?", order=30)
