"""``--explain`` runs on the engine asked for: with ``--engine duckdb`` every convention's per-query values come from
DuckDB's rankings of the files, out of core (the run is never read into Python's memory), and the explanation is
the default engine's, line for line and number for number."""

import numpy as np
import pytest

import ndcg_core.trec.engines.memory as memory
import ndcg_core.trec.readers as readers
from ndcg_core.teaching.explain import rankings_values
from ndcg_core.trec.cli import main
from ndcg_core.trec.engines.memory import MemoryEngine
from ndcg_core.trec.measures import Measure, ndcg_cut
from support import TREC

QRELS, RESULTS, TRUNC = (str(TREC / name) for name in ("qrels.test", "results.test", "results.trunc"))


@pytest.fixture
def tied(tmp_path):
    """Qrels and a run where ties change numbers every way: scores on a coarse grid (ties between grades), scores
    equal as 32-bit floats only, negative grades, a judged query without results, a run query not judged."""
    rng = np.random.default_rng(11)
    qrels, run = [], []
    for q in range(30):
        for d in rng.choice(50, 20, replace=False):
            qrels.append(f"q{q} 0 d{d} {rng.integers(-1, 4)}\n")
        if q % 7 == 3:
            continue
        scores = rng.integers(0, 6, 50) / 4
        if q % 3 == 0:
            scores = 1 + scores * 1e-9
        run += [f"q{q} Q0 d{d} 0 {float(scores[d])!r} t\n" for d in rng.permutation(50)]
    run.append("extra Q0 d1 0 1.0 t\n")
    (tmp_path / "qrels").write_text("".join(qrels))
    (tmp_path / "run").write_text("".join(run))
    return str(tmp_path / "qrels"), str(tmp_path / "run")


@pytest.fixture
def nothing_read_into_memory(monkeypatch):
    """The default reader refuses to read: whatever is evaluated was read by DuckDB."""

    def refuse(*args, **kwargs):
        raise AssertionError("read into Python's memory")

    for module in (readers, memory):
        monkeypatch.setattr(module, "read_run", refuse)
        monkeypatch.setattr(module, "read_qrels", refuse)
    import ndcg_core.trec.engines.files as files

    monkeypatch.setattr(files, "default_read", refuse)


def explained(capsys, argv, **engine):
    assert main(argv, **engine) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["--explain", "0.5951", "-m", "ndcg_cut.10", QRELS, RESULTS],
        ["--explain", "0.5951", "-m", "ndcg", QRELS, RESULTS],
        ["--explain", "0.123", "-m", "ndcg_cut.5", QRELS, RESULTS],
        ["--explain", "0.4", "-M", "20", "-m", "ndcg_cut.30", QRELS, TRUNC],
    ],
)
def test_duckdb_explains_trec_evals_files_as_the_default_engine_does(capsys, duckdb_engine, args):
    default = explained(capsys, args)
    assert default.count("\n") >= 2
    assert explained(capsys, [*args, "--engine", "duckdb"], engine=duckdb_engine) == default


@pytest.fixture
def explained_in_memory(capsys, tied):
    """The default engine's explanation of 0.5 on the tied files (made before the default reader is refused)."""
    out = explained(capsys, ["--explain", "0.5", "-m", "ndcg_cut.10", *tied])
    assert "These change nothing" not in out  # every axis busy: ties, 32-bit scores, -c
    return out


def test_duckdb_searches_without_reading_the_run_into_memory(
    capsys, duckdb_engine, tied, explained_in_memory, nothing_read_into_memory
):
    args = ["--explain", "0.5", "-m", "ndcg_cut.10", "--engine", "duckdb", *tied]
    assert explained(capsys, args, engine=duckdb_engine) == explained_in_memory


@pytest.mark.parametrize("measure, max_docs", [(ndcg_cut(10), None), (Measure("ndcg"), None), (ndcg_cut(5), 3)])
def test_every_conventions_value_is_the_same_bits_on_both_engines(duckdb_engine, tied, measure, max_docs):
    in_memory = rankings_values(MemoryEngine().rankings(*tied), measure, max_docs=max_docs)
    out_of_core = rankings_values(duckdb_engine.rankings(*tied), measure, max_docs=max_docs)
    assert in_memory.idle == out_of_core.idle == ()
    assert out_of_core.values == in_memory.values  # every variant, ties in file order and averaged included
    assert len(in_memory.values) >= 360
    rankings = MemoryEngine().rankings(*tied), duckdb_engine.rankings(*tied)
    assert [(r.grades, r.longest, r.unjudged, r.in_run.tolist()) for r in rankings] == [
        ((-1, 0, 1, 2, 3), 50, True, [q % 7 != 3 for q in sorted(range(30), key=lambda q: f"q{q}")])
    ] * 2


@pytest.mark.spark
def test_spark_explains_as_the_default_engine_does(capsys, spark_engine, tied):
    args = ["--explain", "0.5", "-m", "ndcg_cut.10", *tied]
    assert explained(capsys, [*args, "--engine", "spark"], engine=spark_engine) == explained(capsys, args)
