"""Many queries (``ndcg_core.trec``: evaluate, measures, output), checked where mutation testing found them loose.

Expected values are DCGs written out term by term (divided by log2, in rank order, as trec_eval sums them).
"""

import math
from math import log2

import numpy as np
import pyarrow as pa
import pytest

from ndcg_core import evaluate, read_qrels, read_run
from ndcg_core.errors import Place
from ndcg_core.lists.discounts import jk_discount
from ndcg_core.trec.evaluate import Evaluation, evaluation_options, query_ranking
from ndcg_core.trec.measures import NDCG, Measure, ndcg_cut, parse_measure
from ndcg_core.trec.output import format_trec_eval
from ndcg_core.trec.readers import Run
from support import error_of

FAMILIES = "ndcg, ndcg.LEVEL=GAIN,..., ndcg_cut, ndcg_cut.K,... and all_trec"


def qrels_of(text):
    return read_qrels(text.encode())


def run_of(text):
    return read_run(text.encode())


def ranked(qid, *docnos):
    """Run lines for ``docnos`` in this order (scores descending)."""
    return "".join(f"{qid} Q0 {d} {i} {100 - i} t\n" for i, d in enumerate(docnos, start=1))


# --- measures -------------------------------------------------------------------------------------


@pytest.mark.parametrize("family, cutoff", [("ndcg_cut", None), ("ndcg", 5), ("map", None)])
def test_a_measure_is_ndcg_or_ndcg_at_a_cutoff(family, cutoff):
    error = error_of(Measure, family, cutoff)
    assert (error.code, error.fields) == ("measure.unknown", {"value": repr(family), "families": FAMILIES})


def test_parse_one_measure():
    assert Measure.parse("ndcg") == NDCG
    assert Measure.parse("ndcg_cut.10") == Measure("ndcg_cut", 10, params="10")
    error = error_of(Measure.parse, "ndcg_cut.5,10")
    assert (error.code, error.fields) == ("measure.not_one", {"value": "'ndcg_cut.5,10'", "count": 2})
    error = error_of(Measure.parse, "ndcg_cut")  # trec_eval's nine default cutoffs
    assert (error.code, error.fields) == ("measure.not_one", {"value": "'ndcg_cut'", "count": 9})


def test_ndcg_cut_checks_its_k():
    assert ndcg_cut(10) == Measure("ndcg_cut", 10) and ndcg_cut("7").cutoff == 7
    error = error_of(ndcg_cut, "x")
    assert (error.code, error.fields) == ("k.not_whole", {"place": Place("k"), "value": "'x'"})


def test_parse_measure_errors_quote_the_text():
    error = error_of(parse_measure, 5)
    assert (error.code, error.fields) == ("measure.not_text", {"value": "5"})
    error = error_of(parse_measure, "ndcg_at.5")
    assert (error.code, error.fields) == ("measure.unknown", {"value": "'ndcg_at.5'", "families": FAMILIES})
    # The first = splits level from gain: "2=3" is not a gain.
    error = error_of(parse_measure, "ndcg.1=2=3")
    assert (error.code, error.fields) == (
        "number.not_number",
        {"place": Place("measure.gain", level=1, measure="'ndcg.1=2=3'"), "value": "'2=3'"},
    )
    error = error_of(parse_measure, "ndcg.1=2,1=3")
    assert (error.code, error.fields) == ("measure.level_twice", {"measure": "'ndcg.1=2,1=3'", "level": 1})


# --- Evaluation's accessors -----------------------------------------------------------------------

QRELS = "q1 0 a 1\nq1 0 b 2\nq2 0 c 0\nq3 0 d 3\n"
RUN = ranked("q1", "a", "b") + ranked("q2", "c") + ranked("q3", "x", "d")


@pytest.fixture(scope="module")
def three():
    return evaluate(qrels_of(QRELS), run_of(RUN), cutoffs=(1, 5))


