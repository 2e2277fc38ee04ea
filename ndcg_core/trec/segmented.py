"""Evaluate a big TREC run file in segments: the same numbers as ``read_run`` + ``evaluate``, sooner.

A tidy run file (one separator, no comment or blank lines, ASCII, each query's lines in one
block) is memory-mapped and cut into segments of about 4 MB at line ends. Two worker threads
each parse a segment and evaluate the queries that lie wholly inside it; the first and last
blocks of a segment may continue in its neighbours, so they are joined and evaluated at the
end. The file is never copied, and the whole run never exists as columns at once.

Anything else (gzip, CSV, comments, a bad line, a duplicate, a query split into two blocks)
goes to ``read_run``, which reads it whole and gives the exact message for bad input.
"""

from __future__ import annotations

import mmap
import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..arrays import as_arrow, as_numpy
from ..errors import InputError
from .evaluate import Evaluation, EvaluationOptions, evaluate
from .readers import (
    RUN_LAYOUT,
    Qrels,
    Run,
    Source,
    arrow_parse,
    csv_table_header,
    duplicate_rows,
    last_tag,
    looks_swapped,
    padded,
    query_codes,
    read_qrels,
    read_run,
    single_delimiter,
)

SEGMENT_BYTES = 1 << 22
WORKERS = 2
LOOKAHEAD = 3  # segments in the workers' hands beyond the one being collected: bounds memory


class _NotTidy(Exception):
    """The run file needs ``read_run``: it is irregular somewhere, or bad."""


Progress = Callable[[float], None]


def evaluate_files(
    qrels_source: Source | Qrels,
    run_source: Source,
    options: EvaluationOptions | None = None,
    *,
    run_name: str | None = None,
    progress: Progress | None = None,
) -> Evaluation:
    """``evaluate(read_qrels(qrels_source), read_run(run_source), options)``, faster on big tidy files.

    ``options``: trec_eval's defaults when None. ``qrels_source`` may be
    ``Qrels`` already read. A run given as a path is memory-mapped; one given
    as bytes (an upload) is read in place, never copied. ``progress(fraction)`` is called from the
    calling thread as the run's segments are done.
    """
    chosen = EvaluationOptions() if options is None else options
    if isinstance(qrels_source, Qrels):
        qrels = qrels_source
    else:
        try:
            qrels = read_qrels(qrels_source)
        except InputError as err:
            if looks_swapped(err, run_source):
                raise InputError("files.swapped", qrels=_name(qrels_source), run=_name(run_source)) from None
            raise
    result = None
    if isinstance(run_source, (str, os.PathLike)):
        result = _evaluate_mapped(qrels, Path(run_source), chosen, run_name or os.fspath(run_source), progress)
    elif isinstance(run_source, (bytes, bytearray)) and run_source:
        result = _evaluate_segments(qrels, run_source, run_name or "input", chosen, progress)
    if result is None:
        result = evaluate(qrels, read_run(run_source, run_name), chosen)
    if progress is not None:
        progress(1.0)
    return result


def _name(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return str(getattr(source, "name", "input"))


def _evaluate_mapped(
    qrels: Qrels, path: Path, chosen: EvaluationOptions, name: str, progress: Progress | None
) -> Evaluation | None:
    """The evaluation of a tidy run file, or None when ``read_run`` must read it."""
    try:
        with open(path, "rb") as file:
            if os.fstat(file.fileno()).st_size == 0:
                return None
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None  # read_run names the problem
    return _evaluate_segments(qrels, mapped, name, chosen, progress)


def _evaluate_segments(
    qrels: Qrels, data: mmap.mmap | bytes | bytearray, name: str, chosen: EvaluationOptions, progress: Progress | None
) -> Evaluation | None:
    try:
        return _Segments(qrels, data, name, chosen, progress).evaluate()
    except (_NotTidy, ValueError):
        # ValueError too: read_run and evaluate then raise it with the whole file's line numbers.
        return None


@dataclass
class _Rows:
    """Rows of one segment: query blocks (a code and a name each), docnos, scores."""

    names: list[str]
    starts: np.ndarray  # first row of each block of one query
    qid: pa.DictionaryArray  # codes: the block of each row
    docno: pa.StringArray
    score: np.ndarray
    doc_keys: np.ndarray | None  # see _doc_keys

    def slice(self, start: int, stop: int) -> Run:
        length = stop - start
        return Run(self.qid.slice(start, length), self.docno.slice(start, length), self.score[start:stop])

    def has_no_duplicates(self, start: int, stop: int) -> bool:
        """True when rows start:stop surely hold no document twice in one query; False means "look closer"."""
        if self.doc_keys is None:
            return False
        codes = as_numpy(self.qid.indices)[start:stop].astype(np.uint64)
        mixed = np.sort(self.doc_keys[start:stop] ^ (codes * _GOLDEN))
        return not (mixed[1:] == mixed[:-1]).any()


@dataclass
class _Done:
    """A worker's result for one segment: its inner queries evaluated, its first and last blocks kept.

    The first and last blocks may belong to queries that other segments continue.
    """

    inner: Evaluation | None
    inner_names: list[str]
    edges: list[tuple[str, Run]]


def _compact(run: Run) -> Run:
    """A copy of a few rows that does not keep their segment's columns alive."""
    return Run(run.qid.dictionary_decode(), pa.concat_arrays([run.docno]), run.score.copy())


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # spreads query codes over 64 bits before mixing with a key
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)


