"""NDCG over many queries from qrels and a run, with trec_eval's semantics by default.

How is one value, ``EvaluationOptions`` (a ``Scoring`` with the cutoffs and which queries count); its defaults
are trec_eval's. Ranking: score descending (compared as doubles, as trec_eval 10.0 does; a scoring's
``float32_scores`` compares them as 32-bit floats, as trec_eval 9.x and pytrec_eval do), ties broken by docno
descending; the run's rank column is ignored. Ideal: every judged document of the query.
Negative grades count as gain 0. Only queries in both files
count, unless ``complete`` (trec_eval's ``-c``) counts judged queries missing from the
run as 0. ``max_docs`` (``-M``) keeps the first N documents of each ranking; ``judged_only`` (``-J``) then drops
the documents without a judgment (or with a negative grade) from each ranking, the rest moving up.
Everything is vectorised with numpy so a 7-million-line run takes seconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import validate
from ..arrays import as_arrow, as_numpy
from ..errors import InputError, Place, shown
from ..lists.discounts import Discount
from ..lists.gains import GAINS, Gain
from ..lists.ndcg import SAFE_LOG2_GAIN
from ..lists.scoring import TREC_EVAL, Scoring
from ..lists.ties import ranking_order, sort_run, tie_averaged
from .measures import NDCG, TREC_EVAL_CUTOFFS, Measure
from .readers import Qrels, Run, query_codes

if TYPE_CHECKING:
    import pandas as pd


# The command line's and Evaluate page's words for where the ideal comes from, and the scoring's source each
# one names (``Scoring.ideal``).
IDEALS = {
    "qrels": "Every judged document of the query, retrieved or not (trec_eval, pytrec_eval).",
    "run": "Only the documents the run retrieved, re-sorted (scikit-learn's ndcg_score).",
}
IDEAL_SOURCE = {"qrels": "pool", "run": "list"}


def ideal_word(scoring: Scoring) -> str:
    """The command line's word (a key of ``IDEALS``) for where ``scoring``'s ideal comes from."""
    return "qrels" if scoring.ideal == "pool" else "run"


RELEVANT_FROM = 1  # trec_eval's default relevance level for counting relevant documents


@dataclass(frozen=True)
class EvaluationOptions:
    """How an evaluation scores each query and which of them it counts; checked when made.

    ``scoring``: gain, discount, ideal, tie policy and score precision (``TREC_EVAL`` by default, trec_eval's
    own); its k, if it has one, is one more cutoff. ``cutoffs``: the k of each ``ndcg_cut`` column.
    ``full_gain``: trec_eval's ``ndcg.1=3,2=9``, a custom gain table as (grade, gain) pairs for the no-cutoff
    ``ndcg`` only (trec_eval's ``ndcg_cut`` always uses the grades). ``complete``: judged queries missing from
    the run count as 0 (``-c``). ``max_docs``: only the first N documents of each ranking count (``-M``).
    ``judged_only``: trec_eval's ``-J`` (ir_measures' ``judged_only``): each ranking, cut at ``max_docs`` first,
    keeps only its judged documents (a grade of 0 or more), in their order, before it is scored; the ideal is the
    same.
    Equal options are equal values with one hash, so a page can key its cache of evaluations by them.
    """

    scoring: Scoring = TREC_EVAL
    cutoffs: tuple[int, ...] = TREC_EVAL_CUTOFFS
    full_gain: tuple[tuple[float, float], ...] | None = None
    complete: bool = False
    max_docs: int | None = None
    judged_only: bool = False

    def __post_init__(self) -> None:
        cutoffs = validate_cutoffs(self.cutoffs)
        if self.scoring.k is not None:
            cutoffs = validate_cutoffs((*cutoffs, self.scoring.k))
            object.__setattr__(self, "scoring", replace(self.scoring, k=None))
        object.__setattr__(self, "cutoffs", cutoffs)
        if self.full_gain is not None:
            given = self.full_gain
            table = validate.gain_mapping(given if isinstance(given, Mapping) else dict(given))
            object.__setattr__(self, "full_gain", tuple(table.items()))
        object.__setattr__(self, "complete", validate.flag(self.complete, "complete"))
        object.__setattr__(self, "max_docs", validate.k(self.max_docs, Place("option.max_docs")))
        object.__setattr__(self, "judged_only", validate.flag(self.judged_only, "judged_only"))


@dataclass(frozen=True)
class _Plan:
    """The options as the evaluation uses them: the gain and discount as functions, the ideal as "qrels" or
    "run". ``gain_full`` is ``gain_cut`` itself when the no-cutoff ``ndcg`` uses the same gain."""

    cutoffs: tuple[int, ...]
    gain_cut: Gain
    gain_full: Gain
    discount: Discount
    ties: str
    ideal: str
    complete: bool
    max_docs: int | None
    judged_only: bool
    float32_scores: bool


def _plan(options: EvaluationOptions) -> _Plan:
    scoring = options.scoring
    gain_cut = scoring.gain_function()
    return _Plan(
        cutoffs=options.cutoffs,
        gain_cut=gain_cut,
        gain_full=gain_cut if options.full_gain is None else GAINS.build("custom", mapping=dict(options.full_gain)),
        discount=scoring.discount_function(),
        ties=scoring.ties,
        ideal=ideal_word(scoring),
        complete=options.complete,
        max_docs=options.max_docs,
        judged_only=options.judged_only,
        float32_scores=scoring.float32_scores,
    )


@dataclass(frozen=True)
class Evaluation:
    """Per-query NDCG figures (in trec_eval's query order), the options that produced them, and what was read."""

    qids: list[str]
    columns: dict[str, np.ndarray]
    options: EvaluationOptions
    qrels_name: str = "input"
    run_name: str = "input"
    tag: str = ""  # the run's tag (its last line's, for a run read in segments)
    relevant_only: bool = False  # only queries with a relevant judgment count (``with_relevant_only``)
    queries_in_blocks: bool = False  # the run was read in segments: each query's lines were one block

    @property
    def cutoffs(self) -> tuple[int, ...]:
        """The k of each ``ndcg_cut`` column."""
        return self.options.cutoffs

    @property
    def measures(self) -> tuple[Measure, ...]:
        """The measures evaluated: NDCG of the whole ranking, then NDCG at each cutoff."""
        return (NDCG, *(Measure("ndcg_cut", k) for k in self.cutoffs))

    def _column(self, measure: Measure, kind: str = "ndcg") -> np.ndarray:
        if not isinstance(measure, Measure):
            raise InputError("measure.not_text", value=shown(measure))
        if measure.family == "ndcg_cut" and measure.cutoff not in self.cutoffs:
            raise InputError("k.not_evaluated", value=shown(measure.cutoff), cutoffs=", ".join(map(str, self.cutoffs)))
        return self.columns[measure.column.replace("ndcg", kind, 1)]

    def per_query(self, measure: Measure) -> np.ndarray:
        """The measure's value for each query, in ``qids`` order."""
        return self._column(measure)

    def dcg(self, measure: Measure) -> np.ndarray:
        """Each query's DCG at the measure's cutoff."""
        return self._column(measure, "dcg")

    def idcg(self, measure: Measure) -> np.ndarray:
        """Each query's ideal DCG at the measure's cutoff."""
        return self._column(measure, "idcg")

    def mean(self, measure: Measure) -> float:
        """The macro average over queries, as trec_eval's ``all`` line."""
        values = self.per_query(measure)
        return float(np.mean(values)) if len(values) else 0.0

    def median(self, measure: Measure) -> float:
        values = self.per_query(measure)
        return float(np.median(values)) if len(values) else 0.0

    def table(self) -> pd.DataFrame:
        """Every per-query column (NDCG, DCG, IDCG at each cutoff, counts), one row per query, indexed by qid."""
        import pandas as pd  # only pages and tests need the frame; the command line stays light

        return pd.DataFrame(self.columns, index=pd.Index(self.qids, name="qid"))

    def gap(self, k: int) -> np.ndarray:
        """Per query, ideal DCG@k minus DCG@k: how much a better order of that query could add."""
        measure = Measure("ndcg_cut", k) if isinstance(k, int) and k in self.cutoffs else None
        if measure is None:
            raise InputError("k.not_evaluated", value=shown(k), cutoffs=", ".join(map(str, self.cutoffs)))
        ideal, actual = self.idcg(measure), self.dcg(measure)
        with np.errstate(invalid="ignore"):
            gap = ideal - actual
        # Only DCGs beyond a float's range are inf; where both are, the NDCG column tells a perfect order.
        perfect = self.per_query(measure) >= 1.0
        return np.where(perfect, 0.0, np.where(np.isnan(gap), np.inf, gap))

    def with_relevant_only(self) -> Evaluation:
        """The queries with at least one relevant judgment (trec_eval counts the others as 0)."""
        keep = np.flatnonzero(self.columns["num_rel"] > 0)
        return replace(
            self,
            qids=[self.qids[i] for i in keep],
            columns={name: values[keep] for name, values in self.columns.items()},
            relevant_only=True,
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


def _query_shifts(
    pool_q: np.ndarray, pool_levels: np.ndarray, pool_usable: np.ndarray, nq: int, gains: Sequence[Gain]
) -> np.ndarray | None:
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


def _per_query_sums(qidx: np.ndarray, values: np.ndarray, nq: int, mask: np.ndarray | None = None) -> np.ndarray:
    if mask is not None:
        qidx, values = qidx[mask], values[mask]
    # bincount adds in row order, so each query's sum is the same rank-order sum trec_eval makes.
    # With no rows at all numpy returns integers, hence the cast.
    return np.bincount(qidx, weights=values, minlength=nq)[:nq].astype(np.float64, copy=False)


def _query_positions(qidx: np.ndarray, nq: int) -> np.ndarray:
    starts = np.searchsorted(qidx, np.arange(nq))
    return np.asarray(np.arange(len(qidx)) - starts[qidx])


def _terms(gains: np.ndarray, positions: np.ndarray, discount: Discount) -> np.ndarray:
    if discount.name == "log2":
        # Divide, as trec_eval does, rather than multiply by 1/log2: the same bits.
        return np.asarray(gains / np.log2(positions + 2.0))
    return np.asarray(gains * discount(positions + 1.0))


def _ideal_sums(
    qidx: np.ndarray, gains: np.ndarray, nq: int, cutoffs: Sequence[int], discount: Discount
) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    positive = gains > 0
    qidx, gains = qidx[positive], gains[positive]
    order = np.lexsort((-gains, qidx))
    qidx, gains = qidx[order], gains[order]
    pos = _query_positions(qidx, nq)
    terms = _terms(gains, pos, discount)
    full = _per_query_sums(qidx, terms, nq)
    return full, {k: _per_query_sums(qidx, terms, nq, pos < k) for k in cutoffs}


def _ratio(dcg: np.ndarray, idcg: np.ndarray) -> np.ndarray:
    ratio = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)
    # Rounding can put a perfect order a hair above its ideal: NDCG is at most 1.
    return np.asarray(np.minimum(ratio, 1.0, out=ratio))


def validate_cutoffs(cutoffs: Any) -> tuple[int, ...]:
    """Cutoffs as sorted distinct ints >= 1 (``validate.cutoffs``)."""
    return validate.cutoffs(cutoffs, required=False)


def evaluate(qrels: Qrels, run: Run, options: EvaluationOptions | None = None) -> Evaluation:
    """NDCG per query: ``ndcg`` (no cutoff) and ``ndcg_cut_k`` for each cutoff, plus DCG, IDCG and counts.

    ``options`` say how (``EvaluationOptions``; trec_eval's defaults when left out). Scores are compared as
    doubles (trec_eval 10.0); a scoring with ``float32_scores=True`` rounds them to 32-bit floats first, as
    trec_eval 9.x and pytrec_eval do, so scores equal as float32 tie.
    """
    options = EvaluationOptions() if options is None else options
    return evaluate_prepared(prepare(qrels, run, complete=options.complete), options)


@dataclass(frozen=True)
class Prepared:
    """Qrels and a run matched once (the queries evaluated, each run row's grade), to evaluate under many options:
    the costly part of ``evaluate`` that no option but ``complete`` changes."""

    queries: _Queries
    judged: _Graded
    judged_docno: pa.Array
    retrieved: _Graded
    score: np.ndarray
    docno: pa.Array
    qrels_name: str
    run_name: str
    tag: str
    # Ranking orders already worked out, by what decides them (``_order_key``): evaluating again under another
    # gain, discount or ideal sorts the run no more.
    orders: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    # The same orders as ``ranked_columns`` takes them (``prepared_columns``): the judged rows only.
    ranked: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)


