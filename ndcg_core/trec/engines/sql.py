"""The SQL the out-of-core engines share (``duckdb_sql``, ``spark_sql``): trec_eval's ranking, written once.

Both engines hold the qrels as a table ``qrels`` (qid, docno, rel) and the run as ``run`` (qid, docno, score),
and ask the same questions of them in SQL that DuckDB and Spark both accept: which queries are evaluated, in
trec_eval's order (ids compared as bytes: both compare strings by their UTF-8 bytes); each ranking in trec_eval's
order (score descending, as doubles or as 32-bit floats, -0.0 tying with 0.0, then document id descending as
bytes), joined with the judgments. Only the judged documents of each ranking come back, with their positions, to
``evaluate.ranked_columns``: the default engine's own arithmetic, so every figure has the same bits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from ...errors import InputError
from ..evaluate import Evaluation, EvaluationOptions, ranked_columns
from .memory import with_rows

_FLOAT32_MAX = float(np.finfo(np.float32).max)
_FLOAT32_INF_FROM = 2.0**128 - 2.0**103  # half way from float32's largest value to 2^128: rounds to infinity

Fetch = Callable[[str], Mapping[str, np.ndarray]]
"""Runs a SELECT and returns its columns by name."""
Create = Callable[[str, str], None]
"""Makes a table (its name, a SELECT) that later statements read."""


def queries_select(complete: bool) -> str:
    """The evaluated queries, numbered from 0 in trec_eval's order (``slot``), and whether the run names each:
    those judged and ranked (or only judged, ``complete``)."""
    return f"""SELECT qid, bool_or(ranked) AS in_run, row_number() OVER (ORDER BY qid) - 1 AS slot FROM (
            SELECT DISTINCT qid, false AS ranked FROM qrels UNION ALL SELECT DISTINCT qid, true FROM run
        ) AS named GROUP BY qid HAVING bool_or(NOT ranked) AND (bool_or(ranked) OR {str(complete).lower()})"""


def ranked_select(float32_scores: bool) -> str:
    """The judged documents of each ranking: query slot, position from 0 in trec_eval's order, grade."""
    key = float32_key("score") if float32_scores else "score + 0.0"  # -0.0 and 0.0 tie
    return f"""SELECT slot, position, rel FROM (
            SELECT slot, qid, docno,
                row_number() OVER (PARTITION BY slot ORDER BY {key} DESC, docno DESC) - 1 AS position
            FROM run JOIN queries USING (qid)
        ) AS ranking JOIN qrels USING (qid, docno) ORDER BY slot, position"""


JUDGED_SELECT = "SELECT slot, rel FROM qrels JOIN queries USING (qid)"
COUNTED_SELECT = "SELECT slot, count(*) AS n FROM run JOIN queries USING (qid) GROUP BY slot"


def float32_key(column: str) -> str:
    """A score as a 32-bit float compares, as a double: rounded to nearest, beyond float32's range infinite."""
    clamped = f"greatest(least({column}, {_FLOAT32_MAX!r}), {-_FLOAT32_MAX!r})"
    return (
        f"(CASE WHEN abs({column}) >= {_FLOAT32_INF_FROM!r} THEN sign({column}) * CAST('inf' AS DOUBLE)"
        f" ELSE CAST(CAST({clamped} AS FLOAT) AS DOUBLE) END + 0.0)"
    )


