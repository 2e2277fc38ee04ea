"""Readers for TREC qrels and runs (and CSV/TSV with headers), with trec_eval's rules.

TREC qrels: ``qid iter docno rel``; TREC runs: ``qid Q0 docno rank score tag [ignored...]``.
Columns are separated by any run of spaces or tabs, ``#`` starts a comment line, blank
lines are skipped, and gzip input is recognised by its magic bytes. Errors are
``InputError``s that name the file, the line and the problem, quoting the first bad lines.
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ..arrays import as_arrow, as_numpy
from ..error_codes import Code
from ..errors import InputError, Place, shown
from . import tables

# Qrels, Run and their helpers live in ``tables`` (beside ``from_frame``); they are read from here too, as before.
Qrels = tables.Qrels
Run = tables.Run
LARGEST_EXACT_GRADE = tables.LARGEST_EXACT_GRADE
duplicate_rows = tables.duplicate_rows
query_codes = tables.query_codes

Source = str | os.PathLike[str] | bytes | bytearray | memoryview | BinaryIO

MAX_QUOTED_LINES = 3
_CHUNK = 1 << 23  # bytes per slice of the whitespace tokenizer: bounds its scratch memory

QID_NAMES = ("qid", "query_id", "query", "topic", "queryid", "q")
DOC_NAMES = ("docno", "doc_id", "docid", "doc", "document", "item", "item_id", "pid")
REL_NAMES = ("rel", "relevance", "grade", "label", "judgment", "judgement")
SCORE_NAMES = ("score", "sim", "similarity")
RANK_NAMES = ("rank", "position")


@dataclass(frozen=True)
class Layout:
    """The columns of a TREC file: their names, how many a line may have, which are kept."""

    kind: str  # "qrels" or "run": the prefix of the file's error codes
    names: tuple[str, ...]
    min_cols: int
    max_cols: int | None
    keep: tuple[str, ...]
    number: str
    not_number: Code  # the error code of a value in the number column that is not a number


QRELS_LAYOUT = Layout(
    "qrels", ("qid", "iter", "docno", "rel"), 4, 4, ("qid", "docno", "rel"), "rel", "qrels.grade_not_number"
)
RUN_LAYOUT = Layout(
    "run",
    ("qid", "iter", "docno", "rank", "score", "tag"),
    6,
    None,
    ("qid", "docno", "score"),
    "score",
    "run.score_not_number",
)


def read_qrels(source: Source, name: str | None = None) -> Qrels:
    """Read TREC qrels (``qid iter docno rel``) or a CSV/TSV with qid, docno and rel columns."""
    data, name = _load(source, name)
    lines: np.ndarray | None
    header = csv_table_header(data)
    if header is not None:
        columns, lines = _read_csv(
            data, name, header, {"qid": QID_NAMES, "docno": DOC_NAMES, "rel": REL_NAMES}, "qrels"
        )
    else:
        columns, lines = _read_whitespace(data, name, QRELS_LAYOUT)
    rel = _integer_grades(columns["rel"], name, lines)
    qrels = Qrels(columns["qid"], columns["docno"], rel, name, lines)
    _reject_duplicates(qrels.qid, qrels.docno, name, qrels.line_of, "qrels.duplicate")
    return qrels


def read_run(source: Source, name: str | None = None) -> Run:
    """Read a TREC run (``qid Q0 docno rank score tag``) or a CSV/TSV with qid, docno and score (or rank)."""
    data, name = _load(source, name)
    lines: np.ndarray | None
    header = csv_table_header(data)
    if header is not None:
        wanted = {"qid": QID_NAMES, "docno": DOC_NAMES, "score": SCORE_NAMES}
        if _find(header[1], SCORE_NAMES) is None and _find(header[1], RANK_NAMES) is not None:
            wanted = {"qid": QID_NAMES, "docno": DOC_NAMES, "rank": RANK_NAMES}
        columns, lines = _read_csv(data, name, header, wanted, "run")
        if "rank" in columns:
            columns["score"] = -_finite_numbers(columns.pop("rank"), name, lines, "run.rank_not_finite")
        tag = ""
    else:
        columns, lines = _read_whitespace(data, name, RUN_LAYOUT)
        tag = last_tag(data)
    score = _finite_numbers(columns["score"], name, lines, "run.score_nan", allow_inf=True)
    run = Run(columns["qid"], columns["docno"], score, name, tag, lines)
    _reject_duplicates(run.qid, run.docno, name, run.line_of, "run.duplicate")
    return run


def looks_swapped(qrels_error: InputError, run_source: Source) -> bool:
    """Whether reading qrels failed because it is a run, and the run file looks like qrels."""
    if qrels_error.code != "qrels.columns" or qrels_error.fields.get("count", 0) < RUN_LAYOUT.min_cols:
        return False
    if isinstance(run_source, (str, os.PathLike)):
        try:
            with open(run_source, "rb") as file:
                head = file.read(65536)
        except OSError:
            return False
    elif isinstance(run_source, (bytes, bytearray, memoryview)):
        head = bytes(run_source[:65536])
    else:
        return False
    for raw in head.splitlines()[:50]:
        fields = raw.split()
        if fields and not fields[0].startswith(b"#"):
            return len(fields) == QRELS_LAYOUT.min_cols
    return False


def read_query(source: bytes, qid: str, name: str | None = None, *, one_block: bool = False) -> Run:
    """The lines of one query of a run, read without parsing the rest (for a look at one query of a big run).

    TREC text is searched for lines that start with the query id; any other format is read whole.
    ``one_block``: the caller knows each query's lines are together (the segmented reader checked it).
    """
    name = name or "input"
    if bytes(source[:2]) == b"\x1f\x8b" or csv_table_header(bytes(source[:65536])) is not None:
        run = read_run(source, name)
        rows = np.flatnonzero(as_numpy(pc.equal(run.qid.cast(pa.string()), qid)))
        taken = as_arrow(rows)
        return Run(run.qid.take(taken), run.docno.take(taken), run.score[rows], name, run.tag)
    # The whole file was checked when it was evaluated; the lines taken are checked again as they are read.
    data = bytes(source) if not isinstance(source, bytes) else source
    key = qid.encode("utf-8")
    # A tidy file (the segmented reader's kind) has no indented line; otherwise look before searching.
    indented = not one_block and (data.startswith((b" ", b"\t")) or b"\n " in data or b"\n\t" in data)
    block = "scattered" if indented else _one_block(data, key, checked=one_block)
    if isinstance(block, tuple):
        return read_run(data[block[0] : block[1]], name)
    lines = re.findall(rb"(?m)^[ \t]*" + re.escape(key) + rb"[ \t][^\n]*", data) if block == "scattered" else []
    if not lines:
        empty = pa.array([], pa.string())
        return Run(empty, empty, np.empty(0), name)
    return read_run(b"\n".join(lines) + b"\n", name)


def _one_block(data: bytes, key: bytes, checked: bool = False) -> tuple[int, int] | str:
    """Where the lines of query ``key`` are when they are one block of lines that start with it, else
    "absent" (no line starts with it) or "scattered" (it comes back after its block).

    Searches of the bytes (C's memmem) instead of a regular expression over every line; ``checked``
    skips the search for a later block.
    """
    first = -1
    for sep in (b" ", b"\t"):
        if data.startswith(key + sep):
            first = 0
            break
        # Once one separator's first line is found, the other's matters only before it: search no further
        # (a whole search of a 250 MB run for a tab it does not hold took a tenth of a second).
        end = len(data) if first < 0 else first + len(key) + 1
        at = data.find(b"\n" + key + sep, 0, end)
        if at >= 0:
            first = at + 1
    if first < 0:
        return "absent"
    position = first
    while True:
        newline = data.find(b"\n", position)
        if newline < 0:
            end = len(data)
            break
        if not (data.startswith(key + b" ", newline + 1) or data.startswith(key + b"\t", newline + 1)):
            end = newline + 1
            break
        position = newline + 1
    if not checked and (data.find(b"\n" + key + b" ", end - 1) >= 0 or data.find(b"\n" + key + b"\t", end - 1) >= 0):
        return "scattered"
    return first, end


# ---------------------------------------------------------------------------- loading


def _load(source: Source, name: str | None) -> tuple[bytes, str]:
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        name = name or os.fspath(source)  # as the user typed it
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise InputError("file.missing", file=name) from None
        except IsADirectoryError:
            raise InputError("file.folder", file=name) from None
        except OSError as err:
            raise InputError("file.unreadable", file=name, reason=str(err.strerror)) from None
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif hasattr(source, "read"):
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
        name = name or getattr(source, "name", None)
    else:
        raise InputError("file.source", kind=type(source).__name__)
    name = str(name or "input")
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error):
            raise InputError("file.gzip", file=name) from None
    _require_text(data, name)
    return data, name


def _require_text(data: bytes, name: str) -> None:
    if not data or data.isspace():
        raise InputError("file.empty", file=name)
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise InputError("file.nul", place=Place("file.line", line=line, file=name))
    if data.isascii():
        return
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, len(data), _CHUNK):
            decoder.decode(data[start : start + _CHUNK], final=start + _CHUNK >= len(data))
    except UnicodeDecodeError:
        raise _not_utf8(data, name) from None


def _not_utf8(data: bytes, name: str) -> InputError:
    return InputError("file.not_utf8", place=Place("file.line", line=_first_bad_utf8_line(data), file=name))


def _line_text(data: bytes, line: int) -> str:
    start = 0
    for _ in range(line - 1):
        start = data.index(b"\n", start) + 1
    end = data.find(b"\n", start)
    raw = data[start : end if end >= 0 else len(data)]
    text = raw.decode("utf-8", errors="replace").rstrip("\r")
    return text if len(text) <= 80 else text[:77] + "..."


def _first_bad_utf8_line(data: bytes) -> int:
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return number
    return 1


Problem = tuple[int, Code, dict[str, Any]]  # a bad line: its number, its error code and that code's fields

# Each file kind's codes, written out so that the type check sees every one.
_COLUMNS: dict[str, Code] = {"qrels": "qrels.columns", "run": "run.columns"}
_NO_LINES: dict[str, Code] = {"qrels": "qrels.no_lines", "run": "run.no_lines"}
_HEADER_MISSING: dict[str, Code] = {"qrels": "qrels.header_missing", "run": "run.header_missing"}
_HEADER_ONLY: dict[str, Code] = {"qrels": "qrels.header_only", "run": "run.header_only"}
_NOT_NUMBER: dict[str, Code] = {"rel": "qrels.grade_not_number", "score": "run.score_not_number"}  # by column


def _bad_lines(data: bytes, name: str, problems: list[Problem], total: int) -> InputError:
    """One error for up to three bad lines, each said once with its line quoted, and how many more there are."""
    errors = [
        InputError(code, place=Place("file.line", line=line, file=name), quote=_line_text(data, line), **fields)
        for line, code, fields in problems[:MAX_QUOTED_LINES]
    ]
    return InputError(
        problems[0][1],
        quote=errors[0].quote,
        also=tuple(errors[1:]),
        more=max(0, total - len(errors)),
        **errors[0].fields,
    )


# ---------------------------------------------------------------------------- whitespace tables


def _read_whitespace(data: bytes, name: str, layout: Layout) -> tuple[dict[str, Any], np.ndarray | None]:
    delimiter = single_delimiter(data)
    if delimiter is not None and not padded(data, delimiter.encode()):
        columns = arrow_parse(data, name, layout, delimiter)
        if columns is not None:
            return columns, None
    clean, lines = _normalise_whitespace(data, name, layout)
    columns = arrow_parse(clean, name, layout, " ", lines=lines, original=data)
    if columns is None:  # cannot happen: the normalised text has exactly the layout's columns
        raise AssertionError(f"{name}: the normalised text did not parse")
    return columns, lines


def padded(data: Any, separator: bytes, start: int = 0, stop: int | None = None) -> bool:
    """Whether a separator is doubled, or leads or ends a line, between ``start`` and ``stop``.

    Such a line splits into an empty field where a column is missing (``q Q0 b  1 t`` has no rank); pyarrow
    would read the empty field as that column, trec_eval counts one column too few. The normaliser counts as
    trec_eval does.
    """
    stop = len(data) if stop is None else stop
    sep = separator[0]
    # Vectorised over slices: a byte search for two-byte patterns that start with a space is several times slower.
    for begin in range(start, stop, _CHUNK):
        end = min(stop, begin + _CHUNK + 1)  # one byte of overlap: a pair may straddle two slices
        chunk = np.frombuffer(data, np.uint8, end - begin, begin)
        is_sep = chunk == sep
        is_newline = chunk == 10
        if (is_sep[1:] & (is_sep[:-1] | is_newline[:-1])).any() or (is_sep[:-1] & is_newline[1:]).any():
            return True
    # The last line may end the file with no newline after it: a separator there ends a line too.
    return stop == len(data) and stop > start and data[stop - 1] == sep


def single_delimiter(data: bytes) -> str | None:
    """The one separator a tidy file seems to use, or None when it needs normalising.

    Only the cheap checks are made here. A doubled, leading or trailing separator makes pyarrow
    count a column too many, which sends the file to the normaliser; where it makes up for a
    missing column, ``arrow_parse`` finds the empty qid or docno instead. (One that stands in for
    an ignored column, iter, rank or tag, goes unseen: finding it would cost a pass over the file.)
    """
    if data.startswith((b"#", b" ", b"\t")) or (b"#" in data and b"\n#" in data):
        return None
    first_line = data[: data.find(b"\n")] if b"\n" in data[:65536] else data[:65536]
    sep, other = (b"\t", b" ") if b"\t" in first_line else (b" ", b"\t")
    if other in data or b"\x0b" in data or b"\x0c" in data:  # vertical tab and form feed separate, as isspace
        return None
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):  # a lone CR separates; pyarrow ends a line
        return None
    return sep.decode()


def arrow_parse(
    data: bytes | pa.Buffer,
    name: str,
    layout: Layout,
    delimiter: str,
    lines: np.ndarray | None = None,
    original: bytes | None = None,
    *,
    qid_codes: bool = True,
    use_threads: bool = True,
) -> dict[str, Any] | None:
    """Parse separated text with pyarrow.

    On the fast path (``original`` is None) any irregular row returns None, sending the file
    to the normaliser, which reports exact line numbers; the normalised text always parses.
    ``qid_codes`` reads query ids dictionary-encoded; ``use_threads`` lets pyarrow split the text.
    """
    # A row with more columns than the layout is an error here and sends the caller to the normaliser.
    read = pacsv.ReadOptions(column_names=list(layout.names), block_size=1 << 24, use_threads=use_threads)
    parse = pacsv.ParseOptions(
        delimiter=delimiter,
        quote_char=False,
        double_quote=False,
        escape_char=False,
        # A blank line is a bad row here, so the normaliser skips it and every row keeps its line number.
        newlines_in_values=False,
        ignore_empty_lines=False,
    )
    qid_type = pa.dictionary(pa.int32(), pa.string()) if qid_codes else pa.string()
    types = {"qid": qid_type, "docno": pa.string(), layout.number: pa.float64()}
    convert = pacsv.ConvertOptions(
        column_types=types,
        include_columns=list(layout.keep),
        null_values=[],
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    try:
        table = pacsv.read_csv(pa.BufferReader(data), read_options=read, parse_options=parse, convert_options=convert)
    except pa.ArrowInvalid as err:
        text = str(err)
        source = original if original is not None else data
        if "UTF8" in text or "utf8" in text.lower():
            raise _not_utf8(bytes(source), name) from None
        if original is None:
            return None  # the normaliser checks column counts first, then numbers with exact line numbers
        if "conversion error" in text.lower():
            table = _reparse_as_text(data, read, parse, convert, layout)
            _raise_bad_numbers(table[layout.number], name, source, lines, layout.not_number)
        raise AssertionError(f"{name}: pyarrow could not read the normalised text ({text})") from None
    table = table.unify_dictionaries()
    columns = {
        "qid": table["qid"].combine_chunks(),
        "docno": table["docno"].combine_chunks(),
        layout.number: as_numpy(table[layout.number]),
    }
    if original is None and (_has_empty(columns["qid"]) or _has_empty(columns["docno"])):
        return None  # a leading, trailing or doubled separator made up a missing column: the normaliser says which
    return columns


def _has_empty(values: pa.Array) -> bool:
    """Whether a string column (or a dictionary-encoded one) holds an empty string."""
    if pa.types.is_dictionary(values.type):
        values = values.dictionary
    if not len(values):
        return False
    offsets = np.frombuffer(values.buffers()[1], np.int32, len(values) + 1, values.offset * 4)
    return bool((offsets[1:] == offsets[:-1]).any())


def _reparse_as_text(data: bytes, read: Any, parse: Any, convert: Any, layout: Layout) -> pa.Table:
    types = {c: pa.string() for c in layout.keep}
    convert = pacsv.ConvertOptions(
        column_types=types, include_columns=list(layout.keep), null_values=[], strings_can_be_null=False
    )
    return pacsv.read_csv(io.BytesIO(data), read_options=read, parse_options=parse, convert_options=convert)


# The numbers pyarrow reads as float64. Python's float() takes more ("1_0", "٣", "１"), so it cannot
# say which value pyarrow refused.
_ARROW_FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|infinity|nan)", re.I | re.A)


def _raise_bad_numbers(column: pa.ChunkedArray, name: str, source: bytes, lines: np.ndarray | None, code: Code) -> None:
    problems: list[Problem] = []
    total = 0
    for row, text in enumerate(column.to_pylist()):
        if not _ARROW_FLOAT.fullmatch(text):
            total += 1
            if len(problems) < MAX_QUOTED_LINES:
                line = int(lines[row]) if lines is not None else row + 1
                problems.append((line, code, {"value": shown(text)}))
    if problems:
        raise _bad_lines(source, name, problems, total)


def _normalise_whitespace(data: bytes, name: str, layout: Layout) -> tuple[bytes, np.ndarray]:
    """Rewrite to one space between fields, dropping comments, blank lines and extra columns.

    Returns the text and the source line number of each row; a line with too few or too
    many columns raises, quoting the first few.
    """
    if not data.endswith(b"\n"):
        data = data + b"\n"
    pieces: list[bytes] = []
    line_numbers: list[np.ndarray] = []
    problems: list[Problem] = []
    bad_total = 0
    start, line_base = 0, 0
    while start < len(data):
        end = data.rfind(b"\n", start, min(len(data), start + _CHUNK)) + 1
        if end <= start:
            end = data.index(b"\n", start) + 1
        chunk = np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start)
        text, rows, nlines, bad, nbad = _normalise_chunk(chunk, layout)
        bad_total += nbad
        for local, count in bad:
            if len(problems) < MAX_QUOTED_LINES:
                problems.append((line_base + local + 1, _COLUMNS[layout.kind], {"count": count}))
        pieces.append(text)
        line_numbers.append(rows + line_base + 1)
        line_base += nlines
        start = end
    if problems:
        raise _bad_lines(data, name, problems, bad_total)
    lines = np.concatenate(line_numbers) if line_numbers else np.empty(0, np.int64)
    if len(lines) == 0:
        raise InputError(_NO_LINES[layout.kind], file=name)
    return b"".join(pieces), lines


def _normalise_chunk(b: np.ndarray, layout: Layout) -> tuple[bytes, np.ndarray, int, list[tuple[int, int]], int]:
    newline = b == 10
    sep = newline | (b == 32) | (b == 9) | (b == 13) | (b == 11) | (b == 12)
    token = ~sep
    prev_sep = np.empty_like(sep)
    prev_sep[0] = True
    prev_sep[1:] = sep[:-1]
    next_sep = np.empty_like(sep)
    next_sep[-1] = True
    next_sep[:-1] = sep[1:]
    starts = np.flatnonzero(token & prev_sep)
    ends = np.flatnonzero(token & next_sep) + 1
    newlines = np.flatnonzero(newline)
    nlines = len(newlines)
    line_of_field = np.searchsorted(newlines, starts)
    per_line = np.bincount(line_of_field, minlength=nlines)
    first = np.cumsum(per_line) - per_line
    has_fields = per_line > 0
    comment = np.zeros(nlines, dtype=bool)
    comment[has_fields] = b[starts[first[has_fields]]] == ord("#")
    content = has_fields & ~comment
    too_many = per_line > layout.max_cols if layout.max_cols is not None else np.zeros(nlines, bool)
    bad_lines = np.flatnonzero(content & ((per_line < layout.min_cols) | too_many))
    bad = [(int(i), int(per_line[i])) for i in bad_lines[:MAX_QUOTED_LINES]]
    keep_cols = len(layout.names)
    field_index = np.arange(len(starts)) - first[line_of_field]
    kept = content[line_of_field] & (field_index < keep_cols)
    s, e, idx = starts[kept], ends[kept], field_index[kept]
    slot = e - s + 1
    offsets = np.cumsum(slot) - slot
    total = int(offsets[-1] + slot[-1]) if len(slot) else 0
    gather = np.arange(total, dtype=np.int64) - np.repeat(offsets - s, slot)
    out = b[gather]
    out[offsets + slot - 1] = np.where(idx == keep_cols - 1, 10, 32)
    return out.tobytes(), np.flatnonzero(content), nlines, bad, len(bad_lines)


def last_tag(data: Any) -> str:
    """The run tag (sixth column) of the file's last ranking line, or "" when there is none."""
    for raw in reversed(data[-65536:].rstrip().splitlines()[-50:]):
        fields = raw.split()
        if len(fields) >= 6 and not fields[0].startswith(b"#"):
            return str(fields[5].decode("utf-8", errors="replace"))
    return ""


# ---------------------------------------------------------------------------- CSV / TSV with headers


def _csv_header(data: bytes) -> tuple[str, list[str]] | None:
    """The delimiter and lower-cased column names when the first line is a CSV/TSV header."""
    for raw in data[:65536].splitlines()[:50]:
        line = raw.decode("utf-8", errors="replace").strip()
        if not line or line.startswith("#"):
            continue
        delimiter = "," if "," in line else "\t" if "\t" in line else None
        if delimiter is None:
            return None
        names = [c.strip().strip('"').lower() for c in line.split(delimiter)]
        return delimiter, names
    return None


def csv_table_header(data: bytes) -> tuple[str, list[str]] | None:
    """The CSV/TSV header when the text starts with one naming query and document columns, else None.

    A line with a number in it is data: a tab-separated TREC line such as ``q 0 doc 1`` is not a header.
    """
    header = _csv_header(data)
    if header is None or _find(header[1], QID_NAMES) is None or _find(header[1], DOC_NAMES) is None:
        return None
    if any(_ARROW_FLOAT.fullmatch(word) for name in header[1] for word in name.split()):
        return None
    return header


def _find(names: list[str], aliases: tuple[str, ...]) -> str | None:
    for alias in aliases:
        if alias in names:
            return alias
    return None


def _read_csv(
    data: bytes, name: str, header: tuple[str, list[str]], wanted: dict[str, tuple[str, ...]], kind: str
) -> tuple[dict[str, Any], np.ndarray]:
    delimiter, names = header
    chosen = {}
    for column, aliases in wanted.items():
        found = _find(names, aliases)
        if found is None:
            raise InputError(
                _HEADER_MISSING[kind], file=name, column=column, looked=", ".join(aliases), found=", ".join(names)
            )
        chosen[column] = names.index(found)
    problems: list[Problem] = []
    counts = {"bad": 0}
    line_of_row: list[int] = []
    text = data.decode("utf-8", errors="strict") if _is_utf8(data) else None
    if text is None:
        raise _not_utf8(data, name)
    rows = []
    header_seen = False
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not header_seen:
            header_seen = True  # the first content line is the header _csv_header read
            continue
        fields = [f.strip().strip('"') for f in line.split(delimiter)]
        if len(fields) != len(names):
            counts["bad"] += 1
            if len(problems) < MAX_QUOTED_LINES:
                problems.append((number, "csv.columns", {"expected": len(names), "count": len(fields)}))
            continue
        rows.append([fields[chosen[c]] for c in wanted])
        line_of_row.append(number)
    if problems:
        raise _bad_lines(data, name, problems, counts["bad"])
    if not rows:
        raise InputError(_HEADER_ONLY[kind], file=name)
    columns: dict[str, Any] = {}
    for j, column in enumerate(wanted):
        values = [r[j] for r in rows]
        if column in ("qid", "docno"):
            empty = [i for i, v in enumerate(values) if not v]
            if empty:
                raise InputError(
                    "csv.field_empty", place=Place("file.line", line=line_of_row[empty[0]], file=name), column=column
                )
            columns[column] = pa.array(values, type=pa.string())
        else:
            code = _NOT_NUMBER.get(column, "run.rank_not_number")
            columns[column] = _parse_numbers(values, name, line_of_row, data, code)
    return columns, np.asarray(line_of_row, dtype=np.int64)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _parse_numbers(values: list[str], name: str, lines: list[int], data: bytes, code: Code) -> np.ndarray:
    out = np.empty(len(values), dtype=np.float64)
    problems: list[Problem] = []
    total = 0
    for i, v in enumerate(values):
        try:
            out[i] = float(v)
        except ValueError:
            total += 1
            if len(problems) < MAX_QUOTED_LINES:
                problems.append((lines[i], code, {"value": shown(v)}))
    if problems:
        raise _bad_lines(data, name, problems, total)
    return out


# ---------------------------------------------------------------------------- checks


def _integer_grades(values: np.ndarray, name: str, lines: np.ndarray | None) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(values) | (values != np.round(values)))
    if len(bad):
        row = int(bad[0])
        place = Place("file.line", line=int(lines[row]) if lines is not None else row + 1, file=name)
        raise InputError("qrels.grade_not_whole", place=place, value=f"{values[row]:g}")
    huge = np.flatnonzero(np.abs(values) > LARGEST_EXACT_GRADE)
    if len(huge):
        row = int(huge[0])
        place = Place("file.line", line=int(lines[row]) if lines is not None else row + 1, file=name)
        raise InputError(
            "qrels.grade_too_large", place=place, value=f"{values[row]:g}", limit=f"2^53 = {LARGEST_EXACT_GRADE}"
        )
    return values.astype(np.int64)


def _finite_numbers(
    values: np.ndarray, name: str, lines: np.ndarray | None, code: Code, allow_inf: bool = False
) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    bad = np.isnan(values) if allow_inf else ~np.isfinite(values)
    rows = np.flatnonzero(bad)
    if len(rows):
        row = int(rows[0])
        line = int(lines[row]) if lines is not None else row + 1
        raise InputError(code, place=Place("file.line", line=line, file=name), value=str(float(values[row])))
    return values


def _reject_duplicates(qid: pa.Array, docno: pa.Array, name: str, line_of: Any, code: Code) -> None:
    pair = duplicate_rows(qid, docno)
    if pair is None:
        return
    first, second = pair
    raise InputError(
        code,
        place=Place("file.line", line=line_of(second), file=name),
        document=shown(docno[second].as_py()),
        query=shown(qid[second].as_py()),
        first=line_of(first),
    )