def prepare(qrels: Qrels, run: Run, *, complete: bool = False) -> Prepared:
    """The queries ``evaluate`` counts (judged ones missing from the run too, with ``complete``) and the run's
    grades, matched once."""
    queries = _queries(qrels, run, validate.flag(complete, "complete"))
    judged, judged_docno = _judgments(qrels, queries)
    retrieved, score, docno = _retrieved(run, queries, judged, judged_docno)
    return Prepared(queries, judged, judged_docno, retrieved, score, docno, qrels.name, run.name, run.tag)


def evaluate_prepared(prepared: Prepared, options: EvaluationOptions) -> Evaluation:
    """``evaluate`` of prepared files; which queries count is the preparation's (its ``complete``), not ``options``'."""
    chosen = _plan(options)
    queries, judged, retrieved = prepared.queries, prepared.judged, prepared.retrieved
    score, docno = prepared.score, prepared.docno
    # Scales come from the pool before the ranking is cut, as the ideal of "run" is cut with it.
    scales = _scales(judged if chosen.ideal == "qrels" else retrieved, queries.count, chosen)
    ranking = _ranking(retrieved, score, docno, scales, chosen, queries.count, prepared)
    columns = _ndcg_columns(judged, ranking, scales, queries.count, chosen)
    columns.update(_counts(queries, judged, ranking.graded))
    qids = [queries.names[r] for r in np.flatnonzero(queries.evaluated)]
    return Evaluation(
        qids, columns, options, qrels_name=prepared.qrels_name, run_name=prepared.run_name, tag=prepared.tag
    )


