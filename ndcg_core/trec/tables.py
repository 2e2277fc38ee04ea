"""Judgments and rankings in memory (``Qrels``, ``Run``: parallel arrays of query id, document id and grade or
score), and the same made from a pandas DataFrame or a pyarrow Table (``Qrels.from_frame``, ``Run.from_frame``),
checked as the files are (``readers``), with the files' error codes.

From a table, query and document ids may be strings or integers (written as decimal text, as a TREC file holds
them); a missing id or a value of another type is refused, naming the column and the row; grades must be whole
numbers and scores numbers that are not NaN (a missing one is a NaN, as pandas keeps it); a (query, document) pair
twice is refused as in a file. Rows are counted from 1, in the table's order, which is the order ties keep under
the file-order tie policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..arrays import as_numpy
from ..error_codes import Code
from ..errors import InputError, Place, shown

LARGEST_EXACT_GRADE = 2**53  # beyond it a grade read as a double is no longer a whole number exactly


@dataclass
class Qrels:
    """Judgments: parallel arrays of query id, document id and integer grade."""

    qid: pa.Array
    docno: pa.Array
    rel: np.ndarray
    name: str = "qrels"
    lines: np.ndarray | None = None  # source line of each row; None means row i is line i + 1

    def __len__(self) -> int:
        return len(self.rel)

    @classmethod
    def from_frame(
        cls, frame: Any, query: str = "query", doc: str = "doc", grade: str = "grade", name: str = "DataFrame"
    ) -> Qrels:
        """Judgments from a pandas DataFrame's or pyarrow Table's columns, checked as a file is (the module's
        rules)."""
        return qrels_from_frame(frame, query, doc, grade, name)

    def line_of(self, row: int) -> int:
        return int(self.lines[row]) if self.lines is not None else row + 1


@dataclass
class Run:
    """A ranking: parallel arrays of query id, document id and score."""

    qid: pa.Array
    docno: pa.Array
    score: np.ndarray
    name: str = "run"
    tag: str = ""
    lines: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.score)

    @classmethod
    def from_frame(
        cls, frame: Any, query: str = "query", doc: str = "doc", score: str = "score", name: str = "DataFrame"
    ) -> Run:
        """A ranking from a pandas DataFrame's or pyarrow Table's columns, checked as a file is (the module's
        rules)."""
        return run_from_frame(frame, query, doc, score, name)

    def line_of(self, row: int) -> int:
        return int(self.lines[row]) if self.lines is not None else row + 1


def query_codes(qid: pa.Array) -> tuple[list[str], np.ndarray]:
    """Distinct query ids and each row's index into them."""
    encoded = qid if pa.types.is_dictionary(qid.type) else pc.dictionary_encode(qid)
    return encoded.dictionary.to_pylist(), as_numpy(encoded.indices).astype(np.int64)


def duplicate_rows(qid: pa.Array, docno: pa.Array) -> tuple[int, int] | None:
    """The first two rows with the same query and document (by the second's row), or None."""
    _, q = query_codes(qid)
    encoded = docno if pa.types.is_dictionary(docno.type) else pc.dictionary_encode(docno)
    d = as_numpy(encoded.indices).astype(np.int64)
    key = q * (len(encoded.dictionary) + 1) + d
    ordered = np.sort(key)
    if not len(ordered) or not (ordered[1:] == ordered[:-1]).any():
        return None
    order = np.argsort(key, kind="stable")
    repeated = np.flatnonzero(key[order][1:] == key[order][:-1])
    seconds = order[repeated + 1]
    at = int(np.argmin(seconds))
    return int(order[repeated[at]]), int(seconds[at])


def _table(frame: Any, columns: dict[str, str], name: str) -> pa.Table:
    """The named columns of a pandas DataFrame or pyarrow Table, as a pyarrow Table (no copy where Arrow has one)."""
    if isinstance(frame, pa.RecordBatch):
        frame = pa.Table.from_batches([frame])
    present = list(frame.column_names) if isinstance(frame, pa.Table) else _pandas_columns(frame, name)
    for role, column in columns.items():
        if column not in present:
            raise InputError(
                "frame.column", frame=name, role=role, column=shown(column), columns=", ".join(map(str, present))
            )
    wanted = list(columns.values())
    if isinstance(frame, pa.Table):
        return frame.select(wanted)
    return pa.Table.from_pandas(frame[wanted], preserve_index=False)


