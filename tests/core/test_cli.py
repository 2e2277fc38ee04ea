"""The command line (``ndcg_core.trec.cli``): its help, how it refuses bad options, the options it passes on,
standard input, and the process around ``main``. Its numbers are trec_eval's: see test_trec_eval_conformance.py."""

import io
import os

import pytest

from ndcg_core.trec import cli

# --- help, bad options, the options passed on, standard input, the process ------------------------------------------

# Expected NDCGs are worked out in comments from the few judgments written here.

# q1: d1 graded 1, d2 graded 0, d3 graded 2 and not retrieved; d1 and d2 tie on score 1.0.
QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\n"
RUN = "q1 Q0 d1 1 1.0 t\nq1 Q0 d2 2 1.0 t\n"

HELP = """\
usage: ndcg-lab-eval [-h] [-q] [-c] [-M N] [-J] [-m MEASURE] [-l LEVEL] [--float32-scores]
                     [--gain {linear,exponential}] [--ties {trec_eval,average,best,worst,file}]
                     [--ideal {qrels,run}] [--explain VALUE] [--engine {numpy,duckdb,spark}]
                     [--spark-master URL]
                     QRELS RUN

NDCG of a TREC run against TREC qrels, printed as trec_eval 10.0 prints it.

positional arguments:
  QRELS                 TREC qrels file (qid iter docno rel), CSV/TSV with a header, or .gz
  RUN                   TREC run file (qid Q0 docno rank score tag), CSV/TSV with a header, or
                        .gz; - reads standard input

options:
  -h, --help            show this help message and exit
  -q                    print each query's values before the 'all' line
  -c                    count judged queries missing from the run as 0 (without -c they are left
                        out)
  -M N                  keep only the first N documents of each ranking
  -J                    score only judged documents: those the qrels do not grade (or grade below
                        0) leave each ranking, the rest moving up, after -M's cut (as trec_eval
                        -J, ir_measures' judged_only)
  -m MEASURE            a measure (see the list below); may repeat
  -l LEVEL              accepted for trec_eval compatibility; NDCG does not depend on it
  --float32-scores      compare scores as 32-bit floats, as trec_eval 9.x and pytrec_eval do
                        (default: as doubles, as trec_eval 10.0)
  --gain {linear,exponential}
                        gain applied to every grade (default: linear, as trec_eval)
  --ties {trec_eval,average,best,worst,file}
                        how equal scores are ordered (default: trec_eval's docno order)
  --ideal {qrels,run}   ideal ranking from every judged document (default) or from the run only
  --explain VALUE       instead of evaluating, list the conventions and tools that give VALUE (the
                        number another tool printed, to its printed precision) for the one measure
                        -m names
  --engine {numpy,duckdb,spark}
                        numpy: in memory (default); duckdb: out of core with DuckDB, for runs
                        larger than memory; spark: on Apache Spark, here or on a cluster (needs
                        pyspark and Java 17+); duckdb and spark also read Parquet and take --ties
                        trec_eval only
  --spark-master URL    with --engine spark: the Spark master to run on (default: local[*], every
                        core here); the files must be at the same path on every executor

measures (-m MEASURE, may repeat; without -m: ndcg and ndcg_cut):
  ndcg                  NDCG of the whole ranking
  ndcg.LEVEL=GAIN,...   ndcg with a gain per grade, as ndcg.1=3,2=9
  ndcg_cut              NDCG@k for k = 5,10,15,20,30,100,200,500,1000
  ndcg_cut.K,...        NDCG@k for the cutoffs given, as ndcg_cut.5,10
  all_trec              ndcg and ndcg_cut: trec_eval's all_trec, its NDCG part

Scores are compared as doubles, as trec_eval 10.0 does; --float32-scores
compares them as 32-bit floats, as trec_eval 9.x and pytrec_eval do.
RUN may be - to read the run from standard input. The options from --gain
on change the convention and are off by default.
"""


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


def test_the_help_as_printed(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "100")
    assert cli.main(["--help"]) == 0
    assert capsys.readouterr().out == HELP


@pytest.mark.parametrize(
    "args, message",
    [
        (["-M", "2.5"], "argument -M: invalid int value: '2.5'"),
        (["-l", "x"], "argument -l: invalid int value: 'x'"),
        (["--gain", "custom"], "argument --gain: invalid choice: 'custom' (choose from 'linear', 'exponential')"),
        (
            ["--ties", "bogus"],
            "argument --ties: invalid choice: 'bogus' (choose from 'trec_eval', 'average', 'best', 'worst', 'file')",
        ),
        (["--ideal", "x"], "argument --ideal: invalid choice: 'x' (choose from 'qrels', 'run')"),
    ],
)
def test_a_bad_option_is_one_line_and_status_2(files, capsys, args, message):
    assert cli.main([*args, *files]) == 2
    assert capsys.readouterr().err == f"ndcg-lab-eval: {message} (see --help)\n"


