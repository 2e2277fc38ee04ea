"""Learners' mistakes with DCG and NDCG, each rebuilding the number it gives, and ``diagnose`` to name them.

Each entry of ``MISTAKES`` is a ``Mistake``: a stable code, the questions it can show in (``METRICS``: NDCG@k,
DCG@k, the ideal's DCG@k, one DCG term), the conditions it needs of a list (``CONDITIONS``: judged results the
list missed, k shorter than the list, a linear gain ...) and a change to the ``Working``, the way a number is
worked out. A mistake's number is the right working with that change, computed by the core's own ``dcg`` and
``idcg``. ``PAIRS`` lists two mistakes made at once where the two give a number of their own.

``diagnose(spec, answer)`` names the mistakes whose number the answer matches to its own printed precision
(half a unit in its last decimal, at least ``FLOOR``), as ``Diagnosis`` values, most likely first; none for a
right answer. ``explain`` gives the same value for a named mistake without an answer (for a lesson to show it).
A ``Diagnosis`` holds figures, not sentences: the UI words it (``ui/mistake_text.py``, keys ``mistake.<code>.*``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError, shown
from ..lists.discounts import DISCOUNTS, Discount
from ..lists.gains import GAINS, Gain
from ..lists.ndcg import dcg, idcg, ideal_grades, ratio
from ..lists.spec import ListSpec
from ..registry import Registry

# What a question asks for: NDCG@k, DCG@k, the ideal's DCG@k, or the DCG term at one position.
METRICS = ("ndcg", "dcg", "idcg", "term")
FLOOR = 5e-5  # the smallest tolerance: an answer with many decimals still matches a number worked another way
CEILING = 0.05  # the largest: a whole-number answer is read to one decimal
MAX_NAMED = 3  # an answer matching more mistakes than this names none: it says too little
SAME = 1e-9  # relative: two numbers this close are one number


@dataclass(frozen=True)
class Working:
    """How a number is worked out: the list's grades summed to ``list_cut`` under ``gain`` and ``discount``,
    divided (when ``normalised``) by the DCG of the ideal's top ``ideal_cut``, the ideal sorted from
    ``ideal_from`` (``None``: the list's own grades) best first, or worst first when ``ascending``."""

    grades: tuple[float, ...]
    missed: tuple[float, ...]  # judged results the list did not retrieve, whether the ideal includes them or not
    ideal_from: tuple[float, ...] | None
    gain: Gain
    discount: Discount
    list_cut: int
    ideal_cut: int
    normalised: bool = True
    ascending: bool = False

    @classmethod
    def of(cls, spec: ListSpec) -> Working:
        """The right working of ``spec``."""
        pool = spec.judged_pool()
        return cls(
            grades=spec.grades,
            missed=tuple(it.grade for it in spec.extra),
            ideal_from=None if pool is None else tuple(pool),
            gain=spec.scoring.gain_function(),
            discount=spec.scoring.discount_function(),
            list_cut=spec.k,
            ideal_cut=spec.k,
        )

    def ideal_size(self) -> int:
        """How many grades the ideal is sorted from."""
        return len(self.grades if self.ideal_from is None else self.ideal_from)

    def list_dcg(self, memo: dict[Any, float] | None = None) -> float:
        """The list's DCG down to ``list_cut`` (``memo`` keeps sums another working shares)."""
        key = ("list", self.list_cut, self.gain, self.discount)
        if memo is not None and key in memo:
            return memo[key]
        # Arrays of floats: the core checks them as a whole, not number by number (the spec has checked them).
        value = dcg(np.asarray(self.grades, dtype=np.float64), self.list_cut, gain=self.gain, discount=self.discount)
        if memo is not None:
            memo[key] = value
        return value

    def ideal_dcg(self, memo: dict[Any, float] | None = None) -> float:
        """The ideal's DCG down to ``ideal_cut``."""
        key = ("ideal", self.ideal_from, self.ideal_cut, self.gain, self.discount, self.ascending)
        if memo is not None and key in memo:
            return memo[key]
        grades = np.asarray(self.grades, dtype=np.float64)
        pool = None if self.ideal_from is None else np.asarray(self.ideal_from, dtype=np.float64)
        if self.ascending:
            worst_first = ideal_grades(grades, pool, gain=self.gain)[::-1]
            value = dcg(worst_first, self.ideal_cut, gain=self.gain, discount=self.discount)
        else:
            value = idcg(grades, self.ideal_cut, gain=self.gain, discount=self.discount, pool=pool)
        if memo is not None:
            memo[key] = value
        return value

    def term(self, position: int) -> float:
        """The DCG term at ``position`` (from 1): its gain times its discount."""
        grade = self.grades[position - 1]
        return float(self.gain([grade])[0] * self.discount([position])[0])

    def terms(self, metric: str, position: int | None) -> tuple[Term, ...]:
        """The terms this working adds up for a ``dcg`` or ``idcg`` question (the list's to ``list_cut``, the
        ideal's to ``ideal_cut``), or the one term of a ``term`` question; none for NDCG (a ratio of two sums)."""
        grades: tuple[float, ...]
        positions: tuple[int, ...]
        if metric == "term" and position is not None:
            grades, positions = (self.grades[position - 1],), (position,)
        elif metric == "dcg":
            grades = self.grades[: self.list_cut]
            positions = tuple(range(1, len(grades) + 1))
        elif metric == "idcg":
            pool = np.sort(np.asarray(self.grades if self.ideal_from is None else self.ideal_from, dtype=np.float64))
            grades = tuple(float(g) for g in (pool if self.ascending else pool[::-1])[: self.ideal_cut])
            positions = tuple(range(1, len(grades) + 1))
        else:
            return ()
        gains = self.gain(np.asarray(grades, dtype=np.float64))
        d = self.discount
        return tuple(Term(float(g), d.formula(i), d.divides) for g, i in zip(gains, positions, strict=True))


@dataclass(frozen=True)
class Term:
    """One term of a DCG as a learner writes it: its gain and its discount's formula (``log2(3)``, ``ln(4)``, ``1``),
    the gain divided by it (``divides``) or multiplied."""

    gain: float
    discount: str
    divides: bool = True


def _fixed_discount(name: str, factor: Callable[[np.ndarray], np.ndarray], formula: Callable[[int], str]) -> Discount:
    return Discount(name, factor, formula)


# Discounts a learner may use by mistake; not offered as settings, so not in ``DISCOUNTS``.
NATURAL_LOG = _fixed_discount("ln(i+1)", lambda p: 1.0 / np.log(p + 1.0), lambda i: f"ln({i + 1})")
LOG10 = _fixed_discount("log10(i+1)", lambda p: 1.0 / np.log10(p + 1.0), lambda i: f"log10({i + 1})")
SHIFTED = _fixed_discount("log2(i+2)", lambda p: 1.0 / np.log2(p + 2.0), lambda i: f"log2({i + 2})")
NO_DISCOUNT = _fixed_discount("1", lambda p: np.ones_like(p), lambda i: "1")

# What a list must have for a mistake to show in it.
CONDITIONS: dict[str, Callable[[ListSpec], bool]] = {
    "ideal_with_missed": lambda s: s.scoring.ideal == "pool" and bool(s.extra),  # the ideal must include missed results
    "ideal_without_missed": lambda s: s.scoring.ideal == "list" and bool(s.extra),  # missed results shown, not counted
    "k_below_list": lambda s: s.k < len(s.items),
    "k_below_ideal": lambda s: s.k < len(s.items) + (len(s.extra) if s.scoring.ideal == "pool" else 0),
    "gain_linear": lambda s: s.scoring.gain == "linear",
    "gain_exponential": lambda s: s.scoring.gain == "exponential",
    "discount_log2": lambda s: s.scoring.discount == "log2",
    "discount_jk": lambda s: s.scoring.discount == "jk",
}


@dataclass(frozen=True)
class Mistake:
    """One mistake: its code, the questions it shows in, the conditions it needs, its change to the working, and
    (for one made of others) the codes of its parts: it is named only where its number differs from theirs."""

    code: str
    metrics: frozenset[str]
    needs: tuple[str, ...]
    change: Callable[[Working], Working] = field(compare=False)
    parts: tuple[str, ...] = ()

    def shows(self, spec: ListSpec, metric: str) -> bool:
        """Whether it can show in this question on this list."""
        return metric in self.metrics and all(CONDITIONS[name](spec) for name in self.needs)

    def working(self, spec: ListSpec) -> Working:
        """The right working of ``spec`` with this mistake made."""
        return self.change(Working.of(spec))

    def number(self, spec: ListSpec, metric: str, position: int | None = None) -> float | None:
        """The number this mistake gives for ``metric`` (one of ``METRICS``, refused otherwise); ``None`` where it
        gives none (an ideal DCG of 0 to divide by)."""
        _check(metric, position, spec)
        return _number(self.working(spec), metric, position)


MISTAKES: Registry[Mistake] = Registry("mistake")

ALL = frozenset(METRICS)
RATIO = frozenset({"ndcg"})
IDEAL = frozenset({"ndcg", "idcg"})
LIST = frozenset({"ndcg", "dcg"})
SUMS = frozenset({"dcg", "idcg", "term"})  # where a log base shows; in NDCG it cancels


def _mistake(
    code: str, label: str, description: str, *, metrics: frozenset[str], needs: tuple[str, ...] = ()
) -> Callable[[Callable[[Working], Working]], Callable[[Working], Working]]:
    def decorate(change: Callable[[Working], Working]) -> Callable[[Working], Working]:
        MISTAKES.register(code, label, description)(lambda: Mistake(code, metrics, needs, change))
        return change

    return decorate


@_mistake("no_normalisation", "DCG for NDCG", "DCG@k given where NDCG@k is asked.", metrics=RATIO)
def _no_normalisation(w: Working) -> Working:
    return replace(w, normalised=False)


@_mistake(
    "ideal_from_list",
    "Ideal from the list alone",
    "The ideal sorted from the list's own grades, leaving out judged results the list missed.",
    metrics=IDEAL,
    needs=("ideal_with_missed",),
)
def _ideal_from_list(w: Working) -> Working:
    return replace(w, ideal_from=None)


@_mistake(
    "ideal_from_pool",
    "Missed results in the ideal",
    "Judged results the list missed put into an ideal that comes from the list's own grades.",
    metrics=IDEAL,
    needs=("ideal_without_missed",),
)
def _ideal_from_pool(w: Working) -> Working:
    return replace(w, ideal_from=w.grades + w.missed)


@_mistake(
    "ideal_not_cut",
    "Ideal not cut at k",
    "The ideal's DCG summed over every grade, not its top k.",
    metrics=IDEAL,
    needs=("k_below_ideal",),
)
def _ideal_not_cut(w: Working) -> Working:
    return replace(w, ideal_cut=w.ideal_size())


@_mistake(
    "list_not_cut",
    "List not cut at k",
    "The list's DCG summed past k, over every position.",
    metrics=LIST,
    needs=("k_below_list",),
)
def _list_not_cut(w: Working) -> Working:
    return replace(w, list_cut=len(w.grades))


def _nothing_cut(w: Working) -> Working:
    return _ideal_not_cut(_list_not_cut(w))


MISTAKES.register("nothing_cut", "Nothing cut at k", "Both the list's DCG and the ideal's summed past k.")(
    lambda: Mistake("nothing_cut", RATIO, ("k_below_list",), _nothing_cut, ("list_not_cut", "ideal_not_cut"))
)


@_mistake(
    "gain_exponential",
    "Exponential gain",
    "2^grade - 1 used as the gain where the gain is the grade.",
    metrics=ALL,
    needs=("gain_linear",),
)
def _gain_exponential(w: Working) -> Working:
    return replace(w, gain=GAINS.build("exponential"))


@_mistake(
    "gain_linear",
    "Linear gain",
    "The grade used as the gain where the gain is 2^grade - 1.",
    metrics=ALL,
    needs=("gain_exponential",),
)
def _gain_linear(w: Working) -> Working:
    return replace(w, gain=GAINS.build("linear"))


@_mistake(
    "log_natural",
    "Natural log",
    "ln(i + 1) in the discount where log2(i + 1) is asked (it cancels in NDCG).",
    metrics=SUMS,
    needs=("discount_log2",),
)
def _log_natural(w: Working) -> Working:
    return replace(w, discount=NATURAL_LOG)


@_mistake(
    "log10",
    "Log base 10",
    "log10(i + 1) in the discount where log2(i + 1) is asked (it cancels in NDCG).",
    metrics=SUMS,
    needs=("discount_log2",),
)
def _log10(w: Working) -> Working:
    return replace(w, discount=LOG10)


@_mistake(
    "discount_log_i",
    "log2(i) discount",
    "grade / log2(i) with position 1 undiscounted (Järvelin and Kekäläinen, b = 2) where log2(i + 1) is asked.",
    metrics=ALL,
    needs=("discount_log2",),
)
def _discount_log_i(w: Working) -> Working:
    return replace(w, discount=DISCOUNTS.build("jk", base=2.0))


@_mistake(
    "discount_log_i_plus_1",
    "log2(i + 1) discount",
    "log2(i + 1) where Järvelin and Kekäläinen's discount is asked.",
    metrics=ALL,
    needs=("discount_jk",),
)
def _discount_log_i_plus_1(w: Working) -> Working:
    return replace(w, discount=DISCOUNTS.build("log2"))


@_mistake(
    "discount_shifted",
    "log2(i + 2) discount",
    "log2(i + 2) where log2(i + 1) is asked: positions counted from 0 and shifted again.",
    metrics=ALL,
    needs=("discount_log2",),
)
def _discount_shifted(w: Working) -> Working:
    return replace(w, discount=SHIFTED)


@_mistake(
    "no_discount",
    "No discount",
    "Cumulative gain in place of DCG (and CG over the ideal's CG for NDCG).",
    metrics=ALL,
)
def _no_discount(w: Working) -> Working:
    return replace(w, discount=NO_DISCOUNT)


@_mistake(
    "ideal_ascending",
    "Ideal worst first",
    "The ideal sorted worst first (an NDCG above 1 is its sign).",
    metrics=IDEAL,
)
def _ideal_ascending(w: Working) -> Working:
    return replace(w, ascending=True)


def _inverted(d: Discount) -> Discount:
    """The gain multiplied by what ``d`` divides it by: its factor turned upside down, written "gain × d"."""
    return Discount(f"1/({d.name})", lambda p: 1.0 / d(p), d.formula, divides=False)


@_mistake(
    "discount_multiplied",
    "The 1/ forgotten in the discount",
    "The gain multiplied by the discount's log where it is divided by it (a discount of 2 for 0.5).",
    metrics=ALL,
)
def _discount_multiplied(w: Working) -> Working:
    return replace(w, discount=_inverted(w.discount))


# Two mistakes made at once, and the questions where the two give a number of their own.
PAIRS: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("no_normalisation", "list_not_cut", RATIO),
    ("no_normalisation", "gain_exponential", RATIO),
    ("no_normalisation", "gain_linear", RATIO),
    ("no_normalisation", "discount_log_i", RATIO),
    ("no_normalisation", "no_discount", RATIO),
    ("no_normalisation", "log_natural", RATIO),
    ("no_normalisation", "log10", RATIO),
    ("list_not_cut", "gain_exponential", frozenset({"dcg"})),
    ("gain_exponential", "discount_log_i", ALL),
)


