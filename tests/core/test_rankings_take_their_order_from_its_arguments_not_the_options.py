"""``Rankings.columns(scores, ties, options)`` evaluates the order named by ``scores`` and ``ties``, whatever
precision and tie policy ``options`` carry (the protocol's callers may pass the order's own): the same columns,
on both engines, as with the default options."""

from dataclasses import replace

import pytest

from ndcg_core.lists.ties import TIE_POLICIES
from ndcg_core.trec.engines.memory import MemoryEngine
from ndcg_core.trec.evaluate import EvaluationOptions

QRELS = b"q 0 a 1\nq 0 b 2\nq 0 c 0\nr 0 a 3\nr 0 b 1\n"
RUN = b"q Q0 a 1 1.0 t\nq Q0 b 2 1.0 t\nq Q0 c 3 0.5 t\nr Q0 a 1 0.3 t\nr Q0 b 2 0.30000000001 t\n"


@pytest.fixture(params=["numpy", "duckdb"])
def rankings(request, tmp_path):
    (tmp_path / "qrels").write_bytes(QRELS)
    (tmp_path / "run").write_bytes(RUN)
    engine = MemoryEngine() if request.param == "numpy" else request.getfixturevalue("duckdb_engine")
    return engine.rankings(str(tmp_path / "qrels"), str(tmp_path / "run"))


@pytest.mark.parametrize("scores", ["double", "float32"])
@pytest.mark.parametrize("ties", TIE_POLICIES.names())
def test_the_order_is_the_arguments_whatever_the_options_carry(rankings, scores, ties):
    default = EvaluationOptions(cutoffs=(1, 2))
    own = replace(default, scoring=replace(default.scoring, ties=ties, float32_scores=scores == "float32"))
    assert rankings.mixed("double") and rankings.float32_matters()
    expected = {name: values.tolist() for name, values in rankings.columns(scores, ties, default).items()}
    assert {name: values.tolist() for name, values in rankings.columns(scores, ties, own).items()} == expected
