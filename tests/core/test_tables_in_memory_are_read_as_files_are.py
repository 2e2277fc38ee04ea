"""Qrels and runs from a pandas DataFrame or a pyarrow Table (``Qrels.from_frame``, ``Run.from_frame``): the same
values as the same rows read from a file, integer and string ids alike, and bad rows refused with the files' codes."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from ndcg_core import Qrels, Run, evaluate
from ndcg_core.errors import InputError
from ndcg_core.trec.readers import read_qrels, read_run
from support import DATA

TREC = DATA / "trec_eval"


def frame_of_file(path, kind):
    """The file's rows as a DataFrame, read by pandas itself (whitespace-separated), not by the code under test."""
    names = ["query", "iter", "doc", "grade"] if kind == "qrels" else ["query", "q0", "doc", "rank", "score", "tag"]
    return pd.read_csv(path, sep=r"\s+", header=None, names=names, dtype={"query": str, "doc": str})


@pytest.mark.parametrize("make", [lambda df: df, lambda df: pa.Table.from_pandas(df, preserve_index=False)])
def test_a_frame_evaluates_as_its_file_does(make):
    qrels_file, run_file = TREC / "qrels.test", TREC / "results.test"
    qrels = Qrels.from_frame(make(frame_of_file(qrels_file, "qrels")))
    run = Run.from_frame(make(frame_of_file(run_file, "run")))
    from_files = evaluate(read_qrels(str(qrels_file)), read_run(str(run_file)))
    from_frames = evaluate(qrels, run)
    assert from_frames.qids == from_files.qids
    for column, values in from_files.columns.items():
        assert from_frames.columns[column].tolist() == values.tolist(), column


def test_integer_ids_are_their_decimal_text():
    qrels = Qrels.from_frame(pd.DataFrame({"q": [7, 7], "d": [10, 11], "g": [1, 2]}), query="q", doc="d", grade="g")
    run = Run.from_frame(pd.DataFrame({"query": [7, 7], "doc": [11, 10], "score": [2.0, 1.0]}))
    assert qrels.qid.to_pylist() == ["7", "7"] and run.docno.to_pylist() == ["11", "10"]
    assert evaluate(qrels, run).columns["ndcg"][0] == 1.0  # 11 (grade 2) first: the ideal order


def test_pandas_string_dtypes_are_read():
    frame = pd.DataFrame({"query": pd.array(["q1", "q1"], dtype="string"), "doc": ["a", "b"], "score": [1.0, 0.5]})
    assert Run.from_frame(frame).qid.to_pylist() == ["q1", "q1"]


@pytest.mark.parametrize(
    "frame, code",
    [
        (pd.DataFrame({"query": ["q", "q"], "doc": ["a", "a"], "score": [1.0, 2.0]}), "run.duplicate"),
        (pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [1.0, np.nan]}), "run.score_nan"),
        (pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": ["x", "y"]}), "run.score_not_number"),
        (pd.DataFrame({"query": ["q", None], "doc": ["a", "b"], "score": [1.0, 2.0]}), "frame.null"),
        (pd.DataFrame({"query": [1.5, 2.5], "doc": ["a", "b"], "score": [1.0, 2.0]}), "frame.id_type"),
        (pd.DataFrame({"qid": ["q"], "doc": ["a"], "score": [1.0]}), "frame.column"),
        ([("q", "a", 1.0)], "frame.not_table"),
    ],
)
def test_bad_runs_are_refused_with_the_files_codes(frame, code):
    with pytest.raises(InputError) as refused:
        Run.from_frame(frame)
    assert refused.value.code == code


def test_a_bad_row_is_named_by_its_row():
    with pytest.raises(InputError) as refused:
        Run.from_frame(pd.DataFrame({"query": ["q", "q", "q"], "doc": ["a", "b", "a"], "score": [3.0, 2.0, 1.0]}))
    assert str(refused.value).startswith("row 3 of DataFrame: document 'a' of query 'q' is retrieved twice")


@pytest.mark.parametrize(
    "grades, code",
    [
        ([1, 1.5], "qrels.grade_not_whole"),
        (["1", "2"], "qrels.grade_not_number"),
        ([1, 2**60], "qrels.grade_too_large"),
    ],
)
def test_bad_grades_are_refused_with_the_files_codes(grades, code):
    with pytest.raises(InputError) as refused:
        Qrels.from_frame(pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "grade": grades}))
    assert refused.value.code == code
