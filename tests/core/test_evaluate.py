"""evaluate(): the per-query table, trec_eval's published means, drill-down and option checks."""

import itertools
import math
import random
from math import log2

import numpy as np
import pyarrow as pa
import pytest

from ndcg_core import (
    EvaluationOptions,
    InputError,
    Scoring,
    evaluate,
    query_ranking,
    read_qrels,
    read_run,
)
from ndcg_core.errors import Place
from ndcg_core.trec.evaluate import Evaluation
from ndcg_core.trec.measures import NDCG, Measure, ndcg_cut, parse_measure
from ndcg_core.trec.output import format_trec_eval
from ndcg_core.trec.readers import Run
from support import TREC, error_of, means


@pytest.fixture(scope="module")
def sample():
    return read_qrels(TREC / "qrels.test"), read_run(TREC / "results.test")


def test_means_equal_trec_eval_published_values(sample):
    mean = means(evaluate(*sample))
    # out.test.a: ndcg 0.4021, ndcg_cut_10 0.3016, ndcg_cut_100 0.3916
    assert round(mean["ndcg"], 4) == 0.4021
    assert round(mean["ndcg_cut_10"], 4) == 0.3016
    assert round(mean["ndcg_cut_100"], 4) == 0.3916


def test_per_query_table_has_figures_and_counts(sample):
    frame = evaluate(*sample, EvaluationOptions(cutoffs=(5, 10))).table()
    assert list(frame.index) == ["301", "302", "303"]
    assert {
        "ndcg",
        "ndcg_cut_5",
        "ndcg_cut_10",
        "dcg",
        "idcg",
        "dcg_cut_10",
        "idcg_cut_10",
        "num_ret",
        "num_judged",
        "num_rel",
        "num_rel_ret",
    } <= set(frame.columns)
    # out.test.aq: num_ret 500 each; num_rel 474, 77, 10
    assert frame["num_ret"].tolist() == [500, 500, 500]
    assert frame["num_rel"].tolist() == [474, 77, 10]
    assert (frame["ndcg_cut_10"] == frame["dcg_cut_10"] / frame["idcg_cut_10"]).all()


def test_a_tiny_collection_by_formula():
    qrels = read_qrels(b"q 0 a 3\nq 0 b 0\nq 0 c 2\nq 0 x 1\n")  # x is judged but not retrieved
    run = read_run(b"q Q0 a 1 3 s\nq Q0 b 2 2 s\nq Q0 c 3 1 s\nq Q0 u 4 0.5 s\n")  # u is unjudged
    row = evaluate(qrels, run, EvaluationOptions(cutoffs=(2, 3))).table().loc["q"]
    assert row["dcg_cut_3"] == pytest.approx(3 + 0 + 2 / log2(4))
    assert row["idcg_cut_3"] == pytest.approx(3 + 2 / log2(3) + 1 / log2(4))
    assert row["ndcg"] == pytest.approx((3 + 2 / log2(4)) / (3 + 2 / log2(3) + 1 / log2(4)))
    assert row["num_ret"] == 4 and row["num_judged"] == 4 and row["num_rel_ret"] == 2
    from_run = evaluate(qrels, run, EvaluationOptions(Scoring(ideal="list"), cutoffs=(3,))).table().loc["q"]
    assert from_run["ndcg_cut_3"] == pytest.approx((3 + 2 / log2(4)) / (3 + 2 / log2(3)))


def test_exponential_gain_and_max_docs():
    qrels = read_qrels(b"q 0 a 1\nq 0 b 3\n")
    run = read_run(b"q Q0 a 1 2 s\nq Q0 b 2 1 s\n")
    row = (
        evaluate(qrels, run, EvaluationOptions(Scoring(gain="exponential", ideal="pool"), cutoffs=(2,)))
        .table()
        .loc["q"]
    )
    assert row["ndcg_cut_2"] == pytest.approx((1 + 7 / log2(3)) / (7 + 1 / log2(3)))
    cut = evaluate(qrels, run, EvaluationOptions(cutoffs=(2,), max_docs=1)).table().loc["q"]
    assert cut["num_ret"] == 1 and cut["ndcg"] == pytest.approx(1 / (3 + 1 / log2(3)))


