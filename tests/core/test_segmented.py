"""evaluate_files reads big tidy run files in segments and gives exactly what read_run + evaluate give."""

import gzip
import io
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core import TREC_EVAL, evaluate, read_qrels, read_run
from ndcg_core.arrays import as_arrow, as_numpy
from ndcg_core.errors import InputError, Place
from ndcg_core.trec import segmented
from ndcg_core.trec.cli import main
from ndcg_core.trec.evaluate import EvaluationOptions
from ndcg_core.trec.segmented import evaluate_files
from support import ROOT, TREC, error_of, means


def whole(qrels, run, options=None):
    return evaluate(read_qrels(qrels), read_run(run), options)


def assert_same(ours, theirs):
    assert ours.qids == theirs.qids
    assert ours.columns.keys() == theirs.columns.keys()
    for name, values in theirs.columns.items():
        np.testing.assert_array_equal(ours.columns[name], values, err_msg=name)
    assert ours.cutoffs == theirs.cutoffs
    assert ours.options == theirs.options


@pytest.fixture
def in_segments(monkeypatch):
    """Segments of about 64 bytes (a query spans several), and read_run refused: no falling back."""
    monkeypatch.setattr(segmented, "SEGMENT_BYTES", 64)

    def refuse(*args, **kwargs):
        raise AssertionError("read_run was called: the file was not read in segments")

    monkeypatch.setattr(segmented, "read_run", refuse)


@pytest.fixture
def fallbacks(segments):
    """Small segments, and a count of the files handed to read_run."""
    return segments(64)


def collection(seed=3, queries=12, docs=15):
    """Qrels and run lines with tied scores, unjudged documents, queries missing from either file,
    one query longer than many segments, and query ids that sort differently as text and as numbers."""
    rng = np.random.default_rng(seed)
    qids = [str(q) for q in rng.permutation([1, 2, 3, 10, 11, 20, 100, 7, 8, 9, 42, 5][:queries])]
    qrels, run = [], []
    for i, q in enumerate(qids):
        pool = [f"d{j}" for j in rng.choice(60, size=docs + 10, replace=False)]
        if i != 1:  # query 1 of the list is in the run only
            qrels += [f"{q} 0 {d} {int(rng.integers(-1, 4))}" for d in pool[::2]]
        if i == 2:
            continue  # judged, never retrieved
        size = docs * 8 if i == 3 else docs
        names = pool if size <= len(pool) else [f"x{j}" for j in range(size)]
        scores = np.round(rng.random(size) * 3, 1)  # few distinct values: many ties
        order = np.argsort(-scores, kind="stable") if i % 3 else np.arange(size)  # some queries unsorted
        run += [f"{q} Q0 {names[j]} {r + 1} {scores[j]} tag" for r, j in enumerate(order[:size])]
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


@pytest.fixture
def files(tmp_path):
    qrels, run = collection()
    (tmp_path / "qrels.txt").write_text(qrels)
    (tmp_path / "run.txt").write_text(run)
    return tmp_path / "qrels.txt", tmp_path / "run.txt"


OPTIONS = [
    EvaluationOptions(),
    EvaluationOptions(cutoffs=(1, 3, 5)),
    EvaluationOptions(replace(TREC_EVAL, gain="exponential"), cutoffs=(2, 10)),
    EvaluationOptions(full_gain=((0, 0), (1, 3), (2, 9), (3, 4.5)), cutoffs=(5,)),
    EvaluationOptions(replace(TREC_EVAL, ties="average"), cutoffs=(3,)),
    EvaluationOptions(replace(TREC_EVAL, ties="best"), cutoffs=(3,)),
    EvaluationOptions(replace(TREC_EVAL, ties="worst"), cutoffs=(3,)),
    EvaluationOptions(replace(TREC_EVAL, ideal="list"), cutoffs=(5,)),
    EvaluationOptions(max_docs=4, cutoffs=(2, 5)),
    EvaluationOptions(complete=True, cutoffs=(5,)),
    EvaluationOptions(replace(TREC_EVAL, discount="jk"), cutoffs=(5,)),
]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_a_tidy_file_read_in_segments_gives_the_same_evaluation(files, in_segments, options):
    ours = evaluate_files(*files, options)
    assert len(ours.qids) >= 10
    assert_same(ours, whole(*files, options))


