"""What the out-of-core engines (``duckdb_sql``, ``spark_sql``) share about input files: which text is clean
enough for them to read (anything else goes to the default reader, which raises its exact error), the blanks and
numbers the default reader takes, a CSV header's place, and the names of columns and of files in messages."""

from __future__ import annotations

import codecs
import gzip
import io
import os
import re
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pyarrow as pa

from ...errors import InputError, Place
from ..readers import MAX_QUOTED_LINES, Qrels, Run, Source, csv_table_header, looks_swapped, read_qrels, read_run

_HEAD = 65536  # bytes a CSV header is looked for in, as the default reader does
_CHUNK = 1 << 24
SPACE = " \t\r\x0b\x0c"  # trec_eval's separators within a line
SPLIT = "[ \t\r\x0b\x0c]+"
# The numbers the default reader's pyarrow takes (readers._ARROW_FLOAT), in RE2's words.
NUMBER = r"[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?|[+-]?([iI][nN][fF]([iI][nN][iI][tT][yY])?|[nN][aA][nN])"
# Whitespace Python's str.strip takes beyond the ASCII blanks: a CSV line holding one goes to the default reader.
OTHER_SPACE = "[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
# A CSV line with something other than blanks, not starting with "#" (the default reader's comment) after them.
CSV_CONTENT = "^[ \t\r\x0b\x0c]*[^ \t\r\x0b\x0c#]"
_LONE_CR = re.compile(rb"\r[^\n]")
_UNTIDY = (b"\t", b"\r", b"\x0b", b"\x0c", b"  ", b"\n ", b" \n")


class Unclean(Exception):
    """The engine could not read the file as trec_eval would, or found it bad: the default reader must say why."""


def scan(path: Path, gzipped: bool) -> tuple[bytes, bytes, bool]:
    """The first 64 KiB of the text and its last 64 KiB, and whether it is tidy (fields separated by single spaces
    only: ``duckdb_sql``'s fastest reading); ``Unclean`` unless the text is clean: no NUL byte, no carriage return
    but before a line feed, UTF-8 throughout (for a reader that would not say)."""
    head, tail, carried = b"", b"", b"\n"
    tidy = True
    decoder = codecs.getincrementaldecoder("utf-8")()
    with _open(path, gzipped) as stream:
        while chunk := stream.read(_CHUNK):
            head += chunk[: _HEAD - len(head)]
            data = carried + chunk
            if b"\x00" in data or (b"\r" in data and _LONE_CR.search(data)):
                raise Unclean
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError:
                raise Unclean from None
            tidy = tidy and not any(blank in data for blank in _UNTIDY)
            carried = data[-1:]
            tail = (tail + chunk)[-_HEAD:]
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:  # the text ends within a character
        raise Unclean from None
    if carried == b"\r":
        raise Unclean
    return head, tail, tidy and carried != b" "


def _open(path: Path, gzipped: bool) -> io.BufferedIOBase:
    """The file's bytes, decompressed when ``gzipped``."""
    return gzip.open(path) if gzipped else open(path, "rb")  # noqa: SIM115 (the caller closes it)


def header_line(head: bytes) -> int:
    """How many lines the header and the comment or blank lines before it take."""
    for number, raw in enumerate(head.split(b"\n"), start=1):
        line = raw.decode(errors="replace").strip()
        if line and not line.startswith("#"):
            return number
    raise Unclean


def pick(found: dict[str, str], aliases: tuple[str, ...]) -> str | None:
    return next((alias for alias in aliases if alias in found), None)


def pick_list(names: list[str], aliases: tuple[str, ...]) -> str | None:
    return next((alias for alias in aliases if alias in names), None)


def plain(values: pa.Array) -> pa.Array:
    return values.dictionary_decode() if pa.types.is_dictionary(values.type) else values


def default_read(kind: str, source: Source, name: str | None = None) -> Qrels | Run:
    """The default reader's reading of ``source`` as ``kind``, "qrels" or "run" (another kind is a caller's bug)."""
    if kind == "qrels":
        return read_qrels(source, name)
    if kind == "run":
        return read_run(source, name)
    raise KeyError(f"a file is read as 'qrels' or 'run', not {kind!r}")


def bytes_of(source: Source) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, io.IOBase) or hasattr(source, "read"):
        data = source.read()
        return data.encode() if isinstance(data, str) else bytes(data)
    raise InputError("file.source", kind=type(source).__name__)


