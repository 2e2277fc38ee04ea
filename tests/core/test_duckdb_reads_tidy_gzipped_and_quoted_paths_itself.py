"""``--engine duckdb`` reads a good file itself, never through the default reader: TREC text with single spaces
(its fastest reading), gzip-compressed text and CSV, and files whose path holds a quote; a run's tag is the one the
default engine gives (the last line's for TREC text, none for CSV), and none for Parquet."""

import gzip
import math

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ndcg_core.trec.engines import files
from ndcg_core.trec.segmented import evaluate_files

# Single spaces only: DuckDB's CSV reader splits these lines at their spaces (``_tidy_select``).
TIDY_QRELS = b"q 0 a 1\nq 0 b 2\nr 0 a 1\n"
TIDY_RUN = b"q Q0 b 1 0.5 t1\nq Q0 a 2 1.5 t1\nr Q0 a 1 0 t2\n"
UNTIDY_RUN = b"q\tQ0\tb 1 0.5 t1\n  q Q0 a 2 1.5 t1\nr Q0 a 1 0 t2 \n"
CSV_RUN = b"qid,docno,score\nq,b,0.5\nq,a,1.5\nr,a,0\n"
# A TREC run's six columns under a header: CSV, so no tag, though its lines split at blanks as TREC lines do.
TSV_RUN = b"qid\titer\tdocno\trank\tscore\ttag\nq\tQ0\tb\t1\t0.5\tt1\nq\tQ0\ta\t2\t1.5\tt1\nr\tQ0\ta\t1\t0\tt2\n"
PARQUET_RUN = pa.table({"qid": ["q", "q", "r"], "docno": ["b", "a", "a"], "score": [0.5, 1.5, 0.0]})
# q ranks a (grade 1) above b (grade 2); r finds its one judged document first.
NDCG = [(1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)), 1.0]

SPELLINGS = {
    "tidy": (TIDY_QRELS, TIDY_RUN),
    "tidy, gzipped": (gzip.compress(TIDY_QRELS), gzip.compress(TIDY_RUN)),
    "untidy, gzipped": (gzip.compress(TIDY_QRELS), gzip.compress(UNTIDY_RUN)),
    "csv, gzipped": (gzip.compress(TIDY_QRELS), gzip.compress(CSV_RUN)),
}


def refused(*args, **kwargs):
    raise AssertionError("read by the default reader")


@pytest.fixture
def no_default_reader(monkeypatch):
    monkeypatch.setattr(files, "read_run", refused)
    monkeypatch.setattr(files, "read_qrels", refused)


def evaluated(evaluate, qrels, run):
    result = evaluate(qrels, run)
    return list(result.qids), result.columns["ndcg"].tolist(), result.tag


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_a_good_file_tidy_or_gzipped_is_read_by_duckdb_alone(tmp_path, duckdb_engine, monkeypatch, spelling):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_bytes(SPELLINGS[spelling][0])
    run.write_bytes(SPELLINGS[spelling][1])
    expected = evaluated(evaluate_files, str(qrels), str(run))
    assert expected[:2] == (["q", "r"], pytest.approx(NDCG, abs=1e-12))
    monkeypatch.setattr(files, "read_run", refused)
    monkeypatch.setattr(files, "read_qrels", refused)
    assert evaluated(duckdb_engine.evaluate_files, str(qrels), str(run)) == expected


@pytest.mark.usefixtures("no_default_reader")
def test_files_in_a_folder_whose_name_has_a_quote_are_read_by_duckdb_alone(tmp_path, duckdb_engine):
    folder = tmp_path / "it's"
    folder.mkdir()
    (folder / "qrels").write_bytes(TIDY_QRELS)
    (folder / "run").write_bytes(TIDY_RUN)
    (folder / "run.gz").write_bytes(gzip.compress(UNTIDY_RUN))
    pq.write_table(PARQUET_RUN, folder / "p")
    for run, tag in [("run", "t2"), ("run.gz", "t2"), ("p", "")]:
        assert evaluated(duckdb_engine.evaluate_files, str(folder / "qrels"), str(folder / run)) == (
            ["q", "r"],
            pytest.approx(NDCG, abs=1e-12),
            tag,
        )


def test_a_run_s_tag_is_its_last_line_s_and_none_for_csv_or_parquet(tmp_path, duckdb_engine):
    (tmp_path / "qrels").write_bytes(TIDY_QRELS)
    (tmp_path / "run").write_bytes(TIDY_RUN)
    (tmp_path / "run.csv").write_bytes(CSV_RUN)
    (tmp_path / "run.tsv").write_bytes(TSV_RUN)
    pq.write_table(PARQUET_RUN, tmp_path / "p")
    qrels = str(tmp_path / "qrels")
    texts = [("run", "t2"), ("run.csv", ""), ("run.tsv", ""), ("run", "t2")]
    for run, tag in [*texts, ("p", ""), ("run.tsv", "")]:
        assert duckdb_engine.evaluate_files(qrels, str(tmp_path / run)).tag == tag
    # The default engine gives the same tags to the same text.
    assert [evaluate_files(qrels, str(tmp_path / run)).tag for run, _ in texts] == [tag for _, tag in texts]
