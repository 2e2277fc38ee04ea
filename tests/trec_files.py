"""Hypothesis strategies for TREC qrels and run files, and a reference reader to check ndcg_core's against.

``files(kind)`` draws a valid file from a small model (ids with Unicode and ``#`` inside, grades -1..4,
scores exact in float32 with many ties, extra run columns), laid out tidily (one space or one tab) or
messily (runs of spaces and tabs, padding, comments, blank lines, CRLF, no final newline), in any line
order, and then perhaps spoils it a little: a line with a field dropped or added, a bad number, a line
repeated, commented out, split in two or joined to the next. ``garbled(kind)`` edits bytes of such a file.

``reference_read`` reads bytes as trec_eval's rules and the README say, in plain Python and without
ndcg_core: lines end at ``\\n``; fields are separated by ASCII whitespace (C's isspace); a line whose
first field starts with ``#`` is a comment; qrels have exactly 4 fields, runs at least 6; the grade is
a whole number of at most 2^53 in size, the score any number but NaN; a (query, document) pair may
appear once. A line short of a column is an error however it is padded.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass

from hypothesis import strategies as st

ID_CHARS = "qdocQ0159_-.:#é文"
ids = st.one_of(
    st.builds(str.__add__, st.sampled_from(ID_CHARS.replace("#", "")), st.text(ID_CHARS, max_size=3)),
    st.sampled_from(["q", "query", "topic", "doc", "docno", "pid", "rel", "score"]),  # what a CSV header names
)
scores = st.one_of(
    st.integers(-40, 40).map(lambda i: i / 4),  # exact in float32, and often tied
    st.floats(-1e6, 1e6, width=32),  # distinct as float32 exactly when distinct
)
SCORE_FORMATS = (repr, lambda x: f"{x:.9e}", lambda x: f"{x:.17g}")
BAD_NUMBERS = ("x", "1,5", "0x1", "--1", "1e", "nan", "NaN", "", "٣")
BAD_GRADES = ("1.5", "inf", "-inf", "2.5e0", "1e400")


@dataclass(frozen=True)
class Rejected:
    """The reference's verdict on a file it would not read, and the lines to blame (empty: no line)."""

    reason: str
    lines: frozenset = frozenset()


# ------------------------------------------------------------------------------ the reference reader

_SPACE = rb"[ \t\r\x0b\x0c]+"  # isspace() without the newline
# pyarrow's float grammar: ASCII digits, an optional exponent, inf, infinity and nan in any case.
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|infinity|nan)", re.I | re.A)


