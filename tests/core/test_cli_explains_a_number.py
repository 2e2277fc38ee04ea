"""``ndcg-lab-eval --explain VALUE -m MEASURE QRELS RUN`` (and ``ndcg-lab eval --explain``): the conventions and tools
that give a number another tool printed, one per line; a VALUE that is not a number is one line on stderr, exit 2."""

from math import log2

import pytest

from ndcg_core.trec import cli
from ndcg_lab import cli as lab_cli

# d1 graded 1, d2 graded 2, d3 graded 0 retrieved in that order; d4 graded 1 judged, not retrieved.
QRELS = "q1 0 d1 1\nq1 0 d2 2\nq1 0 d3 0\nq1 0 d4 1\n"
RUN = "q1 Q0 d1 1 3.0 t\nq1 Q0 d2 2 2.0 t\nq1 Q0 d3 3 1.0 t\n"
LINEAR = (1 + 2 / log2(3)) / (2 + 1 / log2(3) + 1 / 2)
EXPONENTIAL = (1 + 3 / log2(3)) / (3 + 1 / log2(3) + 1 / 2)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


def test_the_number_gdeval_printed_is_explained_line_by_line(files, capsys):
    assert cli.main(["--explain", f"{EXPONENTIAL:.4f}", "-m", "ndcg_cut.3", *files]) == 0
    heading, first, *rest = capsys.readouterr().out.splitlines()
    assert heading.startswith(f"ndcg_cut_3 {EXPONENTIAL:.4f} (+-0.00005): ")
    assert f"this project's default (trec_eval 10.0) gives {LINEAR:.6f}" in heading
    assert first.startswith(f"{EXPONENTIAL:.6f}  Exponential gain 2^g - 1")
    assert "gdeval.pl" in first and "Elasticsearch" in first
    assert "2^g - 1" in first.split("]", 1)[1]  # why, after the tools


def test_ndcg_lab_eval_explains_too(files, capsys):
    assert lab_cli.main(["eval", "--explain", f"{LINEAR:.4f}", "-m", "ndcg_cut.3", *files]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(f"{LINEAR:.6f}  this project's default")
    assert "trec_eval 10.0" in lines[1]


def test_no_match_says_so_and_shows_the_nearest(files, capsys):
    assert cli.main(["--explain", "0.0123", "-m", "ndcg_cut.3", *files]) == 0
    heading, *nearest = capsys.readouterr().out.splitlines()
    assert "none of" in heading and heading.endswith("the nearest:")
    assert len([line for line in nearest if line[:1].isdigit()]) >= 3


@pytest.mark.parametrize(
    "value, says",
    [("abc", "'abc' is not a number"), ("0.5.1", "is not a number"), ("1,234", "has a comma"), ("", "type a number")],
)
def test_a_value_that_is_not_a_number_is_one_line_and_status_2(files, capsys, value, says):
    assert cli.main(["--explain", value, "-m", "ndcg_cut.3", *files]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("ndcg-lab-eval: ") and err.count("\n") == 1
    assert says in err


def test_explaining_needs_one_measure(files, capsys):
    assert cli.main(["--explain", "0.5", *files]) == 2
    assert "name one, such as ndcg_cut.10" in capsys.readouterr().err
