"""Practice exercises generated from a seed, so a whole class can work on the same set.

``exercise(seed, number)`` gives the number-th exercise of a set; the kinds rotate through
``KINDS``. From the second round on (number 7 and later), a DCG or NDCG exercise may be a variant (``VARIANTS``,
chosen by the seed and the round): the exponential gain or Järvelin and Kekäläinen's discount for a DCG, judged
results the list missed for an NDCG; the first round, and every other exercise, is as it always was (links and
classes name exercises by number). Answers are computed with ndcg_core's own functions; ``check`` marks an answer,
and ``spec`` and ``mistakes`` give a numeric exercise as a ``ListSpec`` and name the mistake a wrong number matches.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import validate
from ..errors import InputError, Note
from ..lists.ndcg import dcg, idcg, ndcg_at_k
from ..lists.scoring import Scoring
from ..lists.spec import ListSpec
from .mistakes import Diagnosis, diagnose
from .reading import Reading, read_answer

KINDS = ("dcg_term", "dcg", "ndcg", "better_order", "swap", "reach", "gap")
NUMERIC = ("dcg_term", "dcg", "ndcg")  # the kinds answered with a number
QUESTION = {"dcg_term": "term", "dcg": "dcg", "ndcg": "ndcg"}  # what each asks for, as ``mistakes.METRICS`` names it
# A kind's variants past the first round: the exponential gain or J&K's discount (b = 2) for a DCG; judged results
# the list missed for an NDCG, counted in the ideal ("pool") or shown and left out of it ("list").
VARIANTS = {"dcg": ("exponential", "jk"), "ndcg": ("pool", "list")}
# How an exercise reads: its kind, or kind_variant (the keys of its prompt and its working).
FORMS = (*KINDS, *(f"{kind}_{v}" for kind, variants in VARIANTS.items() for v in variants))
GAIN = "linear"  # every exercise scores a grade as its own gain ...
DISCOUNT = "log2"  # ... divided by log2(position + 1); ``conventions`` says so to the learner
TOLERANCE = 0.01
REACH_TARGET = 0.95
MAX_REACH_ITEMS = 7


@dataclass(frozen=True)
class Exercise:
    """One exercise: its kind, the data the learner sees, and the right answer."""

    kind: str
    seed: int
    number: int
    data: dict[str, Any] = field(default_factory=dict)
    answer: Any = None


@dataclass(frozen=True)
class Conventions:
    """What a question is scored under, stated with the question: the metric (``ndcg``, ``dcg``, ``mrr`` or
    ``precision``), the cutoff ``k`` (``None``: the whole list or, for one DCG term, none), and for DCG and
    NDCG the gain and the discount (registry names in ``GAINS`` and ``DISCOUNTS``) and, for NDCG, where the
    ideal comes from: ``list`` (the list's own grades, sorted) or ``pool`` (every judged item, including
    judged items the list did not retrieve). ``base`` is the discount's base where it takes one (J&K's b)."""

    metric: str
    k: int | None
    gain: str | None = None
    discount: str | None = None
    ideal: str | None = None
    base: float | None = None


def conventions(ex: Exercise) -> Conventions:
    """The conventions an exercise's answer is computed (and checked) under."""
    metric = {"dcg_term": "dcg", "dcg": "dcg", "gap": "dcg"}.get(ex.kind, "ndcg")
    k = None if ex.kind == "dcg_term" else int(ex.data["k"])
    variant = ex.data.get("variant")
    gain = "exponential" if variant == "exponential" else GAIN
    discount, base = ("jk", 2.0) if variant == "jk" else (DISCOUNT, None)
    ideal = ("pool" if variant == "pool" else "list") if metric == "ndcg" else None
    return Conventions(metric, k, gain, discount, ideal, base)


def form(ex: Exercise) -> str:
    """How the exercise reads (one of ``FORMS``): its kind, or its kind and variant."""
    variant = ex.data.get("variant")
    return f"{ex.kind}_{variant}" if variant else ex.kind


def spec(ex: Exercise) -> ListSpec:
    """An exercise's list (every kind but ``better_order`` and ``gap`` has one) as a ``ListSpec`` scored under its
    conventions; a DCG term's k is the whole list."""
    conv = conventions(ex)
    grades = ex.data["grades"]
    missed = ex.data.get("missed", ())
    listed = ListSpec.from_grades(
        [f"doc {chr(65 + i)}" for i in range(len(grades))],
        grades,
        conv.k or len(grades),
        pool=missed,
        scoring=Scoring(gain=conv.gain or GAIN, discount=conv.discount or DISCOUNT, base=conv.base or 2.0),
    )
    return listed if conv.ideal == "pool" or not missed else listed.with_scoring(ideal="list")


