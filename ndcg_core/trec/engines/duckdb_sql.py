"""``--engine duckdb``: qrels and a run evaluated by DuckDB, out of core, to the default engine's very figures.

DuckDB reads the files from disk (TREC text, CSV/TSV with a header, Parquet; gzip too), checks them in SQL, and
ranks each query in SQL in trec_eval's order: score descending (as doubles, or as 32-bit floats with
``float32_scores``; -0.0 and 0.0 tie), then document id descending as bytes, as trec_eval 10.0 sorts. The
ranking is joined with the judgments, and only the judged documents of each ranking come back, with their
positions, to ``ranked_columns``: the default engine's own gains, discount, ideal, cuts and sums, in the same
order, so every figure has the same bits. The whole run is never in Python's memory: DuckDB keeps at most
``memory_limit`` and spills the rest to ``temp_directory``.

Bad input: the SQL only decides whether a file is clean. One that is not (a bad or short line, a duplicate, a
NUL byte, text that is not UTF-8, a lone carriage return, which DuckDB reads as a line end where trec_eval reads a
space) is read by the default reader, which raises the default engine's exact error; should it read the file
after all, its columns are evaluated here as they are. Parquet, which only this engine reads, gets the same
codes, with the row number as the line.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import zlib
from pathlib import Path
from types import TracebackType
from typing import Any

import pyarrow as pa

from ...error_codes import Code
from ...errors import InputError, Place, shown
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
from .sql import DUCKDB, SqlRankings, csv_select, rank_tables, trec_select, typed

_TABLES = ("qrels", "run", "queries", "ties", "mixed_double", "mixed_float32")
MEMORY_LIMIT = "1GB"  # DuckDB's own buffers; the rest of a run spills to the temporary directory


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class DuckDBEngine:
    """One DuckDB database in a temporary directory, for any number of evaluations (close it, or use ``with``).

    ``memory_limit``: DuckDB's limit (``"1GB"``); ``temp_directory``: where its database and spilled data go
    (a new directory under it, removed on close; the system's temporary directory by default); ``threads``:
    DuckDB's worker threads (all cores by default).
    """

    name = "duckdb"

    def __init__(
        self, memory_limit: str = MEMORY_LIMIT, temp_directory: str | None = None, threads: int | None = None
    ) -> None:
        import duckdb  # only this engine needs it: the command line and the app start without it

        self._folder = tempfile.mkdtemp(prefix="ndcg-duckdb-", dir=temp_directory)
        config: dict[str, Any] = {
            "memory_limit": memory_limit,
            "temp_directory": os.path.join(self._folder, "spill"),
            "preserve_insertion_order": False,
        }
        if threads is not None:
            config["threads"] = threads
        self._db = duckdb.connect(":memory:", config=config)
        self._error: type[Exception] = duckdb.Error
        self._out_of_memory: type[Exception] = duckdb.OutOfMemoryException
        self._tag = ""  # the run's tag, as the last file read gives it

    def close(self) -> None:
        self._db.close()
        shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> DuckDBEngine:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _sql(self, query: str, params: list[Any] | None = None) -> Any:
        try:
            return self._db.execute(query, params or [])
        except self._out_of_memory as err:  # the command line says so in one line, as for the default engine
            raise MemoryError(str(err)) from err

    def _one(self, query: str) -> Any:
        """The first row of a query's result, or None; fetched to the end, as DuckDB 2 wants before the
        connection's next statement (a result left after ``fetchone`` refuses it)."""
        rows = self._sql(query).fetchall()
        return rows[0] if rows else None

    # ------------------------------------------------------------------------------------ evaluation

    def evaluate_files(
        self, qrels_source: Source, run_source: Source, options: EvaluationOptions | None = None
    ) -> Evaluation:
        """``evaluate(read_qrels(qrels_source), read_run(run_source), options)``, computed by DuckDB."""
        chosen = EvaluationOptions() if options is None else options
        if chosen.scoring.ties != "trec_eval":
            raise InputError("engine.ties", engine="duckdb", ties=chosen.scoring.ties)
        try:
            qrels_name, run_name = self._load_pair(qrels_source, run_source)
            return self._evaluate(chosen, qrels_name, run_name, self._tag)
        finally:
            self._drop()

    def rankings(self, qrels_source: Source, run_source: Source) -> SqlRankings:
        """The two files' rankings for an explanation, out of core (``sql.SqlRankings``), until the next call."""
        self._drop()
        # The run's rows keep the file's order (its rowid), for ties in file order.
        self._sql("SET preserve_insertion_order = true")
        try:
            self._load_pair(qrels_source, run_source)
        finally:
            self._sql("SET preserve_insertion_order = false")
        return SqlRankings(self._create, self._fetch, row="rowid", engine=self.name)

    def _load_pair(self, qrels_source: Source, run_source: Source) -> tuple[str, str]:
        return load_pair(self._load, qrels_source, run_source)

    def _drop(self) -> None:
        self._sql("; ".join(f"DROP TABLE IF EXISTS {name}" for name in _TABLES))

    def _create(self, name: str, select: str) -> None:
        self._sql(f"CREATE OR REPLACE TABLE {name} AS {select}")

    def _fetch(self, select: str) -> Any:
        return self._sql(select).fetchnumpy()

    def _evaluate(self, chosen: EvaluationOptions, qrels_name: str, run_name: str, tag: str) -> Evaluation:
        ranked = rank_tables(
            self._create,
            self._fetch,
            complete=chosen.complete,
            float32_scores=chosen.scoring.float32_scores,
        )
        return ranked.evaluation(chosen, qrels_name, run_name, tag, engine="duckdb")

    # ------------------------------------------------------------------------------------ reading

    def _load(self, kind: str, source: Source) -> str:
        """Read one file into the table ``kind`` (qid, docno, and rel or score) and return its name for messages."""
        self._tag = ""
        name = source_name(source)
        if isinstance(source, (str, os.PathLike)):
            path = Path(source)
            if not path.is_file():  # missing, a folder, a pipe: the default reader reads it or names the problem
                self._load_default(kind, source, name)
                return name
            return self._load_path(kind, path, name, source)
        data = bytes_of(source)
        spooled = Path(self._folder) / f"{kind}.input"
        spooled.write_bytes(data)
        try:
            return self._load_path(kind, spooled, name, data)
        finally:
            spooled.unlink()  # written above, and nothing else removes it

    def _load_path(self, kind: str, path: Path, name: str, original: Source) -> str:
        try:
            with open(path, "rb") as file:
                start = file.read(4)
        except OSError:  # unreadable: the default reader says why
            self._load_default(kind, original, name)
            return name
        if start == b"PAR1":
            try:
                self._load_parquet(kind, path, name)
            except self._error:  # damaged (cut short, say): refused as text, as the default engine refuses it
                self._sql(f"DROP TABLE IF EXISTS {kind}")
                refuse_if_large(kind, path, False, name)
                self._load_default(kind, original, name)
            return name
        gzipped = start[:2] == b"\x1f\x8b"
        try:
            self._load_text(kind, path, gzipped)
        except (Unclean, self._error, OSError, EOFError, zlib.error, UnicodeDecodeError):
            # A bad file is refused a part at a time, DuckDB's copy of it dropped first: neither holds it whole.
            self._sql(f"DROP TABLE IF EXISTS {kind}")
            refuse_if_large(kind, path, gzipped, name)
            self._load_default(kind, original, name)
        return name

    def _load_text(self, kind: str, path: Path, gzipped: bool) -> None:
        # scan checks UTF-8 too: DuckDB checks only the columns it reads, and trec_eval's second one it never does.
        head, tail, tidy = scan(path, gzipped)
        header = csv_table_header(head)
        self._tag = "" if kind == "qrels" or header is not None else last_tag(tail)
        compression = "gzip" if gzipped else "none"

        def read(columns: int, delimiter: str, skip: int = 0) -> str:
            names = ", ".join(f"'c{i}': 'VARCHAR'" for i in range(1, columns + 1))
            return (
                f"read_csv({_literal(os.fspath(path))}, columns={{{names}}}, header=false, delim={_literal(delimiter)},"
                " quote='', escape='', new_line='\\n', auto_detect=false, strict_mode=false, null_padding=true,"
                f" compression='{compression}', skip={skip})"
            )

        params: list[Any] = []
        if header is not None:
            select = csv_select(DUCKDB, kind, read(2, "?", header_line(head)).replace("'?'", "?"), header)
            params = ["\x00"]
            if select is None:
                raise Unclean  # a column it needs is missing: the default reader says which
        elif tidy:
            select = _tidy_select(kind, read(5 if kind == "qrels" else 7, " "))
        else:
            select = trec_select(DUCKDB, kind, read(2, "?").replace("'?'", "?"))
            params = ["\x00"]
        self._sql(f"CREATE OR REPLACE TABLE {kind} AS {select}", params)
        # Distinct hashes of (query, document) count the pairs: a collision only sends the file to the default
        # reader, which finds no duplicate and reads it.
        bad, rows, pairs = self._one(
            f"SELECT count(*) FILTER (bad), count(*), count(DISTINCT hash(qid, docno)) FROM {kind}"
        )
        if bad or not rows or pairs != rows:
            raise Unclean

    def _load_default(self, kind: str, source: Source, name: str) -> None:
        """Read with the default reader (which raises its error for a bad file) and take its columns as they are."""
        read = default_read(kind, source, name)
        number = "rel" if isinstance(read, Qrels) else "score"
        values = read.rel if isinstance(read, Qrels) else read.score
        table = pa.table({"qid": plain(read.qid), "docno": plain(read.docno), number: pa.array(values)})
        if isinstance(read, Run):
            self._tag = read.tag
        self._db.register("default_read", table)
        try:
            self._sql(f"CREATE OR REPLACE TABLE {kind} AS SELECT * FROM default_read")
        finally:
            self._db.unregister("default_read")

    def read_parquet(self, kind: str, path: Path, name: str) -> pa.Table:
        """A Parquet file's columns (qid, docno, and rel or score; ``kind``: "qrels" or "run") as this engine
        reads them, or the error it raises for the file."""
        self._load_parquet(kind, path, name)
        number = "rel" if kind == "qrels" else "score"
        try:
            # A relation's Arrow table: DuckDB 2 has no ``fetch_arrow_table`` and warns of a copy on a cursor's.
            return self._db.sql(f"SELECT qid, docno, {number} FROM {kind}").to_arrow_table()
        except self._out_of_memory as err:
            raise MemoryError(str(err)) from err
        finally:
            self._sql(f"DROP TABLE IF EXISTS {kind}")

    def _load_parquet(self, kind: str, path: Path, name: str) -> None:
        file = _literal(os.fspath(path))
        source = f"read_parquet({file}, file_row_number=true)"
        # The file's own columns, for messages too: not the row number read_parquet adds.
        described = self._sql(f"DESCRIBE SELECT * FROM read_parquet({file})").fetchall()
        found = {str(row[0]).lower(): str(row[0]) for row in described}
        number = ("rel", REL_NAMES) if kind == "qrels" else ("score", SCORE_NAMES)
        wanted = {"qid": QID_NAMES, "docno": DOC_NAMES, number[0]: number[1]}
        if kind == "run" and pick(found, SCORE_NAMES) is None and pick(found, RANK_NAMES) is not None:
            wanted["score"] = RANK_NAMES
        chosen = {}
        for column, aliases in wanted.items():
            picked = pick(found, aliases)
            if picked is None:
                code: Code = "qrels.header_missing" if kind == "qrels" else "run.header_missing"
                raise InputError(code, file=name, column=column, looked=", ".join(aliases), found=", ".join(found))
            chosen[column] = '"' + found[picked].replace('"', '""') + '"'
        value = f"TRY_CAST({chosen[number[0]]} AS DOUBLE)"
        if wanted.get("score") is RANK_NAMES:
            value = f"-{value}"
        self._sql(
            f"""CREATE OR REPLACE TABLE {kind} AS SELECT CAST({chosen["qid"]} AS VARCHAR) AS qid,
            CAST({chosen["docno"]} AS VARCHAR) AS docno, {value} AS {number[0]}, file_row_number AS row FROM {source}"""
        )
        self._check_parquet(kind, name, rank=wanted.get("score") is RANK_NAMES)
        if kind == "qrels":
            self._sql("ALTER TABLE qrels ALTER rel TYPE BIGINT")
        self._sql(f"ALTER TABLE {kind} DROP COLUMN row")

    def _check_parquet(self, kind: str, name: str, *, rank: bool) -> None:
        """The default reader's checks, by row: no empty id, a usable number, no duplicate; some row at all."""
        if self._one(f"SELECT count(*) FROM {kind}")[0] == 0:
            raise InputError("qrels.header_only" if kind == "qrels" else "run.header_only", file=name)
        empty = self._first(kind, "qid IS NULL OR qid = '' OR docno IS NULL OR docno = ''", "qid IS NULL OR qid = ''")
        if empty is not None:
            row, is_qid = empty
            raise InputError("csv.field_empty", place=_row(row, name), column="qid" if is_qid else "docno")
        problem: tuple[str, Code]
        if kind == "qrels":
            whole = f"isfinite(rel) AND rel = round(rel) AND abs(rel) <= {LARGEST_EXACT_GRADE}"
            problem = (f"rel IS NULL OR NOT ({whole})", "qrels.grade_not_whole")
        elif rank:
            problem = ("score IS NULL OR NOT isfinite(score)", "run.rank_not_finite")
        else:
            problem = ("score IS NULL OR isnan(score)", "run.score_nan")
        number = "rel" if kind == "qrels" else "score"
        bad = self._first(kind, problem[0], f"-{number}" if rank else number)  # a rank as the file gives it
        if bad is not None:
            raise InputError(problem[1], place=_row(bad[0], name), value=shown(bad[1]))
        pair = self._one(
            f"""SELECT min(row), max(row), any_value(qid), any_value(docno) FROM (
                SELECT row, qid, docno, row_number() OVER (PARTITION BY qid, docno ORDER BY row) AS nth FROM {kind}
            ) WHERE nth <= 2 GROUP BY qid, docno HAVING count(*) = 2 ORDER BY max(row) LIMIT 1"""
        )
        if pair is not None:
            first, second, qid, docno = pair
            raise InputError(
                "qrels.duplicate" if kind == "qrels" else "run.duplicate",
                place=_row(second, name),
                document=shown(docno),
                query=shown(qid),
                first=int(first) + 1,
            )

    def _first(self, kind: str, where: str, then: str) -> tuple[int, Any] | None:
        found = self._one(f"SELECT row, {then} FROM {kind} WHERE {where} ORDER BY row LIMIT 1")
        return None if found is None else (int(found[0]), found[1])


# -------------------------------------------------------------------------------------- the SQL of a text file


def _tidy_select(kind: str, columns: str) -> str:
    """TREC text with one space between fields, none at either end of a line, and no other blank (``scan``
    checked the whole file): DuckDB's CSV reader splits it at its spaces, the fastest way it has."""
    number, width = ("c4", "c4 IS NOT NULL AND c5 IS NULL") if kind == "qrels" else ("c5", "c6 IS NOT NULL")
    fields = f"""SELECT c1 AS qid, c3 AS docno, {number} AS text, {width} AS width FROM {columns}
        WHERE c1 IS NOT NULL AND NOT starts_with(c1, '#')"""  # a blank line reads as NULLs
    return typed(DUCKDB, kind, fields, "width")


# -------------------------------------------------------------------------------------- helpers


def _row(row: Any, name: str) -> Place:
    return Place("file.line", line=int(row) + 1, file=name)