@pytest.mark.parametrize("segment", [1, 40, 500, 1 << 24])
def test_any_segment_size_gives_the_same_evaluation(files, in_segments, monkeypatch, segment):
    monkeypatch.setattr(segmented, "SEGMENT_BYTES", segment)
    assert_same(
        evaluate_files(*files, EvaluationOptions(cutoffs=(3, 10))), whole(*files, EvaluationOptions(cutoffs=(3, 10)))
    )


def test_a_last_line_without_a_line_end_is_read(tmp_path, in_segments):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "run.txt").write_text(RUN.rstrip("\n"))
    paths = tmp_path / "qrels.txt", tmp_path / "run.txt"
    assert_same(
        evaluate_files(*paths, EvaluationOptions(cutoffs=(1, 2))), whole(*paths, EvaluationOptions(cutoffs=(1, 2)))
    )


def test_trec_eval_expected_lines_come_out_of_the_segmented_path(tmp_path, in_segments, capsys):
    # trec_eval's results.test has tabs and padding; with single spaces the file is tidy.
    tidy = tmp_path / "results.tidy"
    tidy.write_text("".join(" ".join(line.split()) + "\n" for line in (TREC / "results.test").read_text().splitlines()))
    assert main(["-m", "ndcg_cut.5,10,1000", "-m", "ndcg", str(TREC / "qrels.test"), str(tidy)]) == 0
    expected = [
        line
        for line in (TREC / "out.test.a").read_text().splitlines()
        if line.split("\t")[0].rstrip() in ("ndcg", "ndcg_cut_5", "ndcg_cut_10", "ndcg_cut_1000")
    ]
    assert capsys.readouterr().out.splitlines() == expected


RUN = "1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n2 Q0 a 1 5 t\n2 Q0 c 2 1 t\n"
QRELS = "1 0 a 1\n1 0 b 2\n2 0 c 3\n"
UNTIDY = {
    "a comment line": "# made by hand\n" + RUN,
    "a comment between queries": RUN.replace("2 Q0 a", "# second query\n2 Q0 a"),
    "a blank line": RUN.replace("\n2 Q0 a", "\n\n2 Q0 a"),
    "tabs and spaces": RUN.replace("1 Q0 b 2 2", "1\tQ0\tb\t2\t2"),
    "padded columns": RUN.replace("1 Q0 b", "1  Q0 b"),
    "windows line ends": RUN.replace("\n", "\r\n"),
    "a non-ASCII docno": RUN.replace(" c ", " café "),
    "a query in two blocks": RUN + "1 Q0 z 3 0.5 t\n",
    "a query in two blocks segments apart": RUN + "".join(f"3 Q0 x{i} 1 1 t\n" for i in range(9)) + "1 Q0 z 3 0.5 t\n",
    "a duplicate document": RUN + "2 Q0 c 3 0.5 t\n",
    "a non-numeric score": RUN.replace(" 5 t", " five t"),
    "a NaN score": RUN.replace(" 5 t", " nan t"),
    "too few columns": RUN.replace("2 Q0 c 2 1 t", "2 Q0 c 2"),
    "a CSV header": "qid,docno,score\n1,a,3\n1,b,2\n2,a,5\n2,c,1\n",
    "an empty file": "",
}


def outcome(function):
    try:
        return function()
    except ValueError as err:
        return str(err)


@pytest.mark.parametrize("case", sorted(UNTIDY))
def test_other_files_go_to_read_run_with_the_same_result_or_message(tmp_path, fallbacks, case):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "run.txt").write_text(UNTIDY[case])
    paths = tmp_path / "qrels.txt", tmp_path / "run.txt"
    ours, theirs = outcome(lambda: evaluate_files(*paths)), outcome(lambda: whole(*paths))
    assert fallbacks, "the segmented path accepted a file it should have handed over"
    if isinstance(theirs, str):
        assert ours == theirs
    else:
        assert_same(ours, theirs)


def test_gzip_and_open_files_go_to_read_run(tmp_path, fallbacks):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "run.gz").write_bytes(gzip.compress(RUN.encode()))
    assert_same(
        evaluate_files(tmp_path / "qrels.txt", tmp_path / "run.gz"), whole(tmp_path / "qrels.txt", tmp_path / "run.gz")
    )
    with open(tmp_path / "run.gz", "rb") as file:
        assert_same(
            evaluate_files(tmp_path / "qrels.txt", file, EvaluationOptions(cutoffs=(1,))),
            evaluate(
                read_qrels(tmp_path / "qrels.txt"), read_run(tmp_path / "run.gz"), EvaluationOptions(cutoffs=(1,))
            ),
        )
    assert len(fallbacks) == 2