def test_an_evaluation_answers_only_for_measures_it_holds(three):
    error = error_of(three.per_query, "ndcg")
    assert (error.code, error.fields) == ("measure.not_text", {"value": "'ndcg'"})
    error = error_of(three.dcg, Measure("ndcg_cut", 7))
    assert (error.code, error.fields) == ("k.not_evaluated", {"value": "7", "cutoffs": "1, 5"})
    for k in (7, 5.0, "5"):
        error = error_of(three.gap, k)
        assert (error.code, error.fields) == ("k.not_evaluated", {"value": repr(k), "cutoffs": "1, 5"})


def test_median_mean_and_the_table(three):
    q1 = (1 + 2 / log2(3)) / (2 + 1 / log2(3))
    q3 = (3 / log2(3)) / 3
    assert three.per_query(NDCG).tolist() == pytest.approx([q1, 0.0, q3], abs=1e-15)
    assert three.median(NDCG) == pytest.approx(q3, abs=1e-15)  # q1 is about 0.86, q3 about 0.63
    assert three.table().index.name == "qid" and three.table().index.tolist() == ["q1", "q2", "q3"]
    empty = Evaluation([], {"ndcg": np.array([])}, evaluation_options(cutoffs=()))
    assert empty.mean(NDCG) == 0.0 and empty.median(NDCG) == 0.0
    assert format_trec_eval(empty, [NDCG]) == "ndcg                  \tall\t0.0000\n"


def test_the_relevant_only_evaluation_drops_queries_without_a_relevant_judgment(three):
    kept = three.with_relevant_only()
    assert kept.qids == ["q1", "q3"] and kept.cutoffs == (1, 5)
    assert kept.per_query(ndcg_cut(1)).tolist() == [1 / 2, 0.0]  # a (1) above b (2); x (unjudged) above d
    assert kept.columns["num_rel"].tolist() == [2, 1]
    assert kept.relevant_only is True and kept.options == three.options and not three.relevant_only
    assert kept.queries_in_blocks is False


def test_output_prints_per_query_lines_only_when_asked(three):
    lines = format_trec_eval(three, [NDCG]).splitlines()
    assert [line.split("\t")[1] for line in lines] == ["all"]
    lines = format_trec_eval(three, [NDCG], per_query=True).splitlines()
    assert [line.split("\t")[1] for line in lines] == ["q1", "q2", "q3", "all"]


# --- the evaluation itself ------------------------------------------------------------------------


def test_log2_terms_are_divided_as_trec_eval_divides():
    # 3 / log2(3) and 3 * (1 / log2(3)) differ in the last bit: trec_eval divides.
    assert 3 / log2(3) != 3 * (1 / log2(3))
    ev = evaluate(qrels_of("q1 0 b 3\n"), run_of(ranked("q1", "a", "b")), cutoffs=(2,))
    assert ev.dcg(NDCG)[0] == 3 / log2(3) and ev.dcg(ndcg_cut(2))[0] == 3 / log2(3)


def test_other_discounts_multiply_by_the_discount_at_each_rank():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\nq1 0 c 3\nq1 0 d 4\n")
    ev = evaluate(qrels, run_of(ranked("q1", "a", "b", "c", "d")), cutoffs=(4,), discount=jk_discount(3.0))
    # b = 3: ranks 1 and 2 in full, then log(3) / log(i).
    expected = 1 + 2 + 3 * (math.log(3) / math.log(3)) + 4 * (math.log(3) / math.log(4))
    assert ev.dcg(NDCG)[0] == pytest.approx(expected, abs=1e-12)


def test_ndcg_is_at_most_1_when_rounding_favours_the_run():
    # Gains 0.1, 0.2, 0.3 at three ranks that all keep their gain: 0.1 + 0.2 + 0.3 rounds above 0.3 + 0.2 + 0.1.
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\nq1 0 c 3\n")
    ev = evaluate(
        qrels,
        run_of(ranked("q1", "a", "b", "c")),
        cutoffs=(3,),
        full_gain={1: 0.1, 2: 0.2, 3: 0.3},
        discount=jk_discount(3.0),
    )
    assert ev.dcg(NDCG)[0] > ev.idcg(NDCG)[0] and ev.per_query(NDCG)[0] == 1.0


