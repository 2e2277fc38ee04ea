"""An engine slow to start (``Provider.check_first``: Spark's JVM takes half a minute) is opened only once the
files' first lines (their first MiB, whole lines; here 100 bytes) read without the default reader's error: a bad
line there is refused at once with that error, a bad line further on is left to the engine, and a Parquet file,
which the default reader cannot read, is left to the engine whole."""

import gzip
import os
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ndcg_core import InputError
from ndcg_core.trec.engines import Provider, files

GOOD = b"".join(b"q 0 d%07d 1\n" % i for i in range(20))  # lines of 15 bytes: 100 bytes end within the 7th
GOOD_RUN = b"q Q0 d0000000 1 1.5 t\n"


@pytest.fixture
def opened(monkeypatch):
    """The engines opened, by the settings given to each: a slow engine's provider that records its openings."""
    monkeypatch.setattr(files, "_FIRST_LINES", 100)
    calls = []
    slow = Provider("slow", lambda **settings: calls.append(settings) or "engine", check_first=True)
    return slow, calls


def written(path, data):
    path.write_bytes(data)
    return str(path)


def test_good_first_lines_open_the_engine_with_a_bad_line_further_on_left_to_it(tmp_path, opened):
    slow, calls = opened
    qrels = written(tmp_path / "qrels", GOOD + b"q 0 a x\n")
    assert slow.opened(qrels, written(tmp_path / "run", GOOD_RUN), master="local[2]") == "engine"
    assert calls == [{"master": "local[2]"}]


def test_a_bad_line_among_the_first_is_refused_before_the_engine_opens(tmp_path, opened):
    slow, calls = opened
    qrels = written(tmp_path / "qrels", GOOD[:15] + b"q 0 a x\n" + GOOD[15:])
    with pytest.raises(InputError) as refused:
        slow.opened(qrels, written(tmp_path / "run", GOOD_RUN))
    assert str(refused.value) == f"line 2 of {qrels}: grade 'x' is not a number (the line reads 'q 0 a x')"
    assert calls == []


def test_a_gzipped_file_is_checked_in_its_text(tmp_path, opened):
    slow, calls = opened
    rng = random.Random(0)
    noise = b"".join(b"q 0 %032x 1\n" % rng.getrandbits(128) for _ in range(40))  # not compressible below 100 bytes
    qrels = written(tmp_path / "qrels.gz", gzip.compress(b"q 0 a x\n" + noise))
    with pytest.raises(InputError) as refused:
        slow.opened(qrels, written(tmp_path / "run", GOOD_RUN))
    assert str(refused.value) == f"line 1 of {qrels}: grade 'x' is not a number (the line reads 'q 0 a x')"
    assert calls == []


def test_a_gzipped_file_cut_short_is_refused_as_the_default_reader_refuses_it(tmp_path, opened):
    slow, calls = opened
    qrels = written(tmp_path / "qrels.gz", gzip.compress(GOOD)[:15])
    with pytest.raises(InputError) as refused:
        slow.opened(qrels, written(tmp_path / "run", GOOD_RUN))
    assert refused.value.code == "file.gzip" and calls == []


def test_a_parquet_file_is_left_to_the_engine(tmp_path, opened):
    slow, calls = opened
    run = tmp_path / "run.parquet"
    pq.write_table(pa.table({"qid": ["q"] * 20, "docno": [f"d{i}" for i in range(20)], "score": [1.0] * 20}), run)
    assert slow.opened(written(tmp_path / "qrels", GOOD), str(run)) == "engine"
    assert calls == [{}]


def test_a_pipe_is_read_by_the_default_reader_as_the_kind_of_file_it_is_given_as(tmp_path, opened):
    # As a shell's process substitution gives it: --engine spark qrels <(zcat run.gz)
    slow, calls = opened
    read, write = os.pipe()
    os.write(write, GOOD_RUN)
    os.close(write)
    try:
        with pytest.raises(InputError) as refused:
            slow.opened(f"/dev/fd/{read}", written(tmp_path / "run", GOOD_RUN))
    finally:
        os.close(read)
    assert refused.value.code == "qrels.columns" and calls == []


def test_a_missing_file_is_refused_before_the_engine_opens(tmp_path, opened):
    slow, calls = opened
    with pytest.raises(InputError) as refused:
        slow.opened(written(tmp_path / "qrels", GOOD), str(tmp_path / "missing"))
    assert refused.value.code == "file.missing" and calls == []
