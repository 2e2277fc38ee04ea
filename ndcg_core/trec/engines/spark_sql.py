"""``--engine spark``: qrels and a run evaluated by Apache Spark (PySpark), to the default engine's very figures.

Spark reads the files (TREC text, CSV/TSV with a header, Parquet; gzip too), checks them in Spark SQL, and ranks
each query with the SQL it shares with the DuckDB engine (``sql``): trec_eval's order, then only the judged
documents of each ranking come back, with their positions, to ``ranked_columns``, the default engine's own
arithmetic. ``local[*]`` (every core of this machine) by default; with a cluster's ``master`` URL the files, and
the engine's ``temp_directory``, must be where every executor sees them at the same path.

Bad input, as in the DuckDB engine: Spark only decides whether a file is clean. One that is not (a bad or short
line, a duplicate, a NUL byte, text that is not UTF-8, a lone carriage return, a byte order mark) is read by the
default reader, which raises the default engine's exact error; a Parquet file that is not clean is read by the
DuckDB engine, which raises the codes it gives Parquet.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import threading
import warnings
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ...errors import InputError
from ..evaluate import Evaluation, EvaluationOptions
from ..readers import (
    DOC_NAMES,
    LARGEST_EXACT_GRADE,
    QID_NAMES,
    RANK_NAMES,
    REL_NAMES,
    SCORE_NAMES,
    Qrels,
    Run,
    Source,
    csv_table_header,
    last_tag,
)
from . import SPARK_MASTER
from .duckdb_sql import DuckDBEngine
from .files import (
    Unclean,
    bytes_of,
    default_read,
    header_line,
    load_pair,
    pick,
    plain,
    refuse_if_large,
    scan,
    source_name,
)
from .sql import SPARK, TEXT_PARAMS, Ranked, SqlRankings, csv_select, rank_tables, trec_select

_BOM = b"\xef\xbb\xbf"
# Spark's log on standard error, errors only: the command line's own errors are one line there. The level stays
# Spark's shell default (warn), or Spark says on standard error that it sets it; the appender drops the warnings.
_QUIET_LOG = """rootLogger.level = warn
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.filter.threshold.type = ThresholdFilter
appender.console.filter.threshold.level = error
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n
"""
# Parquet column types Spark reads as the DuckDB engine does (ids as text, numbers as doubles); others go to DuckDB.
_ID_TYPES = ("string", "int", "bigint", "smallint", "tinyint")
_NUMBER_TYPES = ("int", "bigint", "smallint", "tinyint", "float", "double")


class SparkEngine:
    """One Spark session for any number of evaluations (close it, or use ``with``).

    ``master``: Spark's master URL (``local[*]`` by default); ``config``: further Spark settings, as
    ``{"spark.sql.shuffle.partitions": "2"}``; ``temp_directory``: where a folder for spooled and converted
    input is made (removed on close). ``session``: a SparkSession to use instead (left open on close).
    """

    name = "spark"

    def __init__(
        self,
        master: str | None = None,
        config: Mapping[str, str] | None = None,
        temp_directory: str | None = None,
        session: Any = None,
    ) -> None:
        self._owned = session is None
        self._folder = tempfile.mkdtemp(prefix="ndcg-spark-", dir=temp_directory)
        try:
            self._spark = _session(master or SPARK_MASTER, config or {}, Path(self._folder)) if self._owned else session
        except BaseException:
            shutil.rmtree(self._folder, ignore_errors=True)
            raise
        self._tag = ""  # the run's tag, as the last file read gives it
        self._cached: list[Any] = []
        from pyspark.errors import PySparkException

        self._error: type[Exception] = PySparkException  # Spark could not read a file: the default reader says why

    @property
    def session(self) -> Any:
        return self._spark

    def close(self) -> None:
        self._release()
        if self._owned:
            self._spark.stop()
        shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> SparkEngine:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # ------------------------------------------------------------------------------------ evaluation

    def evaluate_files(
        self, qrels_source: Source, run_source: Source, options: EvaluationOptions | None = None
    ) -> Evaluation:
        """``evaluate(read_qrels(qrels_source), read_run(run_source), options)``, computed by Spark."""
        chosen = EvaluationOptions() if options is None else options
        if chosen.scoring.ties != "trec_eval":
            raise InputError("engine.ties", engine="spark", ties=chosen.scoring.ties)
        qrels_name, run_name = source_name(qrels_source), source_name(run_source)
        ranked = self.rank_files(qrels_source, run_source, chosen.complete, chosen.scoring.float32_scores)
        return ranked.evaluation(chosen, qrels_name, run_name, self._tag, engine="spark")

    def rank_files(self, qrels_source: Source, run_source: Source, complete: bool, float32_scores: bool) -> Ranked:
        """What Spark's SQL finds in two files (``sql.Ranked``): the queries, judgments and judged documents
        of each ranking in trec_eval's order, for ``Ranked.evaluation`` under any options with these two."""
        try:
            self._load_pair(qrels_source, run_source)
            return rank_tables(self._create, self._fetch, complete=complete, float32_scores=float32_scores)
        finally:
            self._release()

    def rankings(self, qrels_source: Source, run_source: Source) -> SqlRankings:
        """The two files' rankings for an explanation, in Spark (``sql.SqlRankings``), until the next call."""
        self._load_pair(qrels_source, run_source)
        return SqlRankings(self._create, self._fetch, row="row", engine=self.name)

    def _load_pair(self, qrels_source: Source, run_source: Source) -> None:
        # What the last rankings left is released first: Spark would answer a read of the same path from its cache.
        self._release()
        load_pair(self._load, qrels_source, run_source)

    def _create(self, name: str, select: str) -> None:
        frame = self._spark.sql(select).persist()
        self._cached.append(frame)
        frame.createOrReplaceTempView(name)

    def _fetch(self, select: str) -> dict[str, np.ndarray]:
        table = self._spark.sql(select).toArrow()
        return {name: table.column(name).to_numpy() for name in table.column_names}

    def _release(self) -> None:
        for frame in self._cached:
            frame.unpersist()
        self._cached.clear()
        for view in ("qrels", "run", "queries", "ties", "mixed_double", "mixed_float32"):
            self._spark.catalog.dropTempView(view)
        for spooled in Path(self._folder).iterdir():
            spooled.unlink()

    # ------------------------------------------------------------------------------------ reading

    def _load(self, kind: str, source: Source) -> None:
        """Make the view ``kind`` (qid, docno, and rel or score) of one file, or raise the default engine's error."""
        self._tag = ""
        name = source_name(source)
        if isinstance(source, (str, os.PathLike)):
            path = Path(source)
            if not path.is_file():  # missing, a folder, a pipe: the default reader reads it or names the problem
                self._load_default(kind, source, name)
                return
            original: Source = source
        else:
            data = bytes_of(source)
            path = Path(self._folder) / f"{kind}.input"
            path.write_bytes(data)
            original = data
        try:
            with open(path, "rb") as file:
                start = file.read(4)
        except OSError:  # unreadable: the default reader says why
            self._load_default(kind, original, name)
            return
        if start == b"PAR1":
            self._load_parquet(kind, path, name)
            return
        gzipped = start[:2] == b"\x1f\x8b"
        try:
            self._load_text(kind, path, gzipped)
        except (Unclean, OSError, EOFError, zlib.error, UnicodeDecodeError, self._error):
            refuse_if_large(kind, path, gzipped, name)  # a bad file is refused a part at a time, never held whole
            self._load_default(kind, original, name)

    def _link(self, kind: str, path: Path, suffix: str) -> str:
        """A name of the file in the engine's folder that Spark reads as it is: no glob characters, no leading
        dot or underscore (which Spark skips), and ``.gz`` exactly when it is gzip."""
        link = Path(self._folder) / f"{kind}{suffix}"
        link.unlink(missing_ok=True)
        link.symlink_to(path.resolve())
        return os.fspath(link)

    def _load_text(self, kind: str, path: Path, gzipped: bool) -> None:
        head, tail, _ = scan(path, gzipped)
        if head.startswith(_BOM):
            raise Unclean
        header = csv_table_header(head)
        self._tag = "" if kind == "qrels" or header is not None else last_tag(tail)
        # Lines end at a line feed only: a carriage return before it is a blank, as trec_eval reads it.
        lines = self._spark.read.text(self._link(kind, path, ".gz" if gzipped else ".txt"), lineSep="\n")
        args: dict[str, Any] = dict(TEXT_PARAMS)
        headers = "1"
        if header is not None:
            select = csv_select(SPARK, kind, "{lines}", header, header_text=True)
            if select is None:
                raise Unclean  # a column it needs is missing: the default reader says which
            # The header's line is left out by its text: a data line reading the same is the default reader's.
            args |= {"header": head.split(b"\n")[header_line(head) - 1].decode("utf-8"), "delimiter": header[0]}
            headers = "(SELECT count_if(value = :header) FROM {lines})"
        else:
            select = trec_select(SPARK, kind, "{lines}")
        frame = self._spark.sql(select, args, lines=lines).persist()
        self._cached.append(frame)
        bad, rows, pairs, header_lines = self._spark.sql(
            f"SELECT count_if(bad), count(*), count(DISTINCT qid, docno), {headers} FROM {{frame}}",
            args,
            frame=frame,
            lines=lines,
        ).first()
        if bad or not rows or pairs != rows or header_lines != 1:
            raise Unclean
        _view(kind, frame.select("qid", "docno", "rel" if kind == "qrels" else "score"))

    def _load_default(self, kind: str, source: Source, name: str) -> None:
        """Read with the default reader (which raises its error for a bad file) and take its columns as they are."""
        read = default_read(kind, source, name)
        number = "rel" if isinstance(read, Qrels) else "score"
        values = read.rel if isinstance(read, Qrels) else read.score
        if isinstance(read, Run):
            self._tag = read.tag
        self._load_table(kind, pa.table({"qid": plain(read.qid), "docno": plain(read.docno), number: values}))

    def _load_table(self, kind: str, table: pa.Table) -> None:
        written = Path(self._folder) / f"{kind}.read.parquet"
        pq.write_table(table, written)
        frame = self._spark.read.parquet(os.fspath(written)).persist()
        self._cached.append(frame)
        _view(kind, frame)

    def _load_parquet(self, kind: str, path: Path, name: str) -> None:
        """Parquet with ids as text or whole numbers and a numeric grade or score, checked in Spark; any other
        file is read by the DuckDB engine, which raises its error for a bad one."""
        frame = self._spark.read.parquet(self._link(kind, path, ".parquet"))
        types = {field.lower(): (field, kind_) for field, kind_ in frame.dtypes}
        found = {key: field for key, (field, _) in types.items()}
        number = ("rel", REL_NAMES) if kind == "qrels" else ("score", SCORE_NAMES)
        rank = kind == "run" and pick(found, SCORE_NAMES) is None and pick(found, RANK_NAMES) is not None
        picked = {
            "qid": pick(found, QID_NAMES),
            "docno": pick(found, DOC_NAMES),
            number[0]: pick(found, RANK_NAMES if rank else number[1]),
        }
        if len(found) != len(frame.columns) or any(p is None for p in picked.values()):
            self._load_duckdb(kind, path, name)  # a column missing, or two names differing only in case
            return
        column = {key: types[str(p)] for key, p in picked.items()}
        simple = column["qid"][1] in _ID_TYPES and column["docno"][1] in _ID_TYPES
        if not simple or column[number[0]][1] not in _NUMBER_TYPES:
            self._load_duckdb(kind, path, name)
            return
        quoted = {key: f"`{field.replace('`', '``')}`" for key, (field, _) in column.items()}
        value = f"CAST({quoted[number[0]]} AS DOUBLE)"
        if kind == "qrels":
            usable = f"abs(v) <= {LARGEST_EXACT_GRADE} AND v = round(v)"
            typed = f"CASE WHEN {usable} THEN CAST(v AS BIGINT) END AS rel"
        elif rank:
            usable, typed = "abs(v) < CAST('inf' AS DOUBLE)", "-v AS score"
        else:
            usable, typed = "v IS NOT NULL AND NOT isnan(v)", "v AS score"
        checked = self._spark.sql(
            f"""SELECT qid, docno, {typed}, qid IS NULL OR qid = '' OR docno IS NULL OR docno = ''
                OR NOT coalesce({usable}, false) AS bad
            FROM (SELECT CAST({quoted["qid"]} AS STRING) AS qid, CAST({quoted["docno"]} AS STRING) AS docno,
                {value} AS v FROM {{frame}}) AS typed""",
            frame=frame,
        ).persist()
        self._cached.append(checked)
        bad, rows, pairs = self._spark.sql(
            "SELECT count_if(bad), count(*), count(DISTINCT qid, docno) FROM {checked}", checked=checked
        ).first()
        if bad or not rows or pairs != rows:
            self._load_duckdb(kind, path, name)
            return
        _view(kind, checked.select("qid", "docno", number[0]))

    def _load_duckdb(self, kind: str, path: Path, name: str) -> None:
        """The DuckDB engine's reading of a Parquet file: its error, or its columns."""
        with DuckDBEngine(memory_limit="256MB", threads=1, temp_directory=self._folder) as duck:
            table = duck.read_parquet(kind, path, name)
        self._load_table(kind, table)