def question(ex: Exercise) -> tuple[str, int | None]:
    """What a numeric exercise asks for, as ``mistakes.diagnose`` takes it: the metric and (for a term) the
    position."""
    return QUESTION[ex.kind], ex.data.get("position") if ex.kind == "dcg_term" else None


def mistakes(ex: Exercise, answer: Any) -> tuple[Diagnosis, ...]:
    """The mistakes a numeric exercise's answer matches (``mistakes.diagnose``): none for a right one or one no
    mistake explains, or for an exercise answered by a choice."""
    if ex.kind not in NUMERIC:
        return ()
    metric, position = question(ex)
    return diagnose(spec(ex), answer, metric=metric, position=position)


def reading(ex: Exercise, answer: Any) -> Reading | None:
    """How a numeric exercise's answer reads (``reading.read_answer``: right, a slip located, a mistake named or
    unknown, with the working); ``None`` for an exercise answered by a choice."""
    if ex.kind not in NUMERIC:
        return None
    metric, position = question(ex)
    return read_answer(spec(ex), answer, metric=metric, position=position)


check_seed = validate.seed


def _grades(rng: random.Random, n: int, top: int = 3) -> list[int]:
    while True:
        out = [rng.choice(range(top + 1)) for _ in range(n)]
        if sum(out) and sorted(out, reverse=True) != out:  # something relevant, not already ideal
            return out


def exercise(seed: int, number: int) -> Exercise:
    """The ``number``-th exercise (from 0) of the set ``seed``."""
    seed = check_seed(seed)
    kind = KINDS[number % len(KINDS)]
    rng = random.Random(seed * 1_000_003 + number)
    made = _MAKERS[kind](rng, seed, number)
    variant = _variant(kind, seed, number)
    return made if variant is None else _VARIANT_MAKERS[kind](rng, made, variant)


def _variant(kind: str, seed: int, number: int) -> str | None:
    """The variant of the number-th exercise: none in the first round, then one in three plain by seed and round."""
    round_ = number // len(KINDS)
    if kind not in VARIANTS or round_ == 0:
        return None
    choice = (seed + round_) % (len(VARIANTS[kind]) + 1)
    return VARIANTS[kind][choice - 1] if choice else None


def _dcg_variant(rng: random.Random, plain: Exercise, variant: str) -> Exercise:
    """The plain DCG exercise's list and k, scored with the exponential gain or J&K's discount."""
    data = {**plain.data, "variant": variant}
    made = replace(plain, data=data)
    return replace(made, answer=spec(made).dcg())


def _ndcg_variant(rng: random.Random, plain: Exercise, variant: str) -> Exercise:
    """The plain NDCG exercise's list and k, with one or two relevant judged results the list missed, at least one
    graded above the k-th grade of the list's own ideal (so counting them or not changes the answer)."""
    kth = sorted(plain.data["grades"], reverse=True)[plain.data["k"] - 1]
    while True:
        missed = [rng.randint(1, 3) for _ in range(rng.randint(1, 2))]
        if max(missed) > kth:
            break
        if kth >= 3:  # nothing graded above the top grade: the missed results are as good as any listed
            missed = [3]
            break
    made = replace(plain, data={**plain.data, "missed": missed, "variant": variant})
    return replace(made, answer=spec(made).ndcg())


def _dcg_term(rng: random.Random, seed: int, number: int) -> Exercise:
    grades = _grades(rng, 5)
    position = rng.choice([p for p in range(2, 6) if grades[p - 1] > 0] or [2])
    grade = grades[position - 1]
    return Exercise(
        "dcg_term", seed, number, {"grades": grades, "position": position}, grade / math.log2(position + 1)
    )  # linear gain, log2 discount


def _dcg(rng: random.Random, seed: int, number: int) -> Exercise:
    grades = _grades(rng, rng.randint(3, 5))
    k = rng.randint(2, len(grades))
    return Exercise("dcg", seed, number, {"grades": grades, "k": k}, dcg(grades, k, gain=GAIN, discount=DISCOUNT))


def _ndcg(rng: random.Random, seed: int, number: int) -> Exercise:
    grades = _grades(rng, rng.randint(3, 5))
    k = rng.randint(2, len(grades))
    return Exercise(
        "ndcg", seed, number, {"grades": grades, "k": k}, ndcg_at_k(grades, k, gain=GAIN, discount=DISCOUNT)
    )


def _better_order(rng: random.Random, seed: int, number: int) -> Exercise:
    grades = _grades(rng, 5)
    k = 5
    while True:
        other = grades[:]
        rng.shuffle(other)
        a, b = ndcg_at_k(grades, k, gain=GAIN, discount=DISCOUNT), ndcg_at_k(other, k, gain=GAIN, discount=DISCOUNT)
        if abs(a - b) > 1e-9:
            break
    return Exercise("better_order", seed, number, {"a": grades, "b": other, "k": k}, "a" if a > b else "b")


