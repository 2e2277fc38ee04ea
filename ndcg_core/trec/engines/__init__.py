"""The command line's evaluation engines (``--engine``): the same ``Evaluation`` from qrels and a run, computed by
``numpy`` in memory (the default, ``ndcg_core.trec.segmented.evaluate_files``), by ``duckdb`` out of core
(``duckdb_sql``, for runs larger than memory) or by ``spark`` on Apache Spark (``spark_sql``, on this machine or a
cluster); the last two share their ranking SQL (``sql``)."""

from __future__ import annotations

ENGINES = ("numpy", "duckdb", "spark")
DEFAULT_ENGINE = "numpy"
SPARK_MASTER = "local[*]"  # --engine spark without --spark-master: every core of this machine
