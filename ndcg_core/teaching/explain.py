"""Explain a number: which conventions, and which tools, give the NDCG another tool printed.

The conventions that make NDCG tools disagree are a search space (``catalogue``: the axes, each value's change
from this project's default with why and a source, the named tools as variants).

``explain_run(qrels, run, measure, printed)`` evaluates every distinct variant once over the files' rankings (an
engine's ``Rankings``: matched once in memory, or out of core with ``explain_rankings``; ties and 32-bit scores
only where they change a ranking) and lists the variants that give ``printed`` to its printed precision ("0.5371"
is 0.5371 +- 0.00005), closest first; ``explain_list`` does the same for one ranked list (the Conventions page's
``Example``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np
import pyarrow as pa

from .. import validate
from ..errors import InputError, shown
from ..lists.spec import ListSpec
from ..trec.engines import Rankings
from ..trec.engines.memory import MemoryRankings
from ..trec.measures import TREC_EVAL_CUTOFFS, Measure, ndcg_cut
from ..trec.readers import Qrels, Run
from .catalogue import AXES, CHANGES, DEFAULT, LIBRARIES, Variant
from .conventions import Example

SAME = 1e-9  # relative: two values this close are one value
# Relative: a number printed to full precision (17 digits) is still only as exact as its sum; summed in another order
# a mean of a million queries moves in its last few bits, far more than half a unit of its 17th decimal.
SUMMING_FLOOR = 1e-12
NEAREST = 5  # how many variants are shown when none matches
NEAR = 1e-3  # relative: a tool of unstable sort whose convention gives a number this near is said to be near


@dataclass(frozen=True)
class Match:
    """A variant and the number it gives: its ``changes`` from the default and the ``libraries`` it is."""

    variant: Variant
    value: float
    difference: float  # value minus the number explained
    changes: tuple[str, ...]
    libraries: tuple[str, ...]  # the tools whose number this is (their own variant may be another that gives it)
    others: tuple[tuple[str, ...], ...] = ()  # the changes of the other variants that give exactly this number

    @property
    def alike(self) -> int:
        """How many other variants give exactly this number."""
        return len(self.others)


@dataclass(frozen=True)
class Explanation:
    """What gives ``value`` (read from its text to ``decimals`` places, so within ``tolerance``): the ``matches``,
    closest at the printed precision first (then a tool's first, fewest changes first), or none and the ``nearest``;
    ``default`` is this project's own number; ``also`` lists changes that give the matches' numbers too (a log's
    base)."""

    value: float
    decimals: int
    tolerance: float
    measure: Measure
    default: float
    matches: tuple[Match, ...]
    nearest: tuple[Match, ...]
    also: tuple[str, ...]
    idle: tuple[str, ...]  # axes that change nothing on these files (searched at their default only)
    searched: int  # how many variants were compared
    # Tools whose sort is not stable (``Library.unstable``) and that no match names: their convention's number, how
    # near it is, when within ``NEAR`` of the number explained (their own order of ties is only mostly their
    # convention's, so their number can be a hair from it).
    near: tuple[Match, ...] = ()


def printed_decimals(text: Any) -> int:
    """How many decimals a printed number has ("0.5371": 4; a comma read as a decimal point counts as one)."""
    raw = str(text).strip().replace("，", ".").replace(",", ".")
    try:
        exponent = Decimal(raw).as_tuple().exponent
    except InvalidOperation:
        return 0
    return max(0, -exponent) if isinstance(exponent, int) else 0


def printed_tolerance(value: float, decimals: int) -> float:
    """How far a number printed to ``decimals`` places may be from the value it stands for: half a unit of its last
    decimal, and never less than the error of summing in another order (``SUMMING_FLOOR`` of the value)."""
    return max(0.5 * 10.0**-decimals * (1 + SAME), abs(value) * SUMMING_FLOOR)


def tolerance_text(tolerance: float, decimals: int) -> str:
    """The tolerance as the explanation prints it: to one decimal more than the number, or in scientific notation
    where that would be a long row of zeros."""
    return f"{tolerance:.{decimals + 1}f}" if decimals <= 8 else f"{tolerance:.0e}"


def read_printed(printed: Any) -> tuple[float, int]:
    """The number another tool printed and its decimals; an ``InputError`` (``answer.*``) for text not a number."""
    if isinstance(printed, (int, float)) and not isinstance(printed, bool):
        printed = repr(float(printed))
    return validate.answer(printed), printed_decimals(printed)


def explain_run(qrels: Qrels, run: Run, measure: Measure, printed: Any, *, max_docs: int | None = None) -> Explanation:
    """The variants (and tools) that give ``printed`` for ``measure`` on these files, closest first; ``max_docs``: the
    number was printed with trec_eval's ``-M``, so every variant keeps only that many documents of each ranking."""
    return explain_rankings(MemoryRankings(qrels, run), measure, printed, max_docs=max_docs)


def explain_rankings(rankings: Rankings, measure: Measure, printed: Any, *, max_docs: int | None = None) -> Explanation:
    """``explain_run`` over an engine's rankings of two files (``Engine.rankings``: ``--explain`` with
    ``--engine duckdb`` searches out of core)."""
    value, decimals = read_printed(printed)
    if not isinstance(measure, Measure) or measure.gains:
        raise InputError("measure.not_text", value=shown(measure))
    return _explanation(rankings_values(rankings, measure, max_docs=max_docs), measure, value, decimals)


def explain_list(ranked: Example | ListSpec, printed: Any) -> Explanation:
    """``explain_run`` of one ranked list (the Conventions page's ``Example``, or a ``ListSpec`` in its order): its
    items as one query's run, its grades (and missed items) as qrels, cut at its k."""
    example = ranked if isinstance(ranked, Example) else example_of(ranked)
    qrels, run = collection_of(example)
    measure = ndcg_cut(example.k) if example.k is not None else Measure("ndcg")
    return explain_run(qrels, run, measure, printed)


def example_of(spec: ListSpec) -> Example:
    """A ``ListSpec`` as an ``Example``: its items by id, scored from the top down, its missed items as extra."""
    n = len(spec.items)
    return Example(
        tuple(f"i{item.id}" for item in spec.items),
        tuple(float(n - i) for i in range(n)),
        spec.grades,
        tuple((f"i{item.id}", item.grade) for item in spec.extra),
        spec.k,
    )


def collection_of(example: Example) -> tuple[Qrels, Run]:
    """One query's qrels and run from a ranked list; grades must be whole numbers, as in a qrels file."""
    judged = list(zip(example.items, example.grades, strict=True)) + list(example.extra)
    for _, grade in judged:
        if not float(grade).is_integer():
            raise InputError("explain.whole_grades", value=shown(grade))
    qrels = Qrels(
        pa.array(["q"] * len(judged)),
        pa.array([item for item, _ in judged]),
        np.array([int(g) for _, g in judged], dtype=np.int64),
        name="list",
    )
    run = Run(
        pa.array(["q"] * len(example.items)),
        pa.array(list(example.items)),
        np.asarray(example.scores, dtype=np.float64),
        name="list",
    )
    return qrels, run


@dataclass(frozen=True)
class Searched:
    """Every variant searched and its mean, and the axes that change nothing on these files (``idle``)."""

    values: Mapping[Variant, float]
    idle: tuple[str, ...]


# The search's axes by how their values are reached (``catalogue.AXES`` lists the values). A new axis plugs in here:
# its values in ``AXES`` and ``CHANGES``, a ``Variant`` field, then
# - an axis that changes ``EvaluationOptions`` (as judged-only does): mapped in ``Variant.options``, named in
#   ``EVALUATED``, and its values worth searching on the files in ``_searched_values``: each value is one more
#   evaluation of every query, for every combination of the others;
# - an axis read from the columns of those evaluations (as the depth, the cut and -c are): named in ``READ`` and
#   worked out in ``_per_query`` (or the mean's loop, for the queries).
# ``REORDERED`` axes (ties, 32-bit scores) are evaluated again only on the queries where they change the order.
EVALUATED: tuple[str, ...] = ("gain", "discount", "ideal", "judged")
REORDERED: tuple[str, ...] = ("scores", "ties")
READ: tuple[str, ...] = ("depth", "cut", "queries")
# -M's N searched where no -M is given: trec_eval's own cutoffs (1000 is TREC's official -M), those shorter than the
# longest ranking (and than the measure's k): deeper, -M changes nothing.
DEPTHS = TREC_EVAL_CUTOFFS


def variant_values(qrels: Qrels, run: Run, measure: Measure, *, max_docs: int | None = None) -> Searched:
    """Every variant's mean ``measure`` on these files in memory (``rankings_values`` of the default engine's
    rankings), each ranking cut at ``max_docs`` (``-M``) if given."""
    return rankings_values(MemoryRankings(qrels, run), measure, max_docs=max_docs)


def rankings_values(rankings: Rankings, measure: Measure, *, max_docs: int | None = None) -> Searched:
    """Every variant's mean ``measure`` over an engine's rankings of two files (``trec.engines.Rankings``: in
    memory, or out of core), each ranking cut at ``max_docs`` (``-M``) if given, else at each of ``DEPTHS`` that
    cuts some ranking as one more variant.

    Each evaluated combination (``EVALUATED``) is evaluated in the default order, and in each other order (a tie
    policy, 32-bit scores) only where one changes something on these files. An axis that changes nothing here is
    searched at its default only. -M's depths are searched over every document (not with judged-only, whose -M
    cuts before the unjudged leave).
    """
    grades = list(rankings.grades)
    k = measure.cutoff
    orders = [("double", "trec_eval")]
    if rankings.mixed("double"):
        orders += [("double", t) for t in AXES["ties"][1:]]
    if rankings.float32_matters():
        orders += [("float32", t) for t in AXES["ties"]]
    depths = _depths(rankings.longest, k) if max_docs is None else ()
    cutoffs = tuple(sorted({*depths, *((k,) if k is not None else ())}))
    searched = {axis: _searched_values(axis, rankings) for axis in EVALUATED}
    values: dict[Variant, float] = {}
    in_run = np.asarray(rankings.in_run, dtype=bool)
    for picked in itertools.product(*(searched[axis] for axis in EVALUATED)):
        variant = Variant(**dict(zip(EVALUATED, picked, strict=True)))
        options = variant.options(grades, cutoffs, max_docs)
        for scores, ties in orders:
            chosen = replace(variant, scores=scores, ties=ties)
            changed = rankings.columns(scores, ties, options)
            for depth in ("all", *(str(m) for m in depths)) if variant.judged == "all" else ("all",):
                for cut in ("ndcg_cut", "max_docs", "ndcg") if k is not None else ("ndcg",):
                    per_query = _per_query(changed, replace(chosen, depth=depth, cut=cut), k)
                    if per_query is None:
                        continue
                    for queries in AXES["queries"] if not in_run.all() else ("left_out",):
                        kept = per_query if queries == "complete" else per_query[in_run]
                        mean = float(np.mean(kept)) if len(kept) else 0.0
                        values[replace(chosen, depth=depth, cut=cut, queries=queries)] = mean
    idle = tuple(
        axis
        for axis, busy in (
            ("judged", len(searched["judged"]) > 1),
            ("ties", any(t != "trec_eval" for _, t in orders)),
            ("depth", bool(depths) or max_docs is not None),
            ("scores", any(s == "float32" for s, _ in orders)),
            ("queries", not in_run.all()),
        )
        if not busy
    )
    return Searched(values, idle)


def _searched_values(axis: str, rankings: Rankings) -> tuple[str, ...]:
    """The values of an evaluated axis worth an evaluation on these files: those that give another number."""
    if axis == "discount":
        return tuple(d for d in AXES["discount"] if _evaluated("discount", d))
    if axis == "judged":
        # Judged-only changes a ranking only where it holds a document without a grade of 0 or more.
        return AXES["judged"] if rankings.unjudged else AXES["judged"][:1]
    return AXES[axis]


def _depths(longest: int, k: int | None) -> tuple[int, ...]:
    """The ``DEPTHS`` that cut some ranking short (``longest``: the most documents one ranking holds) and, for a
    measure at k, come before k."""
    return tuple(m for m in DEPTHS if m < longest and (k is None or m < k))


def _evaluated(axis: str, value: str) -> bool:
    name = f"{axis}.{value}"
    return name not in CHANGES or CHANGES[name].build().evaluated


def _per_query(columns: Mapping[str, np.ndarray], variant: Variant, k: int | None) -> np.ndarray | None:
    """Each query's value under the variant's depth and cut, from an evaluation's columns; ``None`` where the
    combination is not one a tool makes."""
    cut, depth = variant.cut, variant.max_docs
    if depth is not None:
        # trec_eval -M N with -m ndcg or ndcg_cut.k (N < k): the run cut at N, the ideal as the measure's own.
        if variant.ideal != "qrels" or variant.ties == "average" or cut == "max_docs":
            return None
        ideal = columns[f"idcg_cut_{k}"] if cut == "ndcg_cut" else columns["idcg"]
        return _ratio(columns[f"dcg_cut_{depth}"], ideal)
    if cut == "ndcg":
        return columns["ndcg"]
    if cut == "ndcg_cut":
        return columns[f"ndcg_cut_{k}"]
    if variant.ideal != "qrels" or variant.ties == "average" or variant.judged == "only":
        # -M with the ideal from the run cuts the ideal with the run: that is ndcg_cut. trec_eval's -M never meets
        # averaged ties (a tie group cut by -M would be averaged over the rows kept only), and cuts before -J drops
        # the unjudged documents (these columns were cut after).
        return None
    return _ratio(columns[f"dcg_cut_{k}"], columns["idcg"])


def _ratio(dcg: np.ndarray, idcg: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", over="ignore"):
        ratio = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)
    return np.asarray(np.minimum(np.nan_to_num(ratio, nan=0.0), 1.0))


def _explanation(searched: Searched, measure: Measure, value: float, decimals: int) -> Explanation:
    values = searched.values
    tolerance = printed_tolerance(value, decimals)
    libraries: dict[Variant, list[str]] = {}
    for entry in LIBRARIES:
        # On files where an axis changes nothing, a tool gives the number of its variant at that axis's default.
        at_default = {axis: AXES[axis][0] for axis in searched.idle}
        libraries.setdefault(replace(entry.build().variant(measure), **at_default), []).append(entry.name)
    ranked = sorted(
        (
            Match(v, x, x - value, v.changes(measure), tuple(libraries.get(v, ())))
            for v, x in values.items()
            if np.isfinite(x)
        ),
        # Closest at the printed precision first (every match is at 0: the digits not printed are unknown), then
        # a tool's before a bare convention, fewer changes first, then closest to the last bit.
        key=lambda m: (
            round(abs(round(m.value, decimals) - value), 12),
            not m.libraries,
            len(m.changes),
            round(abs(m.difference), 12),
            m.changes,
        ),
    )
    ranked = _one_per_number(ranked)
    matches = tuple(m for m in ranked if abs(m.difference) <= tolerance)
    named = {name for m in matches for name in m.libraries}
    near = tuple(
        m
        for m in ranked
        if m not in matches
        and abs(m.difference) <= NEAR * abs(value)
        and any(LIBRARIES[name].build().unstable and name not in named for name in m.libraries)
    )
    default_variant = DEFAULT if measure.cutoff is not None else replace(DEFAULT, cut="ndcg")
    also = tuple(e.name for e in CHANGES if not e.build().evaluated) if matches else ()
    return Explanation(
        value,
        decimals,
        tolerance,
        measure,
        values[default_variant],
        matches,
        () if matches else tuple(ranked[:NEAREST]),
        also,
        searched.idle,
        len(values),
        near,
    )


def _one_per_number(ranked: list[Match]) -> list[Match]:
    """One match per distinct number: the first of those giving it (a tool's, else the fewest changes), with every
    tool that gives it and how many others do."""
    groups: dict[float, list[Match]] = {}
    for m in ranked:
        groups.setdefault(round(m.value, 12), []).append(m)
    out = []
    for group in groups.values():
        tools = tuple(dict.fromkeys(name for m in group for name in m.libraries))
        out.append(replace(group[0], libraries=tools, others=tuple(m.changes for m in group[1:])))
    return out


MAX_LINES = 20  # matches printed by ``explanation_lines``; the rest are counted


def change_label(change: str, variant: Variant) -> str:
    """A change's label as the command line prints it: -M's with the variant's N."""
    label = CHANGES[change].label
    return label.replace("N", str(variant.max_docs)) if change == "depth.M" else label


def match_line(match: Match, decimals: int) -> str:
    """One match as a line: its value, what changed from the default, the tools that are it, and why."""
    changes = "; ".join(change_label(c, match.variant) for c in match.changes) or "this project's default"
    tools = ", ".join(LIBRARIES[name].label for name in match.libraries)
    if match.libraries:
        why = LIBRARIES[match.libraries[0]].description
    else:
        why = CHANGES[match.changes[0]].description if match.changes else ""
    shown_tools = f"  [{tools}]" if tools else ""
    alike = f" (+{match.alike} more giving the same)" if match.alike else ""
    return f"{match.value:.{decimals + 2}f}  {changes}{alike}{shown_tools}  {why}".rstrip()


def explanation_lines(explanation: Explanation) -> list[str]:
    """The command line's words for an explanation: a heading, one line per match (or the nearest), and notes."""
    e = explanation
    decimals = e.decimals
    given = f"{e.measure.name} {e.value:.{decimals}f} (+-{tolerance_text(e.tolerance, decimals)})"
    default = f"this project's default (trec_eval 10.0) gives {e.default:.{decimals + 2}f}"
    if e.matches:
        count = sum(1 + m.alike for m in e.matches)
        lines = [f"{given}: {count} of {e.searched} conventions give it; {default}"]
        shown_matches = e.matches[:MAX_LINES]
    else:
        lines = [f"{given}: none of {e.searched} conventions gives it; {default}; the nearest:"]
        shown_matches = e.nearest
    lines += [match_line(m, decimals) for m in shown_matches]
    if len(e.matches) > MAX_LINES:
        lines.append(f"... and {len(e.matches) - MAX_LINES} more, further from {e.value:.{decimals}f}")
    for m in e.near:
        tools = [name for name in m.libraries if LIBRARIES[name].build().unstable]
        lines.append(
            f"Near: {', '.join(LIBRARIES[n].label for n in tools)}'s convention gives {m.value:.{decimals + 2}f}, "
            f"{m.difference:+.1e} from {e.value:.{decimals}f}. {UNSTABLE}"
        )
    if e.idle:
        lines.append("These change nothing on these files: " + ", ".join(IDLE_WORDS[a] for a in e.idle) + ".")
    for name in e.also:
        lines.append(f"Also: {CHANGES[name].label}. {CHANGES[name].description}")
    return lines


# The command line's words for an axis that changes nothing on the files (``Explanation.idle``).
IDLE_WORDS = {
    "judged": "-J (every retrieved document is judged)",
    "ties": "tie policies",
    "depth": "-M (no ranking is longer than trec_eval's depths, or the measure's k)",
    "scores": "32-bit scores",
    "queries": "-c (every judged query has results)",
}
# Why a tool of unstable sort (``Library.unstable``) is near its convention's number, not at it.
UNSTABLE = (
    "Its sort of tied documents is not stable (ranx sorts each query with numba's argsort, a quicksort): where many "
    "documents tie, a few leave the file's order, so its number is near that of ties in file order, not always it."
)
