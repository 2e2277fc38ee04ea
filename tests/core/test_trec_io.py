"""Readers: trec_eval's whitespace rules, CSV/TSV, gzip, and errors that name file and line."""

import gzip

import numpy as np
import pytest

from ndcg_core import evaluate, read_qrels, read_run
from ndcg_core.errors import InputError
from support import TREC


def test_reads_trec_eval_results_with_tabs_and_leading_spaces():
    run = read_run(TREC / "results.test")
    assert len(run) == 1500 and run.tag == "STANDARD"
    assert run.docno[0].as_py() == "FR940202-2-00150" and run.score[0] == 2.129133


def test_extra_columns_after_the_tag_are_ignored_as_in_trec_eval():
    run = read_run(TREC / "results.trunc")
    assert len(run) == 584 and run.docno[0].as_py() == "FBIS3-27619"


def test_comments_blank_lines_and_mixed_whitespace():
    text = b"# a comment\n\n  q1  0\ta  2 \r\n\t# another\nq1 0 b 0\n"
    qrels = read_qrels(text, name="q.txt")
    assert qrels.docno.to_pylist() == ["a", "b"] and qrels.rel.tolist() == [2, 0]
    assert qrels.lines.tolist() == [3, 5]


def test_a_blank_line_in_a_tidy_file_keeps_the_line_numbers():
    text = b"1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n\n1 Q0 a 3 1 t\n"
    with pytest.raises(ValueError, match=r"^line 4 of r.txt: document 'a' .* \(first on line 1\)"):
        read_run(text, name="r.txt")


def test_gzip_is_recognised_by_its_magic_bytes(tmp_path):
    path = tmp_path / "run.anything"
    path.write_bytes(gzip.compress(b"1 Q0 a 1 0.5 s\n"))
    assert read_run(path).docno.to_pylist() == ["a"]


def test_csv_and_tsv_with_headers():
    qrels = read_qrels(b"query_id,doc_id,relevance\nq,a,3\nq,b,0\n", name="q.csv")
    run = read_run(b"qid\tdocno\tscore\nq\ta\t0.2\nq\tb\t0.9\n", name="r.tsv")
    assert evaluate(qrels, run, cutoffs=(2,)).table().loc["q", "ndcg_cut_2"] == pytest.approx((3 / np.log2(3)) / 3)


def test_a_csv_run_with_only_ranks_ranks_by_them():
    run = read_run(b"qid,docno,rank\nq,a,2\nq,b,1\n")
    qrels = read_qrels(b"q 0 a 0\nq 0 b 1\n")
    assert evaluate(qrels, run, cutoffs=(1,)).table().loc["q", "ndcg_cut_1"] == 1.0


@pytest.mark.parametrize(
    "reader, text, message",
    [
        (read_qrels, b"q 0 a 1\nq 0 b\n", "line 2 of f.txt: expected 4 columns (qid iter docno rel), got 3"),
        (read_qrels, b"q 0 a x\n", "line 1 of f.txt: grade 'x' is not a number"),
        (read_qrels, b"q 0 a 1e300\n", "line 1 of f.txt: grade 1e+300 is beyond 2^53"),
        (read_qrels, b"q 0 a 1 extra\n", "line 1 of f.txt: expected 4 columns (qid iter docno rel), got 5"),
        (read_qrels, b"q 0 a 1.5\n", "line 1 of f.txt: grade 1.5 is not a whole number"),
        (read_qrels, b"q 0 a 1\nq 0 a 2\n", "line 2 of f.txt: document 'a' of query 'q' is judged twice"),
        (read_run, b"q Q0 a 1 x s\n", "line 1 of f.txt: score 'x' is not a number"),
        (read_run, b"q Q0 a 1 nan s\n", "line 1 of f.txt: score nan is not a usable number"),
        (read_run, b"q Q0 a 1 1 s\nq Q0 b 2 0.5\n", "line 2 of f.txt: expected at least 6 columns"),
        (read_run, b"q Q0 a 1 1 s\nq Q0 a 2 0.5 s\n", "line 2 of f.txt: document 'a' of query 'q' is retrieved twice"),
        (read_run, b"", "f.txt is empty"),
        (read_run, b"  \n\n", "f.txt is empty"),
        (read_run, b"# just a comment\n", "f.txt has no ranked documents"),
        (
            read_run,
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "line 3 of f.txt: a NUL byte; this looks like a binary file",
        ),
        (read_run, b"q Q0 \xff\xfe 1 1 s\n", "line 1 of f.txt: not UTF-8 text"),
        (read_run, b"\x1f\x8b\x08garbage", "f.txt: not a readable gzip file"),
        (read_qrels, b"qid,docno\nq,a\n", "line 1 of f.txt: the header has no rel column"),
        (read_run, b"qid,docno,score\nq,a,1\nq,b\n", "line 3 of f.txt: expected 3 columns like the header, got 2"),
    ],
)
def test_bad_files_name_the_file_the_line_and_the_problem(reader, text, message):
    with pytest.raises(ValueError) as caught:
        reader(text, name="f.txt")
    assert message in str(caught.value)


