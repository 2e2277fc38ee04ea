"""A class list: a ranked list as the class sees it (an ``ndcg_core.lists.ListSpec`` checked for a phone), its
payload and lesson codecs, its conventions and its line in a lesson's outline, and the lists a teacher picks from
(the Playground's presets, the real result lists, a seeded random list)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from ... import validate
from ...errors import InputError, Place, number_text, shown
from ...lists.discounts import DISCOUNTS
from ...lists.presets import PRESETS
from ...lists.results import RESULTS
from ...lists.scoring import Scoring
from ...lists.spec import ListSpec
from ...teaching.exercises import Conventions
from ..lesson_fields import MAX_QUERY, Field, Reader
from .base import AnswerT, KindBase, Material, Payload

ACTIVITY_GAINS = ("linear", "exponential")  # the gains a classroom list may use
DISCOUNT = "log2"  # the discount a classroom NDCG uses unless a lesson names another (ndcg_at_k's default)
MAX_LIST = 12  # a phone shows this many items comfortably


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


def list_to_json(spec: ListSpec) -> Payload:
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


def list_lesson_data(spec: ListSpec, pool: bool = True) -> Payload:
    """A class list as a lesson file writes it: only the fields that differ from their defaults."""
    data: Payload = {}
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


def number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def numbers(values: Sequence[float]) -> list[float | int]:
    """Numbers as a file writes them: whole ones without a decimal point."""
    return [number(v) for v in values]


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


def quoted(query: str) -> str:
    return f' "{query}"' if query else ""


def outline_ndcg(spec: ListSpec) -> str:
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


def random_list(seed: object) -> ListSpec:
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


def list_material(spec: ListSpec) -> Material:
    """What a question on ``spec`` is asked on: its query, grades, missed grades and Järvelin-Kekäläinen base."""
    return Material(spec.query, spec.grades, spec.pool, None, spec.jk_base)


class OverAList(KindBase[AnswerT]):
    """The hooks of a kind over one ranked list, ``spec`` (Predict, Rank it best, Judge, Which is right?): its
    conventions and material are the list's, it is made from any list, and it is over that list."""

    spec: ListSpec
    made_from_a_list: ClassVar[bool] = True

    @classmethod
    def from_list(cls, spec: ListSpec) -> Self:
        """The kind's activity on ``spec`` with its usual settings (here: the list alone)."""
        return cls(spec)  # type: ignore[call-arg]  # each kind is a dataclass whose first field is its list

    def conventions(self, part: int = 0) -> Conventions:
        return list_conventions(self.spec)

    def material(self, part: int = 0) -> Material:
        return list_material(self.spec)

    def ranked_list(self) -> ListSpec:
        return self.spec