def test_drill_down_gives_the_ranked_grades_and_the_pool():
    qrels = read_qrels(b"q 0 a 1\nq 0 b 3\nq 0 x 2\n")
    run = read_run(b"q Q0 a 1 1.0 s\nq Q0 b 2 1.0 s\nq Q0 u 3 5 s\n")
    ranking = query_ranking(qrels, run, "q")
    assert ranking["docnos"] == ["u", "b", "a"]  # score, then docno descending for the tie
    assert ranking["grades"] == [None, 3, 1]
    assert sorted(ranking["pool"].values()) == [1, 2, 3]


@pytest.mark.parametrize(
    "make, code",
    [
        (lambda: EvaluationOptions(cutoffs=(0,)), "k.too_small"),
        (lambda: EvaluationOptions(cutoffs=("x",)), "k.not_whole"),
        (lambda: Scoring(ideal="qrels"), "ideal.unknown"),
        (lambda: Scoring(ties="random"), "ties.unknown"),
        (lambda: EvaluationOptions(max_docs=0), "k.too_small"),
        (lambda: Scoring(gain="cubic"), "gain.unknown"),
        (lambda: Scoring(discount="ln"), "discount.unknown"),
        (lambda: Scoring(k=0), "k.too_small"),
        (lambda: EvaluationOptions(complete="yes"), "flag.not_bool"),
    ],
)
def test_bad_options_are_value_errors(make, code):
    with pytest.raises(InputError) as raised:
        make()
    assert raised.value.code == code


def test_a_scoring_s_k_is_one_more_cutoff(sample):
    with_k = EvaluationOptions(Scoring(k=3, ideal="pool"), cutoffs=(10, 5))
    assert with_k == EvaluationOptions(cutoffs=(3, 5, 10)) and with_k.scoring.k is None
    assert evaluate(*sample, with_k).cutoffs == (3, 5, 10)


def test_a_repeated_cutoff_is_the_same_cutoff(sample):
    assert evaluate(*sample, EvaluationOptions(cutoffs=(5, 10, 5))).cutoffs == (5, 10)


def test_gap_is_ideal_dcg_minus_dcg_at_an_evaluated_cutoff():
    # q ranks a (3), b (0), c (2), u (unjudged), with x (1) judged but not retrieved; r is ranked ideally.
    qrels = read_qrels(b"q 0 a 3\nq 0 b 0\nq 0 c 2\nq 0 x 1\nr 0 a 2\nr 0 b 1\n")
    run = read_run(b"q Q0 a 1 4 s\nq Q0 b 2 3 s\nq Q0 c 3 2 s\nq Q0 u 4 1 s\nr Q0 a 1 2 s\nr Q0 b 2 1 s\n")
    tiny = evaluate(qrels, run, EvaluationOptions(cutoffs=(1, 3, 10)))
    assert tiny.qids == ["q", "r"]
    assert list(tiny.gap(1)) == [0.0, 0.0]  # both put their best document first
    ideal3, actual3 = 3 + 2 / log2(3) + 1 / log2(4), 3 + 0 + 2 / log2(4)
    assert list(tiny.gap(3)) == pytest.approx([ideal3 - actual3, 0.0], abs=1e-12)
    assert list(tiny.gap(10)) == pytest.approx([ideal3 - actual3, 0.0], abs=1e-12)  # nothing below rank 4
    result = evaluate(
        read_qrels(TREC / "qrels.test"), read_run(TREC / "results.test"), EvaluationOptions(cutoffs=(5, 10))
    )
    assert (result.gap(10) >= 0).all()
    with pytest.raises(ValueError, match="k = 7 was not evaluated"):
        result.gap(7)


def test_complete_with_a_run_that_shares_no_query_scores_the_judged_queries_zero():
    result = evaluate(
        read_qrels(b"1 0 a 1\n"), read_run(b"2 Q0 a 1 1 s\n"), EvaluationOptions(complete=True, cutoffs=(5,))
    )
    assert result.qids == ["1"]
    assert result.columns["ndcg"].dtype == np.float64 and means(result) == {"ndcg": 0.0, "ndcg_cut_5": 0.0}