def source_name(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return str(getattr(source, "name", None) or "input")


Loaded = TypeVar("Loaded")


def load_pair(load: Callable[[str, Source], Loaded], qrels_source: Source, run_source: Source) -> tuple[Loaded, Loaded]:
    """An engine's ``load("qrels", ...)`` then ``load("run", ...)`` of two files; qrels refused where the two look
    swapped (``readers.looks_swapped``: the run reads as qrels) is ``files.swapped``, not the qrels' own error."""
    try:
        qrels = load("qrels", qrels_source)
    except InputError as err:
        if looks_swapped(err, run_source):
            raise InputError("files.swapped", qrels=source_name(qrels_source), run=source_name(run_source)) from None
        raise
    return qrels, load("run", run_source)


_FIRST_LINES = 1 << 20  # bytes of a text file read before an engine that is slow to start starts


def check_before_starting(kind: str, source: Source) -> None:
    """Refuse what can be refused without an engine, as fast as the default reader does: a file that is missing, a
    folder or unreadable, and a text file whose first lines (its first MiB, whole lines) the default reader refuses.
    A Parquet file, bytes and streams are left to the engine (their first lines are the engine's to read)."""
    if not isinstance(source, (str, os.PathLike)):
        return
    path = Path(source)
    if not path.is_file():
        default_read(kind, source)  # raises file.missing, file.folder or file.unreadable
        return
    try:
        with open(path, "rb") as file:
            start = file.read(4)
        if start == b"PAR1":
            return
        with _open(path, start[:2] == b"\x1f\x8b") as stream:
            head = stream.read(_FIRST_LINES)
    except (OSError, EOFError):
        default_read(kind, source)  # the default reader names the problem
        return
    if len(head) == _FIRST_LINES:
        head = head[: head.rfind(b"\n") + 1]
    if head.strip():
        default_read(kind, head, os.fspath(source))


# -------------------------------------------------------------------------------------- a bad file, part by part

_PART = 1 << 24  # bytes of whole lines the default reader reads at a time when it only has to find what is bad
# The default reader's checks, in the order it makes them over a whole file: a file fails with the first kind it
# finds anywhere, said of its first line (or, for the counted kinds, of its first three lines and how many more).
_KINDS: dict[str, int] = {
    "file.nul": 0,
    "file.not_utf8": 0,
    "qrels.columns": 1,
    "run.columns": 1,
    "csv.columns": 1,
    "csv.field_empty qid": 2,
    "csv.field_empty docno": 3,
    "qrels.grade_not_number": 4,
    "run.score_not_number": 4,
    "run.rank_not_number": 4,
    "run.rank_not_finite": 5,
    "qrels.grade_not_whole": 5,
    "qrels.grade_too_large": 6,
    "run.score_nan": 7,
}
_COUNTED = (1, 4)
_NOTHING_IN_PART = ("file.empty", "qrels.no_lines", "run.no_lines", "qrels.header_only", "run.header_only")


def refuse_if_large(kind: str, path: Path, gzipped: bool, name: str) -> None:
    """``refuse_by_parts`` for a file larger than a part (a smaller one the default reader reads whole, as fast)."""
    try:
        large = path.stat().st_size > _PART
    except OSError:
        return
    if large:
        refuse_by_parts(kind, path, gzipped, name)


def refuse_by_parts(kind: str, path: Path, gzipped: bool, name: str) -> None:
    """Raise the default reader's error for a bad text file without holding the file: it reads the file a part of
    whole lines at a time (16 MiB; a CSV's header before each part) and puts the parts' errors together as it
    would for the whole file. Returns when it cannot say (no part is bad, or a part has a duplicate, which only
    the whole file can place): the caller reads the whole file then."""
    head, found, line_base = b"", None, 0
    prefix, prefix_lines = b"", 0
    try:
        with _open(path, gzipped) as stream:
            carried = b""
            while True:
                chunk = stream.read(_PART)
                data = carried + chunk
                if not data:
                    break
                end = data.rfind(b"\n") + 1 if chunk else len(data)
                if end == 0:
                    carried = data
                    continue
                part, carried = data[:end], data[end:]
                if not head:
                    head = part[:_HEAD]
                    if csv_table_header(head) is not None:
                        prefix_lines = header_line(head)
                        prefix = b"".join(line + b"\n" for line in head.split(b"\n")[:prefix_lines])
                found = _worst(
                    found, _part_error(kind, prefix + part if line_base else part, name, line_base, prefix_lines)
                )
                line_base += part.count(b"\n")
    except (OSError, EOFError, zlib.error, Unclean):
        return  # the default reader says what is wrong with the file itself
    if found is not None:
        raise _together(found)


_Found = tuple[int, list[InputError], int]  # the kind, the errors (at most three), how many in all


def _part_error(kind: str, data: bytes, name: str, line_base: int, prefix_lines: int) -> _Found | None:
    """The kind (``_KINDS``) and errors of one part as the default reader reads it, at the file's line numbers."""
    try:
        default_read(kind, data, name)
    except InputError as err:
        if err.code in _NOTHING_IN_PART:
            return None
        key = f"{err.code} {err.fields['column']}" if err.code == "csv.field_empty" else err.code
        if key not in _KINDS:
            raise Unclean from None  # a duplicate, or what only the whole file shows
        shift = line_base - prefix_lines if line_base else 0
        errors = [_moved(e, shift) for e in (_alone(err), *err.also)]
        return _KINDS[key], errors, len(errors) + err.more
    return None


def _alone(err: InputError) -> InputError:
    return InputError(err.code, quote=err.quote, **err.fields)  # type: ignore[arg-type]


def _moved(err: InputError, lines: int) -> InputError:
    """The error with its line number ``lines`` further down the file."""
    place = err.place
    fields = dict(err.fields)
    if place is not None and "line" in place.fields:
        fields["place"] = Place(place.code, **{**place.fields, "line": place.fields["line"] + lines})  # type: ignore[arg-type]
    return InputError(err.code, quote=err.quote, **fields)  # type: ignore[arg-type]


def _worst(found: _Found | None, part: _Found | None) -> _Found | None:
    """What the whole file fails with so far: the earlier kind; of a counted kind, every part's lines."""
    if part is None:
        return found
    if found is None or part[0] < found[0]:
        return part
    if part[0] == found[0] and part[0] in _COUNTED:
        return found[0], (found[1] + part[1])[:MAX_QUOTED_LINES], found[2] + part[2]
    return found


def _together(found: _Found) -> InputError:
    """One error of a file's bad lines as the default reader makes it: the first three quoted, the rest counted."""
    _, errors, total = found
    first = errors[0]
    return InputError(
        first.code,  # type: ignore[arg-type]
        quote=first.quote,
        also=tuple(errors[1:]),
        more=total - len(errors),
        **first.fields,
    )
