"""``--engine duckdb`` prints what the default engine prints, and refuses bad input with the default engine's errors.

The conformance of both engines with trec_eval's own outputs is in test_trec_eval_conformance.py and
test_trec_eval10_random.py (their ``eval_main`` fixture runs each case through both engines).
"""

import gzip
import io
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_trec_io import BAD_FILES

from ndcg_core import EvaluationOptions, InputError, Scoring
from ndcg_core.trec.cli import main
from ndcg_core.trec.engines import files
from ndcg_core.trec.engines.duckdb_sql import DuckDBEngine
from ndcg_core.trec.segmented import evaluate_files
from support import TREC
from trec_files import file_pairs, garbled

GOOD_QRELS = b"q 0 a 1\nq 0 b 2\n"
GOOD_RUN = b"q Q0 a 1 1.5 t\nq Q0 b 2 0.5 t\n"


def outcome(evaluate, qrels, run, options):
    """What an engine makes of two files: its evaluation's query ids and columns, or its error's code and text."""
    try:
        result = evaluate(qrels, run, options)
    except InputError as err:
        return ("error", err.code, str(err))
    return ("ok", result.qids, {name: values.tolist() for name, values in result.columns.items()}, result.tag)


def both(tmp_path, engine, qrels, run, options=None):
    (tmp_path / "qrels").write_bytes(qrels)
    (tmp_path / "run").write_bytes(run)
    paths = str(tmp_path / "qrels"), str(tmp_path / "run")
    return outcome(evaluate_files, *paths, options), outcome(engine.evaluate_files, *paths, options)


@pytest.mark.parametrize("reader, text, message", BAD_FILES)
def test_a_bad_file_gets_the_default_engines_error(tmp_path, duckdb_engine, reader, text, message):
    bad_qrels = reader.__name__ == "read_qrels"
    qrels, run = (text, GOOD_RUN) if bad_qrels else (GOOD_QRELS, text)
    default, duck = both(tmp_path, duckdb_engine, qrels, run)
    assert (
        default[0] == "error"
        and message.replace("f.txt", str(tmp_path / ("qrels" if bad_qrels else "run"))) in default[2]
    )
    assert duck == default


def test_files_sharing_no_query_or_swapped_get_the_default_engines_error(tmp_path, duckdb_engine):
    for qrels, run in [(b"1 0 a 1\n", b"2 Q0 a 1 1 s\n"), (GOOD_RUN, GOOD_QRELS)]:
        default, duck = both(tmp_path, duckdb_engine, qrels, run)
        assert default[0] == "error" and duck == default


OPTIONS = st.builds(
    EvaluationOptions,
    scoring=st.builds(
        Scoring,
        gain=st.sampled_from(["linear", "exponential"]),
        ideal=st.sampled_from(["pool", "list"]),
        float32_scores=st.booleans(),
    ),
    cutoffs=st.sampled_from([(1, 3, 10), (2,)]),
    full_gain=st.sampled_from([None, ((1, 3.0), (2, 9.0))]),
    complete=st.booleans(),
    max_docs=st.sampled_from([None, 1, 3]),
)


@settings(max_examples=80, deadline=None)
@given(pair=file_pairs(), options=OPTIONS)
def test_valid_and_near_valid_files_come_out_the_same(tmp_path_factory, duckdb_engine, pair, options):
    _, qrels, run = pair
    default, duck = both(tmp_path_factory.mktemp("pair"), duckdb_engine, qrels, run, options)
    assert duck == default


@settings(max_examples=80, deadline=None)
@given(qrels=garbled("qrels"), run=garbled("run"))
def test_garbled_files_come_out_the_same(tmp_path_factory, duckdb_engine, qrels, run):
    default, duck = both(tmp_path_factory.mktemp("garbled"), duckdb_engine, qrels, run)
    assert duck == default


def test_a_run_for_the_default_reader_after_qrels_duckdb_read_comes_out_the_same(tmp_path, duckdb_engine):
    # DuckDB 2 refuses a statement while an earlier result is not fetched to its end (hypothesis found it: the
    # qrels' check read with fetchone, then the run's lone carriage return sent it to the default reader).
    default, duck = both(tmp_path, duckdb_engine, GOOD_QRELS, b"q\rx Q0 a 1 1.5 t\n")
    assert duck == default