def _doc_keys(docno: pa.StringArray) -> np.ndarray | None:
    """Each docno's bytes as one little-endian integer when every docno has at most 8 bytes, else None.

    The text is NUL-free, so two docnos are equal exactly when their keys are: comparing integers
    is several times cheaper than hashing strings.
    """
    if len(docno) == 0:
        return np.empty(0, np.uint64)
    offsets = np.frombuffer(docno.buffers()[1], np.int32, len(docno) + 1, docno.offset * 4)
    lengths = np.diff(offsets)
    if lengths.max() > 8:
        return None
    text = np.frombuffer(docno.buffers()[2], np.uint8)
    padded = np.zeros(len(text) + 8, np.uint8)
    padded[: len(text)] = text
    # Every 8-byte window of the text as an integer, read at each docno's first byte.
    windows = np.ndarray((len(text) + 1,), dtype="<u8", buffer=padded, strides=(1,))
    return windows[offsets[:-1]] & _LOW_BYTES[lengths]


class _Segments:
    """One pass over a mapped run file, segment by segment."""

    def __init__(
        self,
        qrels: Qrels,
        mapped: mmap.mmap | bytes | bytearray,
        name: str,
        chosen: EvaluationOptions,
        progress: Progress | None = None,
    ) -> None:
        self.qrels, self.mapped, self.name, self.chosen = qrels, mapped, name, chosen
        self.progress = progress
        self.buffer = pa.py_buffer(mapped)
        names, codes = query_codes(qrels.qid)
        self.judged_order = np.argsort(codes, kind="stable")
        self.judged_bounds = np.searchsorted(codes[self.judged_order], np.arange(len(names) + 1))
        self.judged_index = {n: i for i, n in enumerate(names)}

    def evaluate(self) -> Evaluation | None:
        head = bytes(self.mapped[:65536])
        if head[:2] == b"\x1f\x8b" or csv_table_header(head) is not None:
            return None
        separator = single_delimiter(head)
        if separator is None:
            return None
        done: list[_Done] = []
        with ThreadPoolExecutor(WORKERS) as pool:
            queue: deque[tuple[Future[_Done], int]] = deque()
            try:
                for start, stop in self._bounds():
                    queue.append((pool.submit(self._segment, start, stop, separator), stop))
                    if len(queue) > LOOKAHEAD:
                        done.append(self._collect(queue.popleft()))
                while queue:
                    done.append(self._collect(queue.popleft()))
            except BaseException:
                for future, _ in queue:
                    future.cancel()
                raise
        results: list[Evaluation | None] = [d.inner for d in done if d.inner is not None]
        names = [n for d in done for n in d.inner_names]
        edge_names, edges = self._join_edges([e for d in done for e in d.edges])
        names += edge_names
        if len(set(names)) < len(names):
            raise _NotTidy  # a query in two separate blocks: read_run reads the file whole
        results.append(self._evaluate_unit(edges, edge_names))
        if self.chosen.complete:
            results.append(self._unretrieved(set(names)))
        finished = [r for r in results if r is not None]
        return self._merged(finished) if finished else None

    def _collect(self, pending: tuple[Future[_Done], int]) -> _Done:
        """A segment's result, waited for in the calling thread, which also reports the progress."""
        future, stop = pending
        result = future.result()
        if self.progress is not None:
            self.progress(0.95 * stop / max(len(self.mapped), 1))  # the last 5%: joining the edges
        return result

    def _bounds(self) -> Iterator[tuple[int, int]]:
        size, start = len(self.mapped), 0
        while start < size:
            stop = self.mapped.find(b"\n", min(size, start + SEGMENT_BYTES) - 1) + 1 or size
            yield start, stop
            start = stop

    def _segment(self, start: int, stop: int, separator: str) -> _Done:
        """Parse one segment and evaluate the queries inside it (in a worker thread)."""
        rows = self._parse(start, stop, separator)
        starts, size = rows.starts, len(rows.score)
        if size == 0:
            return _Done(None, [], [])
        first_end = int(starts[1]) if len(starts) > 1 else size
        edges = [(rows.names[0], _compact(rows.slice(0, first_end)))]
        if len(starts) > 1:
            edges.append((rows.names[-1], _compact(rows.slice(int(starts[-1]), size))))
        inner_names = rows.names[1:-1]
        inner = None
        if inner_names:
            checked = rows.has_no_duplicates(first_end, int(starts[-1]))
            inner = self._evaluate_unit(rows.slice(first_end, int(starts[-1])), inner_names, checked)
        return _Done(inner, inner_names, edges)

    def _parse(self, start: int, stop: int, separator: str) -> _Rows:
        """Parse one segment; irregular text raises _NotTidy."""
        if self._irregular(start, stop, separator):
            raise _NotTidy
        columns = arrow_parse(
            self.buffer.slice(start, stop - start), self.name, RUN_LAYOUT, separator, qid_codes=False, use_threads=False
        )
        if columns is None or np.isnan(columns["score"]).any():
            raise _NotTidy
        qid = columns["qid"]
        # Each block of equal query ids becomes one code: cheaper than pyarrow's dictionary parse.
        new_block = np.ones(len(qid), dtype=bool)
        new_block[1:] = as_numpy(pc.not_equal(qid.slice(1), qid.slice(0, len(qid) - 1)))
        starts = np.flatnonzero(new_block)
        dictionary = qid.take(as_arrow(starts))
        names = dictionary.to_pylist()
        if len(set(names)) < len(names):
            raise _NotTidy  # a query in two blocks
        codes = np.cumsum(new_block, dtype=np.int32) - 1
        indices = pa.Array.from_buffers(pa.int32(), len(codes), [None, pa.py_buffer(codes)])
        qid = pa.DictionaryArray.from_arrays(indices, dictionary)
        docno = columns["docno"]
        return _Rows(names, starts, qid, docno, columns["score"], _doc_keys(docno))

    def _irregular(self, start: int, stop: int, separator: str) -> bool:
        """Bytes that ``read_run`` treats specially, or that would shift line numbers."""
        other = b"\t" if separator == " " else b" "
        mapped = self.mapped
        for byte in (b"\x00", b"\r", b"\x0b", b"\x0c", other):
            if mapped.find(byte, start, stop) >= 0:
                return True
        if mapped.find(b"#", start, stop) >= 0 and mapped.find(b"\n#", max(0, start - 1), stop) >= 0:
            return True
        if padded(mapped, separator.encode(), max(0, start - 1), stop):
            return True
        return int(np.frombuffer(mapped, np.uint8, stop - start, start).max()) >= 128

    @staticmethod
    def _join_edges(edges: list[tuple[str, Run]]) -> tuple[list[str], Run]:
        """The segments' edge blocks as one run; neighbouring blocks of one query are that query's lines."""
        names = [name for i, (name, _) in enumerate(edges) if i == 0 or edges[i - 1][0] != name]
        runs = [run for _, run in edges]
        if not runs:
            empty = pa.nulls(0, pa.string())
            return names, Run(empty, empty, np.empty(0))
        qid, docno = (pa.concat_arrays([getattr(r, column) for r in runs]) for column in ("qid", "docno"))
        return names, Run(qid, docno, np.concatenate([r.score for r in runs]))

    def _evaluate_unit(self, run: Run, names: list[str], checked: bool = False) -> Evaluation | None:
        """Evaluate rows that hold every line of the queries ``names``; None if none is judged.

        ``checked``: the rows are known to hold no duplicate.
        """
        if not checked and duplicate_rows(run.qid, run.docno) is not None:
            raise _NotTidy  # read_run reports it with its line numbers
        judged = [n for n in names if n in self.judged_index]
        if not judged:
            return None
        run.name = self.name
        return evaluate(self._judgments_of(judged), run, self.chosen)

    def _judgments_of(self, names: list[str]) -> Qrels:
        rows = np.concatenate(
            [
                self.judged_order[self.judged_bounds[i] : self.judged_bounds[i + 1]]
                for i in (self.judged_index[n] for n in names)
            ]
        )
        taken = as_arrow(rows)
        q = self.qrels
        qid = q.qid.take(taken)
        if pa.types.is_dictionary(qid.type):
            qid = qid.dictionary_decode()  # else every unit would carry every query's name
        return Qrels(qid, q.docno.take(taken), q.rel[rows], q.name)

    def _unretrieved(self, retrieved: set[str]) -> Evaluation | None:
        """trec_eval's -c: judged queries the run never mentions, each with NDCG 0."""
        missing = [n for n in self.judged_index if n not in retrieved]
        if not missing:
            return None
        empty = pa.nulls(0, pa.string())
        nothing = Run(empty, empty, np.empty(0, np.float64), self.name)
        return evaluate(self._judgments_of(missing), nothing, self.chosen)

    def _merged(self, results: list[Evaluation]) -> Evaluation:
        """One evaluation from the units', in trec_eval's query order (ids compared as bytes)."""
        qids = [q for result in results for q in result.qids]
        order = sorted(range(len(qids)), key=lambda i: qids[i].encode("utf-8"))
        columns = {column: np.concatenate([r.columns[column] for r in results])[order] for column in results[0].columns}
        return replace(
            results[0],
            qids=[qids[i] for i in order],
            columns=columns,
            tag=last_tag(self.mapped),
            queries_in_blocks=True,
        )