def test_each_gain_is_scaled_on_its_own():
    # A bug mutation testing showed: with gain 2^g - 1 at cutoffs and a custom gain for ndcg, both were scaled
    # by the larger gain's power of two, which rounded the custom gains to 0 and NDCG to 0.0.
    ev = evaluate(
        qrels_of("q1 0 a 2000\nq1 0 b 1\n"),
        run_of(ranked("q1", "a", "b")),
        cutoffs=(1,),
        gain="exponential",
        full_gain={2000: 5},
    )
    assert ev.dcg(NDCG)[0] == 5 + 1 / log2(3) and ev.per_query(NDCG)[0] == 1.0
    assert ev.per_query(ndcg_cut(1))[0] == 1.0


def test_a_negative_grade_takes_no_part_in_its_query_scale():
    # Negative grades add nothing (as in trec_eval), and neither do they raise the power of two a query's gains
    # are divided by when another query's gains are huge: |-9| would divide q2's tiny gain by 16, into the
    # subnormal range, where its last bits are lost.
    tiny = 3e-308
    qrels = qrels_of("q1 0 a 2\nq2 0 b 1\nq2 0 z -9\n")
    ev = evaluate(qrels, run_of(ranked("q1", "a") + ranked("q2", "b", "z")), cutoffs=(1,), gain={1: tiny, 2: 1e300})
    assert ev.dcg(ndcg_cut(1))[1] == tiny and ev.dcg(NDCG)[1] == tiny
    assert ev.per_query(NDCG).tolist() == [1.0, 1.0]
    only_ndcg = evaluate(qrels, run_of(ranked("q1", "a") + ranked("q2", "b", "z")), full_gain={1: tiny, 2: 1e300})
    assert only_ndcg.dcg(NDCG)[1] == tiny  # ndcg's own gain is scaled on its own (ndcg_cut's is linear)


def test_huge_gains_are_scaled_by_their_own_query_and_pool():
    qrels = qrels_of("q1 0 a 2000\nq1 0 b 1999\nq2 0 c 1\nq2 0 d 2\n")
    ev = evaluate(qrels, run_of(ranked("q1", "b", "a") + ranked("q2", "c", "d")), cutoffs=(2,), gain="exponential")
    # q2's gains (1 and 3) are not scaled by q1's 2^2000: its NDCG is exact.
    assert ev.per_query(NDCG)[1] == pytest.approx((1 + 3 / log2(3)) / (3 + 1 / log2(3)), abs=1e-15)
    # q1's DCGs are beyond a double: its gap is inf, unless the order is perfect.
    assert ev.gap(2).tolist() == [math.inf, pytest.approx(3 + 1 / log2(3) - 1 - 3 / log2(3), abs=1e-12)]
    perfect = evaluate(qrels, run_of(ranked("q1", "a", "b") + ranked("q2", "d", "c")), cutoffs=(2,), gain="exponential")
    assert perfect.gap(2).tolist() == [0.0, 0.0]


def test_huge_gains_of_unretrieved_judgments_scale_the_ideal():
    # The ideal holds the unretrieved 2^1931: scaled by the pool, the run's 2^901 still counts (about 2^-1030).
    ev = evaluate(qrels_of("q1 0 a 901\nq1 0 b 1931\n"), run_of(ranked("q1", "a")), cutoffs=(1,), gain="exponential")
    assert 0 < ev.per_query(NDCG)[0] < 1e-300


def test_an_ideal_of_the_run_is_scaled_by_the_run():
    # An unretrieved 2^2000 is not part of this ideal, so it does not scale the run's small gains to 0.
    qrels = qrels_of("q1 0 a 2\nq1 0 b 2000\n")
    ev = evaluate(qrels, run_of(ranked("q1", "a")), cutoffs=(1,), gain="exponential", ideal="run")
    assert ev.per_query(NDCG)[0] == 1.0
    huge = evaluate(qrels, run_of(ranked("q1", "b", "a")), cutoffs=(1,), gain="exponential", ideal="run")
    assert huge.per_query(NDCG)[0] == 1.0 and huge.per_query(ndcg_cut(1))[0] == 1.0