def test_a_run_not_utf8_in_a_column_duckdb_never_reads_gets_the_default_engines_error(tmp_path, duckdb_engine):
    # Hypothesis found it: DuckDB checks UTF-8 only in the columns a query reads, and "Q0" is read by nobody.
    default, duck = both(tmp_path, duckdb_engine, b" q 0 q 0", b"q \xffQ0 q 1 0.0 q")
    assert default[0] == "error" and duck == default


@pytest.mark.parametrize("float32", [False, True])
def test_scores_tie_as_the_default_engine_ties_them_at_the_edges_of_float32(tmp_path, duckdb_engine, float32):
    top = float(np.finfo(np.float32).max)
    to_infinity = 2.0**128 - 2.0**103  # the least double that rounds to a float32 infinity
    scores = [top, float(np.nextafter(top, np.inf)), float(np.nextafter(to_infinity, 0)), to_infinity, 1e300, np.inf]
    scores += [0.0, -0.0]
    scores += [-s for s in scores[:6]] + [1.0000000001, 1.0000000002]
    run = "".join(f"q Q0 d{i} 0 {s!r} t\n" for i, s in enumerate(scores)).encode()
    qrels = "".join(f"q 0 d{i} {i % 4}\n" for i in range(len(scores))).encode()
    options = EvaluationOptions(Scoring(float32_scores=float32), cutoffs=tuple(range(1, len(scores) + 1)))
    default, duck = both(tmp_path, duckdb_engine, qrels, run, options)
    assert default[0] == "ok" and duck == default


SPELLINGS = {
    "tabs and blanks": (b"q\t0\ta\t1\n\n# c\n q 0 b 2 \n", b"q\tQ0\ta\t1\t1.5\tt\n  q Q0 b 2 0.5 t x\n"),
    "crlf": (b"q 0 a 1\r\nq 0 b 2\r\n", b"q Q0 a 1 1.5 t\r\nq Q0 b 2 0.5 t\r\n"),
    "csv": (b"qid,docno,rel\nq,a,1\n# c\nq,b,2\n", b'query,doc,score\n"q",a,1.5\nq , b ,0.5\n'),
    "tsv with ranks": (b"qid\tdocno\trel\nq\ta\t1\nq\tb\t2\n", b"qid\tdocno\trank\nq\tb\t1\nq\ta\t2\n"),
    "numbers pyarrow takes": (b"q 0 a +1\nq 0 b 2.\n", b"q Q0 a 1 1e400 t\nq Q0 b 2 -Infinity t\nq Q0 c 3 .5 t\n"),
    "numbers only DuckDB takes": (GOOD_QRELS, b"q Q0 a 1 +-1 t\n"),
    "csv with a score and a rank that disagree": (GOOD_QRELS, b"qid,docno,score,rank\nq,a,1.5,2\nq,b,0.5,1\n"),
}


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_every_spelling_the_default_reader_takes_comes_out_the_same(tmp_path, duckdb_engine, spelling):
    qrels, run = SPELLINGS[spelling]
    for compress in (False, True):
        default, duck = both(tmp_path, duckdb_engine, *(gzip.compress(d) if compress else d for d in (qrels, run)))
        assert duck == default


@pytest.mark.parametrize("spelling", ["tabs and blanks", "crlf", "csv", "tsv with ranks"])
def test_a_good_file_is_read_by_duckdb_alone(tmp_path, duckdb_engine, monkeypatch, spelling):
    def refused(*args, **kwargs):
        raise AssertionError("read by the default reader")

    (tmp_path / "qrels").write_bytes(SPELLINGS[spelling][0])
    (tmp_path / "run").write_bytes(SPELLINGS[spelling][1])
    paths = str(tmp_path / "qrels"), str(tmp_path / "run")
    expected = outcome(evaluate_files, *paths, None)
    monkeypatch.setattr(files, "read_run", refused)
    monkeypatch.setattr(files, "read_qrels", refused)
    assert outcome(duckdb_engine.evaluate_files, *paths, None) == expected


