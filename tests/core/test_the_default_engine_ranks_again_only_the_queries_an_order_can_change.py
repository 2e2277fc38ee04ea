"""The default engine's rankings (``MemoryRankings``) evaluate the default order (trec_eval's ties, scores as
doubles) once per options, over every query, and another order only over the queries it can change: those where
documents of different grades tie (as doubles, or as 32-bit floats only). Each order's columns are ``evaluate``'s
under that order, whatever order the options carry; a run without a row of a judged query has nothing to rank."""

import io
from dataclasses import replace

import numpy as np
import pytest

import ndcg_core.trec.engines.memory as memory
from ndcg_core.lists.ties import TIE_POLICIES
from ndcg_core.trec.engines.memory import MemoryEngine
from ndcg_core.trec.evaluate import EvaluationOptions, evaluate
from ndcg_core.trec.readers import read_qrels, read_run

# q: documents of grades 1 and 2 tie as doubles; r: grades 3 and 1 tie as 32-bit floats only; s: no tie.
QRELS = "q 0 a 1\nq 0 b 2\nq 0 c 0\nr 0 a 3\nr 0 b 1\ns 0 a 1\ns 0 b 2\n"
RUN = (
    "q Q0 a 1 1.0 t\nq Q0 b 2 1.0 t\nq Q0 c 3 0.5 t\n"
    "r Q0 a 1 0.3 t\nr Q0 b 2 0.30000000001 t\n"
    "s Q0 a 1 2.0 t\ns Q0 b 2 1.0 t\n"
)
OPTIONS = EvaluationOptions(cutoffs=(1, 2))


def order(options: EvaluationOptions, scores: str, ties: str) -> EvaluationOptions:
    return replace(options, scoring=replace(options.scoring, ties=ties, float32_scores=scores == "float32"))


def rankings_of(qrels: str, run: str) -> memory.MemoryRankings:
    return MemoryEngine().rankings(io.BytesIO(qrels.encode()), io.BytesIO(run.encode()))


def expected(qrels: str, run: str, options: EvaluationOptions) -> dict[str, list[float]]:
    """``evaluate``'s columns, every judged query counted (as the rankings prepare the files)."""
    done = evaluate(read_qrels(io.BytesIO(qrels.encode())), read_run(io.BytesIO(run.encode())), options)
    return {name: values.tolist() for name, values in done.columns.items()}


def as_lists(columns) -> dict[str, list[float]]:
    return {name: values.tolist() for name, values in columns.items()}


@pytest.fixture
def evaluated(monkeypatch):
    """Each evaluation the rankings ask for: its queries and the order it was asked under."""
    calls: list[tuple[list[str], str, bool]] = []
    real = memory.prepared_columns

    def recording(prepared, options):
        names = [prepared.queries.names[i] for i in np.flatnonzero(prepared.queries.evaluated)]
        calls.append((names, options.scoring.ties, options.scoring.float32_scores))
        return real(prepared, options)

    monkeypatch.setattr(memory, "prepared_columns", recording)
    return calls


def test_which_queries_an_order_can_change():
    rankings = rankings_of(QRELS, RUN)
    assert rankings.mixed("double") and rankings.mixed("float32") and rankings.float32_matters()
    only_float32 = rankings_of("r 0 a 3\nr 0 b 1\n", "r Q0 a 1 0.3 t\nr Q0 b 2 0.30000000001 t\n")
    assert not only_float32.mixed("double") and only_float32.mixed("float32") and only_float32.float32_matters()
    untied = rankings_of("s 0 a 1\ns 0 b 2\n", "s Q0 a 1 2.0 t\ns Q0 b 2 1.0 t\n")
    assert not untied.mixed("double") and not untied.mixed("float32") and not untied.float32_matters()


def test_the_default_order_is_evaluated_once_and_another_only_over_the_queries_it_can_change(evaluated):
    rankings = rankings_of(QRELS, RUN)
    carrying = order(OPTIONS, "float32", "worst")  # options carrying another order still ask the default's
    for options in (OPTIONS, OPTIONS, carrying):
        rankings.columns("double", "trec_eval", options)
    assert evaluated == [(["q", "r", "s"], "trec_eval", False)]
    rankings.columns("double", "worst", carrying)
    rankings.columns("float32", "best", OPTIONS)
    rankings.columns("double", "average", OPTIONS)
    assert evaluated[1:] == [(["q"], "worst", False), (["q", "r"], "best", True), (["q"], "average", False)]
    rankings.columns("double", "trec_eval", replace(OPTIONS, cutoffs=(3,)))  # another cut: the default again
    assert evaluated[4:] == [(["q", "r", "s"], "trec_eval", False)]


@pytest.mark.parametrize("scores", ["double", "float32"])
@pytest.mark.parametrize("ties", TIE_POLICIES.names())
@pytest.mark.parametrize("carried", [("double", "trec_eval"), ("float32", "worst"), ("double", "best")])
def test_each_order_s_columns_are_evaluate_s_whatever_the_options_carry(scores, ties, carried):
    rankings = rankings_of(QRELS, RUN)
    got = rankings.columns(scores, ties, order(OPTIONS, *carried))
    assert as_lists(got) == expected(QRELS, RUN, order(OPTIONS, scores, ties))


def test_a_run_with_no_row_of_a_judged_query_has_nothing_to_rank():
    rankings = rankings_of("q 0 a 1\n", "z Q0 a 1 1.0 t\n")
    assert rankings.longest == 0 and not rankings.unjudged
    assert not rankings.mixed("double") and not rankings.mixed("float32") and not rankings.float32_matters()
    assert as_lists(rankings.columns("float32", "worst", OPTIONS)) == expected(
        "q 0 a 1\n", "z Q0 a 1 1.0 t\n", replace(order(OPTIONS, "float32", "worst"), complete=True)
    )
