"""A bad text file is refused a part of whole lines at a time (``files.refuse_by_parts``), never held whole, with
the error the default reader gives for the whole file: the first kind of problem it checks for, its first three
lines quoted at the file's line numbers and the rest counted, wherever in the file they are."""

import gzip

import pytest

from ndcg_core.errors import InputError
from ndcg_core.trec.engines import files
from ndcg_core.trec.readers import read_qrels, read_run

GOOD_RUN = "".join(f"q{q} Q0 d{d} {d} {10 - d / 10} t\n" for q in range(8) for d in range(12))
GOOD_CSV = "qid,docno,score\n" + "".join(f"q{q},d{d},{10 - d / 10}\n" for q in range(8) for d in range(12))
GOOD_QRELS = "".join(f"q{q} 0 d{d} {d % 3}\n" for q in range(8) for d in range(12))


def lines_replaced(text, **at):
    """The text with some lines (by number from 1, as ``l5=``) replaced."""
    lines = text.splitlines(keepends=True)
    for key, line in at.items():
        lines[int(key[1:]) - 1] = line
    return "".join(lines)


BAD = {
    "a short line at the end": ("run", GOOD_RUN + "q9 Q0 d1\n"),
    "a score that is no number at the end": ("run", GOOD_RUN + "q9 Q0 d1 1 x t\n"),
    "bad numbers in many parts": (
        "run",
        lines_replaced(
            GOOD_RUN, l3="q0 Q0 d2 2 x t\n", l40="q3 Q0 d3 3 y t\n", l70="q5 Q0 d9 9 z t\n", l90="q7 Q0 d5 5 w t\n"
        ),
    ),
    "a short line late, a bad number early": ("run", lines_replaced(GOOD_RUN, l2="q0 Q0 d1 1 x t\n", l95="q7 Q0\n")),
    "a NaN score after a bad number": (
        "run",
        lines_replaced(GOOD_RUN, l5="q0 Q0 d4 4 nan t\n", l80="q6 Q0 d7 7 x t\n"),
    ),
    "two NaN scores": ("run", lines_replaced(GOOD_RUN, l50="q4 Q0 d1 1 nan t\n", l60="q4 Q0 d11 11 nan t\n")),
    "CSV: a line with a field too many at the end": ("run", GOOD_CSV + "q9,d1,1,2\n"),
    "CSV: empty document ids and a bad score": ("run", lines_replaced(GOOD_CSV, l30="q2,,1\n", l80="q6,d7,x\n")),
    "qrels: grades not whole in two parts": (
        "qrels",
        lines_replaced(GOOD_QRELS, l20="q1 0 d7 1.5\n", l90="q7 0 d5 2.5\n"),
    ),
    "qrels: a short line at the end": ("qrels", GOOD_QRELS + "q9 0\n"),
    "comments and blank lines before the bad line": ("run", "# a run\n\n" + GOOD_RUN + "\n# end\nq9 Q0 d1 1 x t\n"),
    "many bad numbers in one part": (
        "run",
        lines_replaced(
            GOOD_RUN, **{f"l{n}": f"q0 Q0 d{n - 1} {n - 1} x{n} t\n" for n in range(2, 8)}, l60="q4 Q0 d11 11 y t\n"
        ),
    ),
    "CSV: a bad score in the first part": ("run", lines_replaced(GOOD_CSV, l3="q0,d1,x\n", l80="q6,d7,y\n")),
    "CSV: a comment before the header, a bad score late": (
        "run",
        "# a run\n" + lines_replaced(GOOD_CSV, l80="q6,d7,x\n"),
    ),
    "a line longer than a part first, a bad number late": (
        "run",
        "qa Q0 " + "x" * 300 + " 1 1.0 t\n" + GOOD_RUN + "q9 Q0 d1 1 x t\n",
    ),
    "a one-letter last line without its line end": ("run", GOOD_RUN + "x"),
    "CSV: blank lines before the header, a bad score late": ("run", "\n\n" + lines_replaced(GOOD_CSV, l80="q6,d7,x\n")),
    "CSV: a comment not in UTF-8 before the header": ("run", b"# caf\xe9\n" + GOOD_CSV.encode()),
}


def whole_file_error(kind, data):
    with pytest.raises(InputError) as refused:
        (read_qrels if kind == "qrels" else read_run)(data, "the file")
    return refused.value


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("compress", [False, True])
def test_a_bad_file_read_in_parts_gets_the_whole_files_error(tmp_path, monkeypatch, case, compress):
    kind, text = BAD[case]
    data = text if isinstance(text, bytes) else text.encode()
    path = tmp_path / "file"
    path.write_bytes(gzip.compress(data) if compress else data)
    monkeypatch.setattr(files, "_PART", 200)  # a few lines a part
    expected = whole_file_error(kind, data)
    with pytest.raises(InputError) as refused:
        files.refuse_by_parts(kind, path, compress, "the file")
    assert (refused.value.code, str(refused.value)) == (expected.code, str(expected))


