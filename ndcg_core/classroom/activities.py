"""The five classroom activities: what the teacher sends, how a student's answer is checked, and what the
class's answers add up to (histogram bins, answers within 0.05, verdicts, the most common mistake, grade
distributions and agreement, CSV rows).

Every number comes from ndcg_core (``ndcg_at_k``, ``breakdown``, ``metrics``, ``exercises``). An activity is
built from its JSON payload (what the store keeps), so any replica computes the same figures.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import krippendorff
import numpy as np

from .. import validate
from ..errors import InputError, Note, Place, number_text, shown
from ..lists.discounts import DISCOUNTS
from ..lists.gains import resolve_gain
from ..lists.ndcg import ndcg_at_k
from ..lists.presets import PRESETS
from ..lists.results import RESULTS
from ..lists.scoring import Scoring
from ..lists.spec import ListSpec
from ..teaching import mistakes as mistake_catalogue
from ..teaching.exercises import KINDS as EXERCISE_KINDS
from ..teaching.exercises import Conventions, Exercise, check, conventions, exercise, reading_note
from ..teaching.metrics import precision_at_k, reciprocal_rank
from .lesson_fields import MAX_QUERY, SIDE_FIELDS, Field, Reader

TWISTS = ("exponential", "small_k", "pool")
METRICS = ("ndcg", "mrr", "precision")
VOTES = ("a", "b", "same")
ACTIVITY_GAINS = ("linear", "exponential")  # the gains a classroom list may use
DISCOUNT = "log2"  # the discount a classroom NDCG uses unless a lesson names another (ndcg_at_k's default)
WITHIN = 0.05  # a guess this close to the true NDCG counts as right
BINS = 20  # histogram bins of width 0.05 over [0, 1]
SMALL_K = 3
MAX_LIST = 12  # a phone shows this many items comfortably
MAX_EXERCISES = 10
POINTS = 100  # the most one question scores when a lesson keeps scores
NO_POINTS_OFF = 0.5  # a Predict estimate this far from the true NDCG, or farther, scores nothing
MAX_SCALE_STEPS = 10  # a judging scale holds at most 11 grades: a phone shows them as one row of buttons
PRACTICE_KINDS = tuple(k for k in EXERCISE_KINDS if k != "reach")  # reach needs many moves: not in class
_EPS = 1e-9


# --- lists ---------------------------------------------------------------------------------------


def activity_list(
    labels: Sequence[str],
    grades: Sequence[float],
    k: int,
    gain: str = "linear",
    pool: Sequence[float] = (),
    query: str = "",
    discount: str = DISCOUNT,
) -> ListSpec:
    """A ranked list as the class sees it, an ``ndcg_core.lists.ListSpec`` (``from_grades``): labels and grades
    in order, k, the gain, any judged items the list did not retrieve (``pool``), which the ideal then includes,
    the query the list answers (``""``: none given, for lists of "doc A", "doc B") and the discount (a name in
    ``DISCOUNTS``). Checked first as a class list: at most ``MAX_LIST`` items (a phone's), a gain of
    ``ACTIVITY_GAINS``; any finite grade of 0 or more."""
    if len(labels) != len(grades):
        raise InputError("count.labels", labels=len(labels), grades=len(grades))
    if not len(grades):
        raise InputError("list.empty")
    validate.list_size(len(grades), MAX_LIST)
    validate.numbers(grades)
    validate.numbers(pool, "pool")
    validate.whole(k, Place("k"), high=len(grades))
    if gain not in ACTIVITY_GAINS:
        raise InputError("activity.gain", value=shown(gain), choices=", ".join(ACTIVITY_GAINS))
    if discount not in DISCOUNTS.names():
        raise InputError("discount.unknown", value=shown(discount), choices=", ".join(DISCOUNTS.names()))
    scoring = Scoring(gain=gain, discount=discount)
    return ListSpec.from_grades(labels, grades, k, pool=pool, scoring=scoring, query=query)


def list_conventions(spec: ListSpec) -> Conventions:
    """What NDCG@k of a class list is computed under: the gain, the discount, k, and the ideal's source."""
    base = spec.jk_base if "base" in DISCOUNTS[spec.discount].params else None
    return Conventions("ndcg", spec.k, spec.gain, spec.discount, "pool" if spec.pool else "list", base)


def list_to_json(spec: ListSpec) -> dict[str, Any]:
    """A class list as an activity's payload keeps it (``list_from_json`` reads it back)."""
    # The discount only when it is not the usual one: a list's payload stays what it was before lessons could
    # name a discount, so its rounds still count (a round is a repeat of the same payload text).
    extra = {} if spec.discount == DISCOUNT else {"discount": spec.discount}
    return {
        "labels": list(spec.labels),
        "grades": numbers(spec.grades),
        "k": spec.k,
        "gain": spec.gain,
        "pool": numbers(spec.pool),
        "query": spec.query,
        **extra,
    }


def list_from_json(data: Mapping[str, Any]) -> ListSpec:
    """A class list from an activity's payload, as any version of the app stored it."""
    return activity_list(
        tuple(str(x) for x in data["labels"]),
        tuple(float(g) for g in data["grades"]),
        int(data["k"]),
        str(data.get("gain", "linear")),
        tuple(float(g) for g in data.get("pool", ())),
        str(data.get("query", "")),
        str(data.get("discount", DISCOUNT)),
    )


def list_from_lesson(r: Reader, pool: bool = True) -> ListSpec:
    """The list of a lesson's activity (``LIST_FIELDS``; ``missed`` only with ``pool``)."""
    items, grades = r.texts("items"), r.grades("grades")
    if len(items) != len(grades):
        raise InputError("lesson.count", place=r.place("grades"), grades=len(grades), items=len(items))
    return activity_list(
        items,
        grades,
        r.whole("k"),
        r.choice("gain", ACTIVITY_GAINS, "linear"),
        r.grades("missed", False) if pool else (),
        r.text("query", MAX_QUERY, ""),
        r.choice("discount", tuple(DISCOUNTS.names()), DISCOUNT),
    )


def list_lesson_data(spec: ListSpec, pool: bool = True) -> dict[str, Any]:
    """A class list as a lesson file writes it: only the fields that differ from their defaults."""
    data: dict[str, Any] = {}
    if spec.query:
        data["query"] = spec.query
    data.update(items=list(spec.labels), grades=numbers(spec.grades), k=spec.k)
    if spec.gain != "linear":
        data["gain"] = spec.gain
    if spec.discount != DISCOUNT:
        data["discount"] = spec.discount
    if pool and spec.pool:
        data["missed"] = numbers(spec.pool)
    return data


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def numbers(values: Sequence[float]) -> list[float | int]:
    """Numbers as a file writes them: whole ones without a decimal point."""
    return [_number(v) for v in values]


# A list's fields in a lesson file (a Judge activity's leave out ``missed``).
LIST_FIELDS = (
    Field("query", "text", description="The query the results answer."),
    Field("items", "texts", True, description="The results in ranked order (titles or ids)."),
    Field("grades", "grades", True, description="The grade of each result, in the same order."),
    Field("k", "whole", True, description="The cutoff: NDCG@k."),
    Field("gain", "choice", choices=ACTIVITY_GAINS, description="The gain (linear)."),
    Field("discount", "choice", choices=tuple(DISCOUNTS.names()), description=f"The discount ({DISCOUNT})."),
    Field(
        "missed",
        "grades",
        description="Grades of judged results the list did not retrieve: the ideal then comes from every judged "
        "result, not only the list's.",
    ),
)


def _quoted(query: str) -> str:
    return f' "{query}"' if query else ""


def _outline_ndcg(spec: ListSpec) -> str:
    """The list's grades and what its NDCG@k is computed under, for ``check``'s outline."""
    grades = ", ".join(number_text(g) for g in spec.grades)
    missed = ", ".join(number_text(g) for g in spec.pool)
    ideal = f"every judged result, with the missed {missed}" if spec.pool else "the list"
    discount = f"{spec.discount} discount"
    if "base" in DISCOUNTS[spec.discount].params:
        discount += f" base {number_text(spec.jk_base)}"
    return f"grades {grades}; NDCG@{spec.k} ({spec.gain} gain, {discount}, ideal from {ideal})"


def preset_list(name: str) -> ListSpec:
    """One of the Playground's presets (the seeds' worked examples) as a class list."""
    preset = PRESETS.build(name)
    items = preset.items()[:MAX_LIST]
    k = min(preset.k or len(items), len(items))
    pool = tuple(g for _, g in preset.extra) if preset.ideal == "pool" else ()
    return activity_list(tuple(it.label for it in items), tuple(it.grade for it in items), k, pool=pool)


def result_list(name: str) -> ListSpec:
    """One of the real result lists (``ndcg_core.lists.results.RESULTS``): its query, titles, grades and k."""
    results = RESULTS.build(name)
    return activity_list(results.titles[:MAX_LIST], results.grades[:MAX_LIST], results.k, query=results.query)


def random_list(seed: Any) -> ListSpec:
    """A seeded random list (5 to 8 items graded 0 to 3, something relevant, not already ideal), the same for
    everyone who uses the seed."""
    seed = validate.seed(seed)
    rng = random.Random(seed * 7919 + 16)
    n = rng.randint(5, 8)
    while True:
        grades = [rng.choice((0, 0, 1, 1, 2, 3)) for _ in range(n)]
        if sum(grades) and sorted(grades, reverse=True) != grades:
            break
    labels = tuple(f"doc {chr(65 + i)}" for i in range(n))
    return activity_list(labels, tuple(float(g) for g in grades), rng.randint(3, n))


# --- histograms and shares ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int


def histogram(values: Iterable[float], bins: int = BINS) -> list[Bin]:
    """Counts of ``values`` in ``bins`` equal bins over [0, 1]; 1.0 falls in the last bin."""
    counts = [0] * bins
    for v in values:
        index = min(bins - 1, max(0, math.floor(v * bins + _EPS)))
        counts[index] += 1
    return [Bin(i / bins, (i + 1) / bins, c) for i, c in enumerate(counts)]


def within(guess: float, truth: float) -> bool:
    """Whether a guess is within 0.05 of the true value."""
    return abs(guess - truth) <= WITHIN + _EPS


def quartiles(values: Sequence[float]) -> tuple[float, float] | None:
    """The lower and upper quartiles (the middle half lies between them; ``None`` without values)."""
    if not values:
        return None
    if len(values) == 1:
        return values[0], values[0]
    low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    return low, high


# --- what an answer was: right, close, the mistake it matches, or other -----------------------------------

RIGHT, CLOSE, OTHER = "right", "close", "other"  # an answer's groups beside the mistakes' codes
RIGHT_DECIMALS = 2  # an estimate is right when it is the true NDCG to its own decimals, and to two at least


@dataclass(frozen=True)
class Verdict:
    """What an estimate of NDCG@k was: ``right`` (the true NDCG to the decimals it was written with, two at least),
    ``close``
    (within ``WITHIN`` of it: counted right too), a mistake's code (farther, and the number of a mistake of
    ``ndcg_core.teaching.mistakes``: ``found`` holds every mistake it matches, most likely first, and the group is
    the first's code), or ``other`` (farther, and no known mistake gives it)."""

    group: str
    found: tuple[mistake_catalogue.Diagnosis, ...] = ()

    @property
    def right(self) -> bool:
        return self.group in (RIGHT, CLOSE)


def estimate_verdict(spec: ListSpec, guess: Any) -> Verdict:
    """The verdict on an estimate (as typed, or a number) of ``spec``'s NDCG@k."""
    truth = spec.ndcg()
    if within(validate.answer(guess), truth):
        # Right: the truth to two decimals or more. "0.9" for 0.9386 is close, as "0.95" is, not right.
        return Verdict(RIGHT if mistake_catalogue.matches(guess, truth, decimals=RIGHT_DECIMALS) else CLOSE)
    found = mistake_catalogue.diagnose(spec, guess)
    return Verdict(found[0].code, found) if found else Verdict(OTHER)


@dataclass(frozen=True)
class Group:
    """How many answers fell in one group: ``right``, ``close``, ``other`` or a mistake's code."""

    code: str
    count: int


def grouped(codes: Iterable[str]) -> tuple[Group, ...]:
    """Answers counted by group: right, close, then the mistakes, the most common first (equal counts in the
    catalogue's order, the likeliest first), then other; a group without answers is left out."""
    counts = Counter(codes)
    likely = {code: i for i, code in enumerate(mistake_codes())}
    named = sorted(
        (c for c in counts if c not in (RIGHT, CLOSE, OTHER)), key=lambda c: (-counts[c], likely.get(c, len(likely)), c)
    )
    order = [c for c in (RIGHT, CLOSE) if c in counts] + named + [c for c in (OTHER,) if c in counts]
    return tuple(Group(c, counts[c]) for c in order)


def estimate_groups(spec: ListSpec, guesses: Iterable[Any]) -> tuple[Group, ...]:
    """A class's estimates of ``spec``'s NDCG@k counted by verdict (``grouped``)."""
    return grouped(estimate_verdict(spec, g).group for g in guesses)


def mistakes_only(groups: Iterable[Group]) -> tuple[Group, ...]:
    """The groups that are mistakes (not right, close or other), in their order."""
    return tuple(g for g in groups if g.code not in (RIGHT, CLOSE, OTHER))


def side_by_side(before: Sequence[Group], after: Sequence[Group]) -> tuple[tuple[str, int, int], ...]:
    """Two rounds' groups on one list: every group of either, ordered as ``grouped`` orders their counts added
    together, with its count in the first round and in the second (0 where it had none)."""
    first, second = {g.code: g.count for g in before}, {g.code: g.count for g in after}
    both = grouped((Counter(first) + Counter(second)).elements())
    return tuple((g.code, first.get(g.code, 0), second.get(g.code, 0)) for g in both)


# --- the activities ----------------------------------------------------------------------------------


class PlainAnswer:
    """For a kind whose checked answer is plain JSON already (a number, an order, a vote, a grade): its answer's
    JSON codec is the identity."""

    @classmethod
    def answer_to_json(cls, value: Any) -> Any:
        return value

    @classmethod
    def answer_from_json(cls, data: Any) -> Any:
        return data


@dataclass(frozen=True)
class Predict(PlainAnswer):
    """Predict the NDCG: each student estimates NDCG@k of one list."""

    spec: ListSpec
    kind: str = "predict"

    def payload(self) -> dict[str, Any]:
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

    def lesson_data(self, scale: Scale) -> dict[str, Any]:
        return list_lesson_data(self.spec)

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline, with the true NDCG@k."""
        spec = self.spec
        line = f"Predict the NDCG{_quoted(spec.query)}: {len(spec.grades)} results, {_outline_ndcg(spec)}"
        return line + f" = {self.truth():.4f}"

    def parts(self) -> int:
        return 1

    def solutions(self) -> tuple[Any, ...]:
        """The true NDCG@k."""
        return (self.truth(),)

    def truth(self) -> float:
        return self.spec.ndcg()

    def conventions(self, part: int = 0) -> Conventions:
        return list_conventions(self.spec)

    def check(self, raw: Any, part: int = 0) -> float:
        """An estimate from 0 to 1, read as ``validate.reading`` reads it ("0,75" is 0.75; ``typed_note`` says so)."""
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

    def verdict(self, value: Any) -> Verdict:
        """What an estimate was: right, close, the mistake it matches, or other (``estimate_verdict``)."""
        return estimate_verdict(self.spec, value)

    def result(self, value: Any, part: int = 0) -> Result[PredictDetail]:
        truth = self.truth()
        return Result(
            right=within(float(value), truth),
            ndcg=truth,
            answer=number_text(float(value)),
            detail=PredictDetail(float(value), truth, abs(float(value) - truth)),
            points=closeness_points(float(value), truth),
        )


@dataclass(frozen=True)
class Rank(PlainAnswer):
    """Rank it best: each student reorders the list to maximise NDCG@k under a twist. With ``show_grades``
    off (a new activity's default) the phones show the results without their grades: the class judges
    relevance from the titles, and the grades appear at the reveal. A payload stored before the option
    existed had them shown, and reads back so."""

    spec: ListSpec
    twist: str
    show_grades: bool = False
    kind: str = "rank"

    def payload(self) -> dict[str, Any]:
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

    def lesson_data(self, scale: Scale) -> dict[str, Any]:
        return {**list_lesson_data(self.spec), **({"show_grades": True} if self.show_grades else {})}

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline, from the list's NDCG@k to the best."""
        spec, shown = self.spec, "shown" if self.show_grades else "hidden"
        line = f"Rank it best{_quoted(spec.query)}: {len(spec.grades)} results, grades {shown} on phones, "
        line += _outline_ndcg(spec)
        return line + f" from {spec.ndcg():.4f} to at best {self.maximum():.4f}"

    def parts(self) -> int:
        return 1

    def solutions(self) -> tuple[Any, ...]:
        """The highest NDCG@k an order reaches."""
        return (self.maximum(),)

    def conventions(self, part: int = 0) -> Conventions:
        return list_conventions(self.spec)

    def maximum(self) -> float:
        return self.spec.reordered(self.spec.best_order()).ndcg()

    def check(self, raw: Any, part: int = 0) -> list[int]:
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
        scores = [self.score(a.value) for a in answers]
        found = sum(s >= best - _EPS for s in scores)
        return RankSummary(
            len(scores),
            histogram(scores),
            scores,
            best,
            found,
            self.common_mistake([a.value for a, s in zip(answers, scores, strict=False) if s < best - _EPS]),
        )

    def common_mistake(self, orders: Sequence[Sequence[int]]) -> Mistake | None:
        """The (item, position) most often found at the first place in the top k where an order falls below
        the ideal's gain."""
        gains = resolve_gain(self.spec.gain)(list(self.spec.grades))
        best = [gains[i] for i in self.spec.best_order()]
        places: Counter[tuple[int, int]] = Counter()
        for order in orders:
            for position, index in enumerate(order[: self.spec.k]):
                if gains[index] < best[position] - _EPS:
                    places[(index, position)] += 1
                    break
        if not places:
            return None
        (index, position), count = min(places.items(), key=lambda kv: (-kv[1], kv[0][1], kv[0][0]))
        ideal_index = self.spec.best_order()[position]
        return Mistake(
            self.spec.labels[index], position + 1, count, self.spec.grades[index], self.spec.grades[ideal_index]
        )

    def result(self, value: Any, part: int = 0) -> Result[RankDetail]:
        reached, best = self.score(value), self.maximum()
        return Result(
            right=reached >= best - _EPS,
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
    # is the lowest NDCG@k, and grades such as 1000 and 1000.000001 keep even it within _EPS of the best.
    if spec.ndcg() >= best - _EPS and spec.reordered(best_order[::-1]).ndcg() < best - _EPS:
        order = list(range(len(spec.grades)))
        rng = random.Random(len(order))
        while spec.reordered(order).ndcg() >= best - _EPS:
            rng.shuffle(order)
        labels, grades = tuple(spec.labels[i] for i in order), tuple(spec.grades[i] for i in order)
        spec = activity_list(labels, grades, spec.k, spec.gain, spec.pool, spec.query, spec.discount)
    return Rank(spec, twist, bool(show_grades))


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
class Compare(PlainAnswer):
    """Which is better? Each student votes A, B or the same under one named metric."""

    pair: Pair
    metric: str
    name: str = ""
    query: str = ""
    kind: str = "compare"

    def payload(self) -> dict[str, Any]:
        p = self.pair
        return {
            **({"query": self.query} if self.query else {}),
            "name": self.name,
            "metric": self.metric,
            "k": p.k,
            "labels_a": list(p.labels_a),
            "a": [_number(g) for g in p.a],
            "labels_b": list(p.labels_b),
            "b": [_number(g) for g in p.b],
            "judged": [_number(g) for g in p.judged],
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

    def lesson_data(self, scale: Scale) -> dict[str, Any]:
        p = self.pair
        data: dict[str, Any] = {"query": self.query} if self.query else {}
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
        line = f"Which is better?{_quoted(self.query)} A (grades {a}) or B (grades {b}) under {metric}"
        return line + f": A {va:.4f}, B {vb:.4f}"

    def parts(self) -> int:
        return 1

    def solutions(self) -> tuple[Any, ...]:
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
        return "same" if abs(va - vb) <= _EPS else "a" if va > vb else "b"

    def check(self, raw: Any, part: int = 0) -> str:
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

    def result(self, value: Any, part: int = 0) -> Result[CompareDetail]:
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
class ExerciseAnswer:
    """A student's answer to a Practice exercise, marked when it arrived: as typed or chosen, and whether it was
    right (an exercise's check accepts forms the answer alone does not say, such as rounding)."""

    answer: str
    right: bool

    def to_json(self) -> dict[str, Any]:
        return {"answer": self.answer, "right": self.right}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ExerciseAnswer:
        return cls(str(data["answer"]), bool(data["right"]))


@dataclass(frozen=True)
class Practice:
    """Practice together: the whole class works through the same seeded exercises."""

    seed: int
    numbers: tuple[int, ...]
    kind: str = "practice"

    def payload(self) -> dict[str, Any]:
        return {"seed": self.seed, "numbers": list(self.numbers)}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Practice:
        return cls(int(payload["seed"]), tuple(int(n) for n in payload["numbers"]))

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]:
        return (
            Field("seed", "whole", True, description="The exercise set, as on the Practice page."),
            Field(
                "exercises",
                "exercises",
                True,
                PRACTICE_KINDS,
                f'How many exercises (1 to {MAX_EXERCISES}), or which kinds in order, such as ["dcg", "swap"].',
            ),
        )

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Practice:
        """The first n exercises of the seed, or the named kinds in order."""
        seed = r.whole("seed")
        chosen = r.raw("exercises", True)
        if isinstance(chosen, int) and not isinstance(chosen, bool):
            return practice_activity(seed, chosen)
        kinds = r.list("exercises", True) or []
        if not 1 <= len(kinds) <= MAX_EXERCISES:
            place = r.place("exercises")
            raise InputError("lesson.out_of_range", place=place, value=len(kinds), low=1, high=MAX_EXERCISES)
        numbers: list[int] = []
        for position, kind in enumerate(kinds, start=1):
            if kind not in PRACTICE_KINDS:
                raise InputError(
                    "lesson.exercise_kind",
                    place=r.place("exercises"),
                    position=position,
                    value=shown(kind),
                    choices=", ".join(PRACTICE_KINDS),
                )
            # The kinds rotate through the exercise numbers: the next exercise of this kind not taken yet.
            number = EXERCISE_KINDS.index(kind)
            while number in numbers:
                number += len(EXERCISE_KINDS)
            numbers.append(number)
        exercise(seed, numbers[0])  # the seed checked as the Practice page checks it
        return cls(seed, tuple(numbers))

    def lesson_data(self, scale: Scale) -> dict[str, Any]:
        count = len(self.numbers)
        if practice_activity(self.seed, count).numbers == self.numbers:
            return {"seed": self.seed, "exercises": count}
        return {"seed": self.seed, "exercises": [EXERCISE_KINDS[n % len(EXERCISE_KINDS)] for n in self.numbers]}

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline: the seed and the exercises' kinds."""
        kinds = ", ".join(ex.kind for ex in self.exercises())
        return f"Practice together: seed {self.seed}, {len(self.numbers)} exercises ({kinds})"

    def parts(self) -> int:
        """One question per exercise."""
        return len(self.numbers)

    def solutions(self) -> tuple[Any, ...]:
        """Each exercise's answer."""
        return tuple(ex.answer for ex in self.exercises())

    def exercises(self) -> list[Exercise]:
        return [exercise(self.seed, n) for n in self.numbers]

    def conventions(self, part: int = 0) -> Conventions:
        """The conventions exercise ``part`` is scored under."""
        return conventions(exercise(self.seed, self.numbers[part]))

    @classmethod
    def answer_to_json(cls, value: ExerciseAnswer) -> dict[str, Any]:
        return value.to_json()

    @classmethod
    def answer_from_json(cls, data: Any) -> ExerciseAnswer:
        return ExerciseAnswer.from_json(data)

    def check(self, raw: Any, part: int = 0) -> ExerciseAnswer:
        if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < len(self.numbers):
            raise InputError("activity.part", value=shown(part), count=len(self.numbers))
        ex = exercise(self.seed, self.numbers[part])
        if ex.kind not in ("dcg_term", "dcg", "ndcg") and raw not in (None, "") and raw not in choices(ex):
            raise InputError("activity.choice", value=shown(raw), choices=", ".join(choices(ex)))
        right = check(ex, raw)
        return ExerciseAnswer(str(raw).strip(), bool(right))

    def summary(self, answers: Sequence[Answer]) -> PracticeSummary:
        students = {a.student for a in answers}
        parts = []
        for part in range(len(self.numbers)):
            mine = [a for a in answers if a.part == part]
            parts.append((len(mine), sum(a.value.right for a in mine)))
        return PracticeSummary(len(students), parts)

    def result(self, value: ExerciseAnswer, part: int = 0) -> Result[PracticeDetail]:
        return Result(
            right=value.right,
            ndcg=None,
            answer=value.answer,
            detail=PracticeDetail(exercise(self.seed, self.numbers[part]).answer),
            points=POINTS if value.right else 0,
        )


def closeness_points(guess: float, truth: float) -> int:
    """Points for an estimate: all of them at the true NDCG, falling in a straight line to none at
    ``NO_POINTS_OFF`` away (an estimate within 0.05, counted right, scores at least 90)."""
    return round(POINTS * max(0.0, 1 - abs(guess - truth) / NO_POINTS_OFF))


def choices(ex: Exercise) -> tuple[str, ...]:
    """The options of a multiple-choice exercise."""
    if ex.kind == "better_order":
        return ("a", "b")
    if ex.kind == "swap":
        return ("up", "down", "same")
    if ex.kind == "gap":
        return tuple(ex.data["queries"])
    return ()


def practice_activity(seed: Any, count: Any) -> Practice:
    """The first ``count`` exercises of a Practice seed, leaving out the reach exercise (it needs many moves)."""
    seed = validate.seed(seed)
    count = validate.whole(count, Place("activity.count"), high=MAX_EXERCISES)
    numbers = [n for n in range(count + count // 5 + 2) if exercise(seed, n).kind != "reach"][:count]
    return Practice(seed, tuple(numbers))


@dataclass(frozen=True)
class Scale:
    """The grades judges may give: every whole number from ``low`` to ``high`` (0 to 4 unless a lesson says)."""

    low: int = 0
    high: int = 4

    def __post_init__(self) -> None:
        if not 0 <= self.low < self.high <= self.low + MAX_SCALE_STEPS:
            raise InputError("activity.scale", low=self.low, high=self.high, steps=MAX_SCALE_STEPS)

    @property
    def grades(self) -> tuple[int, ...]:
        return tuple(range(self.low, self.high + 1))


@dataclass(frozen=True)
class JudgeSummary:
    """What the class's grades add up to. Per result, in list order: how many students gave each grade of the
    scale (``counts[i][g - low]``) and the median grade (``None`` before anyone graded it). ``alpha`` is
    Krippendorff's alpha for ordinal data over every student's grades (``None`` until two students graded the
    same result and the grades vary); ``class_ndcg`` is NDCG@k of the list under the medians (``None`` until
    every result has a grade) and ``teacher_ndcg`` under the teacher's grades."""

    count: int
    counts: tuple[tuple[int, ...], ...]
    medians: tuple[float | None, ...]
    alpha: float | None
    class_ndcg: float | None
    teacher_ndcg: float


@dataclass(frozen=True)
class Judge(PlainAnswer):
    """Judge the results: each student grades every result of a query on the scale (one answer per result,
    its part); the class sees each result's grade distribution, how far the judges agree, and NDCG@k of the
    list under the class's median grades beside the teacher's grades (``spec.grades``). It scores no points:
    a grade is a judgement, and the activity is there to show that judges differ."""

    spec: ListSpec
    scale: Scale = Scale()
    kind: str = "judge"

    def __post_init__(self) -> None:
        for position, grade in enumerate(self.spec.grades, start=1):
            if grade not in self.scale.grades:
                low, high = self.scale.low, self.scale.high
                raise InputError("activity.off_scale", position=position, value=number_text(grade), low=low, high=high)

    def payload(self) -> dict[str, Any]:
        return {"list": list_to_json(self.spec), "scale": [self.scale.low, self.scale.high]}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Judge:
        low, high = payload["scale"]
        return cls(list_from_json(payload["list"]), Scale(int(low), int(high)))

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]:
        return (
            *(f for f in LIST_FIELDS if f.name != "missed"),
            Field("scale", "scale", description="The grades students judge with, [low, high] (the lesson's)."),
        )

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Judge:
        """The results to judge, on their own scale or the lesson's (``scale``)."""
        return cls(list_from_lesson(r, pool=False), r.scale("scale", scale))

    def lesson_data(self, scale: Scale) -> dict[str, Any]:
        extra = {} if self.scale == scale else {"scale": [self.scale.low, self.scale.high]}
        return {**list_lesson_data(self.spec, pool=False), **extra}

    def outline(self) -> str:
        """The activity in one English line of ``check``'s outline: the scale and NDCG@k under the teacher's grades."""
        spec = self.spec
        return (
            f"Judge the results{_quoted(spec.query)}: {len(spec.grades)} results on a scale of "
            f"{self.scale.low} to {self.scale.high}; {_outline_ndcg(spec)} under the teacher's grades = "
            f"{spec.ndcg():.4f}"
        )

    def parts(self) -> int:
        """One question per result."""
        return len(self.spec.grades)

    def solutions(self) -> tuple[Any, ...]:
        """The teacher's grade of each result."""
        return tuple(int(g) for g in self.spec.grades)

    def conventions(self, part: int = 0) -> Conventions:
        return list_conventions(self.spec)

    def check(self, raw: Any, part: int = 0) -> int:
        """A grade of the scale for result ``part``: a whole number, as typed or chosen."""
        if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < len(self.spec.grades):
            raise InputError("activity.result", value=shown(part), count=len(self.spec.grades))
        if raw in (None, ""):
            raise InputError("answer.no_choice")
        try:
            value = validate.answer(raw)
        except InputError:
            raise InputError("activity.grade", value=shown(raw), low=self.scale.low, high=self.scale.high) from None
        if value not in self.scale.grades:
            raise InputError("activity.grade", value=shown(raw), low=self.scale.low, high=self.scale.high)
        return int(value)

    def summary(self, answers: Sequence[Answer]) -> JudgeSummary:
        n = len(self.spec.grades)
        by_result: list[list[int]] = [[] for _ in range(n)]
        for a in answers:
            by_result[a.part].append(int(a.value))
        counts = tuple(tuple(grades.count(g) for g in self.scale.grades) for grades in by_result)
        medians = tuple(statistics.median(grades) if grades else None for grades in by_result)
        class_ndcg = None
        if all(m is not None for m in medians):
            spec, graded = self.spec, tuple(float(m) for m in medians if m is not None)
            class_ndcg = activity_list(
                spec.labels, graded, spec.k, spec.gain, spec.pool, spec.query, spec.discount
            ).ndcg()
        return JudgeSummary(
            len({a.student for a in answers}),
            counts,
            medians,
            agreement(answers, n, self.scale),
            class_ndcg,
            self.spec.ndcg(),
        )

    def result(self, value: Any, part: int = 0) -> Result[JudgeDetail]:
        """A grade is not marked (``right`` is ``None``): judging has no right grade."""
        teacher = self.spec.grades[part]
        return Result(
            right=None,
            ndcg=None,
            answer=str(int(value)),
            detail=JudgeDetail(teacher, abs(int(value) - teacher)),
        )


def agreement(answers: Sequence[Answer], results: int, scale: Scale) -> float | None:
    """Krippendorff's alpha (ordinal) of the students' grades (students as coders, results as units), from the
    ``krippendorff`` package; ``None`` when it is not defined (fewer than two grades of one result, or no variation
    at all)."""
    students = sorted({a.student for a in answers})
    if len(students) < 2:
        return None
    row = {s: i for i, s in enumerate(students)}
    data = np.full((len(students), results), np.nan)
    for a in answers:
        data[row[a.student], a.part] = float(a.value)
    if not any(np.count_nonzero(~np.isnan(data[:, j])) >= 2 for j in range(results)):
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = float(
            krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal", value_domain=scale.grades)
        )
    return None if math.isnan(alpha) else alpha


# --- Which is right? ---------------------------------------------------------------------------------------

CHOOSE_WRONG = 3  # the wrong numbers beside the right one: four options in all
CHOOSE_APART = 0.01  # automatically chosen numbers are at least this far from each other and from the right one
CHOOSE_DECIMALS = (2, 3, 4)  # the options are shown with the fewest of these decimals that tells them apart
OPTION_LETTERS = ("a", "b", "c", "d")


def mistake_codes() -> tuple[str, ...]:
    """Every mistake a Which-is-right? option can be made by: the catalogue's codes and its pairs (``a+b``)."""
    return tuple(m.code for m in mistake_catalogue.mistakes())


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
class Choose(PlainAnswer):
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

    def payload(self) -> dict[str, Any]:
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

    def lesson_data(self, scale: Scale) -> dict[str, Any]:
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
        for places in CHOOSE_DECIMALS:
            if len({f"{v:.{places}f}" for v in values}) == len(values):
                return places
        return CHOOSE_DECIMALS[-1]  # not reached: the mistakes were checked distinct at 4 decimals

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
        return f"Which is right?{_quoted(spec.query)}: {len(spec.grades)} results, {_outline_ndcg(spec)}: {options}"

    def parts(self) -> int:
        return 1

    def solutions(self) -> tuple[Any, ...]:
        """The right option's letter."""
        return (self.right_option().letter,)

    def conventions(self, part: int = 0) -> Conventions:
        return list_conventions(self.spec)

    def check(self, raw: Any, part: int = 0) -> str:
        """An option's letter."""
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
        groups = grouped(self.group(a.value) for a in answers)
        return ChooseSummary(len(answers), {x: votes.get(x, 0) for x in letters}, right, votes.get(right, 0), groups)

    def group(self, value: Any) -> str:
        """A choice's group: ``right``, or the code of the mistake that makes the option chosen."""
        return self.option(str(value)).mistake or RIGHT

    def result(self, value: Any, part: int = 0) -> Result[ChooseDetail]:
        chosen, right = self.option(str(value)), self.right_option()
        return Result(
            right=chosen == right,
            ndcg=None,
            answer=f"{chosen.letter.upper()} {self.shown(chosen)}",
            detail=ChooseDetail(chosen, right),
            points=POINTS if chosen == right else 0,
        )


def _check_mistakes(spec: ListSpec, codes: Sequence[Any]) -> None:
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


def choose_activity(spec: ListSpec, named: Sequence[Any] = (), seed: int = 0) -> Choose:
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
        if code not in chosen and all(abs(number - other) >= CHOOSE_APART - _EPS for other in taken):
            chosen.append(code)
            taken.append(number)
    return Choose(spec, tuple(chosen), validate.seed(seed))


Activity = Predict | Rank | Compare | Practice | Judge | Choose


def typed_note(activity: Activity, raw: Any, part: int = 0) -> Note | None:
    """How the activity read a number typed for ``part``, when the student should be told ("'0,62' read as
    0.62"): for a Predict estimate and a Practice set's number exercises; ``None`` otherwise or if unreadable."""
    if isinstance(activity, Predict):
        try:
            return validate.reading(raw).note
        except InputError:
            return None
    if isinstance(activity, Practice) and isinstance(part, int) and 0 <= part < len(activity.numbers):
        return reading_note(exercise(activity.seed, activity.numbers[part]), raw)
    return None


# Not mutated: mutmut's copies of a method would become members of the protocol, which no kind has.
@runtime_checkable
class ActivityKind(Protocol):  # pragma: no mutate block
    """What every kind of classroom activity is: a frozen dataclass with its settings, its ``kind`` name, a payload
    codec (``payload`` / ``from_payload``: what the store keeps, so any replica rebuilds it), its lesson codec (its
    fields in a lesson file, ``lesson_fields``, after the fields every activity has; ``from_lesson`` reads them
    through a ``Reader`` and ``lesson_data`` writes them, given the lesson's judging scale), the answer check of a
    part (a typed value, or an ``InputError``) and that value's JSON codec (``answer_to_json`` / ``answer_from_json``:
    what the store keeps), the class's summary, one answer marked (a ``Result`` with the kind's detail value), the
    number of questions it asks and their right answers, the conventions its figures are computed under, and its
    line in the ``check`` command's outline (``outline``).

    Adding a kind is one class with these, registered in ``KINDS``, and its views module in
    ``ui/views/classroom/kinds/`` (a test checks that every registered kind has all its views)."""

    kind: str

    def payload(self) -> dict[str, Any]: ...

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Any: ...

    def check(self, raw: Any, part: int = 0) -> Any: ...

    @classmethod
    def answer_to_json(cls, value: Any) -> Any: ...

    @classmethod
    def answer_from_json(cls, data: Any) -> Any: ...

    def summary(self, answers: Sequence[Answer]) -> Any: ...

    def result(self, value: Any, part: int = 0) -> Result[Any]: ...

    def parts(self) -> int: ...

    def solutions(self) -> tuple[Any, ...]: ...

    def conventions(self, part: int = 0) -> Conventions: ...

    def outline(self) -> str: ...

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]: ...

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Any: ...

    def lesson_data(self, scale: Scale) -> dict[str, Any]: ...


# Every kind by its name, in the order the app offers them: the one place ``from_payload`` finds a kind's class.
KINDS: Mapping[str, type[Predict] | type[Rank] | type[Compare] | type[Practice] | type[Judge] | type[Choose]] = {
    "predict": Predict,
    "rank": Rank,
    "compare": Compare,
    "practice": Practice,
    "judge": Judge,
    "choose": Choose,
}


def answer_to_json(kind: str, value: Any) -> Any:
    """A checked answer (``check``'s typed value) as the store keeps it, through its kind's codec."""
    return KINDS[kind].answer_to_json(value)


def answer_from_json(kind: str, data: Any) -> Any:
    """A stored answer as its kind's typed value (``check``'s)."""
    return KINDS[kind].answer_from_json(data)


def from_payload(kind: str, payload: Mapping[str, Any]) -> Activity:
    """An activity from what the store keeps."""
    if kind not in KINDS:
        raise InputError("activity.kind", value=shown(kind), choices=", ".join(KINDS))
    return KINDS[kind].from_payload(payload)


# --- answers and what they add up to ---------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One stored answer: who (a student's number in the room, and nickname), which part, and the value."""

    student: int
    nickname: str | None
    part: int
    value: Any
    at: float = 0.0


@dataclass(frozen=True)
class PredictDetail:
    """A marked estimate: the guess, the true NDCG@k and how far off the guess was."""

    guess: float
    truth: float
    off: float


@dataclass(frozen=True)
class RankDetail:
    """A marked order: the NDCG@k it reached and the best an order reaches."""

    reached: float
    best: float


@dataclass(frozen=True)
class CompareDetail:
    """A marked vote: the verdict under the activity's metric."""

    verdict: str


@dataclass(frozen=True)
class PracticeDetail:
    """A marked exercise: the exercise's answer (a number, or an option such as ``up``)."""

    answer: Any


@dataclass(frozen=True)
class JudgeDetail:
    """A marked grade: the teacher's grade and how far the student's was from it."""

    teacher: float
    off: float


D = TypeVar("D")


@dataclass(frozen=True)
class Result(Generic[D]):
    """One answer marked: right or not (``None``: an answer no grade is right or wrong for, a Judge grade), the
    NDCG involved (if any), the answer as text, the kind's details (a ``PredictDetail``, ``RankDetail``,
    ``CompareDetail``, ``PracticeDetail`` or ``JudgeDetail``), and the points it scores when a lesson keeps scores
    (0 to ``POINTS``; ``None``: the activity scores none)."""

    right: bool | None
    ndcg: float | None
    answer: str
    detail: D
    points: int | None = None


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


@dataclass(frozen=True)
class CompareSummary:
    count: int
    votes: dict[str, int]
    verdicts: dict[str, tuple[float, float, str]]
    agree: int


@dataclass(frozen=True)
class PracticeSummary:
    count: int
    parts: list[tuple[int, int]]  # per exercise: (answered, right)


# --- results: one row per student present and question, totals per student, and the class's outcome -------


@dataclass(frozen=True)
class Member:
    """A student as the results name them: their number in the room and optional nickname."""

    student: int
    nickname: str | None


@dataclass(frozen=True)
class Taken:
    """An activity as the class took it: its number and round, the activity, every answer to it, and the students
    in the room while it ran (those who joined before the next activity opened)."""

    number: int
    round: int
    activity: Activity
    answers: tuple[Answer, ...]
    present: tuple[Member, ...]


@dataclass(frozen=True)
class StudentResult:
    """One student's answer to one question (a part: an exercise of a Practice, else 0), or its absence.

    ``value`` is the answer as given (``None``: no answer): an estimate (a float), an order (indices into the
    list), a vote (``a``, ``b``, ``same``) or an exercise's answer as typed or chosen (``up``, ``1.26``).
    ``right`` is ``None`` without an answer, and for a Judge grade (judging has no right grade); ``ndcg`` is the
    NDCG@k a Rank-it-best order reaches (else ``None``); ``points`` what the answer scores when the lesson keeps
    scores (``None``: no answer, or a Judge grade). ``median`` is, for a Judge result, the class's median grade of
    that result (``None``: nobody graded it, or another kind).
    """

    student: int
    nickname: str | None
    part: int
    value: Any
    right: bool | None
    ndcg: float | None
    answered_at: float | None
    points: int | None = None
    median: float | None = None

    @property
    def answered(self) -> bool:
        return self.value is not None

    @property
    def from_median(self) -> float | None:
        """A Judge grade minus the class's median grade of that result (``None``: no grade, or another kind)."""
        if self.median is None or self.value is None:
            return None
        return float(self.value) - self.median


@dataclass(frozen=True)
class ActivityResults:
    """An activity's results: its number, round, the activity itself, the right answer of each part (predict: the
    true NDCG; rank: the highest NDCG@k; compare: the verdict under the activity's metric; practice: each
    exercise's answer), and one row per student present and part, in the students' order."""

    number: int
    round: int
    activity: Activity
    solutions: tuple[Any, ...]
    rows: tuple[StudentResult, ...]

    @property
    def kind(self) -> str:
        return self.activity.kind


@dataclass(frozen=True)
class StudentTotal:
    """One student over the whole room: questions they were present for, how many they answered and got right,
    the mean NDCG@k their Rank-it-best orders reached (``None`` without one) and their points."""

    student: int
    nickname: str | None
    questions: int
    answered: int
    right: int
    mean_ndcg: float | None
    points: int = 0


@dataclass(frozen=True)
class Standing:
    """A line of the leaderboard: the place (students with the same points share it: 1, 2, 2, 4), the student's
    number and nickname, and their points."""

    place: int
    student: int
    nickname: str | None
    points: int


@dataclass(frozen=True)
class RoomResults:
    activities: tuple[ActivityResults, ...]
    totals: tuple[StudentTotal, ...]


@dataclass(frozen=True)
class PartOutcome:
    """One question of an activity: how many answered it and how many were right."""

    answered: int
    right: int

    @property
    def share_right(self) -> float | None:
        return self.right / self.answered if self.answered else None


@dataclass(frozen=True)
class ActivityOutcome:
    """What one activity came to, for the end-of-class summary: the students present (``joined``), how many
    answered at least one question, and per question (one, or one per Practice exercise) answered and right."""

    number: int
    kind: str
    round: int
    joined: int
    answered: int
    parts: tuple[PartOutcome, ...]
    marked: bool = True  # False: its answers are neither right nor wrong (Judge)
    mistakes: tuple[Group, ...] = ()  # the answers that matched a known mistake, by mistake (Predict, Choose)

    @property
    def answers(self) -> int:
        """Answers given over every question."""
        return sum(p.answered for p in self.parts)

    @property
    def right(self) -> int:
        """Right answers over every question."""
        return sum(p.right for p in self.parts)

    @property
    def share_right(self) -> float | None:
        """Right answers as a share of the answers given (``None`` when nobody answered, or answers are not
        marked)."""
        return self.right / self.answers if self.answers and self.marked else None

    @property
    def participation(self) -> float | None:
        """Students who answered as a share of those present (``None`` when nobody was there)."""
        return self.answered / self.joined if self.joined else None


def parts_of(activity: Activity) -> int:
    """How many questions an activity asks: one per exercise of a Practice, one per result to Judge, else one."""
    return activity.parts()


def solutions(activity: Activity) -> tuple[Any, ...]:
    """The right answer of each part (see ``ActivityResults``)."""
    return activity.solutions()


def answer_group(activity: Activity, value: Any) -> str | None:
    """The group an answer falls in: an estimate's verdict (right, close, a mistake's code or other), a choice's
    (right or its option's mistake); ``None`` for no answer and for the kinds that name no mistakes."""
    if value is None:
        return None
    if isinstance(activity, Predict):
        return activity.verdict(value).group
    if isinstance(activity, Choose):
        return activity.group(value)
    return None


def common_mistakes(outcomes: Iterable[ActivityOutcome], top: int = 3) -> tuple[Group, ...]:
    """The class's most common mistakes over every activity, at most ``top`` (as ``grouped`` orders them)."""
    total: Counter[str] = Counter()
    for o in outcomes:
        total.update({g.code: g.count for g in o.mistakes})
    return mistakes_only(grouped(total.elements()))[:top]


def marks_answers(activity: Activity) -> bool:
    """Whether the activity's answers are right or wrong: a Judge grade is neither (judging has no right grade)."""
    return not isinstance(activity, Judge)


def activity_results(taken: Taken) -> ActivityResults:
    """One row per student present (and anyone who answered) and part, marked; no answer is a row too. A Judge
    row carries the class's median grade of its result."""
    activity = taken.activity
    medians = activity.summary(taken.answers).medians if isinstance(activity, Judge) else None
    given = {(a.student, a.part): a for a in taken.answers}
    members = {m.student: m for m in taken.present}
    members.update({a.student: Member(a.student, a.nickname) for a in taken.answers if a.student not in members})
    rows = []
    for number in sorted(members):
        for part in range(parts_of(activity)):
            answer = given.get((number, part))
            if answer is None:
                rows.append(StudentResult(number, members[number].nickname, part, None, None, None, None))
                continue
            result = activity.result(answer.value, part)
            value = answer.value.answer if isinstance(answer.value, ExerciseAnswer) else answer.value
            ndcg = result.ndcg if isinstance(activity, Rank) else None
            median = None if medians is None else medians[part]
            rows.append(
                StudentResult(
                    number, answer.nickname, part, value, result.right, ndcg, answer.at, result.points, median
                )
            )
    return ActivityResults(taken.number, taken.round, activity, solutions(activity), tuple(rows))


def room_results(taken: Sequence[Taken]) -> RoomResults:
    """Every activity's results and each student's totals (students in number order)."""
    results = tuple(activity_results(t) for t in taken)
    rows: dict[int, list[StudentResult]] = {}
    for result in results:
        for row in result.rows:
            rows.setdefault(row.student, []).append(row)
    totals = []
    for number in sorted(rows):
        mine = rows[number]
        reached = [r.ndcg for r in mine if r.ndcg is not None]
        totals.append(
            StudentTotal(
                number,
                mine[-1].nickname,
                len(mine),
                sum(r.answered for r in mine),
                sum(r.right is True for r in mine),
                statistics.fmean(reached) if reached else None,
                sum(r.points or 0 for r in mine),
            )
        )
    return RoomResults(results, tuple(totals))


def leaderboard(results: RoomResults, top: int = 10) -> tuple[Standing, ...]:
    """The students with the most points, most first (ties by student number), down to the ``top``-th place
    (everyone sharing that place is listed); students who answered nothing are left out."""
    ranked = sorted((t for t in results.totals if t.answered), key=lambda t: (-t.points, t.student))
    standings: list[Standing] = []
    for i, total in enumerate(ranked):
        place = standings[-1].place if standings and standings[-1].points == total.points else i + 1
        if place > top:
            break
        standings.append(Standing(place, total.student, total.nickname, total.points))
    return tuple(standings)


def standings(results: RoomResults) -> dict[int, Standing]:
    """Every student's own line of the whole leaderboard (by student number): their place among all who answered
    something (as ``leaderboard`` places them) and their points; a student who answered nothing has none."""
    return {s.student: s for s in leaderboard(results, top=len(results.totals))}


def outcome(result: ActivityResults) -> ActivityOutcome:
    """One activity's participation and right answers, from its results."""
    parts = []
    for part in range(parts_of(result.activity)):
        rows = [r for r in result.rows if r.part == part]
        parts.append(PartOutcome(sum(r.answered for r in rows), sum(r.right is True for r in rows)))
    students = {r.student for r in result.rows}
    answered = {r.student for r in result.rows if r.answered}
    groups = (answer_group(result.activity, r.value) for r in result.rows)
    return ActivityOutcome(
        result.number,
        result.kind,
        result.round,
        len(students),
        len(answered),
        tuple(parts),
        marks_answers(result.activity),
        mistakes_only(grouped(g for g in groups if g is not None)),
    )
