"""NDCG over many queries from qrels and a run, with trec_eval's semantics by default.

Ranking: score descending (compared as doubles, as trec_eval 10.0 does; ``float32_scores``
compares them as 32-bit floats, as trec_eval 9.x and pytrec_eval do), ties broken by docno
descending; the run's rank column is ignored. Ideal: every judged document of the query.
Negative grades count as gain 0. Only queries in both files
count, unless ``complete`` (trec_eval's ``-c``) counts judged queries missing from the
run as 0. ``max_docs`` (``-M``) keeps the first N documents of each ranking.
Everything is vectorised with numpy so a 7-million-line run takes seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import validate
from .errors import InputError, Place, shown
from .single import SAFE_LOG2_GAIN, validate_flag
from .trec_io import Qrels, Run, as_arrow, as_numpy, query_codes
from .variants import Gain, resolve_discount, resolve_gain, resolve_ties

TREC_EVAL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
IDEALS = {
    "qrels": "Every judged document of the query, retrieved or not (trec_eval, pytrec_eval).",
    "run": "Only the documents the run retrieved, re-sorted (scikit-learn's ndcg_score).",
}
if TYPE_CHECKING:
    import pandas as pd

RELEVANT_FROM = 1  # trec_eval's default relevance level for counting relevant documents


@dataclass
class Evaluation:
    """Per-query NDCG figures (in trec_eval's query order) and the settings that produced them."""

    qids: list[str]
    columns: dict[str, np.ndarray]
    cutoffs: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)
    queries_in_blocks: bool = False  # the run was read in segments: each query's lines were one block

    def measure_columns(self) -> list[str]:
        return ["ndcg"] + [f"ndcg_cut_{k}" for k in self.cutoffs]

    @property
    def per_query(self) -> "pd.DataFrame":
        """One row per query, indexed by qid."""
        import pandas as pd  # only pages and tests need the frame; the CLI stays light

        return pd.DataFrame(self.columns, index=pd.Index(self.qids, name="qid"))

    def mean(self) -> dict[str, float]:
        """The macro average over queries, as trec_eval's ``all`` line."""
        return {c: float(np.mean(self.columns[c])) for c in self.measure_columns()}

    def median(self) -> dict[str, float]:
        return {c: float(np.median(self.columns[c])) for c in self.measure_columns()}

    def gap(self, k: int) -> np.ndarray:
        """Per query, ideal DCG@k minus DCG@k: how much a better order of that query could add."""
        if k not in self.cutoffs:
            raise InputError("k.not_evaluated", value=shown(k), cutoffs=", ".join(map(str, self.cutoffs)))
        ideal, actual = self.columns[f"idcg_cut_{k}"], self.columns[f"dcg_cut_{k}"]
        with np.errstate(invalid="ignore"):
            gap = ideal - actual
        # Only DCGs beyond a float's range are inf; where both are, the NDCG column tells a perfect order.
        perfect = self.columns[f"ndcg_cut_{k}"] >= 1.0
        return np.where(perfect, 0.0, np.where(np.isnan(gap), np.inf, gap))

    def with_relevant_only(self) -> Evaluation:
        """The queries with at least one relevant judgment (trec_eval counts the others as 0)."""
        keep = np.flatnonzero(self.columns["num_rel"] > 0)
        return Evaluation(
            [self.qids[i] for i in keep],
            {name: values[keep] for name, values in self.columns.items()},
            self.cutoffs,
            {**self.options, "relevant_only": True},
            self.queries_in_blocks,
        )


def _gain_levels(levels: np.ndarray, usable: np.ndarray, gain: Gain, shift: np.ndarray | None = None) -> np.ndarray:
    """Gains of grades; unjudged documents and negative grades get 0, as in trec_eval.

    ``shift``: each row's gain is divided by 2**shift (see ``_query_shifts``).
    """
    out = np.zeros(len(levels), dtype=np.float64)
    if usable.any():
        grades = levels[usable].astype(np.float64)
        out[usable] = gain(grades) if shift is None else gain.scaled(grades, shift[usable])
    return out


