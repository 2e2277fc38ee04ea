"""The command line's evaluation engines (``--engine``): the same ``Evaluation`` from qrels and a run, computed by
``numpy`` in memory (the default, ``ndcg_core.trec.segmented.evaluate_files``) or by ``duckdb`` out of core
(``duckdb_sql``, for runs larger than memory)."""

from __future__ import annotations

ENGINES = ("numpy", "duckdb")
DEFAULT_ENGINE = "numpy"
