"""What ``--engine duckdb`` cannot read itself goes to the default reader, which reads it or names its problem
exactly as the default engine does: a pipe given as a path (a shell's ``<(zcat qrels.gz)``), a missing or
unreadable file, a line DuckDB would split elsewhere than trec_eval, a bad open file named by its own name, and a
large bad file refused a part at a time. DuckDB keeps no copy of what the default reader read."""

import gc
import gzip
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ndcg_core.errors import InputError
from ndcg_core.trec.engines import files
from ndcg_core.trec.readers import read_qrels, read_run
from ndcg_core.trec.segmented import evaluate_files

QRELS = b"q 0 a 1\nq 0 b 2\nr 0 a 1\n"
RUN = b"q Q0 b 1 0.5 t\nq Q0 a 2 1.5 t\nr Q0 a 1 0 t\n"
# A lone carriage return: trec_eval reads it as a blank, DuckDB as a line end, so the default reader reads these.
QRELS_CR = b"q\r0 a 1\nq 0 b\r2\nr 0 a 1\n"
RUN_CR = b"q Q0 b 1 0.5\rt\nq\rQ0 a 2 1.5 t\nr Q0 a 1 0 t\n"


def evaluated(result):
    return list(result.qids), {name: values.tolist() for name, values in result.columns.items()}, result.tag


def refusal(call, *args):
    with pytest.raises(InputError) as refused:
        call(*args)
    return refused.value.code, str(refused.value)


def pipe(data):
    """A path to a pipe holding ``data``, as a shell's process substitution gives one (not a regular file)."""
    read, write = os.pipe()
    os.write(write, data)  # a few bytes: the pipe holds them all before anyone reads
    os.close(write)
    return f"/dev/fd/{read}", read


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
@pytest.mark.parametrize("data", [(QRELS, RUN), (QRELS_CR, RUN_CR)], ids=["clean", "lone carriage returns"])
def test_qrels_and_a_run_given_as_pipes_are_evaluated_as_the_same_files(tmp_path, duckdb_engine, data):
    (tmp_path / "qrels").write_bytes(data[0])
    (tmp_path / "run").write_bytes(data[1])
    expected = evaluated(evaluate_files(str(tmp_path / "qrels"), str(tmp_path / "run")))
    (qrels, qrels_fd), (run, run_fd) = pipe(data[0]), pipe(data[1])
    try:
        assert not Path(qrels).is_file()
        assert evaluated(duckdb_engine.evaluate_files(qrels, run)) == expected
    finally:
        os.close(qrels_fd)
        os.close(run_fd)


def test_lines_duckdb_would_split_elsewhere_are_evaluated_as_the_default_engine_does(tmp_path, duckdb_engine):
    for qrels, run in [(QRELS_CR, RUN), (QRELS, RUN_CR), (QRELS_CR, RUN_CR)]:
        (tmp_path / "qrels").write_bytes(qrels)
        (tmp_path / "run").write_bytes(run)
        paths = str(tmp_path / "qrels"), str(tmp_path / "run")
        assert evaluated(duckdb_engine.evaluate_files(*paths)) == evaluated(evaluate_files(*paths))


def test_the_default_readers_columns_are_let_go_once_duckdb_has_them(duckdb_engine):
    qrels = "".join(f"q{q}\r0 d{d} {d % 3}\n" for q in range(50) for d in range(100)).encode()
    run = "".join(f"q{q} Q0 d{d} {d} {100 - d} t\n" for q in range(50) for d in range(100)).encode()
    duckdb_engine.evaluate_files(QRELS, RUN)  # read by DuckDB alone
    gc.collect()
    before = pa.total_allocated_bytes()
    duckdb_engine.evaluate_files(qrels, run)  # the qrels read by the default reader
    gc.collect()
    assert pa.total_allocated_bytes() == before


def test_a_missing_file_or_a_folder_is_named_as_the_default_reader_names_it(tmp_path, duckdb_engine):
    (tmp_path / "run").write_bytes(RUN)
    run = str(tmp_path / "run")
    for qrels in (str(tmp_path / "missing"), str(tmp_path)):
        assert refusal(duckdb_engine.evaluate_files, qrels, run) == refusal(read_qrels, qrels)


@pytest.mark.skipif(not Path("/proc/self/mem").is_file(), reason="no /proc/self/mem")
def test_a_file_that_cannot_be_read_is_named_as_the_default_reader_names_it(duckdb_engine):
    unreadable = "/proc/self/mem"  # a regular file whose reading fails, even as root
    expected = refusal(read_qrels, unreadable)
    assert expected[0] == "file.unreadable"
    assert refusal(duckdb_engine.evaluate_files, unreadable, RUN) == expected


def test_a_bad_open_file_is_named_by_its_own_name(tmp_path, duckdb_engine):
    (tmp_path / "bad run").write_bytes(RUN + b"q Q0 c 3 x t\n")
    (tmp_path / "bad qrels").write_bytes(QRELS + b"q 0 c\n")
    with open(tmp_path / "bad run", "rb") as file:
        expected = refusal(read_run, file)
    assert str(tmp_path / "bad run") in expected[1]
    with open(tmp_path / "bad run", "rb") as file:
        assert refusal(duckdb_engine.evaluate_files, QRELS, file) == expected
    with open(tmp_path / "bad qrels", "rb") as file:
        expected = refusal(read_qrels, file)
    with open(tmp_path / "bad qrels", "rb") as file:
        assert refusal(duckdb_engine.evaluate_files, file, RUN) == expected