def pair(first: str, second: str, metrics: frozenset[str]) -> Mistake:
    """Two mistakes made at once, as one ``Mistake`` coded ``first+second``."""
    a, b = MISTAKES.build(first), MISTAKES.build(second)
    return Mistake(
        f"{first}+{second}",
        metrics,
        tuple(dict.fromkeys(a.needs + b.needs)),
        lambda w: b.change(a.change(w)),
        (first, second),
    )


@cache
def mistakes() -> tuple[Mistake, ...]:
    """Every mistake ``diagnose`` knows, the most likely first: the registry's, then the pairs (built once)."""
    return (*(entry.build() for entry in MISTAKES), *(pair(*p) for p in PAIRS))


@dataclass(frozen=True)
class Diagnosis:
    """A mistake named for an answer (or shown by ``explain``), with the figures its explanation needs.

    ``code`` is a registry code, or ``first+second`` for two at once (``parts`` holds the registry codes).
    ``figures``: ``yours`` (the mistake's number), ``right``, ``answer`` (``None`` from ``explain``), ``k``,
    ``n`` (the list's length), ``m`` (how many grades the ideal is sorted from), ``base`` (the J&K base),
    ``position`` (a term's; else ``None``); for NDCG and IDCG also ``dcg`` and ``idcg`` (the right ones) and
    ``your_dcg`` and ``your_idcg`` (the mistake's; ``your_idcg`` is ``None`` where it divides by nothing).
    ``decimals`` is the answer's printed precision. ``alone`` is False when the answer fits other mistakes too.
    ``terms``: the terms the mistake adds up (a DCG, an ideal's DCG or one term), so its number can be rebuilt.
    """

    code: str
    parts: tuple[str, ...]
    metric: str
    figures: Mapping[str, float | None] = field(hash=False)
    decimals: int = 4
    alone: bool = True
    terms: tuple[Term, ...] = ()  # the mistake's own terms, for a DCG, an ideal's DCG or one term (``Working.terms``)

    @property
    def normalised(self) -> bool:
        """Whether the mistaken working divides by an ideal (an NDCG question where ``no_normalisation`` is not
        among the parts)."""
        return self.metric == "ndcg" and "no_normalisation" not in self.parts