def _swap(rng: random.Random, seed: int, number: int) -> Exercise:
    grades = _grades(rng, 5)
    k = rng.randint(2, 5)
    i, j = sorted(rng.sample(range(5), 2))
    swapped = grades[:]
    swapped[i], swapped[j] = swapped[j], swapped[i]
    before, after = (
        ndcg_at_k(grades, k, gain=GAIN, discount=DISCOUNT),
        ndcg_at_k(swapped, k, gain=GAIN, discount=DISCOUNT),
    )
    answer = "up" if after > before + 1e-12 else "down" if after < before - 1e-12 else "same"
    return Exercise("swap", seed, number, {"grades": grades, "k": k, "i": i + 1, "j": j + 1}, answer)


def fewest_moves(grades: Sequence[float], k: int, target: float = REACH_TARGET) -> int:
    """The fewest single-item moves (take one item, put it anywhere) to reach NDCG@k >= target.

    Breadth-first search over orders; lists here have at most 7 items.
    """
    if len(grades) > MAX_REACH_ITEMS:
        raise InputError("reach.too_long", count=len(grades), limit=MAX_REACH_ITEMS)
    start = tuple(grades)
    seen, queue = {start}, deque([(start, 0)])
    while queue:
        order, moves = queue.popleft()
        if ndcg_at_k(order, k, gain=GAIN, discount=DISCOUNT) >= target - 1e-12:
            return moves
        for i in range(len(order)):
            rest = order[:i] + order[i + 1 :]
            for j in range(len(order)):
                nxt = rest[:j] + (order[i],) + rest[j:]
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, moves + 1))
    raise AssertionError("the ideal order scores 1.0, so some order reaches any target up to 1")


def _reach(rng: random.Random, seed: int, number: int) -> Exercise:
    k = 5
    while True:
        grades = _grades(rng, 6, top=4)
        if ndcg_at_k(grades, k, gain=GAIN, discount=DISCOUNT) < REACH_TARGET:
            break
    return Exercise("reach", seed, number, {"grades": grades, "k": k, "target": REACH_TARGET}, fewest_moves(grades, k))


def _gap(rng: random.Random, seed: int, number: int) -> Exercise:
    k = 5
    queries = {}
    for q in range(rng.randint(3, 4)):
        queries[f"q{q + 1}"] = _grades(rng, 5)
    gaps = {
        q: idcg(g, k, gain=GAIN, discount=DISCOUNT) - dcg(g, k, gain=GAIN, discount=DISCOUNT)
        for q, g in queries.items()
    }
    best = max(gaps, key=lambda q: (gaps[q], q))
    return Exercise("gap", seed, number, {"queries": queries, "k": k, "gaps": gaps}, best)


_MAKERS = {
    "dcg_term": _dcg_term,
    "dcg": _dcg,
    "ndcg": _ndcg,
    "better_order": _better_order,
    "swap": _swap,
    "reach": _reach,
    "gap": _gap,
}


_VARIANT_MAKERS = {"dcg": _dcg_variant, "ndcg": _ndcg_variant}


parse_number = validate.answer


def reading_note(ex: Exercise, answer: Any) -> Note | None:
    """How a typed number answer to ``ex`` was read, when the learner should be told ("read 0,62 as 0.62");
    ``None`` for a choice, a plain number or an unreadable answer (``check`` names the problem)."""
    if ex.kind not in NUMERIC:
        return None
    try:
        return validate.reading(answer).note
    except InputError:
        return None


def marked(ex: Exercise, answer: Any) -> tuple[bool, Note | None]:
    """Whether ``answer`` is right (``check``) and how a typed number was read (``reading_note``, for a number
    exercise), from one reading of it. ``InputError`` if unreadable."""
    if ex.kind in NUMERIC:
        read = validate.reading(answer)
        return bool(abs(read.value - ex.answer) <= TOLERANCE + 1e-12), read.note
    return check(ex, answer), None


def check(ex: Exercise, answer: Any) -> bool:
    """Whether ``answer`` is right: numbers within 0.01, choices exactly. ``InputError`` if unreadable."""
    if ex.kind in NUMERIC:
        return bool(abs(parse_number(answer) - ex.answer) <= TOLERANCE + 1e-12)
    if ex.kind == "reach":
        return bool(answer)  # the page checks the learner's own order; here a reached flag
    if answer in (None, ""):
        raise InputError("answer.no_choice")
    return bool(answer == ex.answer)
