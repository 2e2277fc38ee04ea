"""Explaining a number another tool printed (``ndcg_core.teaching.explain``): the conventions and tools that give it,
to its printed precision, closest first; the peers' cases (linear against 2^g - 1, -M, the ideal from the run, ties by
document id, 32-bit scores, -c) each explained. Expected numbers are formulas or the reference libraries' own."""

from math import log2
from pathlib import Path

import numpy as np
import pytest

from ndcg_core.errors import InputError
from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.catalogue import AXES, CHANGES, LIBRARIES, Variant
from ndcg_core.teaching.conventions import WIKIPEDIA, Example
from ndcg_core.teaching.explain import explain_list, explain_run, read_printed, variant_values
from ndcg_core.teaching.mistakes import MISTAKES
from ndcg_core.trec.evaluate import EvaluationOptions, evaluate, evaluate_prepared, prepare
from ndcg_core.trec.measures import Measure, ndcg_cut
from ndcg_core.trec.readers import read_qrels, read_run


def files(tmp_path, qrels: str, run: str):
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    return read_qrels(str(tmp_path / "qrels")), read_run(str(tmp_path / "run"))


def single(explanation, changes):
    """The match whose changes are exactly these."""
    found = [m for m in explanation.matches if m.changes == changes or changes in m.others]
    assert found, [m.changes for m in explanation.matches]
    return found[0]


# d1 graded 1, d2 graded 2, d3 graded 0 retrieved in that order; d4 graded 1 judged, not retrieved.
GAINS_QRELS = "q1 0 d1 1\nq1 0 d2 2\nq1 0 d3 0\nq1 0 d4 1\n"
GAINS_RUN = "q1 Q0 d1 1 3.0 t\nq1 Q0 d2 2 2.0 t\nq1 Q0 d3 3 1.0 t\n"
LINEAR = (1 + 2 / log2(3)) / (2 + 1 / log2(3) + 1 / 2)
EXPONENTIAL = (1 + 3 / log2(3)) / (3 + 1 / log2(3) + 1 / 2)


def test_gdeval_s_number_is_the_exponential_gain_and_trec_eval_s_is_the_default(tmp_path):
    # anserini#92 / OpenNIR#14: one run, 0.5371 from trec_eval and 0.5618 from gdeval.
    qrels, run = files(tmp_path, GAINS_QRELS, GAINS_RUN)
    assert f"{LINEAR:.4f}" != f"{EXPONENTIAL:.4f}"
    gdeval = explain_run(qrels, run, ndcg_cut(3), f"{EXPONENTIAL:.4f}")
    first = gdeval.matches[0]
    assert first.changes == ("gain.exponential",)
    assert {"gdeval", "ranx_burges", "elasticsearch"} <= set(first.libraries)
    assert first.value == pytest.approx(EXPONENTIAL, abs=1e-12)
    assert not [m for m in gdeval.matches if m.changes == ()]
    assert gdeval.default == pytest.approx(LINEAR, abs=1e-12)
    trec = explain_run(qrels, run, ndcg_cut(3), f"{LINEAR:.4f}")
    assert trec.matches[0].changes == ()
    assert "trec_eval_10" in trec.matches[0].libraries


def test_the_printed_precision_is_the_tolerance(tmp_path):
    qrels, run = files(tmp_path, GAINS_QRELS, GAINS_RUN)
    near = EXPONENTIAL + 4e-5
    assert explain_run(qrels, run, ndcg_cut(3), f"{near:.4f}").tolerance == pytest.approx(5e-5)
    # Two more decimals than the number holds no longer fit: it is read to +-0.0000005.
    finer = explain_run(qrels, run, ndcg_cut(3), f"{near:.6f}")
    assert not [m for m in finer.matches if m.changes == ("gain.exponential",)]
    assert explain_run(qrels, run, ndcg_cut(3), "0.5").tolerance == pytest.approx(0.05)


