"""evaluate(): the per-query table, trec_eval's published means, drill-down and option checks."""

from math import log2

import numpy as np
import pytest

from ndcg_core import InputError, evaluate, evaluation_options, query_ranking, read_qrels, read_run
from ndcg_core.lists.discounts import jk_discount
from support import TREC, means


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
    frame = evaluate(*sample, cutoffs=(5, 10)).table()
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
    row = evaluate(qrels, run, cutoffs=(2, 3)).table().loc["q"]
    assert row["dcg_cut_3"] == pytest.approx(3 + 0 + 2 / log2(4))
    assert row["idcg_cut_3"] == pytest.approx(3 + 2 / log2(3) + 1 / log2(4))
    assert row["ndcg"] == pytest.approx((3 + 2 / log2(4)) / (3 + 2 / log2(3) + 1 / log2(4)))
    assert row["num_ret"] == 4 and row["num_judged"] == 4 and row["num_rel_ret"] == 2
    from_run = evaluate(qrels, run, cutoffs=(3,), ideal="run").table().loc["q"]
    assert from_run["ndcg_cut_3"] == pytest.approx((3 + 2 / log2(4)) / (3 + 2 / log2(3)))


def test_exponential_gain_and_max_docs():
    qrels = read_qrels(b"q 0 a 1\nq 0 b 3\n")
    run = read_run(b"q Q0 a 1 2 s\nq Q0 b 2 1 s\n")
    row = evaluate(qrels, run, cutoffs=(2,), gain="exponential").table().loc["q"]
    assert row["ndcg_cut_2"] == pytest.approx((1 + 7 / log2(3)) / (7 + 1 / log2(3)))
    cut = evaluate(qrels, run, cutoffs=(2,), max_docs=1).table().loc["q"]
    assert cut["num_ret"] == 1 and cut["ndcg"] == pytest.approx(1 / (3 + 1 / log2(3)))


def test_drill_down_gives_the_ranked_grades_and_the_pool():
    qrels = read_qrels(b"q 0 a 1\nq 0 b 3\nq 0 x 2\n")
    run = read_run(b"q Q0 a 1 1.0 s\nq Q0 b 2 1.0 s\nq Q0 u 3 5 s\n")
    ranking = query_ranking(qrels, run, "q")
    assert ranking["docnos"] == ["u", "b", "a"]  # score, then docno descending for the tie
    assert ranking["grades"] == [None, 3, 1]
    assert sorted(ranking["pool"].values()) == [1, 2, 3]


@pytest.mark.parametrize(
    "options, code",
    [
        ({"cutoffs": (0,)}, "k.too_small"),
        ({"cutoffs": ("x",)}, "k.not_whole"),
        ({"ideal": "pool"}, "ideal.unknown"),
        ({"ties": "random"}, "ties.unknown"),
        ({"max_docs": 0}, "k.too_small"),
        ({"gain": "cubic"}, "gain.unknown"),
        ({"discount": "ln"}, "discount.unknown"),
    ],
)
def test_bad_options_are_value_errors(sample, options, code):
    with pytest.raises(InputError) as raised:
        evaluate(*sample, **options)
    assert raised.value.code == code


def test_a_repeated_cutoff_is_the_same_cutoff(sample):
    assert evaluate(*sample, cutoffs=(5, 10, 5)).cutoffs == (5, 10)


def test_gap_is_ideal_dcg_minus_dcg_at_an_evaluated_cutoff():
    # q ranks a (3), b (0), c (2), u (unjudged), with x (1) judged but not retrieved; r is ranked ideally.
    qrels = read_qrels(b"q 0 a 3\nq 0 b 0\nq 0 c 2\nq 0 x 1\nr 0 a 2\nr 0 b 1\n")
    run = read_run(b"q Q0 a 1 4 s\nq Q0 b 2 3 s\nq Q0 c 3 2 s\nq Q0 u 4 1 s\nr Q0 a 1 2 s\nr Q0 b 2 1 s\n")
    tiny = evaluate(qrels, run, cutoffs=(1, 3, 10))
    assert tiny.qids == ["q", "r"]
    assert list(tiny.gap(1)) == [0.0, 0.0]  # both put their best document first
    ideal3, actual3 = 3 + 2 / log2(3) + 1 / log2(4), 3 + 0 + 2 / log2(4)
    assert list(tiny.gap(3)) == pytest.approx([ideal3 - actual3, 0.0], abs=1e-12)
    assert list(tiny.gap(10)) == pytest.approx([ideal3 - actual3, 0.0], abs=1e-12)  # nothing below rank 4
    result = evaluate(read_qrels(TREC / "qrels.test"), read_run(TREC / "results.test"), cutoffs=(5, 10))
    assert (result.gap(10) >= 0).all()
    with pytest.raises(ValueError, match="k = 7 was not evaluated"):
        result.gap(7)


def test_complete_with_a_run_that_shares_no_query_scores_the_judged_queries_zero():
    result = evaluate(read_qrels(b"1 0 a 1\n"), read_run(b"2 Q0 a 1 1 s\n"), complete=True, cutoffs=(5,))
    assert result.qids == ["1"]
    assert result.columns["ndcg"].dtype == np.float64 and means(result) == {"ndcg": 0.0, "ndcg_cut_5": 0.0}


def test_equal_options_are_one_value_so_a_page_can_key_its_cache_by_them():
    same = [evaluation_options(gain=g, discount=d, cutoffs=(5, 10)) for g, d in (("linear", "log2"),) * 2]
    assert same[0] == same[1] and hash(same[0]) == hash(same[1])
    assert evaluation_options(gain={1: 3}) == evaluation_options(gain={1: 3.0})
    different = [
        evaluation_options(),
        evaluation_options(gain="exponential"),
        evaluation_options(gain={1: 3}),
        evaluation_options(gain={1: 4}),
        evaluation_options(full_gain={1: 3}),
        evaluation_options(discount="jk"),
        evaluation_options(discount=jk_discount(3)),
        evaluation_options(cutoffs=(5,)),
        evaluation_options(float32_scores=True),
    ]
    assert len(set(different)) == len(different)


def test_the_evaluation_carries_its_options_and_what_it_read(sample):
    chosen = evaluation_options(cutoffs=(5,), gain="exponential", ties="average")
    evaluation = evaluate(*sample, cutoffs=(5,), gain="exponential", ties="average")
    assert evaluation.options == chosen and evaluation.cutoffs == (5,)
    assert (evaluation.qrels_name, evaluation.run_name, evaluation.relevant_only) == (
        str(TREC / "qrels.test"),
        str(TREC / "results.test"),
        False,
    )