def reference_read(data: bytes, kind: str):
    """A list of (qid, docno, grade) or (qid, docno, score) rows in file order, or ``Rejected``."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except Exception:  # noqa: BLE001 - any failure is a file the reader must refuse
            return Rejected("gzip")
    if not data or data.isspace():
        return Rejected("empty")
    if b"\x00" in data:
        return Rejected("binary", frozenset({data.count(b"\n", 0, data.index(b"\x00")) + 1}))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        return Rejected("not utf-8", frozenset({data.count(b"\n", 0, err.start) + 1}))
    width, number_at = (4, 3) if kind == "qrels" else (6, 4)
    records = []
    for line, raw in enumerate(data.split(b"\n"), start=1):
        fields = [f.decode() for f in re.split(_SPACE, raw) if f]
        if fields and not fields[0].startswith("#"):
            records.append((line, fields))
    columns = {line for line, f in records if len(f) < width or (kind == "qrels" and len(f) > width)}
    if columns:
        return Rejected("columns", frozenset(columns))
    if not records:
        return Rejected("no lines")
    not_numbers = {line for line, f in records if not NUMBER.fullmatch(f[number_at])}
    if not_numbers:
        return Rejected("not a number", frozenset(not_numbers))
    values = [(line, f[0], f[2], float(f[number_at])) for line, f in records]
    if kind == "qrels":
        bad = {line for line, _, _, v in values if v != v or v in (float("inf"), float("-inf")) or v != int(v)}
        bad = bad or {line for line, _, _, v in values if abs(v) > 2**53}  # beyond it not every whole number is exact
    else:
        bad = {line for line, _, _, v in values if v != v}
    if bad:
        return Rejected("grade" if kind == "qrels" else "score", frozenset(bad))
    seen, repeats = set(), set()
    for line, qid, docno, _ in values:
        if (qid, docno) in seen:
            repeats.add(line)
        seen.add((qid, docno))
    if repeats:
        return Rejected("twice", frozenset(repeats))
    if kind == "qrels":
        return [(qid, docno, int(v)) for _, qid, docno, v in values]
    return [(qid, docno, v) for _, qid, docno, v in values]


def _load_text(data: bytes):
    if data[:2] == b"\x1f\x8b":
        try:
            return gzip.decompress(data)
        except Exception:  # noqa: BLE001
            return None
    return data


def as_dicts(rows):
    """{qid: {docno: value}} as pytrec_eval takes them."""
    out: dict = {}
    for qid, docno, value in rows:
        out.setdefault(qid, {})[docno] = value
    return out


# ------------------------------------------------------------------------------------- strategies


def distinct(values):
    """The values without repeats, in order (a unique list strategy would log a retry event per repeat)."""
    return list(dict.fromkeys(values))


@st.composite
def collections(draw):
    """Judgments and a ranking as {qid: {docno: grade}} and {qid: {docno: score}}; they share a query."""
    qids = distinct(draw(st.lists(ids, min_size=1, max_size=4)))
    qrels = {
        q: {d: draw(st.integers(-1, 4)) for d in distinct(draw(st.lists(ids, min_size=1, max_size=6)))} for q in qids
    }
    run_qids = distinct(draw(st.lists(st.sampled_from(qids), min_size=1, max_size=len(qids))))
    run_qids += [q for q in draw(st.lists(ids, max_size=1)) if q not in qrels]  # a query nobody judged
    run = {}
    for q in run_qids:
        known = sorted(qrels.get(q, {}))
        docs = distinct(draw(st.lists(st.sampled_from(known) | ids if known else ids, min_size=1, max_size=7)))
        run[q] = {d: draw(scores) for d in docs}
    return qrels, run


def _field_lists(draw, kind, model):
    lines = []
    for qid, docs in model.items():
        for rank, (docno, value) in enumerate(docs.items(), start=1):
            if kind == "qrels":
                lines.append([qid, draw(st.sampled_from(["0", "Q0", "1"])), docno, str(value)])
            else:
                score = draw(st.sampled_from(SCORE_FORMATS))(value)
                lines.append(
                    [
                        qid,
                        "Q0",
                        docno,
                        str(draw(st.sampled_from([rank, 0, 1]))),
                        score,
                        draw(ids),
                        *draw(st.lists(ids, max_size=2)),
                    ]
                )
    return draw(st.permutations(lines))


MUTATIONS = (
    "none",
    "none",
    "none",
    "drop a field",
    "add a field",
    "bad number",
    "repeat a line",
    "comment out",
    "split a line",
    "join two lines",
)


def _mutate(draw, kind, lines):
    mutation = draw(st.sampled_from(MUTATIONS))
    if mutation == "none" or not lines:
        return "none", lines
    lines = [list(f) for f in lines]
    i = draw(st.integers(0, len(lines) - 1))
    number_at = 3 if kind == "qrels" else 4
    if mutation == "drop a field":
        del lines[i][draw(st.integers(0, len(lines[i]) - 1))]
    elif mutation == "add a field":
        lines[i].insert(draw(st.integers(1, len(lines[i]))), draw(ids))
    elif mutation == "bad number":
        lines[i][number_at] = draw(st.sampled_from(BAD_NUMBERS + (BAD_GRADES if kind == "qrels" else ())))
    elif mutation == "repeat a line":
        lines.insert(draw(st.integers(0, len(lines))), list(lines[i]))
    elif mutation == "comment out":
        lines[i][0] = "#" + lines[i][0]
    elif mutation == "split a line":
        cut = draw(st.integers(1, len(lines[i]) - 1))
        lines[i : i + 1] = [lines[i][:cut], lines[i][cut:]]
    elif mutation == "join two lines" and i + 1 < len(lines):
        lines[i : i + 2] = [lines[i] + lines[i + 1]]
    return mutation, lines


@st.composite
def render(draw, lines):
    """The lines as bytes, tidy (one space or one tab) or messy (padding, comments, blanks, CRLF)."""
    style = draw(st.sampled_from(["space", "tab", "messy"]))
    if style != "messy":
        sep = " " if style == "space" else "\t"
        text = "".join(sep.join(fields) + "\n" for fields in lines)
        return style, (text if draw(st.booleans()) else text.rstrip("\n")).encode()
    out = []
    crlf = draw(st.booleans())
    for fields in lines:
        for _ in range(draw(st.integers(0, 1))):
            out.append(draw(st.sampled_from(["", "   ", "\t", "# a comment", "#", "  # indented comment"])))
        seps = [draw(st.sampled_from([" ", "\t", "  ", " \t ", "\t\t"])) for _ in fields]
        body = "".join(f + s for f, s in zip(fields, seps[:-1] + [""], strict=False))
        out.append(draw(st.sampled_from(["", " ", "\t", "  "])) + body + draw(st.sampled_from(["", " ", "\t"])))
    end = "\r\n" if crlf else "\n"
    text = end.join(out) + (end if draw(st.booleans()) else "")
    return style, text.encode()


@st.composite
def files(draw, kind, model=None):
    """(description, bytes) of a valid or near-valid file of ``kind`` ("qrels" or "run")."""
    if model is None:
        qrels, run = draw(collections())
        model = qrels if kind == "qrels" else run
    mutation, lines = _mutate(draw, kind, _field_lists(draw, kind, model))
    style, data = draw(render(lines))
    return f"{style}, {mutation}", data


@st.composite
def file_pairs(draw):
    """(description, qrels bytes, run bytes) from one collection, so that they usually share queries."""
    qrels, run = draw(collections())
    q_what, q_data = draw(files("qrels", qrels))
    r_what, r_data = draw(files("run", run))
    return f"qrels {q_what}; run {r_what}", q_data, r_data


EDIT_BYTES = [
    b" ",
    b"\t",
    b"\n",
    b"\r",
    b"\r\n",
    b"\x0b",
    b"\x0c",
    b"#",
    b",",
    b"0",
    b"7",
    b".",
    b"-",
    b"e",
    b"x",
    b"\x00",
    b"\xff",
    "é".encode(),
    b"\x1f\x8b",
]


@st.composite
def garbled(draw, kind):
    """A valid or near-valid file with one to three bytes inserted, deleted or replaced."""
    _, data = draw(files(kind))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        edit = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.sampled_from(EDIT_BYTES))
        if edit == "insert":
            data = data[:at] + piece + data[at:]
        elif edit == "delete":
            data = data[:at] + data[at + 1 :]
        else:
            data = data[:at] + piece + data[at + 1 :]
    return data


# ------------------------------------------------------------------------- checking ndcg_core's readers


def rows_of(parsed, kind: str):
    """The rows ndcg_core's reader gave, in the reference's shape."""
    values = parsed.rel.tolist() if kind == "qrels" else parsed.score.tolist()
    return list(zip(parsed.qid.to_pylist(), parsed.docno.to_pylist(), values, strict=False))


def read_as_the_reference_does(data: bytes, kind: str):
    """Read with ndcg_core and check it against the reference: the same rows, or a ValueError whose first
    ``line N`` is a line the reference blames. Records a hypothesis event for either outcome."""
    from hypothesis import event

    from ndcg_core import read_qrels, read_run

    expected = reference_read(data, kind)
    try:
        parsed = (read_qrels if kind == "qrels" else read_run)(data, name=f"{kind}.txt")
    except ValueError as err:
        assert isinstance(expected, Rejected), f"the {kind} reader refused a file the reference reads: {err}"
        if getattr(err, "code", None) == f"{kind}.header_missing":
            # A first line naming query and document columns is a CSV header to the reader, refused on its line 1
            # for the column it lacks; the reference reads TREC text only, and blames the line it splits badly.
            event(f"{kind}: refused for its CSV header, the reference refuses it too")
            return None
        if expected.lines:
            named = [int(n) for n in re.findall(r"\bline (\d+)", str(err))]
            assert named and named[0] in expected.lines, (str(err), expected)
        event(f"{kind}: refused, the reference agrees ({expected.reason})")
        return None
    assert not isinstance(expected, Rejected), f"the {kind} reader read a file the reference refuses: {expected}"
    assert rows_of(parsed, kind) == expected
    event(f"{kind}: read, every row checked")
    return parsed
