"""NDCG's neighbours (``ndcg_core.teaching.metrics``), checked where mutation testing found them loose.

Expected values are written out term by term from the definitions in the module's docstrings.
"""

from math import log2

import numpy as np
import pytest

from ndcg_core.errors import Place
from ndcg_core.teaching import metrics as M
from support import error_of

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