def test_an_upload_in_memory_is_read_in_segments_in_place(tmp_path, in_segments):
    run = "".join(f"{q} Q0 d{i} {i + 1} {10 - i} t\n" for q in range(1, 9) for i in range(6)).encode()
    qrels = "".join(f"{q} 0 d{i} {(q + i) % 4}\n" for q in range(1, 9) for i in range(0, 8, 2)).encode()
    reported = []
    result = evaluate_files(
        read_qrels(qrels), run, EvaluationOptions(cutoffs=(1, 3)), run_name="run.txt", progress=reported.append
    )
    assert_same(result, evaluate(read_qrels(qrels), read_run(run, "run.txt"), EvaluationOptions(cutoffs=(1, 3))))
    assert result.run_name == "run.txt"
    assert reported == sorted(reported) and reported[-1] == 1.0 and len(reported) > 4


def test_a_duplicate_is_reported_with_the_whole_files_line_numbers(tmp_path, monkeypatch):
    monkeypatch.setattr(segmented, "SEGMENT_BYTES", 16)
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "run.txt").write_text(RUN + "2 Q0 d 3 0.5 t\n2 Q0 c 4 0.2 t\n")
    with pytest.raises(InputError) as raised:
        evaluate_files(tmp_path / "qrels.txt", tmp_path / "run.txt")
    assert raised.value.code == "run.duplicate"
    assert raised.value.fields["place"] == Place("file.line", line=6, file=str(tmp_path / "run.txt"))
    assert raised.value.fields["first"] == 4


def test_no_shared_query_is_the_same_error(tmp_path, in_segments, monkeypatch):
    monkeypatch.setattr(segmented, "read_run", read_run)
    (tmp_path / "qrels.txt").write_text("9 0 a 1\n")
    (tmp_path / "run.txt").write_text(RUN)
    with pytest.raises(InputError) as raised:
        evaluate_files(tmp_path / "qrels.txt", tmp_path / "run.txt")
    assert raised.value.code == "files.no_shared_query"
    assert raised.value.fields == {"run": str(tmp_path / "run.txt"), "qrels": str(tmp_path / "qrels.txt")}


def test_complete_counts_judged_queries_of_a_run_that_retrieves_none_of_them(tmp_path, in_segments):
    (tmp_path / "qrels.txt").write_text("9 0 a 1\n")
    (tmp_path / "run.txt").write_text(RUN)
    chosen = EvaluationOptions(complete=True, cutoffs=(5,))
    result = evaluate_files(tmp_path / "qrels.txt", tmp_path / "run.txt", chosen)
    assert result.qids == ["9"]
    assert means(result) == {"ndcg": 0.0, "ndcg_cut_5": 0.0}
    assert_same(
        result, whole(tmp_path / "qrels.txt", tmp_path / "run.txt", EvaluationOptions(complete=True, cutoffs=(5,)))
    )


lines = st.lists(
    st.tuples(
        st.sampled_from(["1", "2", "10", "q"]),
        st.sampled_from(["a", "b", "c", "dd", "e"]),
        st.sampled_from(["0", "1", "1.5", "-2", "1e3", "0.0000001"]),
    ),
    min_size=1,
    max_size=25,
)


@given(
    lines=lines,
    grades=st.lists(st.integers(-1, 3), min_size=5, max_size=5),
    segment=st.integers(1, 120),
    grouped=st.booleans(),
)
def test_random_files_give_the_same_result_or_message(tmp_path_factory, lines, grades, segment, grouped):
    folder = tmp_path_factory.mktemp("random")
    if grouped:
        lines = sorted(lines, key=lambda line: line[0])
    (folder / "qrels.txt").write_text(
        "".join(f"{q} 0 {d} {g}\n" for q in ("1", "10", "q") for d, g in zip("abcde", grades, strict=False))
    )
    (folder / "run.txt").write_text("".join(f"{q} Q0 {d} 0 {s} t\n" for q, d, s in lines))
    paths = folder / "qrels.txt", folder / "run.txt"
    previous = segmented.SEGMENT_BYTES
    segmented.SEGMENT_BYTES = segment
    try:
        ours = outcome(lambda: evaluate_files(*paths, EvaluationOptions(cutoffs=(1, 3))))
    finally:
        segmented.SEGMENT_BYTES = previous
    theirs = outcome(lambda: whole(*paths, EvaluationOptions(cutoffs=(1, 3))))
    if isinstance(theirs, str):
        assert ours == theirs
    else:
        assert_same(ours, theirs)


