"""Closing an engine is idempotent, as closing a file is: ``with`` and an explicit ``close`` may both close it, and
the DuckDB engine's temporary folder is gone after the first."""

from ndcg_core.trec.engines import provider
from ndcg_core.trec.engines.duckdb_sql import DuckDBEngine


def test_the_default_engine_closes_twice():
    with provider("numpy").open() as engine:
        engine.close()


def test_the_duckdb_engine_closes_twice_its_folder_gone_after_the_first(tmp_path):
    with DuckDBEngine(memory_limit="64MB", temp_directory=str(tmp_path), threads=1) as engine:
        assert len(list(tmp_path.iterdir())) == 1
        engine.close()
        assert list(tmp_path.iterdir()) == []
    assert list(tmp_path.iterdir()) == []