def test_minus_M_cuts_the_run_but_not_the_ideal(tmp_path):
    # pytrec_eval#40: ndcg with -M 2 is DCG@2 over the whole ideal's DCG, not ndcg_cut.2.
    qrels, run = files(
        tmp_path, "q1 0 d1 0\nq1 0 d2 2\nq1 0 d3 1\nq1 0 d4 3\n", "q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d3 3 1 t\n"
    )
    cut_run = (2 / log2(3)) / (3 + 2 / log2(3) + 1 / 2)
    cut_both = (2 / log2(3)) / (3 + 2 / log2(3))
    assert f"{cut_run:.4f}" != f"{cut_both:.4f}"
    explained = explain_run(qrels, run, ndcg_cut(2), f"{cut_run:.4f}")
    assert single(explained, ("cut.max_docs",)).value == pytest.approx(cut_run, abs=1e-12)
    assert explained.default == pytest.approx(cut_both, abs=1e-12)


def test_scikit_learn_s_number_is_the_ideal_from_the_run_with_ties_averaged():
    sklearn = pytest.importorskip("sklearn.metrics")
    example = WIKIPEDIA  # D2 and D3 tie, graded 2 and 3; D7 and D8 judged, not retrieved
    printed = f"{sklearn.ndcg_score([list(example.grades)], [list(example.scores)], k=example.k):.4f}"
    explained = explain_list(example, printed)
    with_sklearn = [m for m in explained.matches if "sklearn" in m.libraries]
    assert with_sklearn
    assert "ideal.run" in with_sklearn[0].changes
    assert not [m for m in explained.matches if m.changes == ()]


TIES_QRELS = "q1 0 dA 2\nq1 0 dB 0\nq1 0 dC 1\n"
TIES_RUN = "q1 Q0 dA 1 1.0 t\nq1 Q0 dB 2 1.0 t\nq1 Q0 dC 3 0.5 t\n"
IDEAL = 2 + 1 / log2(3)


def test_ties_go_by_document_id_as_in_pytrec_eval_and_other_orders_are_named(tmp_path):
    # trec_eval#22: dA and dB tie; trec_eval puts the larger docno, dB (graded 0), first.
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = files(tmp_path, TIES_QRELS, TIES_RUN)
    by_docno = (2 / log2(3) + 1 / 2) / IDEAL
    evaluator = pytrec_eval.RelevanceEvaluator({"q1": {"dA": 2, "dB": 0, "dC": 1}}, {"ndcg_cut.3"})
    printed = evaluator.evaluate({"q1": {"dA": 1.0, "dB": 1.0, "dC": 0.5}})["q1"]["ndcg_cut_3"]
    assert printed == pytest.approx(by_docno, abs=1e-12)
    explained = explain_run(qrels, run, ndcg_cut(3), f"{printed:.4f}")
    assert explained.matches[0].changes == ()
    assert "pytrec_eval" in explained.matches[0].libraries
    best = (2 + 1 / 2) / IDEAL  # dA first: the input order, or the tie's best order
    assert single(explain_run(qrels, run, ndcg_cut(3), f"{best:.4f}"), ("ties.best",)).value == pytest.approx(best)
    average = (1 + 1 / log2(3) + 1 / 2) / IDEAL  # dA and dB share (2 + 0) / 2
    assert single(explain_run(qrels, run, ndcg_cut(3), f"{average:.4f}"), ("ties.average",))


def test_scores_equal_as_32_bit_floats_tie_in_pytrec_eval(tmp_path):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = files(tmp_path, "q1 0 a 1\nq1 0 b 0\n", "q1 Q0 a 1 1.000000001 t\nq1 Q0 b 2 1.0 t\n")
    evaluator = pytrec_eval.RelevanceEvaluator({"q1": {"a": 1, "b": 0}}, {"ndcg_cut.2"})
    printed = evaluator.evaluate({"q1": {"a": 1.000000001, "b": 1.0}})["q1"]["ndcg_cut_2"]
    assert printed == pytest.approx(1 / log2(3), abs=1e-12)  # b (the larger id) first
    explained = explain_run(qrels, run, ndcg_cut(2), f"{printed:.4f}")
    assert explained.matches[0].changes == ("scores.float32",)
    assert {"pytrec_eval", "trec_eval_9", "ir_measures"} <= set(explained.matches[0].libraries)
    assert explained.default == 1.0


