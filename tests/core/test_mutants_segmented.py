"""Big run files read in segments (``ndcg_core.trec.segmented``), checked where mutation testing found them loose.

The segmented path promises what ``read_run`` + ``evaluate`` give, messages included: a document twice in one
query is that ``run.duplicate``, wherever the query lies in its segment and however long its docnos are.
"""

import io

import pytest

from ndcg_core import evaluate, read_qrels, read_run
from ndcg_core.trec.segmented import evaluate_files
from support import error_of

QRELS = "".join(f"q{q} 0 {d} {g}\n" for q in range(1, 5) for d, g in (("a", 1), ("b", 2), ("c", 0)))


def lines(qid, *docnos):
    return "".join(f"{qid} Q0 {d} {i} {10 - i} t\n" for i, d in enumerate(docnos, start=1))


def expected_error(qrels, run):
    return error_of(lambda: evaluate(read_qrels(qrels.encode()), read_run(run.encode())))


@pytest.mark.parametrize("long", [False, True], ids=["short docnos", "docnos over 8 bytes"])
@pytest.mark.parametrize("where", [2, 3], ids=["second query", "last inner query"])
@pytest.mark.parametrize("docnos", [("a", "b", "b"), ("a", "a", "b"), ("b", "b")])
def test_a_duplicate_in_an_inner_query_is_the_same_error(tmp_path, long, where, docnos):
    name = (lambda d: f"document-{d}") if long else (lambda d: d)
    qrels = QRELS.replace(" a ", f" {name('a')} ").replace(" b ", f" {name('b')} ")
    run = "".join(
        lines(f"q{q}", *(map(name, docnos if q == where else ("a", "b", "c")))) for q in range(1, 5)
    )  # q1 and q4 are the segment's edges; q2 and q3 lie inside it
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    error = error_of(evaluate_files, str(tmp_path / "qrels"), str(tmp_path / "run"))
    wanted = expected_error(qrels, run)  # the same run read whole: named "input" instead of the file
    assert error.code == wanted.code == "run.duplicate" and error.fields["first"] == wanted.fields["first"]
    assert error.fields["place"].fields["line"] == wanted.fields["place"].fields["line"]


def test_a_segmented_evaluation_says_its_queries_came_in_blocks(tmp_path):
    run = "".join(lines(f"q{q}", "a", "b", "c") for q in range(1, 5))
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(run)
    result = evaluate_files(str(tmp_path / "qrels"), str(tmp_path / "run"))
    assert result.queries_in_blocks is True and result.qids == ["q1", "q2", "q3", "q4"]


def test_swapped_files_are_named_as_given(monkeypatch):
    run = lines("q1", "a", "b").encode()
    named = io.BytesIO(run)
    named.name = "my.run"
    error = error_of(evaluate_files, named, QRELS.encode())
    assert (error.code, error.fields) == ("files.swapped", {"qrels": "my.run", "run": "input"})
    error = error_of(evaluate_files, run, QRELS.encode())
    assert (error.code, error.fields) == ("files.swapped", {"qrels": "input", "run": "input"})
