"""The evaluation engines (``--engine``), as providers: one protocol, one module per engine, one registry.

An engine reads qrels and a run, ranks each query in trec_eval's order and scores it, to the same ``Evaluation``
(printing is the command line's, the same for all). ``ENGINES`` holds each by name, as ir_measures holds its
providers: ``numpy`` in memory (the default, ``memory``), ``duckdb`` out of core (``duckdb_sql``, for runs larger
than memory) and ``spark`` on Apache Spark (``spark_sql``, here or on a cluster); the last two rank with the SQL
they share (``sql``, one text with a dialect for their differences). Each is imported only when opened: the
command line and the app start without DuckDB or Spark.

An open engine (``Engine``) evaluates two files under one ``EvaluationOptions`` (``evaluate_files``) and gives
their rankings under every order an explanation searches (``rankings``: ``Rankings``), so ``--explain`` runs on
the engine asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

import numpy as np

from ...registry import Registry
from ..evaluate import Evaluation, EvaluationOptions
from ..readers import Source

DEFAULT_ENGINE = "numpy"
SPARK_MASTER = "local[*]"  # --engine spark without --spark-master: every core of this machine


class Rankings(Protocol):
    """Two files' rankings under the orders an explanation searches, evaluated under any options.

    An order is the scores' precision ("double" or "float32") and a tie policy (``lists.ties.TIE_POLICIES``).
    The queries are those judged (trec_eval's ``-c``), in trec_eval's order; ``in_run`` says which the run names.
    """

    grades: tuple[int, ...]  # every grade the qrels hold, ascending
    in_run: np.ndarray
    longest: int  # the most documents one query's ranking holds
    unjudged: bool  # whether some ranking holds a document without a grade of 0 or more

    def mixed(self, scores: str) -> bool:
        """Whether, with scores at this precision, some scores tie between documents of different gains (else
        every tie policy gives the figures of trec_eval's)."""
        ...

    def float32_matters(self) -> bool:
        """Whether scores equal as 32-bit floats but not as doubles tie documents of different gains."""
        ...

    def columns(self, scores: str, ties: str, options: EvaluationOptions) -> Mapping[str, np.ndarray]:
        """``Evaluation.columns`` of every query ranked in this order, scored under ``options`` (whose own
        precision and tie policy are this order's)."""
        ...


class Engine(Protocol):
    """An open engine: evaluates any number of pairs of files; close it, or use ``with``."""

    name: str

    def evaluate_files(
        self, qrels_source: Source, run_source: Source, options: EvaluationOptions | None = None
    ) -> Evaluation:
        """``evaluate(read_qrels(qrels_source), read_run(run_source), options)``, computed by this engine."""
        ...

    def rankings(self, qrels_source: Source, run_source: Source) -> Rankings:
        """The two files' rankings for an explanation (``teaching.explain``), valid until the next call."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Engine: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None: ...


@dataclass(frozen=True)
class Provider:
    """How to open one engine: ``open(**settings)`` (its module is imported then); ``check_first`` refuses what
    the default reader refuses in the files' first lines before the engine opens (for an engine slow to start)."""

    name: str
    open: Callable[..., Engine]
    check_first: bool = False

    def opened(self, qrels: Source, run: Source, **settings: Any) -> Engine:
        """The engine open, once the files' first lines are checked if ``check_first``."""
        if self.check_first:
            from .files import check_before_starting

            check_before_starting("qrels", qrels)
            check_before_starting("run", run)
        return self.open(**settings)


ENGINES: Registry[Provider] = Registry("engine")
"""Every engine by its ``--engine`` name; an unknown name raises ``engine.unknown``."""


def _memory(**settings: Any) -> Engine:
    from .memory import MemoryEngine

    return MemoryEngine()


def _duckdb(**settings: Any) -> Engine:
    from .duckdb_sql import DuckDBEngine  # DuckDB loads only when asked for

    return DuckDBEngine()


def _spark(*, master: str | None = None, **settings: Any) -> Engine:
    from .spark_sql import SparkEngine  # Spark loads only when asked for

    return SparkEngine(master)


@ENGINES.register("numpy", "numpy, in memory", "in memory (default)")
def _numpy_provider() -> Provider:
    return Provider("numpy", _memory)


@ENGINES.register("duckdb", "DuckDB, out of core", "out of core with DuckDB, for runs larger than memory")
def _duckdb_provider() -> Provider:
    return Provider("duckdb", _duckdb)


@ENGINES.register("spark", "Apache Spark", "on Apache Spark, here or on a cluster (needs pyspark and Java 17+)")
def _spark_provider() -> Provider:
    # Spark's JVM takes half a minute to start: a missing or malformed file is refused before it.
    return Provider("spark", _spark, check_first=True)


def provider(name: str) -> Provider:
    """The engine called ``name`` (``engine.unknown`` for a name ``ENGINES`` does not hold)."""
    return ENGINES.build(name)