def _view(kind: str, frame: Any) -> None:
    """The view ``kind`` of a file's columns; a run's rows numbered in the file's order (``row``: the partitions of
    one file are its parts in order), for ties in file order."""
    if kind == "run":
        from pyspark.sql.functions import monotonically_increasing_id

        frame = frame.withColumn("row", monotonically_increasing_id())
    frame.createOrReplaceTempView(kind)


# -------------------------------------------------------------------------------------- the SQL of a text file


# -------------------------------------------------------------------------------------- the session


# What Java itself says on standard error as Spark's JVM starts, not the user's business (JDK 17 and later print it
# for the vector module Spark 4 loads): dropped; everything else the JVM writes there is passed on.
_JAVA_NOISE = (b"WARNING: Using incubator modules",)


@contextlib.contextmanager
def java_notices_dropped() -> Iterator[None]:
    """While the block runs (Spark's JVM starting), standard error goes through a filter that drops Java's start-up
    notices (``_JAVA_NOISE``); a process started meanwhile keeps writing through it, filtered, until it exits."""
    try:
        real = os.dup(2)
    except OSError:  # no standard error to filter
        yield
        return
    read, write = os.pipe()
    passed_on = os.dup(real)  # the thread's own: ``real`` is closed when the block ends, maybe before it starts
    os.dup2(write, 2)
    os.close(write)

    def forward() -> None:
        with os.fdopen(read, "rb") as pipe, os.fdopen(passed_on, "wb", buffering=0) as out:
            for line in pipe:
                if not line.startswith(_JAVA_NOISE):
                    with contextlib.suppress(OSError):  # standard error gone: the line has nowhere to go
                        out.write(line)

    threading.Thread(target=forward, daemon=True, name="java-stderr").start()
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(real, 2)
        os.close(real)


