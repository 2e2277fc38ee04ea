"""trec_eval's output: ``%-22s\\t%s\\t%6.4f`` lines, per query (if asked) then ``all``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .evaluate import Evaluation
from .measures import Measure


def format_trec_eval(evaluation: Evaluation, measures: Sequence[Measure], per_query: bool = False) -> str:
    """Lines as trec_eval prints them for ``measures`` (see ``trec_eval_measures``), per query then ``all``."""
    out: list[str] = []
    if per_query:
        # Each column fetched once and as Python floats (formatted as numpy's doubles are): a page prints
        # thousands of queries on every run.
        named = [(f"{m.name:<22}", evaluation.per_query(m).tolist()) for m in measures]
        for i, qid in enumerate(evaluation.qids):
            out.extend(f"{name}\t{qid}\t{values[i]:6.4f}" for name, values in named)
    # trec_eval's all line: the sum over queries, in query order, divided by their number.
    out.extend(f"{m.name:<22}\tall\t{_sequential_mean(evaluation.per_query(m)):6.4f}" for m in measures)
    return "\n".join(out) + "\n"


def _sequential_mean(values: np.ndarray) -> float:
    return float(np.cumsum(values)[-1] / len(values)) if len(values) else 0.0
