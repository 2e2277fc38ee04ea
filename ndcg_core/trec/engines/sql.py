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
from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ..evaluate import Evaluation, EvaluationOptions, ranked_columns

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

    def evaluation(
        self, options: EvaluationOptions, qrels_name: str, run_name: str, tag: str, *, engine: str
    ) -> Evaluation:
        """The evaluation under ``options`` (``engine``: the engine's name on the command line, for errors)."""
        if not self.qids:
            raise InputError("files.no_shared_query", run=run_name, qrels=qrels_name)
        columns = ranked_columns(self.judged, self.ranked, self.retrieved_count, self.in_run, options, engine)
        return Evaluation(self.qids, columns, options, qrels_name=qrels_name, run_name=run_name, tag=tag)


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
