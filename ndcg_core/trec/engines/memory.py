"""``--engine numpy`` (the default): qrels and a run read into memory and evaluated with numpy.

An evaluation is ``segmented.evaluate_files`` (a big tidy run read in segments). The rankings an explanation
searches (``MemoryRankings``) match the files once (``evaluate.prepare``); each scoring of the default order is
evaluated over every query, another tie policy or 32-bit scores only over the queries where they can change the
order (a tie between documents of different gains), the others keeping the default's figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import TracebackType

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..evaluate import Evaluation, EvaluationOptions, Prepared, prepare, prepared_columns
from ..readers import Qrels, Run, Source, read_qrels, read_run
from ..segmented import evaluate_files


class MemoryEngine:
    """The default engine: nothing to open or close."""

    name = "numpy"

    def evaluate_files(
        self, qrels_source: Source, run_source: Source, options: EvaluationOptions | None = None
    ) -> Evaluation:
        return evaluate_files(qrels_source, run_source, options)

    def rankings(self, qrels_source: Source, run_source: Source) -> MemoryRankings:
        return MemoryRankings(read_qrels(qrels_source), read_run(run_source))

    def close(self) -> None:
        pass

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


Groups = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class MemoryRankings:
    """``Rankings`` of qrels and a run in memory (see the module)."""

    def __init__(self, qrels: Qrels, run: Run) -> None:
        self._qrels, self._run = qrels, run
        self._prepared = prepare(qrels, run, complete=True)
        self.grades = tuple(int(g) for g in np.unique(qrels.rel))
        queries = self._prepared.queries
        self.in_run = queries.in_run[np.flatnonzero(queries.evaluated)]
        retrieved = self._prepared.retrieved
        self.longest = int(np.bincount(retrieved.slot).max()) if len(retrieved.slot) else 0
        self.unjudged = not bool(retrieved.usable.all())
        self._names = [queries.names[i] for i in np.flatnonzero(queries.evaluated)]
        self._as_float32 = _groups(self._prepared, True)
        self._tied = {
            "double": _mixed_ties(self._prepared, _groups(self._prepared, False)),
            "float32": _mixed_ties(self._prepared, self._as_float32),
        }
        self._subsets: dict[str, Prepared | None] = {}
        self._default: tuple[EvaluationOptions, dict[str, np.ndarray]] | None = None

    def mixed(self, scores: str) -> bool:
        return bool(self._tied[scores].any())

    def float32_matters(self) -> bool:
        _, group, score, grade = self._as_float32
        return bool((_spans(group, score) & _spans(group, grade)).any())

    def columns(self, scores: str, ties: str, options: EvaluationOptions) -> Mapping[str, np.ndarray]:
        base = self._default_columns(options)
        if (scores, ties) == ("double", "trec_eval"):
            return base
        if scores not in self._subsets:
            rows = self._tied[scores]
            self._subsets[scores] = _subset(self._qrels, self._run, [self._names[i] for i in np.flatnonzero(rows)])
        scoring = replace(options.scoring, ties=ties, float32_scores=scores == "float32")
        return _with_subset(base, self._tied[scores], self._subsets[scores], replace(options, scoring=scoring))

    def _default_columns(self, options: EvaluationOptions) -> dict[str, np.ndarray]:
        """The default order's columns under ``options``' gain, discount and ideal (kept for the other orders)."""
        scoring = replace(options.scoring, ties="trec_eval", float32_scores=False)
        chosen = replace(options, scoring=scoring)
        if self._default is None or self._default[0] != chosen:
            self._default = (chosen, prepared_columns(self._prepared, chosen))
        return self._default[1]


def _subset(qrels: Qrels, run: Run, qids: list[str]) -> Prepared | None:
    """The files' rows of these queries, matched (``None`` for no query)."""
    if not qids:
        return None
    wanted = pa.array(qids)
    rows_q = pc.indices_nonzero(pc.is_in(qrels.qid, value_set=wanted))
    rows_r = pc.indices_nonzero(pc.is_in(run.qid, value_set=wanted))
    sub_q = Qrels(qrels.qid.take(rows_q), qrels.docno.take(rows_q), qrels.rel[rows_q.to_numpy()])
    sub_r = Run(run.qid.take(rows_r), run.docno.take(rows_r), run.score[rows_r.to_numpy()])
    return prepare(sub_q, sub_r)  # each of these queries is in the run (it has tied documents): none to complete


def _with_subset(
    columns: Mapping[str, np.ndarray], rows: np.ndarray, subset: Prepared | None, options: EvaluationOptions
) -> dict[str, np.ndarray]:
    """``columns`` with the rows of the subset's queries (``rows``, in the same order) evaluated under ``options``."""
    out = dict(columns)
    if subset is None:
        return out
    return with_rows(out, rows, prepared_columns(subset, options))


def with_rows(
    columns: Mapping[str, np.ndarray], rows: np.ndarray, sub: Mapping[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """``columns`` with the rows ``rows`` (a mask, in order) replaced by ``sub``'s."""
    out = dict(columns)
    where = np.flatnonzero(rows)
    for name, values in sub.items():
        if name in out:
            changed = out[name].copy()
            changed[where] = values
            out[name] = changed
    return out


def _groups(prepared: Prepared, float32: bool) -> Groups:
    """Run rows sorted by query and score (as 32-bit floats with ``float32``): each row's result row, tie group,
    score, and grade where it has a gain (else 0: an unjudged document's level is 0, an unusable grade's below 0)."""
    retrieved = prepared.retrieved
    score = prepared.score.astype(np.float32) if float32 else prepared.score
    order = np.argsort(score)  # any order within a tie group will do: a group's rows are read as a set
    order = order[np.argsort(retrieved.slot[order], kind="stable")]
    slot, key = retrieved.slot[order], score[order]
    grade = np.maximum(retrieved.level, 0)[order]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = (slot[1:] != slot[:-1]) | (key[1:] != key[:-1])
    return slot, np.cumsum(starts) - 1, prepared.score[order], grade


def _spans(group: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per group number (as many as rows; those past the last group are False), whether its values differ."""
    n = len(group)  # groups are numbered from 0, at most one per row
    low, high = np.full(n, np.inf), np.full(n, -np.inf)
    np.minimum.at(low, group, values)
    np.maximum.at(high, group, values)
    return np.asarray(high > low)


def _mixed_ties(prepared: Prepared, groups: Groups) -> np.ndarray:
    """Per result row (query), whether some of its scores tie (in ``groups``: as doubles, or as 32-bit floats)
    between documents of different grades: where a tie policy can change its NDCG."""
    slot, group, _, grade = groups
    mixed = _spans(group, grade)
    out = np.zeros(prepared.queries.count, dtype=bool)
    out[slot[mixed[group]]] = True
    return out