def test_equal_options_are_one_value_so_a_page_can_key_its_cache_by_them():
    same = [
        EvaluationOptions(Scoring(gain=g, discount=d, ideal="pool"), cutoffs=(5, 10))
        for g, d in (("linear", "log2"),) * 2
    ]
    assert same[0] == same[1] and hash(same[0]) == hash(same[1])
    assert EvaluationOptions(Scoring(gain="custom", gain_table=((1, 3),), ideal="pool")) == EvaluationOptions(
        Scoring(gain="custom", gain_table=((1, 3.0),), ideal="pool")
    )
    different = [
        EvaluationOptions(),
        EvaluationOptions(Scoring(gain="exponential", ideal="pool")),
        EvaluationOptions(Scoring(gain="custom", gain_table=((1, 3),), ideal="pool")),
        EvaluationOptions(Scoring(gain="custom", gain_table=((1, 4),), ideal="pool")),
        EvaluationOptions(full_gain=((1, 3),)),
        EvaluationOptions(Scoring(discount="jk", ideal="pool")),
        EvaluationOptions(Scoring(discount="jk", base=3, ideal="pool")),
        EvaluationOptions(cutoffs=(5,)),
        EvaluationOptions(Scoring(float32_scores=True, ideal="pool")),
    ]
    assert len(set(different)) == len(different)


def test_the_evaluation_carries_its_options_and_what_it_read(sample):
    chosen = EvaluationOptions(Scoring(gain="exponential", ties="average", ideal="pool"), cutoffs=(5,))
    evaluation = evaluate(
        *sample, EvaluationOptions(Scoring(gain="exponential", ties="average", ideal="pool"), cutoffs=(5,))
    )
    assert evaluation.options == chosen and evaluation.cutoffs == (5,)
    assert (evaluation.qrels_name, evaluation.run_name, evaluation.relevant_only) == (
        str(TREC / "qrels.test"),
        str(TREC / "results.test"),
        False,
    )


# --- measures, an evaluation's accessors, the evaluation written out, one query's ranking ---------------------------

# Expected values are DCGs written out term by term (divided by log2, in rank order, as trec_eval sums them).

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
    return evaluate(qrels_of(QRELS), run_of(RUN), EvaluationOptions(cutoffs=(1, 5)))


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
    empty = Evaluation([], {"ndcg": np.array([])}, EvaluationOptions(cutoffs=()))
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
    ev = evaluate(qrels_of("q1 0 b 3\n"), run_of(ranked("q1", "a", "b")), EvaluationOptions(cutoffs=(2,)))
    assert ev.dcg(NDCG)[0] == 3 / log2(3) and ev.dcg(ndcg_cut(2))[0] == 3 / log2(3)


def test_other_discounts_multiply_by_the_discount_at_each_rank():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\nq1 0 c 3\nq1 0 d 4\n")
    ev = evaluate(
        qrels,
        run_of(ranked("q1", "a", "b", "c", "d")),
        EvaluationOptions(Scoring(discount="jk", base=3.0, ideal="pool"), cutoffs=(4,)),
    )
    # b = 3: ranks 1 and 2 in full, then log(3) / log(i).
    expected = 1 + 2 + 3 * (math.log(3) / math.log(3)) + 4 * (math.log(3) / math.log(4))
    assert ev.dcg(NDCG)[0] == pytest.approx(expected, abs=1e-12)


def test_ndcg_is_at_most_1_when_rounding_favours_the_run():
    # Gains 0.1, 0.2, 0.3 at three ranks that all keep their gain: 0.1 + 0.2 + 0.3 rounds above 0.3 + 0.2 + 0.1.
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\nq1 0 c 3\n")
    ev = evaluate(
        qrels,
        run_of(ranked("q1", "a", "b", "c")),
        EvaluationOptions(
            Scoring(discount="jk", base=3.0, ideal="pool"), cutoffs=(3,), full_gain=((1, 0.1), (2, 0.2), (3, 0.3))
        ),
    )
    assert ev.dcg(NDCG)[0] > ev.idcg(NDCG)[0] and ev.per_query(NDCG)[0] == 1.0


