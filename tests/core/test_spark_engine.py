"""``--engine spark`` prints what the default engine prints, and refuses bad input with the default engine's errors.

Starting Spark and each of its jobs is slow beside these small files, so the conformance runs batched: a sample of
the random collections (tests/data/trec_eval10_random; ``SAMPLED``) and trec_eval's own test files
(tests/data/trec_eval) in one pair of files, each collection's query ids prefixed with its name, ranked by Spark
in one evaluation with -c (the SQL depends only on it and --float32-scores; without -c a collection keeps the
queries its run names); each collection's part is then printed under its own command line and compared with
trec_eval's output. A few whole command lines, bad files and Parquet files go through the command line or the
engine one by one.
"""

import gzip
import io
import sys
from unittest import mock

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from test_duckdb_engine import GOOD_QRELS, GOOD_RUN, SPELLINGS, both, outcome
from test_trec_eval10_random import CASES, DIFFERENCES, run_case
from test_trec_eval_conformance import CASES as TREC_EVAL_CASES
from test_trec_eval_conformance import expected_ndcg_lines
from test_trec_io import BAD_FILES

from ndcg_core import EvaluationOptions, InputError, Scoring
from ndcg_core.trec.cli import evaluation_options, main, parse
from ndcg_core.trec.engines import files
from ndcg_core.trec.engines.sql import Ranked
from ndcg_core.trec.output import format_trec_eval
from ndcg_core.trec.segmented import evaluate_files
from support import TREC


def kind_of(args):
    """What of the command line a random collection's SQL or evaluation could treat apart: the measure (ndcg,
    ndcg_cut's cutoffs, gains given per grade, a negative one among them), -c and -M."""
    measures = [m for option, m in zip(args, args[1:], strict=False) if option == "-m"]
    named = tuple(sorted({"gains" if "=" in m else m for m in measures}))
    return (named, any("=-" in m for m in measures), "-c" in args, "-M" in args)


def sampled(per_kind=2):
    """The first ``per_kind`` random collections of each ``kind_of`` and every deliberate difference.

    Not all 240 through Spark: the SQL that ranks them is written once for DuckDB and Spark (``engines.sql``) and
    what follows it is the default engine's Python, and test_trec_eval10_random runs every collection through the
    DuckDB engine. What only Spark does (its dialect, its reading of the files) meets every measure and option in
    this sample, at a sixth of the cost of all of them.
    """
    kept, seen = set(DIFFERENCES), {}
    for name, case in sorted(CASES.items()):
        kind = kind_of(case["args"])
        if seen.get(kind, 0) < per_kind:
            seen[kind] = seen.get(kind, 0) + 1
            kept.add(name)
    return kept


SAMPLED = sampled()


def collections():
    """The sampled collections and trec_eval's own: name, qrels text, run text, trec_eval's arguments, and the
    lines trec_eval printed."""
    for name, case in sorted(CASES.items()):
        if name not in SAMPLED:
            continue
        expected = None if name in DIFFERENCES else case["stdout"].splitlines()
        yield name, case["qrels"], case["run"], case["args"], expected
    for name, args in sorted(TREC_EVAL_CASES.items()):
        files = [(TREC / a).read_text() for a in args if not a.startswith("-")]
        options = [a for a in args if a.startswith("-")]
        if name != "out.test.meas_params":
            options = ["-m", "ndcg", "-m", "ndcg_cut", *options]
        yield name, files[0], files[1], options, expected_ndcg_lines(name)


def prefixed(text, prefix):
    """TREC text with every query id prefixed: the same order of queries, each named apart from other files'."""
    return "".join(f"{prefix}{line}\n" for line in text.splitlines() if line.strip())


def part(ranked, prefix, complete):
    """The queries of one collection in a batch's ``Ranked`` (ranked with -c), numbered from 0 again, their prefix
    taken off; without ``complete`` (-c), only those its run names, as the SQL without -c keeps."""
    inside = np.array([q.startswith(prefix) and (complete or ranked.in_run[i]) for i, q in enumerate(ranked.qids)])
    slots = np.full(len(inside), -1)
    slots[inside] = np.arange(inside.sum())

    def rows(slot, *columns):
        keep = slots[slot] >= 0
        return (slots[slot[keep]], *(c[keep] for c in columns))

    return Ranked(
        [q[len(prefix) :] for q, keep in zip(ranked.qids, inside, strict=True) if keep],
        ranked.in_run[inside],
        rows(*ranked.judged),
        rows(*ranked.ranked),
        ranked.retrieved_count[inside],
    )


