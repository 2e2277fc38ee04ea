"""P@k, recall@k, reciprocal rank, average precision and ERR: formulas, and pytrec_eval where it has them."""

import random
from math import log2

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.errors import Place
from ndcg_core.teaching import metrics as M
from ndcg_core.teaching.metrics import (
    METRICS,
    all_metrics,
    average_precision,
    err,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)
from support import error_of


def test_binary_metrics_by_formula():
    rels = [0, 2, 0, 1, 3]  # relevant (grade >= 1) at positions 2, 4 and 5
    assert precision_at_k(rels, 4) == 2 / 4
    assert precision_at_k(rels, 10) == 3 / 10  # trec_eval's P_10 divides by 10 even for a shorter list
    assert recall_at_k(rels, 4) == 2 / 3
    assert recall_at_k(rels, 4, n_relevant=5) == 2 / 5
    assert reciprocal_rank(rels) == 1 / 2
    assert average_precision(rels) == pytest.approx((1 / 2 + 2 / 4 + 3 / 5) / 3)
    assert average_precision(rels, n_relevant=4) == pytest.approx((1 / 2 + 2 / 4 + 3 / 5) / 4)
    assert reciprocal_rank(rels, threshold=3) == 1 / 5


def test_err_by_formula():
    # R = (2^g - 1) / 2^4: 15/16, 0, 3/16
    r1, r3 = 15 / 16, 3 / 16
    assert err([4, 0, 2], max_grade=4) == pytest.approx(r1 + (1 - r1) * (1 - 0) * r3 / 3)
    assert err([4, 0, 2], k=1, max_grade=4) == pytest.approx(r1)
    assert err([0, 0]) == 0.0


def test_nothing_relevant_scores_zero_everywhere():
    values = all_metrics([0, 0, 0], 2)
    assert set(values) == set(METRICS)
    assert all(v == 0.0 for v in values.values())


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: precision_at_k([1], 0), "k must be at least 1"),
        (lambda: recall_at_k([1, 1], 1, n_relevant=1), "the list alone holds 2"),
        (lambda: average_precision([1], n_relevant=-1), "whole number, 0 or more, got -1"),
        (lambda: err([3], max_grade=2), "below the list's grade 3"),
        (lambda: reciprocal_rank(["x"]), "not a number"),
    ],
)
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@given(st.lists(st.integers(0, 4), min_size=1, max_size=20), st.integers(1, 25))
def test_every_metric_is_between_zero_and_one_except_dcg(rels, k):
    values = all_metrics(rels, k, max_grade=4)
    for name, value in values.items():
        assert value >= 0
        if name != "dcg":
            assert value <= 1 + 1e-12


def test_agreement_with_pytrec_eval_on_seeded_random_lists():
    rng = random.Random(11)
    qrels, run, lists = {}, {}, {}
    for q in range(40):
        n = rng.randint(1, 15)
        grades = [rng.choice([0, 0, 1, 2, 3]) for _ in range(n)]
        unretrieved = [rng.choice([0, 1, 2]) for _ in range(rng.randint(0, 4))]
        qid = f"q{q}"
        qrels[qid] = {f"d{i}": g for i, g in enumerate(grades)} | {f"u{i}": g for i, g in enumerate(unretrieved)}
        run[qid] = {f"d{i}": float(n - i) for i in range(n)}  # scores in list order, no ties
        lists[qid] = (grades, sum(1 for g in grades + unretrieved if g >= 1))
    measures = {"P_5", "recall_5", "recip_rank", "map"}
    results = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    for qid, (grades, n_rel) in lists.items():
        if n_rel == 0:
            continue  # trec_eval skips queries with nothing relevant for these measures' means
        got = results[qid]
        assert precision_at_k(grades, 5) == pytest.approx(got["P_5"], abs=1e-9)
        assert recall_at_k(grades, 5, n_relevant=n_rel) == pytest.approx(got["recall_5"], abs=1e-9)
        assert reciprocal_rank(grades) == pytest.approx(got["recip_rank"], abs=1e-9)
        assert average_precision(grades, n_relevant=n_rel) == pytest.approx(got["map"], abs=1e-9)


# --- each metric's parameters and edges, written out term by term ---------------------------------------------------

# Expected values are written out term by term from the definitions in the module's docstrings.

N_RELEVANT = Place("metric.n_relevant")
MAX_GRADE = Place("metric.max_grade")


def fields(error):
    return error.code, error.fields


def test_the_count_of_relevant_items_is_a_whole_number_from_0():
    assert M.recall_at_k([0, 0], 1, n_relevant=0) == 0.0 and M.average_precision([0], n_relevant=0) == 0.0
    assert M.recall_at_k([1, 0], 1, n_relevant=np.int64(4)) == 0.25
    for bad in (1.5, True, -1, "2"):
        assert fields(error_of(M.recall_at_k, [1, 0], 1, n_relevant=bad)) == (
            "metric.n_relevant",
            {"place": N_RELEVANT, "value": repr(bad)},
        )
    assert fields(error_of(M.average_precision, [1, 1], n_relevant=1)) == (
        "metric.n_relevant_small",
        {"place": N_RELEVANT, "value": "1", "count": 2},
    )


def test_err_is_cut_at_k_and_scaled_by_the_top_grade():
    assert M.err([0, 3], 1) == 0.0
    assert M.err([0, 3]) == pytest.approx((7 / 8) / 2)
    # The list's top grade 0.5 by default: R = (2^0.5 - 1) / 2^0.5
    assert M.err([0.5]) == pytest.approx((2**0.5 - 1) / 2**0.5)
    assert M.err([0.5], max_grade=1) == pytest.approx((2**0.5 - 1) / 2)
    assert fields(error_of(M.err, [1], max_grade=-1)) == ("grade.negative", {"place": MAX_GRADE, "value": "-1"})
    assert fields(error_of(M.err, [3], max_grade=2)) == (
        "metric.max_grade_below",
        {"place": MAX_GRADE, "value": "2", "grade": "3"},
    )


def test_all_metrics_pass_on_k_the_pool_and_the_top_grade():
    grades = [0, 2, 1]
    got = M.all_metrics(grades, 2, n_relevant=4, max_grade=3, pool=[2, 2, 1, 0])
    r1, r2 = 0.0, 3 / 8  # (2^g - 1) / 2^3
    assert got == pytest.approx(
        {
            "precision": 1 / 2,
            "recall": 1 / 4,
            "rr": 1 / 2,
            "ap": (1 / 2 + 2 / 3) / 4,
            "err": r1 + (1 - r1) * r2 / 2,
            "dcg": 2 / log2(3),
            "ndcg": (2 / log2(3)) / (2 + 2 / log2(3)),
        }
    )