def test_each_gain_is_scaled_on_its_own():
    # A bug mutation testing showed: with gain 2^g - 1 at cutoffs and a custom gain for ndcg, both were scaled
    # by the larger gain's power of two, which rounded the custom gains to 0 and NDCG to 0.0.
    ev = evaluate(
        qrels_of("q1 0 a 2000\nq1 0 b 1\n"),
        run_of(ranked("q1", "a", "b")),
        EvaluationOptions(Scoring(gain="exponential", ideal="pool"), cutoffs=(1,), full_gain=((2000, 5),)),
    )
    assert ev.dcg(NDCG)[0] == 5 + 1 / log2(3) and ev.per_query(NDCG)[0] == 1.0
    assert ev.per_query(ndcg_cut(1))[0] == 1.0


def test_a_negative_grade_takes_no_part_in_its_query_scale():
    # Negative grades add nothing (as in trec_eval), and neither do they raise the power of two a query's gains
    # are divided by when another query's gains are huge: |-9| would divide q2's tiny gain by 16, into the
    # subnormal range, where its last bits are lost.
    tiny = 3e-308
    qrels = qrels_of("q1 0 a 2\nq2 0 b 1\nq2 0 z -9\n")
    ev = evaluate(
        qrels,
        run_of(ranked("q1", "a") + ranked("q2", "b", "z")),
        EvaluationOptions(
            Scoring(gain="custom", gain_table=tuple({1: tiny, 2: 1e300}.items()), ideal="pool"), cutoffs=(1,)
        ),
    )
    assert ev.dcg(ndcg_cut(1))[1] == tiny and ev.dcg(NDCG)[1] == tiny
    assert ev.per_query(NDCG).tolist() == [1.0, 1.0]
    only_ndcg = evaluate(
        qrels,
        run_of(ranked("q1", "a") + ranked("q2", "b", "z")),
        EvaluationOptions(full_gain=tuple({1: tiny, 2: 1e300}.items())),
    )
    assert only_ndcg.dcg(NDCG)[1] == tiny  # ndcg's own gain is scaled on its own (ndcg_cut's is linear)


def test_huge_gains_are_scaled_by_their_own_query_and_pool():
    qrels = qrels_of("q1 0 a 2000\nq1 0 b 1999\nq2 0 c 1\nq2 0 d 2\n")
    ev = evaluate(
        qrels,
        run_of(ranked("q1", "b", "a") + ranked("q2", "c", "d")),
        EvaluationOptions(Scoring(gain="exponential", ideal="pool"), cutoffs=(2,)),
    )
    # q2's gains (1 and 3) are not scaled by q1's 2^2000: its NDCG is exact.
    assert ev.per_query(NDCG)[1] == pytest.approx((1 + 3 / log2(3)) / (3 + 1 / log2(3)), abs=1e-15)
    # q1's DCGs are beyond a double: its gap is inf, unless the order is perfect.
    assert ev.gap(2).tolist() == [math.inf, pytest.approx(3 + 1 / log2(3) - 1 - 3 / log2(3), abs=1e-12)]
    perfect = evaluate(
        qrels,
        run_of(ranked("q1", "a", "b") + ranked("q2", "d", "c")),
        EvaluationOptions(Scoring(gain="exponential", ideal="pool"), cutoffs=(2,)),
    )
    assert perfect.gap(2).tolist() == [0.0, 0.0]


def test_huge_gains_of_unretrieved_judgments_scale_the_ideal():
    # The ideal holds the unretrieved 2^1931: scaled by the pool, the run's 2^901 still counts (about 2^-1030).
    ev = evaluate(
        qrels_of("q1 0 a 901\nq1 0 b 1931\n"),
        run_of(ranked("q1", "a")),
        EvaluationOptions(Scoring(gain="exponential", ideal="pool"), cutoffs=(1,)),
    )
    assert 0 < ev.per_query(NDCG)[0] < 1e-300


