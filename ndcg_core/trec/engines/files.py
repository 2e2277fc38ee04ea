"""What the out-of-core engines (``duckdb_sql``, ``spark_sql``) share about input files: which text is clean
enough for them to read (anything else goes to the default reader, which raises its exact error), the blanks and
numbers the default reader takes, a CSV header's place, and the names of columns and of files in messages."""

from __future__ import annotations

import codecs
import gzip
import io
import os
import re
from pathlib import Path
from typing import IO, cast

import pyarrow as pa

from ...errors import InputError
from ..readers import Qrels, Run, Source, read_qrels, read_run

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


def scan(path: Path, gzipped: bool, *, utf8: bool = False) -> tuple[bytes, bytes, bool, bool]:
    """The first 64 KiB of the text and its last 64 KiB; whether it is clean (no NUL byte, no carriage return
    but before a line feed; with ``utf8``, UTF-8 throughout, for a reader that would not say) and tidy (fields
    separated by single spaces only: ``duckdb_sql``'s fastest reading)."""
    head, tail, carried = b"", b"", b"\n"
    tidy = True
    decoder = codecs.getincrementaldecoder("utf-8")()
    with _open(path, gzipped) as stream:
        while chunk := stream.read(_CHUNK):
            if len(head) < _HEAD:
                head += chunk[: _HEAD - len(head)]
            data = carried + chunk
            if b"\x00" in data or (b"\r" in data and _LONE_CR.search(data)):
                return head, tail, False, False
            if utf8:
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError:
                    return head, tail, False, False
            tidy = tidy and not any(blank in data for blank in _UNTIDY)
            carried = data[-1:]
            tail = (tail + chunk)[-_HEAD:]
    if utf8:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:  # the text ends within a character
            return head, tail, False, False
    return head, tail, carried != b"\r", tidy and carried != b" "


def _open(path: Path, gzipped: bool) -> IO[bytes]:
    stream = gzip.open(path, "rb") if gzipped else open(path, "rb")  # noqa: SIM115 (the caller closes it)
    return cast(IO[bytes], stream)


def header_line(head: bytes) -> int:
    """How many lines the header and the comment or blank lines before it take."""
    for number, raw in enumerate(head.split(b"\n"), start=1):
        line = raw.decode("utf-8", errors="replace").strip()
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
    return read_qrels(source, name) if kind == "qrels" else read_run(source, name)


def bytes_of(source: Source) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, io.IOBase) or hasattr(source, "read"):
        data = source.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    raise InputError("file.source", kind=type(source).__name__)


def source_name(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return str(getattr(source, "name", None) or "input")


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