def _query_shifts(pool_q: np.ndarray, pool_levels: np.ndarray, pool_usable: np.ndarray, nq: int,
                  gains: Sequence[Gain]) -> np.ndarray | None:
    """Per query, a power of two to divide its gains by so that no DCG overflows; None when none would.

    Every gain of a query's ranking is a gain of its ideal pool, so the pool's largest gain bounds
    them all. NDCG is a ratio of two sums scaled alike, so it keeps every bit.
    """
    grades = pool_levels[pool_usable].astype(np.float64)
    if not len(grades):
        return None
    bounds = np.max([gain.log2_each(grades) for gain in gains], axis=0)
    if float(bounds.max()) <= SAFE_LOG2_GAIN:
        return None
    shift = np.zeros(nq, dtype=np.float64)
    np.maximum.at(shift, pool_q[pool_usable], bounds)
    return np.ceil(shift).astype(np.int64)


def _float32_descending_key(score: np.ndarray) -> np.ndarray:
    """A uint32 that sorts ascending as the score, rounded to float32, sorts descending."""
    with np.errstate(over="ignore"):  # beyond float32's range a score becomes an infinity, as in C
        as_int = (score.astype(np.float32) + np.float32(0.0)).view(np.int32)  # -0.0 and 0.0 tie, as in C
    # Positive floats: flip the 31 low bits (bigger first); negative floats keep their bits (sign bit set, after).
    return (as_int ^ (~(as_int >> 31) & np.int32(0x7FFFFFFF))).view(np.uint32)


def _double_descending_key(score: np.ndarray) -> np.ndarray:
    """A uint64 that sorts ascending as the score (a double) sorts descending."""
    as_int = (np.asarray(score, dtype=np.float64) + 0.0).view(np.int64)  # -0.0 and 0.0 tie, as in C
    return (as_int ^ (~(as_int >> 63) & np.int64(0x7FFF_FFFF_FFFF_FFFF))).view(np.uint64)


def _sort_run(
    qslot: np.ndarray, score: np.ndarray, docno: pa.Array, gains: np.ndarray, ties: str, float32_scores: bool = False
) -> tuple[np.ndarray | None, tuple[np.ndarray, np.ndarray] | None, np.ndarray | None]:
    """How to put rows in ranking order: by query, score descending, ties by policy.

    Scores are compared as doubles, or as 32-bit floats with ``float32_scores`` (trec_eval 9.x).
    Returns a full row order (None when the rows are in order already), then the tied rows'
    moves within that order as (to, from) indices (None when nothing is tied), then each
    row's tie-group id in that order (only for the "average" policy, else None).
    """
    # Query and float32 score fit one uint64, so one sort does the work; rounding to float32 keeps
    # the order of doubles (it is monotonic), so only rows equal as float32 need their doubles compared.
    composite = (qslot.astype(np.uint64) << np.uint64(32)) | _float32_descending_key(score).astype(np.uint64)
    order: np.ndarray | None = None
    if len(composite) > 1 and (composite[1:] < composite[:-1]).any():
        order = np.argsort(composite, kind="stable")
        composite = composite[order]
    same_as_prev = np.zeros(len(composite), dtype=bool)
    same_as_prev[1:] = composite[1:] == composite[:-1]
    if not float32_scores and same_as_prev.any():
        order, same_as_prev = _by_doubles(order, same_as_prev, score)
    group = np.cumsum(~same_as_prev) - 1 if ties == "average" else None
    if not same_as_prev.any():
        return order, None, group
    tied = same_as_prev.copy()
    tied[:-1] |= same_as_prev[1:]
    slots = np.flatnonzero(tied)
    tie_group = np.cumsum(~same_as_prev[slots])  # each tied run of rows is one group
    rows = slots if order is None else order[slots]
    if ties in ("trec_eval", "average"):
        tied_docnos = docno.take(as_arrow(rows))
        if pa.types.is_dictionary(tied_docnos.type):
            tied_docnos = tied_docnos.dictionary_decode()
        table = pa.table({"g": as_arrow(tie_group), "d": tied_docnos})
        within = as_numpy(pc.sort_indices(table, sort_keys=[("g", "ascending"), ("d", "descending")]))
    else:
        sign = -1.0 if ties == "best" else 1.0
        within = np.lexsort((sign * gains[rows], tie_group))
    return order, (slots, slots[within]), group


