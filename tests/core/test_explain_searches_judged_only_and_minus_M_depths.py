"""``--explain`` searches judged-only (trec_eval -J, ir_measures' judged_only) and -M's depths with every measure as
axes of its own, names a tool only where its convention gives the number, and says how near a tool of unstable sort
(ranx) is. Expected numbers are formulas, or the tool's own (pytrec_eval, run here)."""

from math import log2
from pathlib import Path

import pytest
import pytrec_eval

from ndcg_core.teaching.catalogue import AXES, LIBRARIES
from ndcg_core.teaching.explain import EVALUATED, READ, REORDERED, explain_run, explanation_lines
from ndcg_core.trec.cli import run as cli
from ndcg_core.trec.measures import Measure, ndcg_cut
from ndcg_core.trec.readers import read_qrels, read_run

# As in test_judged_only_drops_unjudged_documents_before_scoring: q1 ranks u1 d2 d3 d1 u2 d4, graded -, 0, -1, 2,
# -, 1, and d5 (1) is judged but never retrieved; q2 retrieves nothing judged.
QRELS = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 -1\nq1 0 d4 1\nq1 0 d5 1\nq2 0 e1 1\n"
RUN = (
    "q1 Q0 u1 1 9 t\nq1 Q0 d2 2 8 t\nq1 Q0 d3 3 7 t\nq1 Q0 d1 4 6 t\nq1 Q0 u2 5 5 t\nq1 Q0 d4 6 4 t\n"
    "q2 Q0 x1 1 2 t\nq2 Q0 x2 2 1 t\n"
)
IDEAL = 2 + 1 / log2(3) + 1 / log2(4)
JUDGED = (0 + 2 / log2(3) + 1 / log2(4)) / IDEAL / 2  # the mean over q1 and q2 (0)
MINUS_M_5 = (2 / log2(5)) / IDEAL / 2  # -M 5: u1 d2 d3 d1 u2, d4 cut off


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


def test_the_search_s_axes_are_data_and_cover_every_axis():
    assert sorted(EVALUATED + REORDERED + READ) == sorted(AXES)
    assert "judged" in EVALUATED and "depth" in READ


def test_a_judged_only_number_is_explained_as_minus_J_and_ir_measures_judged_only(files):
    explanation = explain_run(read_qrels(files[0]), read_run(files[1]), Measure("ndcg"), f"{JUDGED:.4f}")
    first = explanation.matches[0]
    assert first.changes == ("judged.only",)
    # Scores never tie here, so 32-bit scores change nothing: ir_measures (through pytrec_eval) gives it too.
    assert {"trec_eval_J", "ir_measures_judged"} <= set(first.libraries)
    assert "trec_eval_10" not in first.libraries and "judged" not in explanation.idle
    lines = cli(["-m", "ndcg", "--explain", f"{JUDGED:.4f}", *files])
    assert "-J: judged documents only" in lines.splitlines()[1] and "trec_eval 10.0 -J" in lines.splitlines()[1]


def test_minus_J_tools_are_not_named_for_trec_eval_s_own_number(files):
    explanation = explain_run(
        read_qrels(files[0]), read_run(files[1]), Measure("ndcg"), repr(explanation_default(files))
    )
    assert explanation.matches[0].changes == ()
    assert not [m for m in explanation.matches if {"trec_eval_J", "ir_measures_judged"} & set(m.libraries)]


def explanation_default(files):
    return explain_run(read_qrels(files[0]), read_run(files[1]), Measure("ndcg"), "0.5").default


def test_a_minus_M_number_of_the_whole_ranking_s_ndcg_is_found_without_being_told(files):
    # trec_eval -M 5 -m ndcg, explained as -m ndcg with no -M given: the depth is an axis of the search.
    explanation = explain_run(read_qrels(files[0]), read_run(files[1]), Measure("ndcg"), f"{MINUS_M_5:.4f}")
    first = explanation.matches[0]
    assert first.changes == ("depth.M",) and first.variant.depth == "5"
    assert "trec_eval_10" not in first.libraries
    lines = cli(["-m", "ndcg", "--explain", f"{MINUS_M_5:.4f}", *files]).splitlines()
    assert "-M 5: each ranking cut at 5 documents" in lines[1]


def test_a_minus_M_number_with_ndcg_cut_is_found_at_a_depth_before_k(tmp_path):
    # trec_eval -M 5 -m ndcg_cut.10 on one query of 7 documents: the run cut at 5, the ideal at 10.
    (tmp_path / "qrels").write_text("".join(f"q 0 d{i} {g}\n" for i, g in enumerate([0, 1, 0, 2, 0, 0, 3])))
    (tmp_path / "run").write_text("".join(f"q Q0 d{i} {i + 1} {10 - i} t\n" for i in range(7)))
    ideal = 3 + 2 / log2(3) + 1 / 2
    printed = (1 / log2(3) + 2 / log2(5)) / ideal
    full = printed + 3 / log2(8) / ideal
    assert round(printed, 4) != round(full, 4)
    qrels, run = read_qrels(str(tmp_path / "qrels")), read_run(str(tmp_path / "run"))
    first = explain_run(qrels, run, ndcg_cut(10), f"{printed:.4f}").matches[0]
    assert first.changes == ("depth.M",) and first.variant.depth == "5" and first.variant.cut == "ndcg_cut"


