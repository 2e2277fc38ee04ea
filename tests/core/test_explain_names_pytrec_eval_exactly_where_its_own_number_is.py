"""``--explain`` names pytrec_eval exactly where pytrec_eval's own number is: pytrec_eval (in the test lock) is run
here on trec_eval's test files, on the run whose scores tie often (``tests/data/peers``) and on a run whose scores
are equal only as 32-bit floats; its mean, printed to every digit, is explained as pytrec_eval, and trec_eval
10.0's number names pytrec_eval only where the two are one number. (ranx and ir_measures are not in the test lock:
ranx's numbers are recorded by ranx itself, ``tests/data/peers/record.py``.)"""

from pathlib import Path

import numpy as np
import pytest
import pytrec_eval

from ndcg_core.teaching.explain import explain_run, printed_tolerance
from ndcg_core.trec.measures import Measure, ndcg_cut
from ndcg_core.trec.readers import read_qrels, read_run
from support import TREC

PEERS = Path(__file__).parents[1] / "data" / "peers"


def as_dicts(qrels_path, run_path):
    """The two files as pytrec_eval takes them (qid -> docno -> grade or score), read in plain Python."""
    qrels: dict[str, dict[str, int]] = {}
    for line in Path(qrels_path).read_text().splitlines():
        qid, _, docno, grade = line.split()
        qrels.setdefault(qid, {})[docno] = int(grade)
    run: dict[str, dict[str, float]] = {}
    for line in Path(run_path).read_text().splitlines():
        qid, _, docno, _, score, *_ = line.split()
        run.setdefault(qid, {})[docno] = float(score)
    return qrels, run


def pytrec_eval_mean(qrels_path, run_path, measure: Measure) -> float:
    """pytrec_eval's mean of ``measure`` over the queries it scores, summed as a user sums them."""
    qrels, run = as_dicts(qrels_path, run_path)
    name = measure.name if measure.cutoff is None else f"ndcg_cut.{measure.cutoff}"
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {name}).evaluate(run)
    values = [v[measure.name] for v in per_query.values()]
    return sum(values) / len(values)


@pytest.fixture(scope="module")
def float32_ties(tmp_path_factory):
    """Qrels and a run whose scores tie between documents of different grades as 32-bit floats, not as doubles
    (pytrec_eval compares scores as 32-bit floats, trec_eval 10.0 as doubles)."""
    folder = tmp_path_factory.mktemp("float32")
    rng = np.random.default_rng(5)
    qrels, run = [], []
    for q in range(8):
        for d in range(12):
            qrels.append(f"q{q} 0 d{d} {rng.integers(0, 3)}\n")
            run.append(f"q{q} Q0 d{d} 0 {1 + int(rng.integers(0, 3)) * 1e-9!r} t\n")
    (folder / "qrels").write_text("".join(qrels))
    (folder / "run").write_text("".join(run))
    return folder / "qrels", folder / "run"


CASES = [
    ("trec_eval", ndcg_cut(10)),
    ("trec_eval", Measure("ndcg")),
    ("peers", ndcg_cut(5)),
    ("peers", ndcg_cut(10)),
    ("float32", ndcg_cut(10)),
    ("float32", Measure("ndcg")),
]


@pytest.mark.parametrize("collection, measure", CASES, ids=[f"{c}-{m.name}" for c, m in CASES])
def test_pytrec_eval_is_named_for_its_own_number_and_only_where_trec_eval_s_is_the_same(
    collection, measure, float32_ties
):
    paths = {
        "trec_eval": (TREC / "qrels.test", TREC / "results.test"),
        "peers": (PEERS / "ties.qrels", PEERS / "ties.run"),
        "float32": float32_ties,
    }[collection]
    qrels, run = read_qrels(str(paths[0])), read_run(str(paths[1]))
    theirs = pytrec_eval_mean(*paths, measure)
    own = explain_run(qrels, run, measure, repr(theirs))
    assert "pytrec_eval" in own.matches[0].libraries
    # trec_eval 10.0's number: pytrec_eval is among its tools exactly where pytrec_eval prints that number.
    default = explain_run(qrels, run, measure, repr(own.default))
    same = abs(theirs - own.default) <= printed_tolerance(own.default, 17)
    assert same == (collection != "float32")  # scores equal only as 32-bit floats part the two
    assert any("pytrec_eval" in m.libraries for m in default.matches) == same