def _by_doubles(
    order: np.ndarray | None, same_as_prev: np.ndarray, score: np.ndarray
) -> tuple[np.ndarray | None, np.ndarray]:
    """Reorder rows that tie as float32 by their double scores, and mark as tied only equal doubles."""
    tied = same_as_prev.copy()
    tied[:-1] |= same_as_prev[1:]
    slots = np.flatnonzero(tied)
    rows = slots if order is None else order[slots]
    keys = _double_descending_key(score[rows])
    # Each tied slot after the first of its group has its predecessor among the slots.
    inner = same_as_prev[slots[1:]]
    misplaced = inner & (keys[1:] < keys[:-1])
    if misplaced.any():
        # Sort only the groups with a pair out of order: most groups are exact ties, or in order already.
        group = np.cumsum(~same_as_prev[slots])
        unsorted = np.zeros(int(group[-1]) + 1, dtype=bool)
        unsorted[group[1:][misplaced]] = True
        at = np.flatnonzero(unsorted[group])
        moved = at[_sorted_within_groups(group[at], keys[at])]
        order = np.arange(len(same_as_prev)) if order is None else order.copy()
        order[slots[at]] = rows[moved]
        keys[at] = keys[moved]
    same_as_prev = same_as_prev.copy()
    same_as_prev[slots[1:]] = inner & (keys[1:] == keys[:-1])
    return order, same_as_prev