def _pandas_columns(frame: Any, name: str) -> list[Any]:
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a dependency of the app
        pd = None
    if pd is None or not isinstance(frame, pd.DataFrame):
        raise InputError("frame.not_table", frame=name, value=shown(type(frame).__name__))
    return list(frame.columns)


def _place(name: str, row: int) -> Place:
    return Place("frame.row", row=row + 1, frame=name)


def _ids(values: pa.ChunkedArray, column: str, name: str) -> pa.Array:
    """Ids as strings: integers written in decimal, strings as they are; a null or another type is refused."""
    array = values.combine_chunks()
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    if array.null_count:
        row = int(np.flatnonzero(as_numpy(array.is_null(), fill=True))[0])
        raise InputError("frame.null", place=_place(name, row), column=shown(column))
    if pa.types.is_integer(array.type):
        return pc.cast(array, pa.string())
    if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
        return array
    raise InputError("frame.id_type", frame=name, column=shown(column), type=str(array.type))


def _numbers(values: pa.ChunkedArray, name: str, not_number: Code) -> np.ndarray:
    """A numeric column as float64, a missing value as NaN (pandas writes a float column's NaN as a null); a
    column of text or booleans is refused at its first value."""
    array = values.combine_chunks()
    if not (pa.types.is_integer(array.type) or pa.types.is_floating(array.type) or pa.types.is_null(array.type)):
        row = int(np.flatnonzero(as_numpy(array.is_valid(), fill=False))[0]) if array.null_count < len(array) else 0
        raise InputError(not_number, place=_place(name, row), value=shown(array[row].as_py() if len(array) else ""))
    return np.asarray(pc.fill_null(pc.cast(array, pa.float64(), safe=False), np.nan).to_numpy(zero_copy_only=False))


def _no_duplicates(qid: pa.Array, docno: pa.Array, name: str, code: Code) -> None:
    pair = duplicate_rows(qid, docno)
    if pair is not None:
        first, second = pair
        raise InputError(
            code,
            place=_place(name, second),
            document=shown(docno[second].as_py()),
            query=shown(qid[second].as_py()),
            first=first + 1,
        )


def qrels_from_frame(
    frame: Any, query: str = "query", doc: str = "doc", grade: str = "grade", name: str = "DataFrame"
) -> Qrels:
    """Judgments from a table's ``query``, ``doc`` and ``grade`` columns (see the module's rules)."""
    table = _table(frame, {"query": query, "doc": doc, "grade": grade}, name)
    qid, docno = _ids(table.column(0), query, name), _ids(table.column(1), doc, name)
    values = _numbers(table.column(2), name, "qrels.grade_not_number")
    bad = np.flatnonzero(~np.isfinite(values) | (values != np.round(values)))
    if len(bad):
        row = int(bad[0])
        raise InputError("qrels.grade_not_whole", place=_place(name, row), value=f"{values[row]:g}")
    huge = np.flatnonzero(np.abs(values) > LARGEST_EXACT_GRADE)
    if len(huge):
        row = int(huge[0])
        raise InputError(
            "qrels.grade_too_large",
            place=_place(name, row),
            value=f"{values[row]:g}",
            limit=f"2^53 = {LARGEST_EXACT_GRADE}",
        )
    _no_duplicates(qid, docno, name, "qrels.duplicate")
    return Qrels(qid, docno, values.astype(np.int64), name)


def run_from_frame(
    frame: Any, query: str = "query", doc: str = "doc", score: str = "score", name: str = "DataFrame", tag: str = ""
) -> Run:
    """A ranking from a table's ``query``, ``doc`` and ``score`` columns (see the module's rules)."""
    table = _table(frame, {"query": query, "doc": doc, "score": score}, name)
    qid, docno = _ids(table.column(0), query, name), _ids(table.column(1), doc, name)
    scores = _numbers(table.column(2), name, "run.score_not_number")
    nan = np.flatnonzero(np.isnan(scores))
    if len(nan):
        raise InputError("run.score_nan", place=_place(name, int(nan[0])), value="nan")
    _no_duplicates(qid, docno, name, "run.duplicate")
    return Run(qid, docno, scores, name, tag)
