"""A ranking found in SQL (``sql.Ranked``) is evaluated under the names of its two files and its tag, as the
default engine names them; asked for a tie policy its rows are not ranked in, it refuses with ``engine.ties``
naming the engine of the command line; with no query evaluated, ``files.no_shared_query`` names both files."""

from dataclasses import replace
from math import log2

import numpy as np
import pytest

from ndcg_core.errors import InputError
from ndcg_core.trec.engines.sql import Ranked
from ndcg_core.trec.evaluate import NDCG, EvaluationOptions


def ints(*values):
    return np.array(values, dtype=np.int64)


# One query judged 2 and 1; its ranking holds the 1 first, then the 2.
RANKED = Ranked(["q1"], np.array([True]), (ints(0, 0), ints(2, 1)), (ints(0, 0), ints(0, 1), ints(1, 2)), ints(2))


def test_the_evaluation_carries_both_files_names_and_the_tag():
    evaluation = RANKED.evaluation(EvaluationOptions(), "qrels.txt", "run.txt", "my_tag", engine="spark")
    assert (evaluation.qrels_name, evaluation.run_name, evaluation.tag) == ("qrels.txt", "run.txt", "my_tag")
    assert evaluation.qids == ["q1"]
    ideal = 2 / log2(2) + 1 / log2(3)
    assert evaluation.per_query(NDCG).tolist() == pytest.approx([(1 / log2(2) + 2 / log2(3)) / ideal], rel=1e-15)


@pytest.mark.parametrize("engine", ["duckdb", "spark"])
def test_another_tie_policy_is_refused_naming_the_engine(engine):
    options = EvaluationOptions()
    best = replace(options, scoring=replace(options.scoring, ties="best"))
    with pytest.raises(InputError) as raised:
        RANKED.evaluation(best, "qrels.txt", "run.txt", "", engine=engine)
    assert (raised.value.code, raised.value.fields) == ("engine.ties", {"engine": engine, "ties": "best"})
    with pytest.raises(InputError) as raised:
        RANKED.columns(best, engine)
    assert (raised.value.code, raised.value.fields) == ("engine.ties", {"engine": engine, "ties": "best"})


def test_no_query_evaluated_names_both_files():
    empty = Ranked([], np.zeros(0, dtype=bool), (ints(), ints()), (ints(), ints(), ints()), ints())
    with pytest.raises(InputError) as raised:
        empty.evaluation(EvaluationOptions(), "qrels.txt", "run.txt", "", engine="duckdb")
    assert (raised.value.code, raised.value.fields) == (
        "files.no_shared_query",
        {"qrels": "qrels.txt", "run": "run.txt"},
    )