def prepared_columns(prepared: Prepared, options: EvaluationOptions) -> dict[str, np.ndarray]:
    """``evaluate_prepared(prepared, options).columns``, the same bits, faster when called again under other gains,
    discounts, ideals, cuts or judged-only: each ranking order is kept as ``ranked_columns`` takes it (the judged
    rows, a few percent of a real run's), and every later scoring of that order reads those rows only. Where the
    order depends on rescaled gains (``_order_key`` is None), it is ``evaluate_prepared``'s."""
    chosen = _plan(options)
    queries, judged, retrieved = prepared.queries, prepared.judged, prepared.retrieved
    scales = _scales(judged if chosen.ideal == "qrels" else retrieved, queries.count, chosen)
    key = _order_key(prepared, chosen, scales)
    if key is None:
        return evaluate_prepared(prepared, options).columns
    if key not in prepared.ranked:
        prepared.ranked[key] = _judged_rows(prepared, chosen, scales, key)
    ranked, group, count = prepared.ranked[key]
    in_run = queries.in_run[np.flatnonzero(queries.evaluated)]
    return ranked_columns(
        (judged.slot, judged.level), ranked, count, in_run, options, "numpy", ties=chosen.ties, group=group
    )


def _judged_rows(
    prepared: Prepared, chosen: _Plan, scales: _Scales, key: Any
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray | None, np.ndarray]:
    """The run in the order ``key`` decides, as ``ranked_columns`` takes it: (query, position from 0, grade) of
    its judged rows (under averaged ties, every row of a tie group that holds one, an unjudged row's grade -1),
    their tie groups, and each query's number of ranked rows."""
    rows, nq = prepared.retrieved, prepared.queries.count
    slot, level, usable = rows.slot, rows.level, rows.usable
    sorted_run = prepared.orders.get(key)
    if sorted_run is None:
        gains = _gain_levels(level, usable, chosen.gain_cut, None if scales.cut is None else scales.cut[slot])
        sorted_run = sort_run(slot, prepared.score, prepared.docno, gains, chosen.ties, chosen.float32_scores)
        prepared.orders[key] = sorted_run
    order, moves, group = sorted_run
    if order is not None:
        slot, level, usable = slot[order], level[order], usable[order]
    elif moves is not None:
        level, usable = level.copy(), usable.copy()  # the rows' own arrays, kept by ``prepare``
    if moves is not None:
        to, source = moves
        level[to], usable[to] = level[source], usable[source]
    position = _query_positions(slot, nq)
    keep = usable
    if group is not None:
        holds = np.zeros(int(group.max()) + 1 if len(group) else 0, dtype=bool)
        holds[group[usable]] = True
        keep = holds[group]
        group = group[keep]
    grade = np.where(usable, level, -1)[keep]
    count = np.bincount(rows.slot, minlength=nq)[:nq]
    return (slot[keep], position[keep], grade), group, count


