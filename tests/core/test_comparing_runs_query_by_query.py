"""Runs compared query by query (``ndcg_core.trec.compare``, ``ndcg-lab compare``): the per-query values are
``evaluate``'s with -c, the tests are SciPy's on the same values, p-values are Holm-corrected for several runs, and the
table, CSV, JSON and LaTeX say the same. Run on trec_eval's own test files (results.test and results.trunc)."""

import json

import numpy as np
import pytest
from scipy import stats

from ndcg_core.errors import InputError
from ndcg_core.trec.compare import compare, holm, p_text
from ndcg_core.trec.compare_cli import main
from ndcg_core.trec.evaluate import EvaluationOptions, evaluate
from ndcg_core.trec.measures import ndcg_cut
from ndcg_core.trec.readers import read_qrels, read_run
from ndcg_lab.cli import main as lab_main
from support import DATA

TREC = DATA / "trec_eval"
QRELS, BASE, TRUNC = TREC / "qrels.test", TREC / "results.test", TREC / "results.trunc"


@pytest.fixture(scope="module")
def files():
    return read_qrels(str(QRELS)), read_run(str(BASE)), read_run(str(TRUNC))


def test_per_query_values_are_evaluate_s_with_missing_answers_as_zero(files):
    qrels, base, trunc = files
    compared = compare(qrels, [base, trunc], "ndcg_cut.10")
    with_c = EvaluationOptions(cutoffs=(10,), complete=True)
    for column, run in enumerate((base, trunc)):
        expected = evaluate(qrels, run, with_c)
        assert list(compared.qids) == expected.qids
        assert compared.values[:, column].tolist() == expected.per_query(ndcg_cut(10)).tolist()


def test_the_tests_are_scipy_s_on_the_same_values(files):
    qrels, base, trunc = files
    compared = compare(qrels, [base, trunc], ndcg_cut(10))
    a, b = compared.values[:, 0], compared.values[:, 1]
    result = compared.against[0].comparison
    assert result.t_p_value == stats.ttest_rel(b, a).pvalue
    assert result.wilcoxon_p_value == stats.wilcoxon(b, a, zero_method="wilcox").pvalue
    assert result.mean_difference == pytest.approx(float(np.mean(b - a)), abs=1e-15)
    assert (result.wins, result.ties, result.losses) == (
        int(np.sum(b - a > 1e-12)),
        int(np.sum(np.abs(b - a) <= 1e-12)),
        int(np.sum(b - a < -1e-12)),
    )
    # One run against the baseline: nothing to correct for.
    assert compared.against[0].corrected["t"] == result.t_p_value


def test_holm_multiplies_the_smallest_p_by_the_count_and_never_lowers_a_larger_one():
    # Sorted: 0.01 x 3 = 0.03; 0.03 x 2 = 0.06; 0.04 x 1 = 0.04, raised to 0.06.
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == [1.0, 1.0]


def test_several_runs_are_corrected_together(files):
    qrels, base, trunc = files
    compared = compare(qrels, [base, trunc, trunc], "ndcg_cut.10", names=["base", "trunc", "again"])
    p = compared.against[0].comparison.t_p_value
    assert [r.corrected["t"] for r in compared.against] == pytest.approx([min(1.0, 2 * p)] * 2)


def test_small_p_values_print_in_scientific_notation():
    assert p_text(3.7e-5) == "3.7e-05"
    assert p_text(0.0123) == "0.0123"
    assert p_text(0.001) == "0.0010"


def test_a_comparison_needs_two_runs_with_names_of_their_own(files):
    qrels, base, trunc = files
    with pytest.raises(InputError) as one:
        compare(qrels, [base])
    assert one.value.code == "compare.runs"
    with pytest.raises(InputError) as same:
        compare(qrels, [base, trunc], names=["x", "x"])
    assert same.value.code == "compare.same_name"


def test_the_command_prints_the_table_and_writes_csv_json_and_latex(tmp_path, capsys, files):
    csv, js, tex = tmp_path / "c.csv", tmp_path / "c.json", tmp_path / "c.tex"
    status = main(
        [
            "-m",
            "ndcg_cut.10",
            "--csv",
            str(csv),
            "--json",
            str(js),
            "--latex",
            str(tex),
            str(QRELS),
            str(BASE),
            str(TRUNC),
        ]
    )
    assert status == 0
    printed = capsys.readouterr().out.splitlines()
    qrels, base, trunc = files
    compared = compare(qrels, [base, trunc], "ndcg_cut.10")
    assert printed[0].startswith(f"ndcg_cut_10 over {len(compared.qids)} queries")
    assert printed[2].split() == ["results.test", f"{compared.baseline_mean:.4f}"]
    assert printed[3].split()[:2] == ["results.trunc", f"{compared.against[0].mean:.4f}"]
    document = json.loads(js.read_text())
    assert document["runs"][1]["p"]["t"] == compared.against[0].comparison.t_p_value
    assert len(document["per_query"]) == len(compared.qids)
    rows = csv.read_text().splitlines()
    assert rows[0] == "qid,results.test,results.trunc,results.trunc - results.test"
    first = rows[1].split(",")
    assert float(first[1]) == compared.values[0, 0]  # every digit kept
    latex = tex.read_text()
    assert latex.startswith("\\begin{tabular}") and "results.trunc" in latex.replace("\\_", "_")
    assert "\\bottomrule" in latex


def test_bad_input_is_one_line_and_status_two(tmp_path, capsys):
    assert main([str(QRELS), str(BASE)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main([str(QRELS), str(BASE), str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ndcg-lab compare: ") and err.count("\n") == 1


def test_ndcg_lab_compare_is_the_same_command(capsys):
    assert lab_main(["compare", str(QRELS), str(BASE), str(TRUNC)]) == 0
    assert "results.trunc" in capsys.readouterr().out
