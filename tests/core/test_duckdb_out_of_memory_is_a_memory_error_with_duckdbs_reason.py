"""DuckDB out of its memory limit raises ``MemoryError`` (which the command line says in one line, as for the
default engine) carrying DuckDB's own reason, not its traceback."""

import pytest

from ndcg_core.trec.engines.duckdb_sql import DuckDBEngine


@pytest.mark.parametrize("run", [b"q Q0 a 1 1.5 t\n", b"qid,docno,score\nq,a,1.5\n"], ids=["trec", "csv"])
def test_duckdb_out_of_memory_raises_memory_error_with_duckdbs_reason(tmp_path, run):
    engine = DuckDBEngine(memory_limit="10KB", temp_directory=str(tmp_path), threads=1)  # less than a block
    with engine, pytest.raises(MemoryError) as caught:
        engine.evaluate_files(b"q 0 a 1\n", run)
    assert str(caught.value).startswith("Out of Memory Error: could not allocate block of size ")
    assert list(tmp_path.iterdir()) == []
