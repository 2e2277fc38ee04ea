"""``sql.rank_tables`` hands ``ranked_columns`` the evaluated queries and their judged rows in trec_eval's order
(score descending, as doubles or as 32-bit floats, then document id descending), every integer column as int64
whatever width the engine's SQL gives it (Spark's ``row_number`` is a 32-bit int), and an empty ranking, every
array empty and typed, when no query is evaluated. Run on DuckDB, its integers handed on as Spark hands them."""

import duckdb
import numpy as np
import pytest

from ndcg_core.trec.engines.sql import DUCKDB, rank_tables

QRELS = [("q1", "a", 2), ("q1", "b", 0), ("q1", "c", 1), ("q2", "a", 1), ("q3", "x", 1)]
# a's score equals c's as a 32-bit float (0.5 + 1e-8 is within half of float32's step at 0.5, 2^-25), not as a double
RUN = [
    ("q1", "a", 0.5 + 1e-8),
    ("q1", "b", 0.9),
    ("q1", "c", 0.5),
    ("q1", "d", 0.7),
    ("q2", "z", 1.0),  # unjudged
    ("q4", "a", 1.0),  # a query without a judgment
]


@pytest.fixture
def tables():
    con = duckdb.connect()
    con.execute("CREATE TABLE qrels (qid VARCHAR, docno VARCHAR, rel BIGINT)")
    con.execute("CREATE TABLE run (qid VARCHAR, docno VARCHAR, score DOUBLE)")
    yield con
    con.close()


def fill(con, qrels, run):
    con.executemany("INSERT INTO qrels VALUES (?, ?, ?)", qrels)
    con.executemany("INSERT INTO run VALUES (?, ?, ?)", run)

    def create(name, select):
        con.execute(f"CREATE OR REPLACE TABLE {name} AS {select}")

    def fetch(select):  # integers as 32-bit ints, as Spark's row_number gives them
        columns = con.execute(select).fetchnumpy()
        return {k: v.astype(np.int32) if np.issubdtype(v.dtype, np.integer) else v for k, v in columns.items()}

    return create, fetch


def int64(values):
    assert values.dtype == np.int64
    return values.tolist()


@pytest.mark.parametrize(
    "float32, order",
    [
        (False, [("b", 0), ("a", 2), ("c", 1)]),  # b 0.9, d 0.7 (unjudged), a 0.50000001, c 0.5
        (True, [("b", 0), ("c", 1), ("a", 2)]),  # a and c tie as 32-bit floats: document id descending
    ],
)
@pytest.mark.parametrize("complete", [False, True])
def test_each_query_s_judged_rows_in_trec_eval_order(tables, float32, order, complete):
    ranked = rank_tables(*fill(tables, QRELS, RUN), complete=complete, float32_scores=float32)
    assert ranked.qids == (["q1", "q2", "q3"] if complete else ["q1", "q2"])  # judged; ranked too unless complete
    assert ranked.in_run.dtype == bool
    assert ranked.in_run.tolist() == ([True, True, False] if complete else [True, True])
    slots, grades = ranked.judged
    judged = sorted(zip(int64(slots), int64(grades), strict=True))
    assert judged == ([(0, 0), (0, 1), (0, 2), (1, 1)] + ([(2, 1)] if complete else []))
    slot, position, rel = ranked.ranked
    # q1 ranks b, d, then a and c: the judged ones at positions 0, 2, 3; q2's one document is unjudged
    assert int64(slot) == [0, 0, 0]
    assert int64(position) == [0, 2, 3]
    assert int64(rel) == [grade for _, grade in order]
    assert int64(ranked.retrieved_count) == ([4, 1, 0] if complete else [4, 1])


def test_no_query_evaluated_is_an_empty_ranking(tables):
    ranked = rank_tables(*fill(tables, [("q3", "x", 1)], [("q4", "a", 1.0)]), complete=False, float32_scores=False)
    assert ranked.qids == []
    assert ranked.in_run.dtype == bool and ranked.in_run.shape == (0,)
    for values in (*ranked.judged, *ranked.ranked, ranked.retrieved_count):
        assert values.dtype == np.int64 and values.shape == (0,)


@pytest.mark.parametrize("text", ["it's", "''", "a 'quoted' text", "'"])
def test_duckdb_inlines_a_text_with_quotes_as_itself(text):
    con = duckdb.connect()
    try:
        assert con.execute(f"SELECT {DUCKDB.param('value', text)} AS value").fetchall() == [(text,)]
    finally:
        con.close()