def parquet(path, **columns):
    pq.write_table(pa.table(columns), path)
    return str(path)


def test_parquet_is_read_as_the_same_rows_in_text(tmp_path, duckdb_engine):
    qrels = parquet(tmp_path / "qrels.parquet", topic=["q", "q", "r"], docid=["a", "b", "a"], label=[1, 2, 1])
    run = parquet(tmp_path / "run.parquet", qid=["q", "q", "r"], docno=["b", "a", "a"], score=[0.5, 1.5, 0.0])
    ranks = parquet(tmp_path / "ranks.parquet", qid=["q", "q", "r"], docno=["b", "a", "a"], rank=[2, 1, 1])
    (tmp_path / "qrels.txt").write_bytes(b"q 0 a 1\nq 0 b 2\nr 0 a 1\n")
    (tmp_path / "run.txt").write_bytes(b"q Q0 b 2 0.5 t\nq Q0 a 1 1.5 t\nr Q0 a 1 0 t\n")
    expected = outcome(evaluate_files, str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), None)
    assert outcome(duckdb_engine.evaluate_files, qrels, run, None)[:3] == expected[:3]
    assert outcome(duckdb_engine.evaluate_files, qrels, ranks, None)[:3] == expected[:3]


@pytest.mark.parametrize(
    "columns, code, message",
    [
        ({"qid": ["q"], "docno": ["a"]}, "run.header_missing", "the header has no score column"),
        ({"qid": ["q", "q"], "docno": ["a", "b"], "score": [1.0, float("nan")]}, "run.score_nan", "line 2 of"),
        ({"qid": ["q", "q", "q"], "docno": ["a", "b", "a"], "score": [1.0, 2.0, 3.0]}, "run.duplicate", "line 3 of"),
        ({"qid": ["q", ""], "docno": ["a", "b"], "score": [1.0, 2.0]}, "csv.field_empty", "line 2 of"),
        ({"qid": pa.array([], pa.string()), "docno": pa.array([], pa.string()), "score": []}, "run.header_only", ""),
    ],
)
def test_a_bad_parquet_run_is_refused_with_the_codes_of_a_bad_csv(tmp_path, duckdb_engine, columns, code, message):
    (tmp_path / "qrels").write_bytes(GOOD_QRELS)
    run = parquet(tmp_path / "run.parquet", **columns)
    with pytest.raises(InputError) as caught:
        duckdb_engine.evaluate_files(str(tmp_path / "qrels"), run)
    assert caught.value.code == code and message in str(caught.value)


def test_the_command_line_takes_the_engine_and_the_run_from_standard_input(tmp_path, monkeypatch, capsys):
    (tmp_path / "qrels").write_bytes((TREC / "qrels.test").read_bytes())
    args = ["-q", "-c", "-M", "50", str(tmp_path / "qrels"), "-"]
    printed = []
    for engine in ("numpy", "duckdb"):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((TREC / "results.test").read_bytes())))
        assert main([*args, "--engine", engine]) == 0
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1] and printed[0].count("\n") > 30


def test_tie_policies_other_than_trec_eval_need_the_default_engine(capsys):
    status = main(["--engine", "duckdb", "--ties", "average", str(TREC / "qrels.test"), str(TREC / "results.test")])
    assert status == 2
    assert "--engine duckdb orders tied scores as trec_eval does; --ties average" in capsys.readouterr().err


def test_duckdb_keeps_to_its_memory_limit_and_spills_into_its_own_folder_removed_on_close(tmp_path):
    engine = DuckDBEngine(memory_limit="300MB", temp_directory=str(tmp_path))
    limit, spill = engine._sql("SELECT current_setting('memory_limit'), current_setting('temp_directory')").fetchone()
    assert limit == "286.1 MiB"  # DuckDB shows 300 MB in MiB
    assert spill.startswith(str(tmp_path / "ndcg-duckdb-"))
    engine.close()
    assert list(tmp_path.iterdir()) == []