def test_every_collection_prints_what_trec_eval_printed(tmp_path, capsys, spark_engine):
    every = list(collections())
    assert len(every) == len(SAMPLED) + 6
    kinds = {kind_of(case["args"]) for case in CASES.values()}
    assert {kind_of(CASES[name]["args"]) for name in SAMPLED} == kinds and len(kinds) >= 12  # each kind is here
    (tmp_path / "qrels").write_text("".join(prefixed(c[1], f"{c[0]}.") for c in every))
    (tmp_path / "run").write_text("".join(prefixed(c[2], f"{c[0]}.") for c in every))
    ranked = spark_engine.rank_files(str(tmp_path / "qrels"), str(tmp_path / "run"), True, False)
    printed = {}
    for name, _, _, args, _ in every:
        parsed, measures = parse([*args, "qrels", "run"])
        options = evaluation_options(parsed, measures)
        evaluation = part(ranked, f"{name}.", parsed.c).evaluation(options, "qrels", "run", "", engine="spark")
        printed[name] = format_trec_eval(evaluation, measures, per_query=parsed.q).splitlines()
    for name, *_, expected in every:
        if expected is not None:
            assert printed[name] == expected, name
    for name in DIFFERENCES:  # where this project differs from trec_eval on purpose, it prints the default engine's
        status, out, _ = run_case(CASES[name], tmp_path, capsys)
        assert status == 0 and printed[name] == out.splitlines()


def test_whole_command_lines_print_what_the_default_engine_prints(tmp_path, monkeypatch, capsys, spark_engine):
    trec_eval = ["-q", "-c", "-M", "100", str(TREC / "qrels.test"), str(TREC / "results.trunc")]
    float32 = ["-q", "--float32-scores", "-m", "ndcg.1=3,2=9", str(TREC / "qrels.rel_level"), "-"]
    for args in (trec_eval, float32):
        printed = []
        for engine in ("numpy", "spark"):
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((TREC / "results.test").read_bytes())))
            assert main([*args, "--engine", engine], engine=spark_engine) == 0
            printed.append(capsys.readouterr().out)
        assert printed[0] == printed[1] and printed[0].count("\n") > 3


# The bad files whose problem Spark's SQL finds (a short line, a bad grade, a duplicate, only blanks, a short CSV
# line), and those refused before Spark reads them (empty, NUL, not UTF-8, not gzip, a CSV header without rel).
THROUGH_SPARK = {0, 1, 5, 11, 17}
BEFORE_SPARK = {10, 13, 14, 15, 16}


@pytest.mark.parametrize("index", sorted(THROUGH_SPARK | BEFORE_SPARK))
def test_a_bad_file_gets_the_default_engines_error(tmp_path, spark_engine, index):
    reader, text, message = BAD_FILES[index]
    bad_qrels = reader.__name__ == "read_qrels"
    qrels, run = (text, GOOD_RUN) if bad_qrels else (GOOD_QRELS, text)
    default, spark = both(tmp_path, spark_engine, qrels, run)
    assert default[0] == "error"
    assert message.replace("f.txt", str(tmp_path / ("qrels" if bad_qrels else "run"))) in default[2]
    assert spark == default