def test_a_custom_gain_for_grade_0_can_need_scaling_too():
    # Three documents of grade 0 with gain 1e308: their DCG overflows unless scaled.
    qrels = qrels_of("q1 0 a 0\nq1 0 b 0\nq1 0 c 0\n")
    ev = evaluate(qrels, run_of(ranked("q1", "a", "b", "c")), cutoffs=(3,), full_gain={0: 1e308})
    assert ev.per_query(NDCG)[0] == 1.0 and ev.dcg(NDCG)[0] == math.inf and ev.idcg(NDCG)[0] == math.inf


def test_averaged_ties_with_max_docs():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 0\nq1 0 c 2\n")
    run = run_of("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\nq1 Q0 c 3 0.5 t\n")
    ev = evaluate(qrels, run, cutoffs=(3,), ties="average", max_docs=2)
    # a and b tie: each counts (1 + 0) / 2; c is beyond -M 2.
    assert ev.dcg(NDCG)[0] == pytest.approx(0.5 + 0.5 / log2(3), abs=1e-15)


def test_dictionary_encoded_docnos_are_looked_up_as_plain_ones():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\nq1 0 c 3\n")
    plain = run_of(ranked("q1", "x", "b", "a", "y"))
    encoded = Run(plain.qid, plain.docno.dictionary_encode(), plain.score, "run", "t")
    assert pa.types.is_dictionary(encoded.docno.type)
    ev = evaluate(qrels, encoded, cutoffs=(4,))
    assert ev.dcg(NDCG)[0] == 2 / log2(3) + 1 / log2(4)
    assert ev.columns["num_rel_ret"].tolist() == [2]


# --- one query's ranking --------------------------------------------------------------------------


def test_query_ranking_compares_doubles_and_cuts_at_max_docs():
    qrels = qrels_of("q1 0 a 1\nq2 0 z 1\n")
    run = run_of("q1 Q0 a 1 1.000000000001 t\nq1 Q0 b 2 1.0 t\nq3 Q0 c 1 1 t\n")
    assert query_ranking(qrels, run, "q1")["docnos"] == ["a", "b"]  # as doubles, a scores higher
    run = run_of("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.000000000001 t\nq3 Q0 c 1 1 t\n")
    result = query_ranking(qrels, run, "q1")
    assert result == {
        "qid": "q1",
        "docnos": ["b", "a"],
        "grades": [None, 1],
        "scores": [1.000000000001, 1.0],
        "pool": {"a": 1},
    }
    assert query_ranking(qrels, run, "q1", float32_scores=True)["docnos"] == ["b", "a"]  # tied: b > a
    assert query_ranking(qrels, run, "q1", max_docs=1)["docnos"] == ["b"]
    assert query_ranking(qrels, run, "q2") == {"qid": "q2", "docnos": [], "grades": [], "scores": [], "pool": {"z": 1}}
    assert query_ranking(qrels, run, "q3")["pool"] == {} and query_ranking(qrels, run, "q3")["docnos"] == ["c"]
    error = error_of(query_ranking, qrels, run, "q1", float32_scores="yes")
    assert (error.code, error.fields) == ("flag.not_bool", {"name": "float32_scores", "value": "'yes'"})


def test_options_counts_and_in_run_of_an_evaluation():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\nq1 0 c 0\nq2 0 d 1\n")
    ev = evaluate(qrels, run_of(ranked("q1", "a", "b", "c", "x")), cutoffs=(2,), complete=True, max_docs=3)
    assert ev.options == evaluation_options(cutoffs=(2,), complete=True, max_docs=3)
    gains = (ev.options.gain_cut.name, ev.options.gain_full.name, ev.options.discount.name)
    assert gains == ("linear", "linear", "log2")
    assert (ev.options.ties, ev.options.ideal, ev.options.float32_scores) == ("trec_eval", "qrels", False)
    assert (ev.qrels_name, ev.run_name, ev.tag, ev.relevant_only) == ("input", "input", "t", False)
    assert ev.columns["in_run"].tolist() == [True, False]
    assert ev.columns["num_ret"].tolist() == [3, 0] and ev.columns["num_judged"].tolist() == [3, 1]
    assert ev.columns["num_rel"].tolist() == [2, 1] and ev.columns["num_rel_ret"].tolist() == [2, 0]
    custom = evaluate(qrels, run_of(ranked("q1", "a")), full_gain={1: 3})
    assert (custom.options.gain_cut.name, custom.options.gain_full.name) == ("linear", "custom(1=3)")


