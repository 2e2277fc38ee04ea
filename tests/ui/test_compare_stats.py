"""Paired comparison of two systems: counts and test statistics written as formulas."""

from math import sqrt

import numpy as np
import pandas as pd
import pytest

from ndcg_core.trec.compare import paired_comparison
from ui import charts
from ui.stats import reading_key


def test_counts_mean_and_t_statistic_follow_their_formulas():
    a = [0.2, 0.5, 0.9, 0.4, 0.3, 0.6]
    b = [0.3, 0.5, 0.7, 0.8, 0.35, 0.9]
    d = np.subtract(b, a)
    result = paired_comparison(a, b)
    assert (result.wins, result.ties, result.losses) == (4, 1, 1)
    assert result.mean_difference == pytest.approx(d.mean())
    assert result.t_statistic == pytest.approx(d.mean() / (d.std(ddof=1) / sqrt(len(d))))
    assert 0 < result.t_p_value < 1 and 0 < result.wilcoxon_p_value <= 1 and 0 < result.randomization_p_value <= 1


def test_exact_randomization_p_value_for_three_positive_differences():
    # Every sign flip of (0.1, 0.2, 0.3): 8 equally likely sums; |sum| >= 0.6 for 2 of them.
    result = paired_comparison([0.0, 0.0, 0.0], [0.1, 0.2, 0.3])
    assert result.randomization_p_value == pytest.approx(2 / 8)
    assert result.wilcoxon_p_value == pytest.approx(2 / 8)  # exact signed-rank distribution, same count


def test_identical_systems_have_no_difference():
    result = paired_comparison([0.1, 0.4, 0.9], [0.1, 0.4, 0.9])
    assert (result.wins, result.ties, result.losses) == (0, 3, 0)
    assert (result.t_p_value, result.wilcoxon_p_value, result.randomization_p_value) == (1.0, 1.0, 1.0)
    assert reading_key(result.t_p_value) == "evaluate.reading.none"


def test_a_constant_shift_has_no_variance_but_a_clear_direction():
    result = paired_comparison([0.1, 0.2, 0.3, 0.4], [0.2, 0.3, 0.4, 0.5])
    assert result.t_statistic == float("inf") and result.t_p_value == 0.0
    assert result.wins == 4


@pytest.mark.parametrize("a, b, message", [([0.1], [0.2], "at least 2"), ([0.1, 0.2], [0.1], "2 and 1 queries")])
def test_mismatched_or_tiny_inputs_are_value_errors(a, b, message):
    with pytest.raises(ValueError, match=message):
        paired_comparison(a, b)


@pytest.mark.parametrize("p, key", [(0.001, "strong"), (0.03, "moderate"), (0.07, "weak"), (0.5, "none")])
def test_reading_of_a_p_value(p, key):
    assert reading_key(p) == f"evaluate.reading.{key}"


def test_difference_chart_sorts_and_colours_by_outcome():
    spec = charts.difference_chart(pd.DataFrame({"qid": ["a", "b", "c"], "difference": [-0.1, 0.3, 0.0]})).to_dict()
    bars = spec["layer"][0]
    rows = spec["datasets"][bars["data"]["name"]] if "data" in bars else spec["datasets"][spec["data"]["name"]]
    assert [r["qid"] for r in rows] == ["b", "c", "a"]
    assert [r["outcome"] for r in rows] == ["B better", "Same", "A better"]
    assert bars["encoding"]["x"]["sort"] == ["b", "c", "a"]


def test_distribution_and_by_k_charts():
    values = pd.DataFrame(
        {"qid": ["1", "2", "1", "2"], "measure": ["NDCG@5", "NDCG@5", "NDCG", "NDCG"], "value": [0.2, 0.8, 0.3, 0.9]}
    )
    spec = charts.distribution_chart(values).to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["boxplot", "tick"]
    assert spec["layer"][0]["encoding"]["y"]["sort"] == ["NDCG@5", "NDCG"]
    spec = charts.by_k_chart(pd.DataFrame({"qid": ["1", "1"], "k": [5, 10], "value": [0.2, 0.4]})).to_dict()
    assert spec["layer"][0]["encoding"]["color"]["field"] == "qid"
