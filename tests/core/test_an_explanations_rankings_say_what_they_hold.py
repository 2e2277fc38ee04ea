"""The rankings an explanation searches (``engines.Rankings``) say what they hold, on every engine alike: the
grades the qrels hold, the longest ranking, whether some ranked document has no grade of 0 or more (a grade of 0
is a judgment; a negative one is not), and whether scores tie between documents of different gains as doubles,
or as 32-bit floats only."""

import pytest

from ndcg_core.trec.engines.memory import MemoryEngine

QRELS = b"q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 a 1\nq2 0 n -1\n"


@pytest.fixture(params=["numpy", "duckdb"])
def engine(request):
    return MemoryEngine() if request.param == "numpy" else request.getfixturevalue("duckdb_engine")


def rankings_of(engine, tmp_path, run):
    (tmp_path / "qrels").write_bytes(QRELS)
    (tmp_path / "run").write_bytes(run)
    return engine.rankings(str(tmp_path / "qrels"), str(tmp_path / "run"))


def run_of(*rows):
    return "".join(f"{q} Q0 {d} {i} {s} t\n" for i, (q, d, s) in enumerate(rows, 1)).encode()


def test_every_ranked_document_judged_a_0_one_too(engine, tmp_path):
    rankings = rankings_of(engine, tmp_path, run_of(("q1", "a", 3), ("q1", "b", 2), ("q1", "c", 1), ("q2", "a", 1)))
    assert rankings.unjudged is False
    assert rankings.longest == 3
    assert rankings.grades == (-1, 0, 1, 2)


@pytest.mark.parametrize("document", ["z", "n"])  # not in the qrels; judged -1
def test_a_document_without_a_grade_of_0_or_more_is_unjudged(engine, tmp_path, document):
    rankings = rankings_of(engine, tmp_path, run_of(("q1", "a", 3), ("q2", "a", 2), ("q2", document, 1)))
    assert rankings.unjudged is True
    assert rankings.longest == 2


def test_scores_equal_as_32_bit_floats_only_tie_at_that_precision_only(engine, tmp_path):
    # 0.5 + 1e-8 and 0.5 are one 32-bit float (half its step at 0.5 is 2^-25), two doubles; a gains 2, c 1
    rankings = rankings_of(engine, tmp_path, run_of(("q1", "a", 0.5 + 1e-8), ("q1", "c", 0.5), ("q2", "a", 1)))
    assert (rankings.mixed("double"), rankings.mixed("float32"), rankings.float32_matters()) == (False, True, True)


def test_scores_equal_as_doubles_tie_at_both_precisions(engine, tmp_path):
    rankings = rankings_of(engine, tmp_path, run_of(("q1", "a", 0.5), ("q1", "c", 0.5), ("q2", "a", 1)))
    assert (rankings.mixed("double"), rankings.mixed("float32"), rankings.float32_matters()) == (True, True, False)


def test_a_tie_between_equal_gains_is_no_mixed_tie(engine, tmp_path):
    # b is judged 0 and z unjudged: both gain nothing
    rankings = rankings_of(engine, tmp_path, run_of(("q1", "a", 1), ("q1", "b", 0.5), ("q1", "z", 0.5), ("q2", "a", 1)))
    assert (rankings.mixed("double"), rankings.mixed("float32"), rankings.float32_matters()) == (False, False, False)
