"""``DuckDBEngine.read_parquet``, the reading the Spark engine hands a Parquet file to when Spark cannot read it
itself: the file's columns under the default reader's names (ids as text, grades as integers, ranks as negated
scores), or the error of the same rows in a CSV file; the engine is left free for the next file."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ndcg_core import InputError


def parquet(path, **columns):
    pq.write_table(pa.table(columns), path)
    return path


def rows(table):
    return sorted(zip(*table.to_pydict().values(), strict=True))


def test_qrels_come_back_as_text_ids_and_integer_grades(tmp_path, duckdb_engine):
    path = parquet(tmp_path / "qrels.parquet", topic=[7, 7, 8], docid=["a", "b", "a"], label=[1.0, 2.0, 0.0])
    table = duckdb_engine.read_parquet("qrels", path, "qrels.parquet")
    assert table.column_names == ["qid", "docno", "rel"]
    assert rows(table) == [("7", "a", 1), ("7", "b", 2), ("8", "a", 0)]
    assert table.schema.field("rel").type == pa.int64()


def test_a_run_with_ranks_comes_back_with_the_ranks_negated_as_scores(tmp_path, duckdb_engine):
    path = parquet(tmp_path / "run.parquet", qid=["q", "q"], docno=["b", "a"], rank=[2, 1])
    table = duckdb_engine.read_parquet("run", path, "run.parquet")
    assert table.column_names == ["qid", "docno", "score"]
    assert rows(table) == [("q", "a", -1.0), ("q", "b", -2.0)]


def test_a_bad_run_is_refused_with_its_line_and_file_and_the_engine_reads_the_next(tmp_path, duckdb_engine):
    bad = parquet(tmp_path / "bad.parquet", qid=["q", "q"], docno=["a", "b"], score=[1.0, float("nan")])
    with pytest.raises(InputError) as refused:
        duckdb_engine.read_parquet("run", bad, "bad.parquet")
    assert refused.value.code == "run.score_nan"
    assert str(refused.value) == "line 2 of bad.parquet: score nan is not a usable number"
    good = parquet(tmp_path / "good.parquet", qid=["r"], docno=["c"], score=[0.5])
    assert duckdb_engine.read_parquet("run", good, "good.parquet").to_pydict() == {
        "qid": ["r"],
        "docno": ["c"],
        "score": [0.5],
    }
    assert duckdb_engine._one("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'run'") == (0,)
