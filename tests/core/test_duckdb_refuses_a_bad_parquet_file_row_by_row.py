"""``--engine duckdb`` reads Parquet (which the default reader cannot) under the column names a CSV header may use,
and refuses a bad file with the codes and messages of a bad CSV, the row number as the line; a damaged file gets
the default engine's own error. What the messages say is errors.py's templates, filled in by hand here."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ndcg_core import InputError
from ndcg_core.trec.segmented import evaluate_files

QRELS = b"q 0 a 1\nq 0 b 2\n"
RUN = b"q Q0 a 1 1.5 t\nq Q0 b 2 0.5 t\n"
NOT_WHOLE = "is not a whole number (TREC grades are integers such as 0, 1, 2; -1 marks judged but unusable)"

BAD = {
    "qrels without rows": (
        "qrels",
        {"qid": pa.array([], pa.string()), "docno": pa.array([], pa.string()), "rel": pa.array([], pa.int64())},
        "{file} has a header but no judgments",
    ),
    "qrels without a grade": (
        "qrels",
        {"qid": ["q"], "docid": ["a"]},
        "line 1 of {file}: the header has no rel column for the judgments (looked for rel, relevance, grade, label, "
        "judgment, judgement; found qid, docid)",
    ),
    "qrels with an empty document": (
        "qrels",
        {"qid": ["q", "q"], "docno": ["a", ""], "rel": [1, 2]},
        "line 2 of {file}: the docno is empty",
    ),
    "a run with an empty query": (
        "run",
        {"qid": ["q", None], "docno": ["a", "b"], "score": [1.0, 2.0]},
        "line 2 of {file}: the qid is empty",
    ),
    "qrels with a grade not whole": (
        "qrels",
        {"qid": ["q", "q", "q"], "docno": ["a", "b", "c"], "rel": [1.0, 2.0, 1.5]},
        f"line 3 of {{file}}: grade 1.5 {NOT_WHOLE}",
    ),
    "a run with a rank not finite": (
        "run",
        {"qid": ["q", "q"], "docno": ["a", "b"], "rank": [1.0, float("inf")]},
        "line 2 of {file}: rank inf is not a finite number",
    ),
    "qrels judging a document twice": (
        "qrels",
        {"qid": ["q", "r", "q", "q"], "docno": ["a", "a", "b", "a"], "rel": [1, 1, 0, 2]},
        "line 4 of {file}: document 'a' of query 'q' is judged twice (first on line 1)",
    ),
}


def parquet(path, columns):
    pq.write_table(pa.table(columns), path)
    return str(path)


def written(path, data):
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_parquet_file_is_refused_with_its_message(tmp_path, duckdb_engine, case):
    kind, columns, message = BAD[case]
    bad = parquet(tmp_path / f"{kind}.parquet", columns)
    qrels, run = (bad, written(tmp_path / "run", RUN)) if kind == "qrels" else (written(tmp_path / "qrels", QRELS), bad)
    with pytest.raises(InputError) as refused:
        duckdb_engine.evaluate_files(qrels, run)
    assert str(refused.value) == message.format(file=bad)


def test_a_run_with_a_score_and_a_rank_is_ranked_by_its_score_and_qrels_keep_their_grades(tmp_path, duckdb_engine):
    # Scores put b (grade 2) first: the ideal order, NDCG 1; the ranks, and grades read as negated ranks, would not.
    qrels = parquet(tmp_path / "qrels.parquet", {"qid": ["q", "q"], "docno": ["a", "b"], "rel": [1, 2], "rank": [1, 2]})
    run = parquet(
        tmp_path / "run.parquet", {"qid": ["q", "q"], "docno": ["a", "b"], "score": [1.0, 2.0], "rank": [1, 2]}
    )
    assert duckdb_engine.evaluate_files(qrels, run).columns["ndcg"].tolist() == [1.0]


def test_a_damaged_parquet_file_gets_the_default_engines_error(tmp_path, duckdb_engine):
    whole = parquet(tmp_path / "whole.parquet", {"qid": ["q", "q"], "docno": ["a", "b"], "score": [1.0, 2.0]})
    cut = written(tmp_path / "cut.parquet", (tmp_path / "whole.parquet").read_bytes()[:100])
    qrels = written(tmp_path / "qrels", QRELS)
    with pytest.raises(InputError) as default:
        evaluate_files(qrels, cut)
    with pytest.raises(InputError) as duck:
        duckdb_engine.evaluate_files(qrels, cut)
    assert (duck.value.code, str(duck.value)) == (default.value.code, str(default.value))
    assert duckdb_engine.evaluate_files(qrels, whole).columns["ndcg"].tolist() == [1.0]