def test_an_ideal_of_the_run_is_scaled_by_the_run():
    # An unretrieved 2^2000 is not part of this ideal, so it does not scale the run's small gains to 0.
    qrels = qrels_of("q1 0 a 2\nq1 0 b 2000\n")
    ev = evaluate(
        qrels, run_of(ranked("q1", "a")), EvaluationOptions(Scoring(gain="exponential", ideal="list"), cutoffs=(1,))
    )
    assert ev.per_query(NDCG)[0] == 1.0
    huge = evaluate(
        qrels,
        run_of(ranked("q1", "b", "a")),
        EvaluationOptions(Scoring(gain="exponential", ideal="list"), cutoffs=(1,)),
    )
    assert huge.per_query(NDCG)[0] == 1.0 and huge.per_query(ndcg_cut(1))[0] == 1.0


def test_a_custom_gain_for_grade_0_can_need_scaling_too():
    # Three documents of grade 0 with gain 1e308: their DCG overflows unless scaled.
    qrels = qrels_of("q1 0 a 0\nq1 0 b 0\nq1 0 c 0\n")
    ev = evaluate(qrels, run_of(ranked("q1", "a", "b", "c")), EvaluationOptions(cutoffs=(3,), full_gain=((0, 1e308),)))
    assert ev.per_query(NDCG)[0] == 1.0 and ev.dcg(NDCG)[0] == math.inf and ev.idcg(NDCG)[0] == math.inf


def test_averaged_ties_with_max_docs():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 0\nq1 0 c 2\n")
    run = run_of("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\nq1 Q0 c 3 0.5 t\n")
    ev = evaluate(qrels, run, EvaluationOptions(Scoring(ties="average", ideal="pool"), cutoffs=(3,), max_docs=2))
    # a and b tie: each counts (1 + 0) / 2; c is beyond -M 2.
    assert ev.dcg(NDCG)[0] == pytest.approx(0.5 + 0.5 / log2(3), abs=1e-15)


def test_dictionary_encoded_docnos_are_looked_up_as_plain_ones():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\nq1 0 c 3\n")
    plain = run_of(ranked("q1", "x", "b", "a", "y"))
    encoded = Run(plain.qid, plain.docno.dictionary_encode(), plain.score, "run", "t")
    assert pa.types.is_dictionary(encoded.docno.type)
    ev = evaluate(qrels, encoded, EvaluationOptions(cutoffs=(4,)))
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
    ev = evaluate(
        qrels, run_of(ranked("q1", "a", "b", "c", "x")), EvaluationOptions(cutoffs=(2,), complete=True, max_docs=3)
    )
    assert ev.options == EvaluationOptions(cutoffs=(2,), complete=True, max_docs=3)
    scoring = ev.options.scoring
    assert (scoring.gain, scoring.gain_table, scoring.discount, ev.options.full_gain) == ("linear", (), "log2", None)
    assert (scoring.ties, scoring.ideal, scoring.float32_scores) == ("trec_eval", "pool", False)
    assert (ev.qrels_name, ev.run_name, ev.tag, ev.relevant_only) == ("input", "input", "t", False)
    assert ev.columns["in_run"].tolist() == [True, False]
    assert ev.columns["num_ret"].tolist() == [3, 0] and ev.columns["num_judged"].tolist() == [3, 1]
    assert ev.columns["num_rel"].tolist() == [2, 1] and ev.columns["num_rel_ret"].tolist() == [2, 0]
    custom = evaluate(qrels, run_of(ranked("q1", "a")), EvaluationOptions(full_gain=((1, 3),)))
    assert (custom.options.scoring.gain, custom.options.full_gain) == ("linear", ((1, 3),))


def test_a_cut_gain_counts_where_the_custom_ndcg_gain_is_0():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\n")
    ev = evaluate(qrels, run_of(ranked("q1", "a", "b")), EvaluationOptions(cutoffs=(2,), full_gain=((1, 0),)))
    assert ev.dcg(ndcg_cut(2))[0] == 1 + 2 / log2(3)  # the grades themselves at the cutoffs
    assert ev.dcg(NDCG)[0] == 2 / log2(3)  # grade 1 gains 0 for ndcg


def test_averaged_ties_average_the_custom_ndcg_gain_too():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\n")
    run = run_of("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\n")
    ev = evaluate(
        qrels, run, EvaluationOptions(Scoring(ties="average", ideal="pool"), cutoffs=(2,), full_gain=((1, 10), (2, 20)))
    )
    assert ev.dcg(NDCG)[0] == pytest.approx(15 + 15 / log2(3), abs=1e-12)
    assert ev.dcg(ndcg_cut(2))[0] == pytest.approx(1.5 + 1.5 / log2(3), abs=1e-12)