def _ndcg_columns(judged: _Graded, ranking: _Ranking, scales: _Scales, nq: int, chosen: _Plan) -> dict[str, np.ndarray]:
    """NDCG, DCG and IDCG of the whole ranking and at each cutoff, per query."""
    pool = judged if chosen.ideal == "qrels" else ranking.graded
    dcg_full, dcg_cut = _dcg_sums(ranking, nq, chosen)
    idcg_full, idcg_cut = _idcg_sums(pool, scales, nq, chosen)
    columns: dict[str, np.ndarray] = {"ndcg": _ratio(dcg_full, idcg_full)}
    for k in chosen.cutoffs:
        columns[f"ndcg_cut_{k}"] = _ratio(dcg_cut[k], idcg_cut[k])
    columns["dcg"], columns["idcg"] = _unscaled(dcg_full, scales.full), _unscaled(idcg_full, scales.full)
    for k in chosen.cutoffs:
        columns[f"dcg_cut_{k}"] = _unscaled(dcg_cut[k], scales.cut)
        columns[f"idcg_cut_{k}"] = _unscaled(idcg_cut[k], scales.cut)
    return columns


def ranked_columns(
    judged: tuple[np.ndarray, np.ndarray],
    ranked: tuple[np.ndarray, np.ndarray, np.ndarray],
    retrieved_count: np.ndarray,
    in_run: np.ndarray,
    options: EvaluationOptions,
    engine: str,
    *,
    ties: str = "trec_eval",
    group: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """``Evaluation.columns`` of queries ranked by another engine (``ndcg_core.trec.engines``).

    Queries are numbered 0 to n - 1 in trec_eval's order. ``judged``: (query, grade) of every judgment of the
    queries. ``ranked``: (query, position from 0, grade) of the judged documents of each ranking, in ranking
    order under the tie policy ``ties`` (trec_eval's by default) and not cut at ``max_docs``; the unjudged ones add
    nothing to any sum but under averaged ties, where ``group`` gives each row's tie group and the rows hold every
    document of each group with a gain (an unjudged one with a negative grade: no gain of its own).
    ``retrieved_count``: each query's number of ranked documents; ``in_run``: whether the run names it;
    ``engine``: the engine's name on the command line, for its error when ``options`` ask for another tie policy.
    The arithmetic is ``evaluate``'s own, in the same order, so the figures are the same bits.
    """
    chosen = _plan(options)
    nq = len(in_run)
    if chosen.ties != ties:
        raise InputError("engine.ties", engine=engine, ties=chosen.ties)
    j_slot, j_level = judged
    r_slot, r_position, r_level = ranked
    pool = _Graded(j_slot, j_level, j_level >= 0)
    retrieved = _Graded(r_slot, r_level, r_level >= 0)
    scales = _scales(pool if chosen.ideal == "qrels" else retrieved, nq, chosen)
    if chosen.max_docs is not None:
        keep = r_position < chosen.max_docs
        r_slot, r_position, r_level = r_slot[keep], r_position[keep], r_level[keep]
        group = group[keep] if group is not None else None
        retrieved = _Graded(r_slot, r_level, r_level >= 0)
    if chosen.judged_only:
        # The rows are in ranking order by query: the judged ones, numbered again, are trec_eval's -J ranking.
        keep = r_level >= 0
        r_slot, r_level = r_slot[keep], r_level[keep]
        group = group[keep] if group is not None else None
        r_position = _query_positions(r_slot, nq)
        retrieved = _Graded(r_slot, r_level, r_level >= 0)
    cut_shift = None if scales.cut is None else scales.cut[r_slot]
    gains = _gain_levels(r_level, retrieved.usable, chosen.gain_cut, cut_shift)
    if chosen.gain_full is chosen.gain_cut:
        gains_full = gains
    else:
        full_shift = None if scales.full is None else scales.full[r_slot]
        gains_full = _gain_levels(r_level, retrieved.usable, chosen.gain_full, full_shift)
    if group is not None:
        averaged = tie_averaged(gains, group)
        gains_full = averaged if gains_full is gains else tie_averaged(gains_full, group)
        gains = averaged
    ranking = _Ranking(retrieved, r_position, gains, gains_full)
    columns = _ndcg_columns(pool, ranking, scales, nq, chosen)
    relevant_retrieved = r_slot[retrieved.usable & (r_level >= RELEVANT_FROM)]
    cut = retrieved_count if chosen.max_docs is None else np.minimum(retrieved_count, chosen.max_docs)
    if chosen.judged_only:
        cut = np.bincount(r_slot, minlength=nq)[:nq]
    columns["num_ret"] = cut.astype(np.int64)
    columns["num_judged"] = np.bincount(j_slot, minlength=nq)[:nq]
    columns["num_rel"] = np.bincount(j_slot[j_level >= RELEVANT_FROM], minlength=nq)[:nq]
    columns["num_rel_ret"] = np.bincount(relevant_retrieved, minlength=nq)[:nq]
    columns["in_run"] = in_run.astype(bool)
    return columns


@dataclass(frozen=True)
class _Queries:
    """Every query named in either file, in trec_eval's order (ids as bytes, as its strcmp sorts them).

    ``q_rank`` and ``r_rank`` give each judgment's and each run row's query; ``evaluated`` says which
    queries get a row of the result and ``slot`` which row (``count`` rows in all).
    """

    names: list[str]
    q_rank: np.ndarray
    r_rank: np.ndarray
    in_run: np.ndarray
    evaluated: np.ndarray
    slot: np.ndarray
    count: int


def _queries(qrels: Qrels, run: Run, complete: bool) -> _Queries:
    """The queries of both files and which are evaluated: those judged and retrieved (or only judged, ``complete``)."""
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
    slot = np.cumsum(evaluated) - 1
    return _Queries(names, q_rank, r_rank, in_run, evaluated, slot, int(evaluated.sum()))


@dataclass(frozen=True)
class _Graded:
    """Documents of the evaluated queries: each one's result row, grade, and whether it has a gain.

    A judged document has a gain unless its grade is negative; a retrieved one, only if judged too.
    """

    slot: np.ndarray
    level: np.ndarray
    usable: np.ndarray


def _judgments(qrels: Qrels, queries: _Queries) -> tuple[_Graded, pa.Array]:
    """The judgments of the evaluated queries, and their docnos."""
    keep = queries.evaluated[queries.q_rank]
    level = qrels.rel[keep]
    docno = qrels.docno if keep.all() else qrels.docno.take(as_arrow(np.flatnonzero(keep)))
    return _Graded(queries.slot[queries.q_rank[keep]], level, level >= 0), docno


def _retrieved(
    run: Run, queries: _Queries, judged: _Graded, judged_docno: pa.Array
) -> tuple[_Graded, np.ndarray, pa.Array]:
    """The run's rows of the evaluated queries with their grades, in the file's order; their scores and docnos."""
    keep = queries.evaluated[queries.r_rank]
    everything = bool(keep.all())
    slot = queries.slot[queries.r_rank if everything else queries.r_rank[keep]]
    score = run.score if everything else run.score[keep]
    docno = run.docno if everything else run.docno.take(as_arrow(np.flatnonzero(keep)))
    found, level = _grades_of(slot, docno, judged.slot, judged_docno, judged.level)
    return _Graded(slot, level, found & (level >= 0)), score, docno


@dataclass(frozen=True)
class _Scales:
    """Per query, the power of two each gain is divided by (see ``_query_shifts``); None where none is needed.

    Each gain gets its own: one shared with a far larger gain would round the smaller one's to 0.
    """

    cut: np.ndarray | None
    full: np.ndarray | None


def _scales(pool: _Graded, nq: int, chosen: _Plan) -> _Scales:
    cut = _query_shifts(pool.slot, pool.level, pool.usable, nq, (chosen.gain_cut,))
    if chosen.gain_full is chosen.gain_cut:
        return _Scales(cut, cut)
    return _Scales(cut, _query_shifts(pool.slot, pool.level, pool.usable, nq, (chosen.gain_full,)))


@dataclass(frozen=True)
class _Ranking:
    """The run's rows in ranking order, cut at ``max_docs``: graded, each with its position and its two gains.

    ``gain_full`` is ``gain_cut`` itself when the no-cutoff NDCG uses the same gain.
    """

    graded: _Graded
    position: np.ndarray
    gain_cut: np.ndarray
    gain_full: np.ndarray


def _ranking(
    rows: _Graded, score: np.ndarray, docno: pa.Array, scales: _Scales, chosen: _Plan, nq: int, prepared: Prepared
) -> _Ranking:
    """Sort the rows by query and score, settle ties by the policy, cut each query at ``max_docs``, keep only the
    judged documents with ``judged_only``, and gain them."""
    gain_cut, gain_full = chosen.gain_cut, chosen.gain_full
    slot, level, usable = rows.slot, rows.level, rows.usable
    gains = _gain_levels(level, usable, gain_cut, None if scales.cut is None else scales.cut[slot])
    key = _order_key(prepared, chosen, scales)
    sorted_run = prepared.orders.get(key) if key is not None else None
    if sorted_run is None:
        sorted_run = sort_run(slot, score, docno, gains, chosen.ties, chosen.float32_scores)
        if key is not None:
            prepared.orders[key] = sorted_run
    order, moves, group = sorted_run
    if order is not None:
        slot, level, usable, gains = slot[order], level[order], usable[order], gains[order]
    elif moves is not None:
        level, usable = level.copy(), usable.copy()  # the rows' own arrays, kept by ``prepare`` for the next call
    if moves is not None:
        # Tied rows share a query, so only the per-document arrays (all made here) move.
        to, source = moves
        for values in (level, usable, gains):
            values[to] = values[source]
    position = _query_positions(slot, nq)
    if chosen.max_docs is not None:
        keep = position < chosen.max_docs
        slot, level, usable, gains, position = (a[keep] for a in (slot, level, usable, gains, position))
        group = group[keep] if group is not None else None
    if chosen.judged_only:
        # trec_eval -J: after the cut, only judged documents (a grade of 0 or more) stay, moving up.
        keep = usable
        slot, level, usable, gains = (a[keep] for a in (slot, level, usable, gains))
        group = group[keep] if group is not None else None
        position = _query_positions(slot, nq)
    full_shift = None if scales.full is None else scales.full[slot]
    gains_full = gains if gain_full is gain_cut else _gain_levels(level, usable, gain_full, full_shift)
    if chosen.ties == "average":
        assert group is not None  # sort_run gives the tied groups under this policy
        gains = tie_averaged(gains, group)
        gains_full = gains if gain_full is gain_cut else tie_averaged(gains_full, group)
    return _Ranking(_Graded(slot, level, usable), position, gains, gains_full)


def _order_key(prepared: Prepared, chosen: _Plan, scales: _Scales) -> tuple[Any, ...] | None:
    """What decides the ranking order: the tie policy and the scores' precision and, for the best and worst orders
    of ties, how the gain orders the judged grades (equal gains included); ``None`` where gains are rescaled."""
    if chosen.ties not in ("best", "worst"):
        return (chosen.ties, chosen.float32_scores)
    if scales.cut is not None:
        return None
    levels = np.unique(prepared.judged.level[prepared.judged.usable]).astype(np.float64)
    gains = np.concatenate(([0.0], chosen.gain_cut(levels)))
    ranks = np.unique(gains, return_inverse=True)[1]
    return (chosen.ties, chosen.float32_scores, tuple(levels.tolist()), tuple(ranks.tolist()))


def _dcg_sums(ranking: _Ranking, nq: int, chosen: _Plan) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """Each query's DCG of the whole ranking (with the full gain) and at each cutoff (with the cut gain)."""
    same = ranking.gain_full is ranking.gain_cut
    # Only rows with a gain add to DCG (adding 0.0 leaves a sum's bits as they are), and most rows
    # of a real run are unjudged: compute the terms for the others only.
    has_gain = ranking.gain_cut != 0 if same else (ranking.gain_cut != 0) | (ranking.gain_full != 0)
    scoring = np.flatnonzero(has_gain)
    slot, position = ranking.graded.slot[scoring], ranking.position[scoring]
    terms_cut = _terms(ranking.gain_cut[scoring], position, chosen.discount)
    terms_full = terms_cut if same else _terms(ranking.gain_full[scoring], position, chosen.discount)
    full = _per_query_sums(slot, terms_full, nq)
    return full, {k: _per_query_sums(slot, terms_cut, nq, position < k) for k in chosen.cutoffs}


def _idcg_sums(pool: _Graded, scales: _Scales, nq: int, chosen: _Plan) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """Each query's ideal DCG from its pool, of the whole ideal ranking and at each cutoff, as ``_dcg_sums``."""
    cut_shift = None if scales.cut is None else scales.cut[pool.slot]
    cut_gains = _gain_levels(pool.level, pool.usable, chosen.gain_cut, cut_shift)
    full, at_cutoffs = _ideal_sums(pool.slot, cut_gains, nq, chosen.cutoffs, chosen.discount)
    if chosen.gain_full is not chosen.gain_cut:
        full_shift = None if scales.full is None else scales.full[pool.slot]
        full_gains = _gain_levels(pool.level, pool.usable, chosen.gain_full, full_shift)
        full, _ = _ideal_sums(pool.slot, full_gains, nq, (), chosen.discount)
    return full, at_cutoffs


def _counts(queries: _Queries, judged: _Graded, retrieved: _Graded) -> dict[str, np.ndarray]:
    """trec_eval's counts per query: documents retrieved, judged, relevant, relevant and retrieved; in the run."""
    nq = queries.count
    relevant_retrieved = retrieved.slot[retrieved.usable & (retrieved.level >= RELEVANT_FROM)]
    return {
        "num_ret": np.bincount(retrieved.slot, minlength=nq)[:nq],
        "num_judged": np.bincount(judged.slot, minlength=nq)[:nq],
        "num_rel": np.bincount(judged.slot[judged.level >= RELEVANT_FROM], minlength=nq)[:nq],
        "num_rel_ret": np.bincount(relevant_retrieved, minlength=nq)[:nq],
        "in_run": queries.in_run[np.flatnonzero(queries.evaluated)],
    }


def _unscaled(values: np.ndarray, shift: np.ndarray | None) -> np.ndarray:
    """DCGs as they are; inf where one is beyond a float's range."""
    if shift is None:
        return values
    with np.errstate(over="ignore"):
        return np.asarray(np.ldexp(values, shift))


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
        return np.asarray(distinct[as_numpy(docno.indices)])
    return as_numpy(pc.index_in(docno, value_set=vocabulary), fill=-1)


def query_ranking(
    qrels: Qrels,
    run: Run,
    qid: str,
    *,
    max_docs: int | None = None,
    float32_scores: bool = False,
    judged_only: bool = False,
) -> dict[str, Any]:
    """One query's ranked docnos with grades (None when unjudged) and its judged grades, for drill-down.

    The order is ``evaluate``'s: scores compared as doubles, or as 32-bit floats with ``float32_scores``; cut at
    ``max_docs``, then with ``judged_only`` only the documents with a grade of 0 or more (trec_eval's ``-J``).
    """
    rows, jrows = _rows_of(run.qid, qid), _rows_of(qrels.qid, qid)
    judged = dict(zip(qrels.docno.take(as_arrow(jrows)).to_pylist(), qrels.rel[jrows].tolist(), strict=False))
    docnos = run.docno.take(as_arrow(rows)).to_pylist()
    scores = run.score[rows]
    order = ranking_order(scores, docnos, validate.flag(float32_scores, "float32_scores"))
    if max_docs is not None:
        order = order[:max_docs]
    if validate.flag(judged_only, "judged_only"):
        order = [i for i in order if judged.get(docnos[i], -1) >= 0]
    ranked = [docnos[i] for i in order]
    return {
        "qid": qid,
        "docnos": ranked,
        "grades": [judged.get(d) for d in ranked],
        "scores": [float(scores[i]) for i in order],
        "pool": judged,
    }


def _rows_of(qids: pa.Array, qid: str) -> np.ndarray:
    names, codes = query_codes(qids)
    return np.flatnonzero(codes == names.index(qid)) if qid in names else np.empty(0, dtype=np.int64)
