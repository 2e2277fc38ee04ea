"""The evaluation engines are providers in one registry (``ENGINES``), each opened by name through one protocol
(``Engine``: evaluate two files, rank them for an explanation); the command line picks from the registry, and an
unknown name is refused with its own code, in both languages."""

import json

import pytest

from ndcg_core.errors import InputError
from ndcg_core.trec import cli
from ndcg_core.trec.engines import ENGINES, provider
from ndcg_core.trec.evaluate import EvaluationOptions
from ndcg_core.trec.measures import ndcg_cut
from support import ROOT, TREC

QRELS, RESULTS = str(TREC / "qrels.test"), str(TREC / "results.test")


def trec_eval_all(measure):
    """trec_eval 10.0's own 'all' value of a measure on its test files (its out.test.a)."""
    for line in (TREC / "out.test.a").read_text().splitlines():
        name, query, value = line.split("\t")
        if name.strip() == measure and query == "all":
            return float(value)
    raise AssertionError(measure)


def test_the_registry_holds_each_engine_once_the_default_first():
    assert ENGINES.names() == ["numpy", "duckdb", "spark"]
    assert [provider(name).name for name in ENGINES.names()] == ENGINES.names()
    assert provider("spark").check_first and not provider("numpy").check_first


@pytest.mark.parametrize("name", ["numpy", "duckdb"])
def test_each_engine_evaluates_through_the_protocol_as_trec_eval_does(name):
    with provider(name).opened(QRELS, RESULTS) as engine:
        assert engine.name == name
        evaluation = engine.evaluate_files(QRELS, RESULTS, EvaluationOptions(cutoffs=(10,)))
        rankings = engine.rankings(QRELS, RESULTS)
    assert round(evaluation.mean(ndcg_cut(10)), 4) == trec_eval_all("ndcg_cut_10")
    assert set(rankings.grades) == {0, 1}  # qrels.test grades 0 and 1
    assert rankings.in_run.all()


@pytest.mark.spark
def test_spark_evaluates_through_the_protocol_as_trec_eval_does(spark_engine):
    assert spark_engine.name == "spark"
    evaluation = spark_engine.evaluate_files(QRELS, RESULTS, EvaluationOptions(cutoffs=(10,)))
    assert round(evaluation.mean(ndcg_cut(10)), 4) == trec_eval_all("ndcg_cut_10")


def test_an_unknown_engine_is_refused_by_its_code_before_any_file_is_read(tmp_path):
    with pytest.raises(InputError) as refused:
        cli.run(["--engine", "polars", str(tmp_path / "missing"), str(tmp_path / "missing")])
    assert refused.value.code == "engine.unknown"
    assert str(refused.value) == "unknown engine 'polars'; choose one of numpy, duckdb, spark"


def test_an_unknown_engine_is_one_line_and_status_2(capsys):
    assert cli.main(["--engine", "polars", QRELS, RESULTS]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "ndcg-lab-eval: unknown engine 'polars'; choose one of numpy, duckdb, spark\n"


def test_the_unknown_engines_message_is_in_both_languages():
    zh = json.loads((ROOT / "ui" / "locales" / "zh.json").read_text())
    assert "{value}" in zh["error.engine.unknown"] and "{choices}" in zh["error.engine.unknown"]


def test_an_open_engine_given_is_used_only_for_its_own_name(capsys):
    class Counting:
        """The default engine, counting its evaluations."""

        name = "numpy"

        def __init__(self):
            self.calls = 0
            self.engine = provider("numpy").open()

        def evaluate_files(self, *args):
            self.calls += 1
            return self.engine.evaluate_files(*args)

    given = Counting()
    assert cli.main(["-m", "ndcg_cut.10", QRELS, RESULTS], engine=given) == 0
    assert given.calls == 1
    assert cli.main(["-m", "ndcg_cut.10", "--engine", "duckdb", QRELS, RESULTS], engine=given) == 0
    assert given.calls == 1
    assert capsys.readouterr().out.count(f"{trec_eval_all('ndcg_cut_10'):.4f}") == 2