def test_a_scoring_names_a_bad_ideal_and_a_bad_flag():
    error = error_of(Scoring, ideal="qrels")
    assert (error.code, error.fields) == ("ideal.unknown", {"value": "'qrels'", "choices": "list, pool"})
    error = error_of(Scoring, float32_scores=1)
    assert (error.code, error.fields) == ("flag.not_bool", {"name": "float32_scores", "value": "1"})


def test_minus_zero_and_zero_tie_as_in_c():
    qrels = qrels_of("q1 0 a 0\nq1 0 b 1\n")
    # a scores 0.0 and b -0.0: tied, so b (the larger docno) ranks first and NDCG@1 is 1.
    ev = evaluate(qrels, run_of("q1 Q0 a 1 0.0 t\nq1 Q0 b 2 -0.0 t\n"), EvaluationOptions(cutoffs=(1,)))
    assert ev.per_query(ndcg_cut(1))[0] == 1.0


def test_averaged_ties_cut_by_max_docs_keep_the_larger_docnos():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 0\nq1 0 c 2\n")
    run = run_of("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\nq1 Q0 c 3 1.0 t\n")
    ev = evaluate(qrels, run, EvaluationOptions(Scoring(ties="average", ideal="pool"), cutoffs=(2,), max_docs=2))
    # All three tie; -M 2 keeps c and b (docno descending), each counting (2 + 0) / 2.
    assert ev.dcg(NDCG)[0] == pytest.approx(1 + 1 / log2(3), abs=1e-15)


def test_tied_dictionary_encoded_docnos_are_ordered_by_their_text():
    qrels = qrels_of("q1 0 a 1\nq1 0 b 2\n")
    plain = run_of("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0 t\n")
    encoded = Run(plain.qid, plain.docno.dictionary_encode(), plain.score, "run", "t")
    ev = evaluate(qrels, encoded, EvaluationOptions(cutoffs=(1,)))
    assert ev.per_query(ndcg_cut(1))[0] == 1.0  # b (grade 2) before a


def test_a_custom_ndcg_gain_is_scaled_with_its_ideal():
    # Gains of 1e300 need scaling; the run has the smaller one first.
    qrels = qrels_of("q1 0 a 0\nq1 0 b 1\n")
    ev = evaluate(
        qrels, run_of(ranked("q1", "b", "a")), EvaluationOptions(cutoffs=(1,), full_gain=((0, 1e300), (1, 5e299)))
    )
    expected = (5e299 + 1e300 / log2(3)) / (1e300 + 5e299 / log2(3))
    assert ev.per_query(NDCG)[0] == pytest.approx(expected, rel=1e-12)


def test_the_relevant_only_evaluation_keeps_how_the_run_was_read():
    columns = {"ndcg": np.array([0.5, 0.0]), "num_rel": np.array([1, 0])}
    blocks = Evaluation(["q1", "q2"], columns, EvaluationOptions(cutoffs=()), queries_in_blocks=True)
    kept = blocks.with_relevant_only()
    assert kept.qids == ["q1"] and kept.queries_in_blocks is True and kept.relevant_only is True


# --- tie policies of the multi-query evaluation ---------------------------------------------------------------------

# Expected values are DCGs written out with their log2 terms, or a brute force over every order.


def hand_dcg(gains, k=None):
    """DCG written out: the gain at rank i divided by log2(i + 1)."""
    top = list(gains) if k is None else list(gains)[:k]
    return sum(g / math.log2(i + 1) for i, g in enumerate(top, start=1))


TIED = b"q1 0 a 1\nq1 0 b 0\nq2 0 c 2\nq2 0 d 0\nq2 0 e 1\n"
TIED_RUN = (
    b"q1 Q0 a 1 1.0 s\nq1 Q0 b 2 1.0 s\n"  # a and b tie
    b"q2 Q0 c 1 0.5 s\nq2 Q0 d 2 0.5 s\nq2 Q0 e 3 0.5 s\n"  # all three tie
)