def test_a_cut_gain_counts_where_the_custom_ndcg_gain_is_0():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\n")
    ev = evaluate(qrels, run_of(ranked("q1", "a", "b")), cutoffs=(2,), full_gain={1: 0})
    assert ev.dcg(ndcg_cut(2))[0] == 1 + 2 / log2(3)  # the grades themselves at the cutoffs
    assert ev.dcg(NDCG)[0] == 2 / log2(3)  # grade 1 gains 0 for ndcg


def test_averaged_ties_average_the_custom_ndcg_gain_too():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\n")
    run = run_of("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\n")
    ev = evaluate(qrels, run, cutoffs=(2,), ties="average", full_gain={1: 10, 2: 20})
    assert ev.dcg(NDCG)[0] == pytest.approx(15 + 15 / log2(3), abs=1e-12)
    assert ev.dcg(ndcg_cut(2))[0] == pytest.approx(1.5 + 1.5 / log2(3), abs=1e-12)


def test_evaluate_names_a_bad_ideal_and_a_bad_flag():
    qrels, run = qrels_of("q1 0 a 1\n"), run_of(ranked("q1", "a"))
    error = error_of(evaluate, qrels, run, ideal="pool")
    assert (error.code, error.fields) == ("ideal.unknown", {"value": "'pool'", "choices": "qrels, run"})
    error = error_of(evaluate, qrels, run, float32_scores=1)
    assert (error.code, error.fields) == ("flag.not_bool", {"name": "float32_scores", "value": "1"})


def test_minus_zero_and_zero_tie_as_in_c():
    qrels = qrels_of("q1 0 a 0\nq1 0 b 1\n")
    # a scores 0.0 and b -0.0: tied, so b (the larger docno) ranks first and NDCG@1 is 1.
    ev = evaluate(qrels, run_of("q1 Q0 a 1 0.0 t\nq1 Q0 b 2 -0.0 t\n"), cutoffs=(1,))
    assert ev.per_query(ndcg_cut(1))[0] == 1.0


def test_averaged_ties_cut_by_max_docs_keep_the_larger_docnos():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 0\nq1 0 c 2\n")
    run = run_of("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\nq1 Q0 c 3 1.0 t\n")
    ev = evaluate(qrels, run, cutoffs=(2,), ties="average", max_docs=2)
    # All three tie; -M 2 keeps c and b (docno descending), each counting (2 + 0) / 2.
    assert ev.dcg(NDCG)[0] == pytest.approx(1 + 1 / log2(3), abs=1e-15)


def test_tied_dictionary_encoded_docnos_are_ordered_by_their_text():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\n")
    plain = run_of("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\n")
    encoded = Run(plain.qid, plain.docno.dictionary_encode(), plain.score, "run", "t")
    ev = evaluate(qrels, encoded, cutoffs=(1,))
    assert ev.per_query(ndcg_cut(1))[0] == 1.0  # b (grade 2) before a


def test_a_custom_ndcg_gain_is_scaled_with_its_ideal():
    # Gains of 1e300 need scaling; the run has the smaller one first.
    qrels = qrels_of("q1 0 a 0\nq1 0 b 1\n")
    ev = evaluate(qrels, run_of(ranked("q1", "b", "a")), cutoffs=(1,), full_gain={0: 1e300, 1: 5e299})
    expected = (5e299 + 1e300 / log2(3)) / (1e300 + 5e299 / log2(3))
    assert ev.per_query(NDCG)[0] == pytest.approx(expected, rel=1e-12)


def test_the_relevant_only_evaluation_keeps_how_the_run_was_read():
    columns = {"ndcg": np.array([0.5, 0.0]), "num_rel": np.array([1, 0])}
    blocks = Evaluation(["q1", "q2"], columns, evaluation_options(cutoffs=()), queries_in_blocks=True)
    kept = blocks.with_relevant_only()
    assert kept.qids == ["q1"] and kept.queries_in_blocks is True and kept.relevant_only is True
