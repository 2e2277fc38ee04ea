"""Judged-only (trec_eval's ``-J``, ir_measures' ``judged_only``): each ranking, cut at ``-M`` first, keeps only its
documents with a grade of 0 or more, in order, before it is scored; the ideal is the same.

Expected numbers are formulas from trec_eval 10.0's form_res_rels.c (sort, cut at -M, then keep ``rel >= 0``), and
pytrec_eval's own ``judged_docs_only_flag`` (what ir_measures' ``judged_only`` calls) run here.
"""

from math import log2

import numpy as np
import pytest
import pytrec_eval
from test_reference_libraries import _random_collection

from ndcg_core import EvaluationOptions, Scoring, evaluate, query_ranking
from ndcg_core.trec.cli import main
from ndcg_core.trec.readers import read_qrels, read_run
from ndcg_core.trec.segmented import evaluate_files
from support import error_of

# q1: judged d1 (2), d2 (0), d3 (-1: in the pool, not judged), d4 (1), d5 (1, never retrieved); u1, u2 unjudged.
QRELS = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 -1\nq1 0 d4 1\nq1 0 d5 1\nq2 0 e1 1\n"
RUN = (
    "q1 Q0 u1 1 9 t\nq1 Q0 d2 2 8 t\nq1 Q0 d3 3 7 t\nq1 Q0 d1 4 6 t\nq1 Q0 u2 5 5 t\nq1 Q0 d4 6 4 t\n"
    "q2 Q0 x1 1 2 t\nq2 Q0 x2 2 1 t\n"  # q2 retrieves nothing judged
)
IDEAL = 2 + 1 / log2(3) + 1 / log2(4)  # grades 2, 1, 1
IDEAL_2 = 2 + 1 / log2(3)
ALL = (2 / log2(5) + 1 / log2(7)) / IDEAL  # u1 d2 d3 d1 u2 d4: d1 at 4, d4 at 6
JUDGED = (0 + 2 / log2(3) + 1 / log2(4)) / IDEAL  # d2 d1 d4
JUDGED_CUT_2 = (2 / log2(3)) / IDEAL_2
JUDGED_M4 = (2 / log2(3)) / IDEAL  # -M 4 keeps u1 d2 d3 d1, then -J: d2 d1
JUDGED_M3 = 0.0  # -M 3 keeps u1 d2 d3: only d2 (grade 0) is judged


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


def columns(files, **options):
    return evaluate(read_qrels(files[0]), read_run(files[1]), EvaluationOptions(cutoffs=(2,), **options)).table()


def test_unjudged_documents_leave_the_ranking_and_the_judged_move_up(files):
    table = columns(files, judged_only=True)
    assert table.loc["q1", "ndcg"] == pytest.approx(JUDGED, rel=1e-15)
    assert table.loc["q1", "ndcg_cut_2"] == pytest.approx(JUDGED_CUT_2, rel=1e-15)
    assert table.loc["q1", "idcg"] == pytest.approx(IDEAL, rel=1e-15)  # the ideal is the same
    assert table.loc["q1", "num_ret"] == 3  # trec_eval's num_ret under -J: the judged documents retrieved
    # A query that retrieved nothing judged is still evaluated, at 0.
    assert list(table.index) == ["q1", "q2"] and table.loc["q2", "ndcg"] == 0.0
    assert columns(files).loc["q1", "ndcg"] == pytest.approx(ALL, rel=1e-15)


def test_minus_M_cuts_each_ranking_before_the_unjudged_leave(files):
    assert columns(files, judged_only=True, max_docs=4).loc["q1", "ndcg"] == pytest.approx(JUDGED_M4, rel=1e-15)
    assert columns(files, judged_only=True, max_docs=3).loc["q1", "ndcg"] == JUDGED_M3


def test_the_command_line_minus_J_prints_as_trec_eval_prints(files, capsys):
    assert main(["-q", "-J", "-m", "ndcg", "-m", "ndcg_cut.2", *files]) == 0
    assert capsys.readouterr().out == (
        f"ndcg                  \tq1\t{JUDGED:6.4f}\n"
        f"ndcg_cut_2            \tq1\t{JUDGED_CUT_2:6.4f}\n"
        "ndcg                  \tq2\t0.0000\n"
        "ndcg_cut_2            \tq2\t0.0000\n"
        f"ndcg                  \tall\t{JUDGED / 2:6.4f}\n"
        f"ndcg_cut_2            \tall\t{JUDGED_CUT_2 / 2:6.4f}\n"
    )
    assert main(["-J", "-M", "4", "-m", "ndcg", *files]) == 0
    assert capsys.readouterr().out == f"ndcg                  \tall\t{JUDGED_M4 / 2:6.4f}\n"


def test_the_duckdb_engine_gives_the_same_figures(files, duckdb_engine):
    for options in (EvaluationOptions(judged_only=True), EvaluationOptions(judged_only=True, max_docs=4)):
        ours = evaluate_files(*files, options).columns
        theirs = duckdb_engine.evaluate_files(*files, options).columns
        assert {n: v.tolist() for n, v in theirs.items()} == {n: v.tolist() for n, v in ours.items()}


def test_the_spark_engine_gives_the_same_figures(files, spark_engine):
    options = EvaluationOptions(judged_only=True, max_docs=4, cutoffs=(2,))
    ours = evaluate_files(*files, options).columns
    theirs = spark_engine.evaluate_files(*files, options).columns
    assert {n: v.tolist() for n, v in theirs.items()} == {n: v.tolist() for n, v in ours.items()}


def test_drill_down_shows_the_ranking_judged_only_scores(files):
    qrels, run = read_qrels(files[0]), read_run(files[1])
    assert query_ranking(qrels, run, "q1")["docnos"] == ["u1", "d2", "d3", "d1", "u2", "d4"]
    assert query_ranking(qrels, run, "q1", judged_only=True)["docnos"] == ["d2", "d1", "d4"]
    assert query_ranking(qrels, run, "q1", judged_only=True, max_docs=4)["docnos"] == ["d2", "d1"]


@pytest.mark.parametrize("seed", range(20))
def test_pytrec_eval_s_judged_docs_only_flag_agrees_per_query(seed):
    # What ir_measures' judged_only asks of pytrec_eval; pytrec_eval compares scores as 32-bit floats.
    qrels, run, qrels_text, run_text = _random_collection(np.random.default_rng(seed))
    options = EvaluationOptions(Scoring(float32_scores=True, ideal="pool"), cutoffs=(1, 3, 5, 10), judged_only=True)
    ours = evaluate(read_qrels(qrels_text), read_run(run_text), options).table()
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg", "ndcg_cut.1,3,5,10"}, judged_docs_only_flag=1).evaluate(
        {q: d for q, d in run.items() if q in qrels}
    )
    assert sorted(theirs) == sorted(ours.index)
    for qid, values in theirs.items():
        for measure in ("ndcg", "ndcg_cut_1", "ndcg_cut_3", "ndcg_cut_5", "ndcg_cut_10"):
            assert ours.loc[qid, measure] == pytest.approx(values[measure], abs=1e-9), (qid, measure)


def test_judged_only_is_a_flag():
    assert error_of(lambda: EvaluationOptions(judged_only="yes")).code == "flag.not_bool"