def test_minus_c_counts_a_query_without_results_as_0(tmp_path):
    # spiceai#12277: a judged query the run did not answer, left out of the mean or counted as 0.
    qrels, run = files(tmp_path, "q1 0 d1 1\nq2 0 d2 1\n", "q1 Q0 d1 1 1 t\n")
    explained = explain_run(qrels, run, ndcg_cut(5), "0.5")
    assert single(explained, ("queries.complete",)).value == 0.5
    assert explained.default == 1.0
    assert "queries" not in explained.idle


def test_a_number_no_convention_gives_shows_the_nearest(tmp_path):
    qrels, run = files(tmp_path, GAINS_QRELS, GAINS_RUN)
    explained = explain_run(qrels, run, ndcg_cut(3), "0.0123")
    assert explained.matches == ()
    gaps = [abs(m.difference) for m in explained.nearest]
    assert len(gaps) >= 3 and gaps == sorted(gaps)


def test_axes_that_change_nothing_are_said_and_searched_once(tmp_path):
    qrels, run = files(tmp_path, GAINS_QRELS, GAINS_RUN)  # no tie, one query, answered
    searched = variant_values(qrels, run, ndcg_cut(3))
    assert set(searched.idle) == {"judged", "ties", "depth", "scores", "queries"}
    assert {v.ties for v in searched.values} == {"trec_eval"}


def test_a_whole_ranking_measure_is_cut_nowhere(tmp_path):
    qrels, run = files(tmp_path, GAINS_QRELS, GAINS_RUN)
    whole = (1 + 2 / log2(3)) / (2 + 1 / log2(3) + 1 / 2 + 0)
    explained = explain_run(qrels, run, Measure("ndcg"), f"{whole:.4f}")
    assert explained.matches[0].changes == ()
    assert {m.variant.cut for m in explained.matches} == {"ndcg"}


@pytest.mark.parametrize("typed, code", [("abc", "answer.not_number"), ("", "answer.blank"), ("1,234", "answer.comma")])
def test_text_that_is_not_a_number_is_refused(tmp_path, typed, code):
    qrels, run = files(tmp_path, GAINS_QRELS, GAINS_RUN)
    with pytest.raises(InputError) as raised:
        explain_run(qrels, run, ndcg_cut(3), typed)
    assert raised.value.code == code


def test_a_decimal_comma_is_read_as_a_point_with_its_decimals():
    assert read_printed("0,5371") == (0.5371, 4)
    assert read_printed("0.50") == (0.5, 2)


def test_a_list_with_a_grade_that_is_not_whole_is_refused():
    with pytest.raises(InputError) as raised:
        explain_list(Example(("a", "b"), (2.0, 1.0), (1.5, 0.0), k=2), "0.5")
    assert raised.value.code == "explain.whole_grades"


# --- one catalogue: each change is a value of its axis, with a source; the learner's mistakes are the same changes ---


def test_every_change_and_tool_is_a_value_of_an_axis_with_a_source():
    for entry in CHANGES:
        change = entry.build()
        assert entry.name == f"{change.axis}.{change.value}"
        assert change.value in AXES[change.axis][1:]
        assert change.source.startswith("https://")
    for entry in LIBRARIES:
        library = entry.build()
        Variant(**dict(library.changes))
        assert library.source.startswith("https://")
    assert {"trec_eval_10", "trec_eval_9", "pytrec_eval", "gdeval", "sklearn", "ranx", "ir_measures", "spark"} <= set(
        LIBRARIES.names()
    ) and {"tf_ranking", "elasticsearch"} <= set(LIBRARIES.names())


def test_a_change_a_learner_makes_by_mistake_gives_the_mistake_s_number():
    spec = ListSpec.from_grades(["a", "b", "c", "d"], [1, 3, 0, 2], 2, pool=[3, 1], scoring=Scoring(ideal="pool"))
    values = variant_values(*_collection(spec), ndcg_cut(2)).values
    shared = [e for e in CHANGES if e.build().mistake is not None]
    assert {e.build().mistake for e in shared} <= set(MISTAKES.names())
    compared = 0
    for entry in shared:
        change = entry.build()
        mistake = MISTAKES.build(change.mistake)
        if not change.evaluated or not mistake.shows(spec, "ndcg"):
            continue
        variant = Variant(**{change.axis: change.value})
        assert values[variant] == pytest.approx(mistake.number(spec, "ndcg"), abs=1e-12), entry.name
        compared += 1
    assert compared >= 4