def test_the_command_line_does_not_load_pandas():
    # pyarrow's to_numpy() and pa.array() load pandas, a quarter of a second of every run.
    code = (
        "import sys; from ndcg_core.trec.cli import main; "
        f"main(['-m', 'ndcg_cut.10', {str(TREC / 'qrels.test')!r}, {str(TREC / 'results.test')!r}]); "
        "print('pandas' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert done.stdout.splitlines()[-1] == "False"


@pytest.mark.parametrize(
    "values",
    [
        pa.array([1.5, None, -2.0, 4.0]).slice(1, 3),
        pa.array([3, 1, None, 7], pa.int32()).slice(1),
        pa.array([5, 6, 7], pa.uint64()),
        pa.chunked_array([pa.array([1, 2]), pa.array([3])]),
        pa.array([True, False, True, True, False, True, False, False, True]).slice(3, 5),
        pa.array([], pa.float64()),
    ],
)
def test_as_numpy_matches_pyarrow(values):
    expected = values.to_numpy(zero_copy_only=False)
    if values.null_count:
        expected = np.where(np.isnan(expected.astype(float)), -1, expected)
        np.testing.assert_array_equal(as_numpy(values, fill=-1), expected)
        with pytest.raises(TypeError, match="nulls"):
            as_numpy(values)
    else:
        np.testing.assert_array_equal(as_numpy(values), expected)


def test_as_arrow_round_trips_numbers():
    for values in (np.array([3, -1, 7]), np.array([2, 9], np.int32), np.array([0.5, 2.0]), np.array([], np.int64)):
        assert as_numpy(as_arrow(values)).tolist() == values.tolist()
    with pytest.raises(TypeError):
        as_arrow(np.array(["a"]))


@pytest.mark.parametrize("bad", ["2 Q0 c  1 t\n", "2 Q0 c 2 1 \n"])
def test_a_line_short_of_a_column_behind_a_doubled_separator_is_an_error_in_segments_too(tmp_path, monkeypatch, bad):
    monkeypatch.setattr(segmented, "SEGMENT_BYTES", 16)
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "run.txt").write_text(RUN + bad)
    with pytest.raises(InputError) as raised:
        evaluate_files(tmp_path / "qrels.txt", tmp_path / "run.txt")
    assert raised.value.code == "run.columns" and raised.value.fields["count"] == 5


# --- duplicates, names, progress and fallbacks, wherever a query lies in its segment --------------------------------

# A document twice in one query is read_run's run.duplicate, wherever the query lies in its segment and however
# long its docnos are.

FOUR_QUERIES = "".join(f"q{q} 0 {d} {g}\n" for q in range(1, 5) for d, g in (("a", 1), ("b", 2), ("c", 0)))


def lines(qid, *docnos):
    return "".join(f"{qid} Q0 {d} {i} {10 - i} t\n" for i, d in enumerate(docnos, start=1))


def expected_error(qrels, run):
    return error_of(lambda: evaluate(read_qrels(qrels.encode()), read_run(run.encode())))


@pytest.mark.parametrize("long", [False, True], ids=["short docnos", "docnos over 8 bytes"])
@pytest.mark.parametrize("queries, where", [(4, 2), (4, 3), (3, 2)], ids=["second of 4", "third of 4", "only inner"])
@pytest.mark.parametrize("docnos", [("a", "b", "b"), ("a", "a", "b"), ("b", "b")])
def test_a_duplicate_in_an_inner_query_is_the_same_error(tmp_path, long, queries, where, docnos):
    name = (lambda d: f"document-{d}") if long else (lambda d: d)
    qrels = FOUR_QUERIES.replace(" a ", f" {name('a')} ").replace(" b ", f" {name('b')} ")
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
    (tmp_path / "qrels").write_text(FOUR_QUERIES)
    (tmp_path / "run").write_text(run)
    result = evaluate_files(str(tmp_path / "qrels"), str(tmp_path / "run"))
    assert result.queries_in_blocks is True and result.qids == ["q1", "q2", "q3", "q4"]