def diagnose(
    spec: ListSpec, answer: Any, *, metric: str = "ndcg", position: int | None = None
) -> tuple[Diagnosis, ...]:
    """The mistakes whose number ``answer`` matches, most likely first; empty for a right answer or none.

    ``answer`` is as the learner typed it (text or a number): it matches a number within half a unit of its last
    printed decimal (at least ``FLOOR``, at most ``CEILING``). Where it matches several mistakes, all are named
    (each not ``alone``), up to ``MAX_NAMED``; beyond that, none. ``metric`` is one of ``METRICS``; a ``term``
    question needs the ``position`` (from 1). An ``InputError`` for an unreadable answer, metric or position.
    """
    _check(metric, position, spec)
    value = validate.answer(answer)
    decimals = _decimals(answer, value)
    tolerance = _tolerance(decimals)
    right, candidates, memo = _table(spec, metric, position)
    if abs(value - right) <= tolerance:
        return ()
    found = [m for m, n in candidates if abs(value - n) <= tolerance]
    if len(found) > MAX_NAMED:
        return ()
    return tuple(
        _diagnosis(spec, m, metric, position, right, memo, answer=value, decimals=decimals, alone=len(found) == 1)
        for m in found
    )


def matches(answer: Any, number: float, *, decimals: int = 0) -> bool:
    """Whether ``answer`` (as the learner typed it, or a number) is ``number`` to the answer's own printed
    precision, as ``diagnose`` matches it (half a unit in its last decimal, at least ``FLOOR``, at most
    ``CEILING``), read to at least ``decimals`` places; an ``InputError`` for an unreadable answer."""
    value = validate.answer(answer)
    return abs(value - number) <= _tolerance(max(decimals, _decimals(answer, value)))