def _collection(spec):
    from ndcg_core.teaching.explain import collection_of, example_of

    return collection_of(example_of(spec))


def test_files_matched_once_give_the_same_figures_each_time_they_are_evaluated(tmp_path):
    # The run is in ranking order already and dA, dB tie: putting them in trec_eval's order must not reorder the
    # matched files themselves, or every second evaluation would undo it.
    qrels, run = files(tmp_path, TIES_QRELS, TIES_RUN)
    prepared = prepare(qrels, run)
    options = EvaluationOptions(cutoffs=(3,))
    by_docno = (2 / log2(3) + 1 / 2) / IDEAL
    assert [evaluate_prepared(prepared, options).columns["ndcg_cut_3"][0] for _ in range(3)] == pytest.approx(
        [by_docno] * 3, abs=1e-12
    )


@pytest.mark.parametrize("measure, idle", [(ndcg_cut(3), ("depth",)), (Measure("ndcg"), ())])
def test_every_variant_s_number_is_evaluate_s_own_under_its_options(tmp_path, measure, idle):
    # The search evaluates tie policies and 32-bit scores only on the queries where they can matter, and reads -M
    # and -c off one evaluation: each number must still be what evaluate gives with the variant's options
    # (-J among them: d6 and d7 are never judged; -M 5 cuts the rankings of 8 for the whole-ranking ndcg).
    rng = np.random.default_rng(5)
    qrels_lines, run_lines = [], []
    for q in range(12):
        docs = [f"d{i}" for i in range(8)]
        qrels_lines += [f"q{q} 0 {d} {rng.integers(0, 4)}\n" for d in docs[:6]] + [f"q{q} 0 x{q} 2\n"]
        if q == 11:
            continue  # judged, not answered: -c counts it
        scores = rng.choice([1.0, 1.0 + 1e-9, 2.0, 2.5, 3.0], size=len(docs))  # ties, and ties only as float32
        run_lines += [f"q{q} Q0 {d} 1 {float(s)!r} t\n" for d, s in zip(docs, scores, strict=True)]
    qrels, run = files(tmp_path, "".join(qrels_lines), "".join(run_lines))
    grades = np.unique(qrels.rel).tolist()
    searched = variant_values(qrels, run, measure)
    assert searched.idle == idle
    assert {v.judged for v in searched.values} == {"all", "only"}
    if measure.cutoff is None:
        assert {v.depth for v in searched.values} == {"all", "5"}
    for variant, value in searched.values.items():
        complete = variant.queries == "complete"
        judged_only = variant.judged == "only"
        scoring = variant.scoring(grades)
        if variant.cut == "max_docs" or variant.max_docs is not None:
            depth = variant.max_docs or 3
            options = EvaluationOptions(scoring, cutoffs=(), complete=complete, max_docs=depth, judged_only=judged_only)
            expected = evaluate(qrels, run, options).mean(Measure("ndcg"))
        else:
            options = EvaluationOptions(scoring, cutoffs=(3,), complete=complete, judged_only=judged_only)
            direct = evaluate(qrels, run, options)
            expected = direct.mean(ndcg_cut(3) if variant.cut == "ndcg_cut" else Measure("ndcg"))
        assert value == pytest.approx(expected, abs=1e-12), variant


def test_matches_at_the_printed_precision_put_tools_and_fewer_changes_first():
    # The sample run's trec_eval ndcg is 0.4021 (out.test.a): asked as NDCG@5, it is "nothing cut", though a
    # variant with worst-order ties as well lands nearer 0.4021 in digits nobody printed.
    sample = Path(__file__).resolve().parents[2] / "ui" / "sample"
    qrels, run = read_qrels(str(sample / "qrels.test")), read_run(str(sample / "results.test"))
    explained = explain_run(qrels, run, ndcg_cut(5), "0.4021")
    assert explained.matches[0].changes == ("cut.ndcg",)
    assert min(abs(m.difference) for m in explained.matches) < abs(explained.matches[0].difference)
