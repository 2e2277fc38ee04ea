"""``sql.rank_tables`` (and so ``SqlRankings.in_run``) says which evaluated queries the run names as a boolean mask,
whatever an engine's SQL gives a boolean as: an engine without a boolean type gives 0 and 1, which as an index
array would pick rows by number instead of keeping those the run names. Run on DuckDB, its booleans handed on as
such an engine hands them."""

import duckdb
import numpy as np
import pytest

from ndcg_core.trec.engines.sql import SqlRankings, rank_tables

QRELS = [("q1", "a", 1), ("q2", "b", 1), ("q3", "c", 1)]
RUN = [("q2", "b", 1.0), ("q3", "x", 0.5)]  # q1 is judged only: left out of the run
NAMED = [False, True, True]  # q1, q2, q3 in trec_eval's order


@pytest.fixture
def engine():
    con = duckdb.connect()
    con.execute("CREATE TABLE qrels (qid VARCHAR, docno VARCHAR, rel BIGINT)")
    con.execute("CREATE TABLE run (qid VARCHAR, docno VARCHAR, score DOUBLE)")
    con.executemany("INSERT INTO qrels VALUES (?, ?, ?)", QRELS)
    con.executemany("INSERT INTO run VALUES (?, ?, ?)", RUN)

    def create(name, select):
        con.execute(f"CREATE OR REPLACE TABLE {name} AS {select}")

    def fetch(select):  # booleans as 0 and 1
        columns = con.execute(select).fetchnumpy()
        return {k: v.astype(np.int8) if v.dtype == bool else v for k, v in columns.items()}

    yield create, fetch
    con.close()


def test_rank_tables_gives_a_mask_of_the_queries_the_run_names(engine):
    ranked = rank_tables(*engine, complete=True, float32_scores=False)
    assert ranked.qids == ["q1", "q2", "q3"]
    assert ranked.in_run.dtype == bool
    assert ranked.in_run.tolist() == NAMED
    assert np.array(ranked.qids)[ranked.in_run].tolist() == ["q2", "q3"]


def test_an_explanations_rankings_give_the_same_mask(engine):
    create, fetch = engine
    rankings = SqlRankings(create, fetch, row="rowid", engine="duckdb")
    assert rankings.in_run.dtype == bool
    assert rankings.in_run.tolist() == NAMED
