"""The CLI reproduces every NDCG line of trec_eval 10.0's own expected outputs (tests/data/trec_eval)."""

import subprocess
import sys

import pytest

from ndcg_core.trec.cli import main
from support import ROOT, TREC

# Each expected file with the trec_eval arguments that produced it (see tests/data/trec_eval/README.md).
CASES = {
    "out.test.a": ["qrels.test", "results.test"],
    "out.test.aq": ["-q", "qrels.test", "results.test"],
    "out.test.aqc": ["-q", "-c", "qrels.test", "results.trunc"],
    "out.test.aqcM": ["-q", "-c", "-M100", "qrels.test", "results.trunc"],
    "out.test.aql": ["-q", "-l2", "qrels.rel_level", "results.test"],
    "out.test.meas_params": ["-q", "-mndcg.1=3,2=9,4=4.5", "-mndcg_cut.10,20,23.4", "qrels.test", "results.test"],
}
NDCG_MEASURES = ("ndcg", "ndcg_cut_", "ndcg_1=")


def expected_ndcg_lines(name):
    lines = (TREC / name).read_text().splitlines()
    return [line for line in lines if line.split("\t")[0].rstrip() == "ndcg" or line.startswith(NDCG_MEASURES[1:])]


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_ndcg_line_of_trec_eval_is_reproduced_exactly(name, capsys, eval_main):
    args = [a if a.startswith("-") else str(TREC / a) for a in CASES[name]]
    if name != "out.test.meas_params":
        args = ["-m", "ndcg", "-m", "ndcg_cut", *args]
    assert eval_main(args) == 0
    ours = capsys.readouterr().out.splitlines()
    expected = expected_ndcg_lines(name)
    assert len(expected) >= 10
    assert ours == expected


def test_all_trec_is_narrowed_to_the_ndcg_measures(capsys):
    assert main(["-m", "all_trec", str(TREC / "qrels.test"), str(TREC / "results.test")]) == 0
    assert capsys.readouterr().out.splitlines() == expected_ndcg_lines("out.test.a")


@pytest.mark.parametrize(
    "measures, labels",
    [
        (["ndcg.1=3", "ndcg.1=5"], ["ndcg_1=3"]),
        (["ndcg", "ndcg.1=3", "ndcg.1=5"], ["ndcg_1=3"]),
        (["ndcg_cut.5", "ndcg_cut.10"], ["ndcg_cut_5"]),
        (["ndcg_cut.5", "ndcg_cut"], ["ndcg_cut_5"]),
        (["ndcg_cut", "ndcg_cut.5,10"], ["ndcg_cut_5", "ndcg_cut_10"]),
    ],
)
def test_a_measure_named_twice_takes_the_first_parameters_as_trec_eval(measures, labels, capsys):
    # trec_eval keeps every "-m name.params" and initialises a measure from the first one naming it;
    # a bare name only asks for the measure.
    args = [a for m in measures for a in ("-m", m)]
    assert main([*args, str(TREC / "qrels.test"), str(TREC / "results.test")]) == 0
    assert [line.split("\t")[0].rstrip() for line in capsys.readouterr().out.splitlines()] == labels


def test_help_lists_every_measure_family_and_option(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: ndcg-lab-eval ")
    for measure in ("ndcg ", "ndcg.LEVEL=GAIN,...", "ndcg_cut ", "ndcg_cut.K,...", "all_trec"):
        assert f"\n  {measure}" in text, measure
    for option in ("-q", "-c", "-M N", "-m MEASURE", "-l LEVEL", "--float32-scores", "--gain", "--ties", "--ideal"):
        assert f"\n  {option}" in text, option
    assert "5,10,15,20,30,100,200,500,1000" in text
    assert "standard input" in text and "32-bit" in text and "trec_eval 10.0" in text
    assert "python -m" not in text


def test_one_program_name_in_pyproject_usage_and_docs():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'ndcg-lab-eval = "ndcg_core.trec.cli:script"' in pyproject  # what python -m ndcg_core runs too
    assert "from .trec.cli import script" in (ROOT / "ndcg_core" / "__main__.py").read_text()
    reference = (ROOT / "docs" / "evaluation.md").read_text()
    section = reference[reference.index("## The command line") : reference.index("## trec_eval parity")]
    assert "ndcg-lab-eval [-q]" in section
    assert section.count("python -m ndcg_core") == 1  # the one note that it is the same program


def test_python_dash_m_runs_in_a_fresh_process():
    done = subprocess.run(
        [sys.executable, "-m", "ndcg_core", "-m", "ndcg_cut.10", str(TREC / "qrels.test"), str(TREC / "results.test")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ndcg_cut_10           \tall\t0.3016\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["-m", "map", "Q", "R"], "unknown measure 'map'"),
        (["-m", "ndcg_cut.0", "Q", "R"], "a cutoff of measure 'ndcg_cut.0' must be at least 1, got 0"),
        (["-m", "ndcg_cut.x", "Q", "R"], "a cutoff of measure 'ndcg_cut.x' must be a whole number, got 'x'"),
        (["-m", "ndcg.1=x", "Q", "R"], "the gain for level 1 of measure 'ndcg.1=x' is 'x': not a number"),
        (["-m", "ndcg.1", "Q", "R"], "measure 'ndcg.1': '1' should be LEVEL=GAIN, such as 2=9"),
        (["R", "Q"], "looks like a run and"),
        (["-M", "0", "Q", "R"], "-M must be at least 1"),
        (["Q", "missing.txt"], "missing.txt: no such file"),
        (["Q"], "the following arguments are required: RUN"),
        (["-m", "ndcg.1=3,1=5", "Q", "R"], "level 1 is given two gains"),
        (["--ties", "random", "Q", "R"], "invalid choice: 'random'"),
    ],
)
def test_bad_arguments_are_one_line_on_stderr_with_status_2(args, message, capsys):
    args = [str(TREC / "qrels.test") if a == "Q" else str(TREC / "results.test") if a == "R" else a for a in args]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err


def test_a_malformed_run_names_file_and_line_in_one_line(tmp_path, capsys):
    run = tmp_path / "run.txt"
    run.write_text("301 Q0 a 1 2.0 s\n301 Q0 b 2\n301 Q0 c 3 x s\n")
    assert main([str(TREC / "qrels.test"), str(run)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"ndcg-lab-eval: line 2 of {run}: expected at least 6 columns (qid Q0 docno rank score "
        "tag), got 4 (the line reads '301 Q0 b 2')"
    )
    assert err.count("\n") == 1 and err.count("expected") == 1  # each problem is said once


def test_options_beyond_trec_eval_change_the_numbers(capsys):
    base = [str(TREC / "qrels.rel_level"), str(TREC / "results.test")]
    main(["-m", "ndcg_cut.10", *base])
    linear = float(capsys.readouterr().out.split()[-1])
    main(["-m", "ndcg_cut.10", "--gain", "exponential", *base])
    exponential = float(capsys.readouterr().out.split()[-1])
    main(["-m", "ndcg_cut.10", "--ideal", "run", *base])
    from_run = float(capsys.readouterr().out.split()[-1])
    assert linear == 0.2656  # trec_eval's published ndcg_cut_10 for these files (out.test.aql)
    assert exponential != linear and from_run >= linear