def test_a_duplicate_is_left_to_the_whole_file(tmp_path, monkeypatch):
    path = tmp_path / "run"
    path.write_text(GOOD_RUN + "q0 Q0 d1 1 1.0 t\n")  # the pair is in two parts: only the whole file places it
    monkeypatch.setattr(files, "_PART", 200)
    assert files.refuse_by_parts("run", path, False, "the file") is None


def test_a_good_file_is_left_to_the_default_reader(tmp_path, monkeypatch):
    path = tmp_path / "run"
    path.write_text(GOOD_RUN)
    monkeypatch.setattr(files, "_PART", 200)
    assert files.refuse_by_parts("run", path, False, "the file") is None


def test_duckdb_refuses_a_large_bad_file_by_parts_without_the_default_reader_reading_it(
    tmp_path, monkeypatch, duckdb_engine
):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(GOOD_QRELS)
    run.write_text(GOOD_RUN + "q9 Q0 d1 1 x t\n")
    expected = whole_file_error("run", run.read_bytes())
    monkeypatch.setattr(files, "_PART", 200)
    read_whole = []
    real = files.default_read
    monkeypatch.setattr(files, "default_read", lambda kind, source, name=None: real(kind, source, name))
    import ndcg_core.trec.engines.duckdb_sql as duckdb_sql

    def whole(kind, source, name=None):
        read_whole.append(kind)
        return real(kind, source, name)

    monkeypatch.setattr(duckdb_sql, "default_read", whole)
    with pytest.raises(InputError) as refused:
        duckdb_engine.evaluate_files(str(qrels), str(run))
    assert str(refused.value) == str(expected).replace("the file", str(run))
    assert read_whole == []  # the default reader never read the whole run


BAD_BY_KIND = {"qrels": GOOD_QRELS + "q9 0\n", "run": GOOD_RUN + "q9 Q0 d1 1 x t\n"}


@pytest.mark.parametrize("kind", sorted(BAD_BY_KIND))
@pytest.mark.parametrize("compress", [False, True])
def test_duckdb_refuses_large_bad_qrels_and_runs_gzipped_or_not_by_parts(
    tmp_path, monkeypatch, duckdb_engine, kind, compress
):
    good = {"qrels": GOOD_QRELS, "run": GOOD_RUN}
    data = BAD_BY_KIND[kind].encode()
    paths = {name: tmp_path / name for name in good}
    for name, text in good.items():
        paths[name].write_bytes(gzip.compress(text.encode()) if compress else text.encode())
    paths[kind].write_bytes(gzip.compress(data) if compress else data)
    expected = whole_file_error(kind, data)
    monkeypatch.setattr(files, "_PART", 100)  # below the size of each file, gzipped or not
    import ndcg_core.trec.engines.duckdb_sql as duckdb_sql

    read_whole = []
    real = duckdb_sql.default_read

    def whole(kind, source, name=None):
        read_whole.append(kind)
        return real(kind, source, name)

    monkeypatch.setattr(duckdb_sql, "default_read", whole)
    parts, real_part = [], files.default_read

    def part(kind, source, name=None):
        parts.append(bytes(source))
        return real_part(kind, source, name)

    monkeypatch.setattr(files, "default_read", part)
    with pytest.raises(InputError) as refused:
        duckdb_engine.evaluate_files(str(paths["qrels"]), str(paths["run"]))
    assert str(refused.value) == str(expected).replace("the file", str(paths[kind]))
    assert read_whole == []
    assert len(parts) > 1 and b"".join(parts) == data  # the text, decompressed, a part at a time


def test_a_bad_file_no_larger_than_a_part_is_left_to_the_default_reader_whole(tmp_path, monkeypatch):
    path = tmp_path / "run"
    path.write_text(BAD_BY_KIND["run"])
    size = path.stat().st_size
    monkeypatch.setattr(files, "_PART", size)
    assert files.refuse_if_large("run", path, False, "the file") is None
    monkeypatch.setattr(files, "_PART", size - 1)
    with pytest.raises(InputError) as refused:
        files.refuse_if_large("run", path, False, "the file")
    assert str(refused.value) == str(whole_file_error("run", path.read_bytes()))


def test_the_default_reader_gets_the_file_a_part_of_whole_lines_at_a_time(tmp_path, monkeypatch):
    path = tmp_path / "run"
    path.write_text(lines_replaced(GOOD_RUN, l90="q7 Q0 d5 5 x t\n"))
    monkeypatch.setattr(files, "_PART", 200)
    real, parts = files.default_read, []

    def counted(kind, source, name=None):
        parts.append(bytes(source))
        return real(kind, source, name)

    monkeypatch.setattr(files, "default_read", counted)
    with pytest.raises(InputError):
        files.refuse_by_parts("run", path, False, "the file")
    longest = max(len(line) for line in GOOD_RUN.splitlines(keepends=True))
    assert b"".join(parts) == path.read_bytes()
    # A part is the 200 bytes read and the end of the line they cut, less the line a next part starts with.
    assert all(len(part) < 200 + longest and part.endswith(b"\n") for part in parts)
    assert all(len(part) > 200 - longest for part in parts[:-1])