def tolerance(decimals: int) -> float:
    """How far an answer written to ``decimals`` places may be from a number and still be it: half a unit in its
    last decimal, at least ``FLOOR``, at most ``CEILING``."""
    return _tolerance(decimals)


def check_question(metric: Any, position: Any, spec: ListSpec) -> None:
    """An ``InputError`` for a metric not in ``METRICS`` or a term question's missing or bad position."""
    _check(metric, position, spec)


def _tolerance(decimals: int) -> float:
    return min(max(0.5 * 10.0**-decimals, FLOOR), CEILING) * (1 + SAME)


def explain(spec: ListSpec, code: str, *, metric: str = "ndcg", position: int | None = None) -> Diagnosis:
    """A named mistake (a registry code or ``first+second`` of ``PAIRS``) on this question, with its figures, as
    ``diagnose`` would give it, without an answer; an ``InputError`` if it cannot show there."""
    _check(metric, position, spec)
    mistake = _by_code(code)
    if not mistake.shows(spec, metric):
        raise InputError("mistake.not_here", value=shown(code), metric=metric)
    right, _, memo = _table(spec, metric, position)
    return _diagnosis(spec, mistake, metric, position, right, memo)


def numbers(spec: ListSpec, *, metric: str, position: int | None = None) -> dict[str, float]:
    """Every mistake that can show in this question, by code, with its number: only those whose number differs
    from the right one and, for one made of others, from its parts'."""
    _check(metric, position, spec)
    return {m.code: n for m, n in _table(spec, metric, position)[1]}