def test_the_ties_and_ideal_options_reach_the_evaluation(files, capsys):
    # Best tie order: d1 (1) first; the ideal's first is d3 (2) from the qrels, d1 (1) from the run.
    assert cli.main(["-m", "ndcg_cut.1", "--ties", "best", *files]) == 0
    assert capsys.readouterr().out == "ndcg_cut_1            \tall\t0.5000\n"
    assert cli.main(["-m", "ndcg_cut.1", "--ties", "best", "--ideal", "run", *files]) == 0
    assert capsys.readouterr().out == "ndcg_cut_1            \tall\t1.0000\n"
    assert cli.main(["-m", "ndcg_cut.1", *files]) == 0  # trec_eval's order: d2 (0) first
    assert capsys.readouterr().out == "ndcg_cut_1            \tall\t0.0000\n"


def test_a_gain_per_grade_and_another_gain_are_refused(files, capsys):
    assert cli.main(["-m", "ndcg.1=3", "--gain", "exponential", *files]) == 2
    assert capsys.readouterr().err == (
        "ndcg-lab-eval: --gain cannot be combined with a custom gain per grade (ndcg.LEVEL=GAIN)\n"
    )


def test_a_message_of_several_lines_is_printed_on_one(tmp_path, files, capsys):
    bad = tmp_path / "bad"
    bad.write_text("q1 Q0 d1 1 x t\nq1 Q0 d2 2 y t\n")
    assert cli.main([files[0], str(bad)]) == 2
    assert capsys.readouterr().err == (
        f"ndcg-lab-eval: line 1 of {bad}: score 'x' is not a number (the line reads 'q1 Q0 d1 1 x t'); "
        f"line 2 of {bad}: score 'y' is not a number (the line reads 'q1 Q0 d2 2 y t')\n"
    )


class TextAndBytes:
    """A standard input whose text layer and bytes differ: the run is read from the bytes."""

    def __init__(self, text, data):
        self.text, self.buffer = text, io.BytesIO(data)

    def read(self):
        return self.text


def test_the_run_from_standard_input(monkeypatch, files, capsys):
    qrels = files[0]
    # d1 alone at the top: 1 / (2 + 1 / log2(3)) = 0.3801 with the ideal from the qrels
    monkeypatch.setattr("sys.stdin", TextAndBytes("q1 Q0 d2 1 1.0 t\n", b"q1 Q0 d1 1 1.0 t\n"))
    assert cli.main(["-m", "ndcg", qrels, "-"]) == 0
    assert capsys.readouterr().out == "ndcg                  \tall\t0.3801\n"
    monkeypatch.setattr("sys.stdin", io.StringIO("q1 Q0 d1 1 1.0 t\n"))  # text only, no bytes layer
    assert cli.main(["-m", "ndcg", qrels, "-"]) == 0
    assert capsys.readouterr().out == "ndcg                  \tall\t0.3801\n"
    monkeypatch.setattr("sys.stdin", None)  # no standard input at all (pythonw)
    assert cli.main([qrels, "-"]) == 2
    assert capsys.readouterr().err == "ndcg-lab-eval: standard input is empty\n"


@pytest.mark.parametrize(
    "raised, status, message",
    [(MemoryError, 2, "not enough memory for these files"), (KeyboardInterrupt, 130, "interrupted")],
)
def test_running_out_of_memory_or_interrupted(monkeypatch, capsys, raised, status, message):
    def run(argv, prog=cli.PROG, **engines):
        raise raised

    monkeypatch.setattr(cli, "run", run)
    assert cli.main([]) == status
    assert capsys.readouterr().err == f"ndcg-lab-eval: {message}\n"


class FakeLibc:
    def __init__(self):
        self.calls = []

    def mallopt(self, parameter, value):
        self.calls.append((parameter, value))


def test_freed_memory_is_kept_for_reuse(monkeypatch):
    import ctypes

    libc = FakeLibc()
    opened = []
    monkeypatch.setattr(ctypes, "CDLL", lambda name: opened.append(name) or libc)
    monkeypatch.delenv("MIMALLOC_PURGE_DELAY", raising=False)
    cli.keep_freed_memory()
    assert os.environ["MIMALLOC_PURGE_DELAY"] == "-1" and opened == ["libc.so.6"]
    # M_MMAP_THRESHOLD (-3) to 32 MiB, M_TRIM_THRESHOLD (-1) to the largest int
    assert libc.calls == [(-3, 32 * 1024 * 1024), (-1, 2**31 - 1)]
    monkeypatch.setenv("MIMALLOC_PURGE_DELAY", "5")  # a setting of the user's is kept
    cli.keep_freed_memory()
    assert os.environ["MIMALLOC_PURGE_DELAY"] == "5"


def test_without_glibc_the_allocator_is_left_alone(monkeypatch):
    import ctypes

    def missing(name):
        raise OSError(name)

    monkeypatch.setattr(ctypes, "CDLL", missing)
    cli.keep_freed_memory()


def test_the_script_exits_with_mains_status(monkeypatch, files, capsys):
    exits = []
    monkeypatch.setattr(cli, "keep_freed_memory", lambda: None)
    monkeypatch.setattr(os, "_exit", exits.append)
    monkeypatch.setattr("sys.argv", ["ndcg-lab-eval", "-m", "ndcg_cut.1", *files])
    cli.script()
    assert exits == [0] and capsys.readouterr().out == "ndcg_cut_1            \tall\t0.0000\n"
    monkeypatch.setattr("sys.argv", ["ndcg-lab-eval", "-M", "x", *files])
    cli.script()
    assert exits == [0, 2]