def test_swapped_files_are_named_as_given(monkeypatch):
    run = lines("q1", "a", "b").encode()
    named = io.BytesIO(run)
    named.name = "my.run"
    error = error_of(evaluate_files, named, FOUR_QUERIES.encode())
    assert (error.code, error.fields) == ("files.swapped", {"qrels": "my.run", "run": "input"})
    error = error_of(evaluate_files, run, FOUR_QUERIES.encode())
    assert (error.code, error.fields) == ("files.swapped", {"qrels": "input", "run": "input"})


@pytest.fixture
def read_runs(segments):
    """One-line segments, and a count of the files handed to read_run."""
    return segments(1)


def evaluated_or_message(function):
    try:
        result = function()
    except ValueError as err:
        return str(err)
    return result.qids, {name: values.tolist() for name, values in result.columns.items()}


@pytest.mark.parametrize(
    "run",
    [
        RUN.replace(" a 1 3", " a#1 1 3"),  # a '#' inside a line is no comment
        RUN.replace(" ", "\t"),  # tabs throughout
    ],
    ids=["a # inside a docno", "tab separated"],
)
def test_tidy_files_stay_in_segments(tmp_path, read_runs, run):
    (tmp_path / "qrels").write_bytes(QRELS.replace(" a ", " a#1 ").encode())
    (tmp_path / "run").write_bytes(run.encode())
    paths = str(tmp_path / "qrels"), str(tmp_path / "run")
    ours = evaluated_or_message(lambda: evaluate_files(*paths))
    assert read_runs == [] and ours == evaluated_or_message(lambda: evaluate(read_qrels(paths[0]), read_run(paths[1])))


@pytest.mark.parametrize(
    "run",
    [
        RUN.replace(" c ", " c\x00 "),
        RUN.replace(" c ", " c\x0b "),
        RUN.replace(" c ", " c\x0c "),
        RUN.replace(" c ", " c\x80 "),
        RUN.replace(" ", "\t").replace("2\tQ0\tc", "2\tQ0 c"),
        RUN.replace("2 Q0 a", "# a note\n2 Q0 a"),
        RUN.replace("2 Q0 c", "2 Q0  c"),
    ],
    ids=["NUL", "vertical tab", "form feed", "byte 128", "a space among tabs", "a comment line", "padded"],
)
def test_untidy_bytes_in_any_segment_go_to_read_run(tmp_path, read_runs, run):
    (tmp_path / "qrels").write_bytes(QRELS.encode())
    (tmp_path / "run").write_bytes(run.encode("latin-1"))
    paths = str(tmp_path / "qrels"), str(tmp_path / "run")
    ours = evaluated_or_message(lambda: evaluate_files(*paths))
    assert read_runs and ours == evaluated_or_message(lambda: evaluate(read_qrels(paths[0]), read_run(paths[1])))


def test_names_and_progress_of_runs_read_in_segments_or_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(segmented, "SEGMENT_BYTES", 1)
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    reported = []
    result = evaluate_files(str(tmp_path / "qrels"), str(tmp_path / "run"), progress=reported.append)
    assert result.run_name == str(tmp_path / "run")
    assert reported == sorted(reported) and reported[-1] == 1.0 and len(reported) == 5  # 4 lines, then done
    assert evaluate_files(QRELS.encode(), RUN.encode()).run_name == "input"
    untidy = ("# a note\n" + RUN).encode()  # read whole by read_run, under the name given
    assert evaluate_files(QRELS.encode(), untidy, run_name="mine.run").run_name == "mine.run"


def test_swapped_files_given_as_paths_are_named_by_their_paths(tmp_path):
    (tmp_path / "a.run").write_text(RUN)
    (tmp_path / "b.qrels").write_text(QRELS)
    error = error_of(evaluate_files, str(tmp_path / "a.run"), str(tmp_path / "b.qrels"))
    assert (error.code, error.fields) == (
        "files.swapped",
        {"qrels": str(tmp_path / "a.run"), "run": str(tmp_path / "b.qrels")},
    )
