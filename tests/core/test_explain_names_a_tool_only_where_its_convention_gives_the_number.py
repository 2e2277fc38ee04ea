"""``--explain`` is complete and honest about peers: ties kept in file order (ranx) are a convention of their own, a
tool is named only where its convention gives the number, and a number printed to full precision is matched within
the error of summing in another order. Expected numbers are formulas."""

import json
import math
from dataclasses import replace
from math import log2
from pathlib import Path

import pytest

from ndcg_core.lists.scoring import TREC_EVAL
from ndcg_core.lists.ties import TIE_POLICIES, order_by_scores
from ndcg_core.teaching.explain import explain_run, explanation_lines
from ndcg_core.trec.evaluate import EvaluationOptions, evaluate
from ndcg_core.trec.measures import NDCG, ndcg_cut
from ndcg_core.trec.readers import read_qrels, read_run

# Three documents tied at one score, graded 1, 2, 0 in the file's order (d1, d2, d3).
QRELS = "q1 0 d1 1\nq1 0 d2 2\nq1 0 d3 0\n"
RUN = "q1 Q0 d1 1 5.0 t\nq1 Q0 d2 2 5.0 t\nq1 Q0 d3 3 5.0 t\n"
IDEAL = 2 + 1 / log2(3)
IN_FILE_ORDER = (1 + 2 / log2(3)) / IDEAL  # 1, 2, 0
BY_DOCNO = (0 + 2 / log2(3) + 1 / 2) / IDEAL  # trec_eval: d3, d2, d1 (ids descending)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return read_qrels(str(tmp_path / "qrels")), read_run(str(tmp_path / "run"))


def test_file_order_is_a_tie_policy_of_the_registry():
    assert "file" in TIE_POLICIES.names()
    assert order_by_scores([5, 5, 5, 9], [1, 2, 0, 0], ["d1", "d2", "d3", "d4"], ties="file").tolist() == [3, 0, 1, 2]


def test_a_run_scored_with_ties_in_file_order(files):
    qrels, run = files
    options = EvaluationOptions(replace(TREC_EVAL, ties="file"), cutoffs=(3,))
    assert evaluate(qrels, run, options).columns["ndcg_cut_3"][0] == pytest.approx(IN_FILE_ORDER, rel=1e-15)
    default = evaluate(qrels, run, EvaluationOptions(cutoffs=(3,))).columns["ndcg_cut_3"][0]
    assert default == pytest.approx(BY_DOCNO, rel=1e-15)


def test_ranx_is_named_for_the_number_of_ties_in_file_order_and_not_for_trec_eval_s(files):
    qrels, run = files
    ranx = explain_run(qrels, run, ndcg_cut(3), f"{IN_FILE_ORDER:.4f}")
    assert ranx.matches[0].changes == ("ties.file",)
    assert "ranx" in ranx.matches[0].libraries
    trec = explain_run(qrels, run, ndcg_cut(3), f"{BY_DOCNO:.4f}")
    assert trec.matches[0].changes == ()
    assert "trec_eval_10" in trec.matches[0].libraries
    assert not [m for m in trec.matches if "ranx" in m.libraries]


def test_a_number_printed_to_full_precision_is_matched_within_the_error_of_summing(files):
    qrels, run = files
    exact = BY_DOCNO
    # Another tool's sum, a few units of the last place away: repr prints all 17 significant digits.
    printed = repr(math.nextafter(math.nextafter(exact, 1.0), 1.0))
    explanation = explain_run(qrels, run, ndcg_cut(3), printed)
    assert explanation.matches and explanation.matches[0].changes == ()
    assert explanation.tolerance == pytest.approx(exact * 1e-12)
    assert "(+-" in explanation_lines(explanation)[0] and "e-13)" in explanation_lines(explanation)[0]
    # A number two parts in a billion away is another number.
    assert not explain_run(qrels, run, ndcg_cut(3), repr(exact * (1 + 2e-9))).matches


def test_minus_M_with_the_whole_ranking_s_ndcg_is_searched_with_the_run_cut(tmp_path):
    # trec_eval -M 2 -m ndcg: the run cut at 2 documents, the ideal whole: 2/log2(3) over 3 + 2/log2(3) + 1/2.
    (tmp_path / "qrels").write_text("q1 0 d1 0\nq1 0 d2 2\nq1 0 d3 1\nq1 0 d4 3\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d3 3 1 t\n")
    printed = (2 / log2(3)) / (3 + 2 / log2(3) + 1 / 2)
    from ndcg_core.trec.cli import run as cli

    lines = cli(
        ["-M", "2", "-m", "ndcg", "--explain", f"{printed:.4f}", str(tmp_path / "qrels"), str(tmp_path / "run")]
    )
    assert lines.splitlines()[0].startswith(f"ndcg {printed:.4f} (+-0.00005): ")
    assert "none of" not in lines.splitlines()[0]
    assert "trec_eval 10.0" in lines.splitlines()[1]


PEERS = Path(__file__).parents[1] / "data" / "peers"
RECORDED = json.loads((PEERS / "recorded.json").read_text())
MEASURES = {
    "ndcg@5": ("ranx", ndcg_cut(5)),
    "ndcg@10": ("ranx", ndcg_cut(10)),
    "ndcg_burges@10": ("ranx_burges", ndcg_cut(10)),
}


@pytest.mark.parametrize("name", sorted(RECORDED["ranx"]["values"]))
def test_ranx_s_own_numbers_are_explained_as_ranx(name):
    # Recorded by ranx 0.3.21 itself (tests/data/peers/record.py) on a run whose scores tie often.
    library, measure = MEASURES[name]
    qrels, run = read_qrels(str(PEERS / "ties.qrels")), read_run(str(PEERS / "ties.run"))
    printed = repr(RECORDED["ranx"]["values"][name])
    explanation = explain_run(qrels, run, measure, printed)
    assert library in explanation.matches[0].libraries
    assert "ties.file" in explanation.matches[0].changes
    # trec_eval's own number on the same files is another one, and ranx is not named for it.
    default = explain_run(qrels, run, measure, repr(explanation.default))
    assert not [m for m in default.matches if library in m.libraries]


IR_MEASURES = {
    "nDCG@5": ("ir_measures", ndcg_cut(5)),
    "nDCG@10": ("ir_measures", ndcg_cut(10)),
    "nDCG": ("ir_measures", NDCG),
    "nDCG(judged_only=True)@10": ("ir_measures_judged", ndcg_cut(10)),
    "nDCG(judged_only=True)": ("ir_measures_judged", NDCG),
}


@pytest.mark.parametrize("name", sorted(RECORDED["ir_measures"]["values"]))
def test_ir_measures_own_numbers_are_explained_as_ir_measures(name):
    # Recorded by ir_measures 0.4.3 itself (tests/data/peers/record.py), printed to full precision.
    library, measure = IR_MEASURES[name]
    qrels, run = read_qrels(str(PEERS / "ties.qrels")), read_run(str(PEERS / "ties.run"))
    explanation = explain_run(qrels, run, measure, repr(RECORDED["ir_measures"]["values"][name]))
    assert library in explanation.matches[0].libraries
    # Judged-only is its own convention: ir_measures' plain nDCG is not named for it, nor the other way round.
    other = "ir_measures" if library == "ir_measures_judged" else "ir_measures_judged"
    assert not [m for m in explanation.matches if other in m.libraries]