def test_tabs_crlf_csv_gzip_and_swapped_files_come_out_the_same(tmp_path, spark_engine, monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("read by the default reader")

    monkeypatch.setattr(files, "read_run", refused)  # clean files: Spark reads them alone
    monkeypatch.setattr(files, "read_qrels", refused)
    qrels = SPELLINGS["tabs and blanks"][0] + b"q 0 c 1\r\n"
    run = gzip.compress(SPELLINGS["tabs and blanks"][1] + b"q Q0 c 3 0.5 t\r\n")
    default, spark = both(tmp_path, spark_engine, qrels, run)
    assert default[0] == "ok" and spark == default
    default, spark = both(tmp_path, spark_engine, *SPELLINGS["csv"])
    assert default[0] == "ok" and spark == default
    monkeypatch.undo()
    default, spark = both(tmp_path, spark_engine, GOOD_RUN, GOOD_QRELS)
    assert default[1] == "files.swapped" and spark == default


@pytest.mark.parametrize("spelling", ["numbers pyarrow takes", "numbers only DuckDB takes", "tsv with ranks"])
def test_numbers_as_the_default_reader_takes_them_come_out_the_same(tmp_path, spark_engine, spelling):
    # Spark's own casts take a few spellings the default reader refuses, and the other way round.
    default, spark = both(tmp_path, spark_engine, *SPELLINGS[spelling])
    assert spark == default


def test_ids_are_ordered_by_their_utf8_bytes_as_trec_eval_orders_them(tmp_path, spark_engine):
    # U+FF61 sorts before U+1F600 by bytes (and code points) and after it in UTF-16, Java's own string order.
    low, high = "\uff61", "\U0001f600"
    qrels = f"{low} 0 {low} 1\n{low} 0 {high} 2\n{high} 0 {low} 0\n{high} 0 {high} 3\n".encode()
    run = f"{low} Q0 {low} 1 1 t\n{low} Q0 {high} 2 1 t\n{high} Q0 {high} 1 1 t\n{high} Q0 {low} 2 1 t\n".encode()
    options = EvaluationOptions(cutoffs=(1,))
    default, spark = both(tmp_path, spark_engine, qrels, run, options)
    assert default[0] == "ok" and default[1] == [low, high] and spark == default


@pytest.mark.parametrize("float32", [False, True])
def test_scores_tie_as_the_default_engine_ties_them_at_the_edges_of_float32(tmp_path, spark_engine, float32):
    top = float(np.finfo(np.float32).max)
    to_infinity = 2.0**128 - 2.0**103  # the least double that rounds to a float32 infinity
    scores = [top, float(np.nextafter(top, np.inf)), float(np.nextafter(to_infinity, 0)), to_infinity, 1e300, np.inf]
    scores += [0.0, -0.0]
    scores += [-s for s in scores[:6]] + [1.0000000001, 1.0000000002]
    run = "".join(f"q Q0 d{i} 0 {s!r} t\n" for i, s in enumerate(scores)).encode()
    qrels = "".join(f"q 0 d{i} {i % 4}\n" for i in range(len(scores))).encode()
    options = EvaluationOptions(Scoring(float32_scores=float32), cutoffs=tuple(range(1, len(scores) + 1)))
    default, spark = both(tmp_path, spark_engine, qrels, run, options)
    assert default[0] == "ok" and spark == default


def parquet(path, **columns):
    pq.write_table(pa.table(columns), path)
    return str(path)


def test_parquet_is_read_as_the_same_rows_in_text_and_a_bad_one_gets_the_duckdb_engines_code(tmp_path, spark_engine):
    qrels = parquet(tmp_path / "qrels.parquet", Topic=["q", "q", "r"], docid=[1, 2, 1], label=[1, 2, 1])
    ranks = parquet(tmp_path / "ranks.parquet", qid=["q", "q", "r"], docno=[2, 1, 1], rank=[2, 1, 1])
    (tmp_path / "qrels.txt").write_bytes(b"q 0 1 1\nq 0 2 2\nr 0 1 1\n")
    (tmp_path / "run.txt").write_bytes(b"q Q0 2 2 -2 t\nq Q0 1 1 -1 t\nr Q0 1 1 -1 t\n")
    expected = outcome(evaluate_files, str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), None)
    assert expected[0] == "ok"
    assert outcome(spark_engine.evaluate_files, qrels, ranks, None)[:3] == expected[:3]
    twice = parquet(tmp_path / "twice.parquet", qid=["q", "q", "q"], docno=["a", "b", "a"], score=[1.0, 2.0, 3.0])
    empty = parquet(tmp_path / "empty.parquet", qid=["q", "q"], docno=["a", "b"], score=[1.0, None])
    for bad, code in [(twice, "run.duplicate"), (empty, "run.score_nan")]:
        with pytest.raises(InputError) as caught:
            spark_engine.evaluate_files(qrels, bad)
        assert caught.value.code == code and f"line {2 if bad == empty else 3} of" in str(caught.value)


def test_tie_policies_other_than_trec_eval_need_the_default_engine(capsys, spark_engine):
    args = ["--engine", "spark", "--ties", "average", str(TREC / "qrels.test"), str(TREC / "results.test")]
    assert main(args, engine=spark_engine) == 2
    assert "--engine spark orders tied scores as trec_eval does; --ties average" in capsys.readouterr().err


def test_without_pyspark_the_command_line_says_what_to_install(capsys):
    with mock.patch.dict(sys.modules, {"pyspark.testing.utils": None, "pyspark.sql": None}):
        assert main(["--engine", "spark", str(TREC / "qrels.test"), str(TREC / "results.test")]) == 2
    err = capsys.readouterr().err
    assert err == "ndcg-lab-eval: --engine spark needs the Python package pyspark: pip install 'ndcg-lab[spark]'\n"


def test_when_spark_cannot_start_the_command_line_says_why_in_one_line(capsys):
    from pyspark.errors import PySparkRuntimeError
    from pyspark.sql import SparkSession

    failed = PySparkRuntimeError("[JAVA_GATEWAY_EXITED] Java gateway process exited before sending its port number.")
    with mock.patch.object(type(SparkSession.builder), "getOrCreate", side_effect=failed):
        status = main(
            [
                "--engine",
                "spark",
                "--spark-master",
                "spark://nowhere:7077",
                str(TREC / "qrels.test"),
                str(TREC / "results.test"),
            ]
        )
    assert status == 2
    assert capsys.readouterr().err == (
        "ndcg-lab-eval: Spark did not start on spark://nowhere:7077 ([JAVA_GATEWAY_EXITED] Java gateway process "
        "exited before sending its port number.); --engine spark needs Java 17 or later\n"
    )