def forget_questions() -> None:
    """Forget the questions' numbers kept so far (a benchmark times a question met for the first time)."""
    _table.cache_clear()


@lru_cache(maxsize=256)
def _table(
    spec: ListSpec, metric: str, position: int | None
) -> tuple[float, tuple[tuple[Mistake, float], ...], dict[Any, float]]:
    """The right number and every candidate's, for one question: worked out once, as a class's answers to the
    same question all need them (a pure function of its values, so kept for the last few questions). The memo of
    sums comes with them: explaining a mistake needs the same sums, and any it adds are as pure."""
    memo: dict[Any, float] = {}
    right = _right(Working.of(spec), metric, position, memo)
    return right, tuple(_candidates(spec, metric, position, right, memo)), memo


def right_number(spec: ListSpec, metric: str, position: int | None = None) -> float:
    """The right answer to the question (NDCG as the core gives it: 0 where the ideal's DCG is 0, at most 1)."""
    _check(metric, position, spec)
    return _right(Working.of(spec), metric, position, {})


def _right(base: Working, metric: str, position: int | None, memo: dict[Any, float]) -> float:
    if metric == "ndcg":
        return ratio(base.list_dcg(memo), base.ideal_dcg(memo))
    return _number(base, metric, position, memo) or 0.0


def _number(w: Working, metric: str, position: int | None, memo: dict[Any, float] | None = None) -> float | None:
    if metric == "term":
        return w.term(position or 1)
    if metric == "dcg":
        return w.list_dcg(memo)
    if metric == "idcg":
        return w.ideal_dcg(memo)
    top = w.list_dcg(memo)
    if not w.normalised:
        return top
    bottom = w.ideal_dcg(memo)
    return top / bottom if bottom > 0 else None


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= SAME * max(1.0, abs(a), abs(b))