@dataclass(frozen=True)
class Ranked:
    """What an engine's SQL found, ready for ``ranked_columns``: the evaluated queries in trec_eval's order,
    whether the run names each, every judgment (slot, grade), the judged documents of each ranking (slot,
    position, grade) and each query's number of ranked documents."""

    qids: list[str]
    in_run: np.ndarray
    judged: tuple[np.ndarray, np.ndarray]
    ranked: tuple[np.ndarray, np.ndarray, np.ndarray]
    retrieved_count: np.ndarray

    ties: str = "trec_eval"  # the tie policy ``ranked`` is in
    group: np.ndarray | None = None  # with averaged ties, each ranked row's tie group (``ranked_columns``)

    def evaluation(
        self, options: EvaluationOptions, qrels_name: str, run_name: str, tag: str, *, engine: str
    ) -> Evaluation:
        """The evaluation under ``options`` (``engine``: the engine's name on the command line, for errors)."""
        if not self.qids:
            raise InputError("files.no_shared_query", run=run_name, qrels=qrels_name)
        columns = self.columns(options, engine)
        return Evaluation(self.qids, columns, options, qrels_name=qrels_name, run_name=run_name, tag=tag)

    def columns(self, options: EvaluationOptions, engine: str) -> dict[str, np.ndarray]:
        """``Evaluation.columns`` under ``options`` (whose tie policy must be the ranking's)."""
        return ranked_columns(
            self.judged,
            self.ranked,
            self.retrieved_count,
            self.in_run,
            options,
            engine,
            ties=self.ties,
            group=self.group,
        )


def rank_tables(create: Create, fetch: Fetch, *, complete: bool, float32_scores: bool) -> Ranked:
    """Ask the tables ``qrels`` and ``run`` which queries are evaluated and how each ranking orders its judged
    documents (``create`` makes the table ``queries`` the other statements join)."""
    create("queries", queries_select(complete))
    queries = fetch("SELECT qid, in_run FROM queries ORDER BY slot")
    nq = len(queries["qid"])
    if not nq:
        empty = np.zeros(0, dtype=np.int64)
        return Ranked([], np.zeros(0, dtype=bool), (empty, empty), (empty, empty, empty), empty)
    judged = fetch(JUDGED_SELECT)
    ranked = fetch(ranked_select(float32_scores))
    counted = fetch(COUNTED_SELECT)
    retrieved_count = np.zeros(nq, dtype=np.int64)
    retrieved_count[_ints(counted["slot"])] = _ints(counted["n"])
    return Ranked(
        [str(q) for q in queries["qid"]],
        np.asarray(queries["in_run"], dtype=bool),
        (_ints(judged["slot"]), _ints(judged["rel"])),
        (_ints(ranked["slot"]), _ints(ranked["position"]), _ints(ranked["rel"])),
        retrieved_count,
    )