PEERS = Path(__file__).parents[1] / "data" / "peers"


def test_pytrec_eval_s_own_mean_to_17_digits_is_explained_as_pytrec_eval():
    # pytrec_eval's per-query values on a run whose scores tie often, averaged as a user averages them (in Python).
    def read(name, column, kind):
        out: dict[str, dict[str, float]] = {}
        for line in (PEERS / name).read_text().splitlines():
            fields = line.split()
            out.setdefault(fields[0], {})[fields[2]] = kind(fields[column])
        return out

    qrels_dict, run_dict = read("ties.qrels", 3, int), read("ties.run", 4, float)
    per_query = pytrec_eval.RelevanceEvaluator(qrels_dict, {"ndcg_cut.10"}).evaluate(run_dict)
    values = [v["ndcg_cut_10"] for v in per_query.values()]
    qrels, run = read_qrels(str(PEERS / "ties.qrels")), read_run(str(PEERS / "ties.run"))
    # Summed in the file's order, reversed and smallest first: the last digits of the 17 differ from one to another.
    means = {sum(values) / len(values), sum(reversed(values)) / len(values), sum(sorted(values)) / len(values)}
    assert len(means) > 1
    for mean in means:
        printed = repr(mean)
        assert len(printed.split(".")[1]) >= 16
        explanation = explain_run(qrels, run, ndcg_cut(10), printed)
        assert "pytrec_eval" in explanation.matches[0].libraries, printed
        assert explanation.tolerance == pytest.approx(mean * 1e-12, rel=1e-9)  # not half a unit of the 17th decimal


def test_a_number_near_ties_in_file_order_names_ranx_as_near_and_says_why(tmp_path):
    # Three documents tied, graded 1, 2, 0 in file order: ranx's convention gives IN_FILE_ORDER; a number a few
    # millionths away (as ranx's unstable sort gives on a large run) is near it, not it.
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 2\nq1 0 d3 0\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 5.0 t\nq1 Q0 d2 2 5.0 t\nq1 Q0 d3 3 5.0 t\n")
    in_file_order = (1 + 2 / log2(3)) / (2 + 1 / log2(3))
    printed = f"{in_file_order + 4e-6:.6f}"
    qrels, run = read_qrels(str(tmp_path / "qrels")), read_run(str(tmp_path / "run"))
    explanation = explain_run(qrels, run, ndcg_cut(3), printed)
    assert not [m for m in explanation.matches if "ranx" in m.libraries]
    assert [m.value for m in explanation.near if "ranx" in m.libraries] == [pytest.approx(in_file_order)]
    near = [line for line in explanation_lines(explanation) if line.startswith("Near: ")]
    difference = in_file_order - float(printed)
    assert near and "ranx ndcg" in near[0] and "not stable" in near[0] and f"{difference:+.1e} from" in near[0]
    # At the convention's own number ranx is a match, not near.
    exact = explain_run(qrels, run, ndcg_cut(3), f"{in_file_order:.6f}")
    assert "ranx" in exact.matches[0].libraries and not exact.near
    assert LIBRARIES["ranx"].build().unstable and not LIBRARIES["trec_eval_10"].build().unstable


def engine_explained(capsys, argv, **engine):
    from ndcg_core.trec.cli import main

    assert main(argv, **engine) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "args, named",
    [
        (["-m", "ndcg", "--explain", f"{JUDGED:.4f}"], "trec_eval 10.0 -J"),
        (["-m", "ndcg", "--explain", f"{MINUS_M_5:.4f}"], "-M 5: each ranking cut at 5 documents"),
        (["-m", "ndcg_cut.5", "-M", "5", "--explain", "0.2"], "-J: judged documents only"),  # -M given, cut first
    ],
)
def test_duckdb_explains_the_new_axes_as_the_default_engine_does(capsys, duckdb_engine, files, args, named):
    default = engine_explained(capsys, [*args, *files])
    assert named in default.splitlines()[1]
    assert engine_explained(capsys, [*args, "--engine", "duckdb", *files], engine=duckdb_engine) == default


@pytest.mark.spark
def test_spark_explains_a_judged_only_number_as_the_default_engine_does(capsys, spark_engine, files):
    args = ["-m", "ndcg", "--explain", f"{JUDGED:.4f}", *files]
    default = engine_explained(capsys, args)
    assert "trec_eval 10.0 -J" in default
    assert engine_explained(capsys, [*args, "--engine", "spark"], engine=spark_engine) == default