def test_an_open_parquet_file_is_named_by_its_own_name(tmp_path, duckdb_engine):
    path = tmp_path / "run.parquet"
    pq.write_table(pa.table({"qid": ["q"], "docno": ["a"]}), path)
    with open(path, "rb") as file:
        code, message = refusal(duckdb_engine.evaluate_files, QRELS, file)
    assert code == "run.header_missing"
    looked = "looked for score, sim, similarity; found qid, docno"
    assert message.startswith(f"line 1 of {path}: the header has no score column for the ranking ({looked}")


GOOD_QRELS = "".join(f"q{q} 0 d{d} {d % 3}\n" for q in range(8) for d in range(12))
GOOD_RUN = "".join(f"q{q} Q0 d{d} {d} {10 - d / 10} t\n" for q in range(8) for d in range(12))
# Document ids that compress badly: the gzip stream is several parts long, cut at its newline bytes.
VARIED_RUN = "".join(
    f"q{q} Q0 d{(q * 7919 + d * 104729) ** 3 % 10**12:x} {d} {d} t\n" for q in range(8) for d in range(50)
)
LARGE_BAD = {
    "qrels": (GOOD_QRELS + "q9 0 d1 1.5\n", False),
    "run, gzipped": (VARIED_RUN + "q9 Q0 d1 1 x t\n", True),
}


@pytest.mark.parametrize("case", sorted(LARGE_BAD))
def test_a_large_bad_file_is_refused_by_parts_with_the_whole_files_error(tmp_path, monkeypatch, duckdb_engine, case):
    text, compress = LARGE_BAD[case]
    kind = case.split(",")[0]
    data = text.encode()
    bad, good = tmp_path / kind, tmp_path / "good"
    bad.write_bytes(gzip.compress(data) if compress else data)
    good.write_text(GOOD_RUN if kind == "qrels" else GOOD_QRELS)
    whole = read_qrels if kind == "qrels" else read_run
    expected = refusal(whole, data, str(bad))
    monkeypatch.setattr(files, "_PART", 200)  # "large": more than a part of a few lines
    import ndcg_core.trec.engines.duckdb_sql as duckdb_sql

    def not_whole(*args, **kwargs):
        raise AssertionError("the whole file read by the default reader")

    monkeypatch.setattr(duckdb_sql, "default_read", not_whole)
    paths = (str(bad), str(good)) if kind == "qrels" else (str(good), str(bad))
    assert refusal(duckdb_engine.evaluate_files, *paths) == expected


# A file that starts as Parquet does but is not one (cut short, or text after the magic bytes): DuckDB cannot read
# it, so it is refused as the default engine refuses it, as text; a large one a part at a time.
DAMAGED = b"PAR1" + (GOOD_QRELS + "q9 0 d1 1.5\n").encode()  # as text: a grade that is no whole number, last


@pytest.mark.parametrize("large", [False, True], ids=["small", "large"])
def test_a_damaged_parquet_file_is_refused_as_the_default_engine_does(tmp_path, monkeypatch, duckdb_engine, large):
    bad, good = tmp_path / "qrels.parquet", tmp_path / "run"
    bad.write_bytes(DAMAGED)
    good.write_text(GOOD_RUN)
    expected = refusal(read_qrels, DAMAGED, str(bad))
    assert expected[0] == "qrels.grade_not_whole" and expected[1].startswith(f"line 97 of {bad}:")
    if large:
        import ndcg_core.trec.engines.duckdb_sql as duckdb_sql

        monkeypatch.setattr(files, "_PART", 200)  # "large": more than a part of a few lines

        def not_whole(*args, **kwargs):
            raise AssertionError("the whole file read by the default reader")

        monkeypatch.setattr(duckdb_sql, "default_read", not_whole)
    assert refusal(duckdb_engine.evaluate_files, str(bad), str(good)) == expected


def test_a_parquet_file_read_past_duckdbs_memory_is_a_memory_error_with_its_reason(tmp_path):
    import duckdb

    from ndcg_core.trec.engines.duckdb_sql import DuckDBEngine

    path = tmp_path / "run.parquet"
    pq.write_table(pa.table({"qid": ["q"], "docno": ["a"], "score": [1.5]}), path)
    reason = "Out of Memory Error: could not allocate block of size 256.0 KiB (10.0 KiB/10.0 KiB used)"

    class Short:
        """DuckDB's connection, out of memory when the file's columns are fetched."""

        def __init__(self, db):
            self.db = db

        def sql(self, query):
            raise duckdb.OutOfMemoryException(reason)

        def __getattr__(self, name):
            return getattr(self.db, name)

    with DuckDBEngine() as engine, pytest.raises(MemoryError) as caught:  # an engine of its own: not the shared one
        engine._db = Short(engine._db)
        engine.read_parquet("run", path, "run.parquet")
    assert str(caught.value) == reason