def test_best_and_worst_ties_in_evaluate_by_hand():
    qrels, run = read_qrels(TIED), read_run(TIED_RUN)
    best = evaluate(qrels, run, EvaluationOptions(Scoring(ties="best", ideal="pool"), cutoffs=(1, 3))).table()
    worst = evaluate(qrels, run, EvaluationOptions(Scoring(ties="worst", ideal="pool"), cutoffs=(1, 3))).table()
    trec = evaluate(qrels, run, EvaluationOptions(Scoring(ties="trec_eval", ideal="pool"), cutoffs=(1, 3))).table()
    # q1: best puts a (grade 1) first, worst puts b (grade 0) first.
    assert best.loc["q1", "ndcg"] == 1.0 and best.loc["q1", "ndcg_cut_1"] == 1.0
    assert worst.loc["q1", "ndcg"] == pytest.approx((0 + 1 / math.log2(3)) / 1)
    assert worst.loc["q1", "ndcg_cut_1"] == 0.0
    # q2: best is c, e, d (2, 1, 0); worst is d, e, c (0, 1, 2); trec_eval is docno descending: e, d, c.
    ideal_q2 = 2 + 1 / math.log2(3)
    assert best.loc["q2", "ndcg"] == pytest.approx(1.0)
    assert worst.loc["q2", "ndcg"] == pytest.approx((0 + 1 / math.log2(3) + 2 / math.log2(4)) / ideal_q2)
    assert worst.loc["q2", "ndcg_cut_1"] == 0.0
    assert trec.loc["q2", "ndcg"] == pytest.approx((1 + 0 + 2 / math.log2(4)) / ideal_q2)
    assert trec.loc["q2", "ndcg_cut_1"] == pytest.approx(1 / 2)


def _tied_collection(rng):
    """A few small queries (at most 6 retrieved each) with many tied scores, for a brute force."""
    qrels, run = {}, {}
    for q in range(rng.randint(1, 4)):
        qid = f"q{q}"
        docs = [f"d{j}" for j in range(rng.randint(1, 6))]
        qrels[qid] = {d: rng.randint(-1, 3) for d in docs if rng.random() < 0.8}
        qrels[qid].update({f"x{j}": rng.randint(0, 3) for j in range(rng.randint(0, 2))})  # never retrieved
        if not qrels[qid]:
            qrels[qid]["x9"] = 1
        run[qid] = {d: float(rng.randint(0, 2)) for d in docs}
    qrels_text = "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    run_text = "".join(f"{q} Q0 {d} 0 {s} t\n" for q, docs in run.items() for d, s in docs.items())
    return qrels, run, qrels_text.encode(), run_text.encode()


def _brute_force_bounds(judged, scored, k):
    """The lowest and highest NDCG@k over every order of the run that keeps scores descending."""
    gain = {d: max(judged.get(d, 0), 0) for d in scored}
    ideal = hand_dcg(sorted((max(g, 0) for g in judged.values()), reverse=True), k)
    values = []
    for order in itertools.permutations(scored):
        if all(scored[a] >= scored[b] for a, b in zip(order, order[1:], strict=False)):
            values.append(hand_dcg([gain[d] for d in order], k) / ideal if ideal > 0 else 0.0)
    return min(values), max(values)


@pytest.mark.parametrize("seed", range(30))
def test_best_and_worst_ties_in_evaluate_are_the_brute_force_bounds(seed):
    qrels, run, qrels_text, run_text = _tied_collection(random.Random(seed))
    q, r = read_qrels(qrels_text), read_run(run_text)
    cutoffs = (1, 2, 4)
    best = evaluate(q, r, EvaluationOptions(Scoring(ties="best", ideal="pool"), cutoffs=cutoffs)).table()
    worst = evaluate(q, r, EvaluationOptions(Scoring(ties="worst", ideal="pool"), cutoffs=cutoffs)).table()
    for qid in run:
        for k, column in [(None, "ndcg"), *((k, f"ndcg_cut_{k}") for k in cutoffs)]:
            low, high = _brute_force_bounds(qrels[qid], run[qid], k)
            assert worst.loc[qid, column] == pytest.approx(low, abs=1e-12), (qid, column)
            assert best.loc[qid, column] == pytest.approx(high, abs=1e-12), (qid, column)
