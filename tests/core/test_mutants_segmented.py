"""Big run files read in segments (``ndcg_core.trec.segmented``), checked where mutation testing found them loose.

The segmented path promises what ``read_run`` + ``evaluate`` give, messages included: a document twice in one
query is that ``run.duplicate``, wherever the query lies in its segment and however long its docnos are.
"""

import io

import pytest

from ndcg_core import evaluate, read_qrels, read_run
from ndcg_core.trec import segmented
from ndcg_core.trec.segmented import evaluate_files
from support import error_of

QRELS = "".join(f"q{q} 0 {d} {g}\n" for q in range(1, 5) for d, g in (("a", 1), ("b", 2), ("c", 0)))


def lines(qid, *docnos):
    return "".join(f"{qid} Q0 {d} {i} {10 - i} t\n" for i, d in enumerate(docnos, start=1))


def expected_error(qrels, run):
    return error_of(lambda: evaluate(read_qrels(qrels.encode()), read_run(run.encode())))


@pytest.mark.parametrize("long", [False, True], ids=["short docnos", "docnos over 8 bytes"])
@pytest.mark.parametrize("queries, where", [(4, 2), (4, 3), (3, 2)], ids=["second of 4", "third of 4", "only inner"])
@pytest.mark.parametrize("docnos", [("a", "b", "b"), ("a", "a", "b"), ("b", "b")])
def test_a_duplicate_in_an_inner_query_is_the_same_error(tmp_path, long, queries, where, docnos):
    name = (lambda d: f"document-{d}") if long else (lambda d: d)
    qrels = QRELS.replace(" a ", f" {name('a')} ").replace(" b ", f" {name('b')} ")
    run = "".join(
        lines(f"q{q}", *(map(name, docnos if q == where else ("a", "b", "c")))) for q in range(1, queries + 1)
    )  # the first and last queries are the segment's edges; the others lie inside it
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


TIDY_RUN = "1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n2 Q0 a 1 5 t\n2 Q0 c 2 1 t\n"
TIDY_QRELS = "1 0 a 1\n1 0 b 2\n2 0 c 3\n"


@pytest.fixture
def read_runs(segments):
    """One-line segments, and a count of the files handed to read_run."""
    return segments(1)


def outcome(function):
    try:
        result = function()
    except ValueError as err:
        return str(err)
    return result.qids, {name: values.tolist() for name, values in result.columns.items()}


@pytest.mark.parametrize(
    "run",
    [
        TIDY_RUN.replace(" a 1 3", " a#1 1 3"),  # a '#' inside a line is no comment
        TIDY_RUN.replace(" ", "\t"),  # tabs throughout
    ],
    ids=["a # inside a docno", "tab separated"],
)
def test_tidy_files_stay_in_segments(tmp_path, read_runs, run):
    (tmp_path / "qrels").write_bytes(TIDY_QRELS.replace(" a ", " a#1 ").encode())
    (tmp_path / "run").write_bytes(run.encode())
    paths = str(tmp_path / "qrels"), str(tmp_path / "run")
    ours = outcome(lambda: evaluate_files(*paths))
    assert read_runs == [] and ours == outcome(lambda: evaluate(read_qrels(paths[0]), read_run(paths[1])))


@pytest.mark.parametrize(
    "run",
    [
        TIDY_RUN.replace(" c ", " c\x00 "),
        TIDY_RUN.replace(" c ", " c\x0b "),
        TIDY_RUN.replace(" c ", " c\x0c "),
        TIDY_RUN.replace(" c ", " c\x80 "),
        TIDY_RUN.replace(" ", "\t").replace("2\tQ0\tc", "2\tQ0 c"),
        TIDY_RUN.replace("2 Q0 a", "# a note\n2 Q0 a"),
        TIDY_RUN.replace("2 Q0 c", "2 Q0  c"),
    ],
    ids=["NUL", "vertical tab", "form feed", "byte 128", "a space among tabs", "a comment line", "padded"],
)
def test_untidy_bytes_in_any_segment_go_to_read_run(tmp_path, read_runs, run):
    (tmp_path / "qrels").write_bytes(TIDY_QRELS.encode())
    (tmp_path / "run").write_bytes(run.encode("latin-1"))
    paths = str(tmp_path / "qrels"), str(tmp_path / "run")
    ours = outcome(lambda: evaluate_files(*paths))
    assert read_runs and ours == outcome(lambda: evaluate(read_qrels(paths[0]), read_run(paths[1])))


def test_names_and_progress_of_runs_read_in_segments_or_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(segmented, "SEGMENT_BYTES", 1)
    (tmp_path / "qrels").write_text(TIDY_QRELS)
    (tmp_path / "run").write_text(TIDY_RUN)
    reported = []
    result = evaluate_files(str(tmp_path / "qrels"), str(tmp_path / "run"), progress=reported.append)
    assert result.run_name == str(tmp_path / "run")
    assert reported == sorted(reported) and reported[-1] == 1.0 and len(reported) == 5  # 4 lines, then done
    assert evaluate_files(TIDY_QRELS.encode(), TIDY_RUN.encode()).run_name == "input"
    untidy = ("# a note\n" + TIDY_RUN).encode()  # read whole by read_run, under the name given
    assert evaluate_files(TIDY_QRELS.encode(), untidy, run_name="mine.run").run_name == "mine.run"


def test_swapped_files_given_as_paths_are_named_by_their_paths(tmp_path):
    (tmp_path / "a.run").write_text(TIDY_RUN)
    (tmp_path / "b.qrels").write_text(TIDY_QRELS)
    error = error_of(evaluate_files, str(tmp_path / "a.run"), str(tmp_path / "b.qrels"))
    assert (error.code, error.fields) == (
        "files.swapped",
        {"qrels": str(tmp_path / "a.run"), "run": str(tmp_path / "b.qrels")},
    )