def _sorted_within_groups(group: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The stable order of rows by key within each group; ``group`` holds contiguous runs, ascending."""
    starts = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
    sizes = np.diff(np.append(starts, len(group)))
    offsets = keys - np.repeat(np.minimum.reduceat(keys, starts), sizes)
    if offsets.max() >> np.uint64(32):
        # A group's doubles span more than 2^32 keys only past float32's range (infinities, zeros).
        return np.lexsort((keys, group))
    dense = np.repeat(np.arange(len(starts), dtype=np.uint64), sizes)
    return np.argsort((dense << np.uint64(32)) | offsets, kind="stable")


def _per_query_sums(qidx: np.ndarray, values: np.ndarray, nq: int, mask: np.ndarray | None = None) -> np.ndarray:
    if mask is not None:
        qidx, values = qidx[mask], values[mask]
    # bincount adds in row order, so each query's sum is the same rank-order sum trec_eval makes.
    # With no rows at all numpy returns integers, hence the cast.
    return np.bincount(qidx, weights=values, minlength=nq)[:nq].astype(np.float64, copy=False)


def _positions(qidx: np.ndarray, nq: int) -> np.ndarray:
    starts = np.searchsorted(qidx, np.arange(nq))
    return np.arange(len(qidx)) - starts[qidx]


def _terms(gains: np.ndarray, positions: np.ndarray, discount: Any) -> np.ndarray:
    if discount.name == "log2":
        # Divide, as trec_eval does, rather than multiply by 1/log2: the same bits.
        return gains / np.log2(positions + 2.0)
    return gains * discount(positions + 1.0)


def _ideal_sums(
    qidx: np.ndarray, gains: np.ndarray, nq: int, cutoffs: Sequence[int], discount: Any
) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    positive = gains > 0
    qidx, gains = qidx[positive], gains[positive]
    order = np.lexsort((-gains, qidx))
    qidx, gains = qidx[order], gains[order]
    pos = _positions(qidx, nq)
    terms = _terms(gains, pos, discount)
    full = _per_query_sums(qidx, terms, nq)
    return full, {k: _per_query_sums(qidx, terms, nq, pos < k) for k in cutoffs}


def _ratio(dcg: np.ndarray, idcg: np.ndarray) -> np.ndarray:
    ratio = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)
    # Rounding can put a perfect order a hair above its ideal: NDCG is at most 1.
    return np.minimum(ratio, 1.0, out=ratio)


def validate_cutoffs(cutoffs: Any) -> tuple[int, ...]:
    """Cutoffs as sorted distinct ints >= 1 (``validate.cutoffs``)."""
    return validate.cutoffs(cutoffs, required=False)


@dataclass(frozen=True)
class Settings:
    """Validated options of an evaluation (see ``evaluate``)."""

    cutoffs: tuple[int, ...]
    gain_cut: Gain
    gain_full: Gain
    discount: Any
    ties: str
    ideal: str
    complete: bool
    max_docs: int | None
    float32_scores: bool = False


def settings(
    *,
    cutoffs: Sequence[int] = TREC_EVAL_CUTOFFS,
    gain: Any = "linear",
    full_gain: Any = None,
    discount: Any = "log2",
    ties: str = "trec_eval",
    ideal: str = "qrels",
    complete: bool = False,
    max_docs: int | None = None,
    float32_scores: bool = False,
) -> Settings:
    """Check ``evaluate``'s options once; an ``InputError`` names the bad one."""
    if not isinstance(ideal, str) or ideal not in IDEALS:
        raise InputError("ideal.unknown", value=shown(ideal), choices=", ".join(IDEALS))
    gain_cut = resolve_gain(gain)
    return Settings(
        cutoffs=validate_cutoffs(cutoffs),
        gain_cut=gain_cut,
        gain_full=gain_cut if full_gain is None else resolve_gain(full_gain),
        discount=resolve_discount(discount),
        ties=resolve_ties(ties),
        ideal=ideal,
        complete=bool(complete),
        max_docs=validate.k(max_docs, Place("option.max_docs")),
        float32_scores=validate_flag(float32_scores, "float32_scores"),
    )


def evaluate(
    qrels: Qrels,
    run: Run,
    *,
    cutoffs: Sequence[int] = TREC_EVAL_CUTOFFS,
    gain: Any = "linear",
    full_gain: Any = None,
    discount: Any = "log2",
    ties: str = "trec_eval",
    ideal: str = "qrels",
    complete: bool = False,
    max_docs: int | None = None,
    float32_scores: bool = False,
) -> Evaluation:
    """NDCG per query: ``ndcg`` (no cutoff) and ``ndcg_cut_k`` for each cutoff, plus DCG, IDCG and counts.

    ``gain`` applies to every measure; ``full_gain`` (trec_eval's ``ndcg.1=3,2=9``) overrides it
    for the no-cutoff ``ndcg`` only, as trec_eval's ``ndcg_cut`` always uses the grades.
    Scores are compared as doubles (trec_eval 10.0); ``float32_scores=True`` rounds them to
    32-bit floats first, as trec_eval 9.x and pytrec_eval do, so scores equal as float32 tie.
    """
    chosen = settings(cutoffs=cutoffs, gain=gain, full_gain=full_gain, discount=discount, ties=ties,
                      ideal=ideal, complete=complete, max_docs=max_docs, float32_scores=float32_scores)
    return evaluate_with(qrels, run, chosen)


def evaluate_with(qrels: Qrels, run: Run, chosen: Settings) -> Evaluation:
    """``evaluate`` with options already checked by ``settings``."""
    cut, max_docs, ideal, complete = chosen.cutoffs, chosen.max_docs, chosen.ideal, chosen.complete
    policy, gain_cut, gain_full, disc = chosen.ties, chosen.gain_cut, chosen.gain_full, chosen.discount

    # Queries: ranked by id as bytes, as trec_eval's strcmp sorts them.
    q_names, q_codes = query_codes(qrels.qid)
    r_names, r_codes = query_codes(run.qid)
    names = sorted(set(q_names) | set(r_names), key=lambda n: n.encode("utf-8"))
    rank = {n: i for i, n in enumerate(names)}
    q_rank = np.array([rank[n] for n in q_names], dtype=np.int64)[q_codes]
    r_rank = np.array([rank[n] for n in r_names], dtype=np.int64)[r_codes]
    in_qrels = np.zeros(len(names), dtype=bool)
    in_qrels[q_rank] = True
    in_run = np.zeros(len(names), dtype=bool)
    in_run[r_rank] = True
    evaluated = in_qrels & (in_run | complete)
    if not evaluated.any():
        raise InputError("files.no_shared_query", run=run.name, qrels=qrels.name)
    slot = np.cumsum(evaluated) - 1  # rank -> row of the result table
    nq = int(evaluated.sum())

    # Judgments of the evaluated queries.
    jq = evaluated[q_rank]
    jq_slot, j_level = slot[q_rank[jq]], qrels.rel[jq]
    j_docno = qrels.docno if jq.all() else qrels.docno.take(as_arrow(np.flatnonzero(jq)))

    # Run rows of the evaluated queries, with their grades.
    rk = evaluated[r_rank]
    everything = bool(rk.all())
    r_slot = slot[r_rank if everything else r_rank[rk]]
    r_score = run.score if everything else run.score[rk]
    r_docno = run.docno if everything else run.docno.take(as_arrow(np.flatnonzero(rk)))
    found, level = _grades_of(r_slot, r_docno, jq_slot, j_docno, j_level)
    usable = found & (level >= 0)
    if ideal == "qrels":
        shift_q = _query_shifts(jq_slot, j_level, j_level >= 0, nq, (gain_cut, gain_full))
    else:
        shift_q = _query_shifts(r_slot, level, usable, nq, (gain_cut, gain_full))
    r_shift = None if shift_q is None else shift_q[r_slot]
    r_gain_cut = _gain_levels(level, usable, gain_cut, r_shift)

    order, moves, group = _sort_run(r_slot, r_score, r_docno, r_gain_cut, policy, chosen.float32_scores)
    if order is not None:
        r_slot, level, usable, r_gain_cut = r_slot[order], level[order], usable[order], r_gain_cut[order]
    if moves is not None:
        # Tied rows share a query, so only the per-document arrays (all made here) move.
        to, source = moves
        for values in (level, usable, r_gain_cut):
            values[to] = values[source]
    pos = _positions(r_slot, nq)
    if max_docs is not None:
        keep = pos < max_docs
        r_slot, level, usable, r_gain_cut, pos = (a[keep] for a in (r_slot, level, usable, r_gain_cut, pos))
        group = group[keep] if group is not None else None
    r_shift = None if shift_q is None else shift_q[r_slot]
    r_gain_full = r_gain_cut if gain_full is gain_cut else _gain_levels(level, usable, gain_full, r_shift)
    if policy == "average":
        r_gain_cut = _tie_averaged(r_gain_cut, group)
        r_gain_full = r_gain_cut if gain_full is gain_cut else _tie_averaged(r_gain_full, group)

    # Only rows with a gain add to DCG (adding 0.0 leaves a sum's bits as they are), and most rows
    # of a real run are unjudged: compute the terms for the others only.
    has_gain = r_gain_cut != 0 if r_gain_full is r_gain_cut else (r_gain_cut != 0) | (r_gain_full != 0)
    scoring = np.flatnonzero(has_gain)
    s_slot, s_pos = r_slot[scoring], pos[scoring]
    terms_cut = _terms(r_gain_cut[scoring], s_pos, disc)
    terms_full = terms_cut if r_gain_full is r_gain_cut else _terms(r_gain_full[scoring], s_pos, disc)
    dcg_full = _per_query_sums(s_slot, terms_full, nq)
    dcg_cut = {k: _per_query_sums(s_slot, terms_cut, nq, s_pos < k) for k in cut}

    if ideal == "qrels":
        ideal_q, ideal_levels, ideal_usable = jq_slot, j_level, j_level >= 0
    else:
        ideal_q, ideal_levels, ideal_usable = r_slot, level, usable
    i_shift = None if shift_q is None else shift_q[ideal_q]
    ideal_cut_gains = _gain_levels(ideal_levels, ideal_usable, gain_cut, i_shift)
    idcg_full_cutgain, idcg_cut = _ideal_sums(ideal_q, ideal_cut_gains, nq, cut, disc)
    if gain_full is gain_cut:
        idcg_full = idcg_full_cutgain
    else:
        full_gains = _gain_levels(ideal_levels, ideal_usable, gain_full, i_shift)
        idcg_full, _ = _ideal_sums(ideal_q, full_gains, nq, (), disc)

    columns: dict[str, np.ndarray] = {"ndcg": _ratio(dcg_full, idcg_full)}
    for k in cut:
        columns[f"ndcg_cut_{k}"] = _ratio(dcg_cut[k], idcg_cut[k])
    columns["dcg"], columns["idcg"] = _unscaled(dcg_full, shift_q), _unscaled(idcg_full, shift_q)
    for k in cut:
        columns[f"dcg_cut_{k}"], columns[f"idcg_cut_{k}"] = _unscaled(dcg_cut[k], shift_q), _unscaled(idcg_cut[k], shift_q)
    columns["num_ret"] = np.bincount(r_slot, minlength=nq)[:nq]
    columns["num_judged"] = np.bincount(jq_slot, minlength=nq)[:nq]
    columns["num_rel"] = np.bincount(jq_slot[j_level >= RELEVANT_FROM], minlength=nq)[:nq]
    columns["num_rel_ret"] = np.bincount(r_slot[usable & (level >= RELEVANT_FROM)], minlength=nq)[:nq]
    columns["in_run"] = in_run[np.flatnonzero(evaluated)]
    qids = [names[r] for r in np.flatnonzero(evaluated)]
    options = dict(gain=gain_cut.name, full_gain=gain_full.name, discount=disc.name, ties=policy, ideal=ideal,
                   complete=complete, max_docs=max_docs, float32_scores=chosen.float32_scores, qrels=qrels.name,
                   run=run.name, tag=run.tag)
    return Evaluation(qids, columns, cut, options)


def _unscaled(values: np.ndarray, shift: np.ndarray | None) -> np.ndarray:
    """DCGs as they are; inf where one is beyond a float's range."""
    if shift is None:
        return values
    with np.errstate(over="ignore"):
        return np.ldexp(values, shift)


def _grades_of(
    r_slot: np.ndarray, r_docno: pa.Array, j_slot: np.ndarray, j_docno: pa.Array, j_level: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each run row: whether its (query, document) is judged, and its grade (0 if not)."""
    vocabulary = pc.unique(j_docno)
    width = len(vocabulary) + 1
    r_doc = _vocabulary_index(r_docno, vocabulary)
    j_doc = as_numpy(pc.index_in(j_docno, value_set=vocabulary))
    judged_keys = j_slot * width + j_doc
    order = np.argsort(judged_keys, kind="stable")
    sorted_keys, sorted_levels = judged_keys[order], j_level[order]
    found = np.zeros(len(r_doc), dtype=bool)
    level = np.zeros(len(r_doc), dtype=np.int64)
    candidates = np.flatnonzero(r_doc >= 0)  # only documents judged for some query need a lookup
    if len(candidates) and len(sorted_keys):
        keys = r_slot[candidates] * width + r_doc[candidates]
        at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
        hit = sorted_keys[at] == keys
        found[candidates[hit]] = True
        level[candidates[hit]] = sorted_levels[at[hit]]
    return found, level


def _vocabulary_index(docno: pa.Array, vocabulary: pa.Array) -> np.ndarray:
    """Each document's index in the vocabulary, -1 when absent."""
    if pa.types.is_dictionary(docno.type):
        # Look each distinct document up once, then spread to the rows.
        distinct = as_numpy(pc.index_in(docno.dictionary, value_set=vocabulary), fill=-1)
        return distinct[as_numpy(docno.indices)]
    return as_numpy(pc.index_in(docno, value_set=vocabulary), fill=-1)


def _tie_averaged(gains: np.ndarray, group: np.ndarray) -> np.ndarray:
    _, inverse, counts = np.unique(group, return_inverse=True, return_counts=True)
    return (np.bincount(inverse, weights=gains) / counts)[inverse]


# ---------------------------------------------------------------------------- trec_eval output


@dataclass(frozen=True)
class Measure:
    """A trec_eval NDCG measure as named on the command line: ``ndcg``, ``ndcg.1=3``, ``ndcg_cut.5,10``."""

    base: str
    cutoffs: tuple[int, ...] = ()
    gains: Mapping[int, float] | None = None
    params: str = ""


MEASURE_FAMILIES = "ndcg, ndcg.LEVEL=GAIN,..., ndcg_cut, ndcg_cut.K,... and all_trec"


def parse_measure(text: str) -> Measure:
    """Parse one ``-m`` argument the way trec_eval reads its NDCG measures."""
    if not isinstance(text, str):
        raise InputError("measure.not_text", value=shown(text))
    name, _, params = text.partition(".")
    if name == "ndcg":
        if not params:
            return Measure("ndcg")
        return Measure("ndcg", gains=_parse_gain_params(params, text), params=params)
    if name == "ndcg_cut":
        if not params:
            return Measure("ndcg_cut", TREC_EVAL_CUTOFFS)
        # trec_eval reads a cutoff of 23.4 as 23.
        place = Place("measure.cutoff", measure=shown(text))
        return Measure("ndcg_cut", validate.cutoffs(params.split(","), place, truncate=True), params=params)
    raise InputError("measure.unknown", value=shown(text), families=MEASURE_FAMILIES)


def _parse_gain_params(params: str, text: str) -> dict[int, float]:
    gains: dict[int, float] = {}
    measure = shown(text)
    for pair in params.split(","):
        level, eq, value = pair.partition("=")
        if not eq:
            raise InputError("measure.gain_pair", measure=measure, value=shown(pair))
        grade = validate.whole(level, Place("measure.level", measure=measure), low=0)
        if grade in gains:
            # trec_eval would take one gain for the ranking and the other for its ideal.
            raise InputError("measure.level_twice", measure=measure, level=grade)
        gains[grade] = validate.number(value, Place("measure.gain", level=grade, measure=measure))
    return gains


def format_trec_eval(evaluation: Evaluation, measures: Sequence[Measure], per_query: bool = False) -> str:
    """Lines as trec_eval prints them: ``%-22s\\t%s\\t%6.4f``, per query (if asked) then ``all``."""
    rows: list[tuple[str, str]] = []
    for measure in trec_eval_measures(measures):
        if measure.base == "ndcg":
            label = "ndcg" if not measure.params else f"ndcg_{measure.params}"
            rows.append((label, "ndcg"))
        else:
            rows.extend((f"ndcg_cut_{k}", f"ndcg_cut_{k}") for k in measure.cutoffs)
    columns = evaluation.columns
    out: list[str] = []
    if per_query:
        for i, qid in enumerate(evaluation.qids):
            out.extend(f"{label:<22}\t{qid}\t{columns[c][i]:6.4f}" for label, c in rows)
    # trec_eval's all line: the sum over queries, in query order, divided by their number.
    out.extend(f"{label:<22}\tall\t{_sequential_mean(columns[c]):6.4f}" for label, c in rows)
    return "\n".join(out) + "\n"


def _sequential_mean(values: np.ndarray) -> float:
    return float(np.cumsum(values)[-1] / len(values)) if len(values) else 0.0


def trec_eval_measures(measures: Sequence[Measure]) -> list[Measure]:
    """The measures trec_eval computes for these ``-m`` arguments, in the order it prints them.

    Its own table order (ndcg before ndcg_cut); of a measure named more than once, the first
    with parameters decides (trec_eval reads the first ``-m`` that names it with a "."), else the default.
    """
    chosen: dict[str, Measure] = {}
    for m in measures:
        if m.base not in chosen or (m.params and not chosen[m.base].params):
            chosen[m.base] = m
    return [chosen[b] for b in ("ndcg", "ndcg_cut") if b in chosen]


def query_ranking(
    qrels: Qrels, run: Run, qid: str, *, max_docs: int | None = None, float32_scores: bool = False
) -> dict[str, Any]:
    """One query's ranked docnos with grades (None when unjudged) and its judged grades, for drill-down.

    The order is ``evaluate``'s: scores compared as doubles, or as 32-bit floats with ``float32_scores``.
    """
    rows, jrows = _rows_of(run.qid, qid), _rows_of(qrels.qid, qid)
    judged = dict(zip(qrels.docno.take(as_arrow(jrows)).to_pylist(), qrels.rel[jrows].tolist()))
    docnos = run.docno.take(as_arrow(rows)).to_pylist()
    scores = run.score[rows]
    compared = _float32_rounded(scores) if validate_flag(float32_scores, "float32_scores") else scores
    order = sorted(range(len(rows)), key=lambda i: (-float(compared[i]), _Desc(docnos[i])))
    if max_docs is not None:
        order = order[:max_docs]
    ranked = [docnos[i] for i in order]
    return {
        "qid": qid,
        "docnos": ranked,
        "grades": [judged.get(d) for d in ranked],
        "scores": [float(scores[i]) for i in order],
        "pool": judged,
    }


def _float32_rounded(scores: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):  # beyond float32's range a score becomes an infinity, as in C
        return np.asarray(scores, dtype=np.float64).astype(np.float32).astype(np.float64)


def _rows_of(qids: pa.Array, qid: str) -> np.ndarray:
    names, codes = query_codes(qids)
    return np.flatnonzero(codes == names.index(qid)) if qid in names else np.empty(0, dtype=np.int64)


class _Desc:
    """Sort key that orders strings descending by bytes."""

    __slots__ = ("b",)

    def __init__(self, s: str) -> None:
        self.b = s.encode("utf-8")

    def __lt__(self, other: "_Desc") -> bool:
        return self.b > other.b

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.b == other.b