@pytest.mark.parametrize("bad, more", [(5, "\n2 more bad lines"), (4, "\n1 more bad line"), (3, "")])
def test_the_first_three_bad_lines_are_quoted_and_the_rest_counted(bad, more):
    text = b"".join(b"q 0 d%d\n" % i for i in range(bad))
    with pytest.raises(InputError) as caught:
        read_qrels(text, name="f.txt")
    expected = [
        f"line {i + 1} of f.txt: expected 4 columns (qid iter docno rel), got 3 (the line reads 'q 0 d{i}')"
        for i in range(3)
    ]
    assert str(caught.value) == "\n".join(expected) + more
    assert caught.value.code == "qrels.columns" and caught.value.more == bad - 3


def test_no_shared_query_is_a_clear_error():
    with pytest.raises(ValueError, match="no query of r.txt is judged in q.txt"):
        evaluate(read_qrels(b"1 0 a 1\n", name="q.txt"), read_run(b"2 Q0 a 1 1 s\n", name="r.txt"))


def test_a_missing_file_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="nope.txt: no such file"):
        read_run(tmp_path / "nope.txt")


@pytest.mark.parametrize(
    "text",
    [
        b"1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n10 Q0 c 1 1 t\n2 Q0 d 1 1 t\n",  # one block, a longer id that starts alike
        b"2 Q0 d 1 1 t\n1 Q0 a 1 3 t\n2 Q0 e 2 0 t\n1 Q0 b 2 2 t\n",  # scattered
        b"  1 Q0 a 1 3 t\n2\tQ0\td\t1\t1\tt\n1\tQ0\tb\t2\t2\tt",  # indented, tabs, no final newline
        b"qid,docno,score\n1,a,3\n2,d,1\n1,b,2\n",  # CSV
        b"2 Q0 d 1 1 t\n",  # absent
    ],
)
def test_one_querys_lines_are_those_a_whole_read_finds(text):
    from ndcg_core.trec.readers import read_query

    whole = read_run(text)
    rows = [i for i, q in enumerate(whole.qid.to_pylist()) if q == "1"]
    for data in (text, gzip.compress(text)):
        part = read_query(data, "1", "f.txt")
        assert part.docno.to_pylist() == [whole.docno[i].as_py() for i in rows]
        assert part.score.tolist() == [whole.score[i] for i in rows]


@pytest.mark.parametrize("data", [b"a Q0 d 1 0 ", b"b Q0 d 1 0 x\na Q0 d 1 0 ", b"\x01 \x01 \xe1\x80\x80 \x01 0 "])
def test_a_run_line_that_ends_the_file_with_a_space_still_lacks_its_tag(data):
    # Found by the hardening test's fuzzing: the last line, with no newline after it, ended in a separator that the
    # fast path read as an empty sixth column; trec_eval (and tests/trec_files.py's reference) count five.
    with pytest.raises(InputError) as err:
        read_run(data, name="r")
    assert err.value.code == "run.columns"
    assert read_qrels(b"a 0 d 1 ", name="q").qid.to_pylist() == ["a"]  # four columns and a space: a whole qrels line