def _candidates(
    spec: ListSpec, metric: str, position: int | None, right: float, memo: dict[Any, float]
) -> list[tuple[Mistake, float]]:
    """The mistakes that show here with a number of their own, in order of likelihood."""
    base = Working.of(spec)
    got: dict[str, float | None] = {}
    out = []
    for mistake in mistakes():
        if not mistake.shows(spec, metric):
            continue
        number = _number(mistake.change(base), metric, position, memo)
        got[mistake.code] = number
        if number is None or not math.isfinite(number) or _same(number, right):
            continue
        if any(got.get(part) is not None and _same(number, got[part] or 0.0) for part in mistake.parts):
            continue
        out.append((mistake, number))
    return out


def _diagnosis(
    spec: ListSpec,
    mistake: Mistake,
    metric: str,
    position: int | None,
    right: float,
    memo: dict[Any, float],
    *,
    answer: float | None = None,
    decimals: int = 4,
    alone: bool = True,
) -> Diagnosis:
    base = Working.of(spec)
    wrong = mistake.working(spec)
    figures: dict[str, float | None] = {
        "yours": _number(wrong, metric, position, memo),
        "right": right,
        "answer": answer,
        "k": spec.k,
        "n": len(spec.items),
        "m": base.ideal_size(),
        "base": spec.scoring.base,
        "position": position,
    }
    if metric in ("ndcg", "idcg"):
        figures.update(
            dcg=base.list_dcg(memo),
            idcg=base.ideal_dcg(memo),
            your_dcg=wrong.list_dcg(memo),
            your_idcg=wrong.ideal_dcg(memo) if wrong.normalised or metric == "idcg" else None,
        )
    return Diagnosis(
        mistake.code,
        mistake.parts or (mistake.code,),
        metric,
        MappingProxyType(figures),
        decimals,
        alone,
        wrong.terms(metric, position),
    )


def _by_code(code: Any) -> Mistake:
    for mistake in mistakes():
        if mistake.code == code:
            return mistake
    choices = [m.code for m in mistakes()]
    raise InputError("mistake.unknown", value=shown(code), choices=", ".join(choices))


def _check(metric: Any, position: Any, spec: ListSpec) -> None:
    if metric not in METRICS:
        raise InputError("mistake.metric", value=shown(metric), choices=", ".join(METRICS))
    if metric == "term":
        _position(position, spec)


def _position(position: Any, spec: ListSpec) -> int:
    count = len(spec.items)
    if position is None:
        raise InputError("mistake.no_position", count=count)
    if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= count:
        raise InputError("mistake.position", value=shown(position), count=count)
    return position


def decimals(answer: Any) -> int:
    """How many decimals an answer (as the learner typed it, or a number) was written with, as ``diagnose`` reads
    them ("0.70": 2, "0,7": 1, 0.25: 2); an ``InputError`` for an unreadable answer."""
    return _decimals(answer, validate.answer(answer))


def _decimals(answer: Any, value: float) -> int:
    """How many decimals the answer was written with: its text's, or a number's shortest form's."""
    text = answer.strip() if isinstance(answer, str) else repr(float(value))
    # A comma here can only be a decimal mark: ``validate.answer`` has read it as one ("0,62" is 0.62).
    text = text.replace("，", ".").replace(",", ".")
    try:
        exponent = Decimal(text).as_tuple().exponent
    except InvalidOperation:
        return 0
    return max(0, -exponent) if isinstance(exponent, int) else 0