def _session(master: str, config: Mapping[str, str], folder: Path) -> Any:
    """A Spark session on ``master``, quiet: no web UI, no progress bars, only errors from Spark's log (its
    settings written in ``folder``, read by Java as it starts)."""
    try:
        with warnings.catch_warnings():
            # PySpark warns once, on import, that it has not been tried with the installed pandas; it uses none.
            warnings.simplefilter("ignore", FutureWarning)
            import pyspark.testing.utils  # noqa: F401 (the import that warns, made here once)
            from pyspark.sql import SparkSession
    except ImportError:
        raise InputError("engine.not_installed", engine="spark", package="pyspark", extra="spark") from None
    builder = SparkSession.builder.master(master).appName("ndcg-lab-eval")
    log = folder / "log4j2.properties"
    log.write_text(_QUIET_LOG)
    java = f"-Dlog4j2.configurationFile={log.as_uri()} {config.get('spark.driver.extraJavaOptions', '')}".strip()
    settings = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        **config,
        "spark.driver.extraJavaOptions": java,
    }
    for key, setting in settings.items():
        builder = builder.config(key, setting)
    try:
        with java_notices_dropped():
            spark = builder.getOrCreate()
    except Exception as err:  # no Java, or a master that cannot be reached: PySpark's own error, in one line
        reason = next((line.strip() for line in str(err).splitlines() if line.strip()), type(err).__name__)
        raise InputError("engine.spark_start", master=master, reason=reason) from None
    spark.sparkContext.setLogLevel("ERROR")
    return spark