def _ints(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


# -------------------------------------------------------------------------------------- rankings for an explanation

_GAIN = "CASE WHEN rel > 0 THEN rel ELSE 0 END"  # a document's grade where it has a gain, else 0
# Within a tie group, each policy's order (the rows' gains ascending or descending, the file's order, document id).
_TIE_BREAKS = {
    "trec_eval": "docno DESC",
    "average": "docno DESC",
    "best": "g DESC, docno DESC",
    "worst": "g ASC, docno DESC",
    "file": "row ASC",
}


def _graded(float32: bool, row: str, subset: str | None = None) -> str:
    """Every run row of the evaluated queries (or of the queries in the table ``subset``): its slot, score, key
    (the score as it compares), file order (``row``: the dialect's expression), grade (NULL if unjudged) and the
    grade where it has a gain."""
    key = float32_key("score") if float32 else "score + 0.0"
    within = f" JOIN {subset} USING (slot)" if subset else ""
    return f"""SELECT slot, docno, score, {key} AS key, rel, {_GAIN} AS g, row FROM (
            SELECT qid, docno, score, {row} AS row FROM run) AS numbered
        JOIN queries USING (qid){within} LEFT JOIN qrels USING (qid, docno)"""


def mixed_select(float32: bool, row: str) -> str:
    """The queries (slots) where scores, compared as doubles or as 32-bit floats, tie between documents of
    different gains, and whether such a tie holds scores that differ as doubles."""
    return f"""SELECT slot, max(CASE WHEN low < high THEN 1 ELSE 0 END) AS differs FROM (
            SELECT slot, key, min(score + 0.0) AS low, max(score + 0.0) AS high FROM ({_graded(float32, row)}) AS graded
            GROUP BY slot, key HAVING min(g) < max(g)
        ) AS tied GROUP BY slot"""


def ordered_select(float32: bool, ties: str, row: str, subset: str) -> str:
    """The judged documents of each ranking of the queries in ``subset``, ordered by the tie policy ``ties``: slot,
    position from 0, grade (-1 for an unjudged document), tie group; averaged ties add every document of a tie
    group with a gain."""
    keep = "rel IS NOT NULL" + (" OR top > 0" if ties == "average" else "")
    return f"""SELECT slot, position, coalesce(rel, -1) AS rel, tie FROM (
            SELECT slot, rel, row_number() OVER (PARTITION BY slot ORDER BY key DESC, {_TIE_BREAKS[ties]}) - 1
                    AS position,
                dense_rank() OVER (PARTITION BY slot ORDER BY key DESC) AS tie,
                max(g) OVER (PARTITION BY slot, key) AS top
            FROM ({_graded(float32, row, subset)}) AS graded
        ) AS ranking WHERE {keep} ORDER BY slot, position"""


class SqlRankings:
    """``Rankings`` of the tables ``qrels`` and ``run`` an out-of-core engine holds (see ``engines.Rankings``).

    Each order is one ranking in SQL, of the queries where it can change a figure only (a tie between documents
    of different gains); only the judged documents of each come back, evaluated by ``ranked_columns``.
    ``row``: the dialect's expression of a run row's place in its file (for ties in file order).
    """

    def __init__(self, create: Create, fetch: Fetch, *, row: str, engine: str, names: tuple[str, str]) -> None:
        self._fetch, self._row, self._engine = fetch, row, engine
        self._base = rank_tables(create, fetch, complete=True, float32_scores=False)
        if not self._base.qids:
            raise InputError("files.no_shared_query", qrels=names[0], run=names[1])
        self.in_run = self._base.in_run
        self.grades = tuple(int(g) for g in np.sort(_ints(fetch("SELECT DISTINCT rel FROM qrels")["rel"])))
        self._tied: dict[str, np.ndarray] = {}
        self._differs = False
        for scores in ("double", "float32"):
            create(f"mixed_{scores}", mixed_select(scores == "float32", row))
            found = fetch(f"SELECT slot, differs FROM mixed_{scores} ORDER BY slot")
            rows = np.zeros(len(self.in_run), dtype=bool)
            rows[_ints(found["slot"])] = True
            self._tied[scores] = rows
            if scores == "float32":
                self._differs = bool(_ints(found["differs"]).any())
        self._orders: dict[tuple[str, str], Ranked] = {}

    def mixed(self, scores: str) -> bool:
        return bool(self._tied[scores].any())

    def float32_matters(self) -> bool:
        return self._differs

    def columns(self, scores: str, ties: str, options: EvaluationOptions) -> Mapping[str, np.ndarray]:
        default = replace(options, scoring=replace(options.scoring, ties="trec_eval", float32_scores=False))
        base = self._base.columns(default, self._engine)
        if (scores, ties) == ("double", "trec_eval") or not self.mixed(scores):
            return base
        if (scores, ties) not in self._orders:
            self._orders[(scores, ties)] = self._ordered(scores, ties)
        scoring = replace(options.scoring, ties=ties, float32_scores=scores == "float32")
        sub = self._orders[(scores, ties)].columns(replace(options, scoring=scoring), self._engine)
        return with_rows(base, self._tied[scores], sub)

    def _ordered(self, scores: str, ties: str) -> Ranked:
        """The ranking of the queries with mixed ties in this order, their slots numbered from 0."""
        rows = self._tied[scores]
        slots = np.flatnonzero(rows)
        found = self._fetch(ordered_select(scores == "float32", ties, self._row, f"mixed_{scores}"))
        slot = np.searchsorted(slots, _ints(found["slot"]))
        group = None
        if ties == "average":
            tie = _ints(found["tie"])
            starts = np.ones(len(slot), dtype=bool)
            starts[1:] = (slot[1:] != slot[:-1]) | (tie[1:] != tie[:-1])
            group = np.cumsum(starts) - 1
        j_slot, j_rel = self._base.judged
        kept = rows[j_slot]
        return Ranked(
            [self._base.qids[i] for i in slots],
            self.in_run[slots],
            (np.searchsorted(slots, j_slot[kept]), j_rel[kept]),
            (slot, _ints(found["position"]), _ints(found["rel"])),
            self._base.retrieved_count[slots],
            ties=ties,
            group=group,
        )
