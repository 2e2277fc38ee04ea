"""Readers: trec_eval's whitespace rules, CSV/TSV, gzip, and errors that name file and line."""

import gzip
import io

import numpy as np
import pyarrow as pa
import pytest

from ndcg_core import EvaluationOptions, evaluate, read_qrels, read_run
from ndcg_core.errors import InputError, Place
from ndcg_core.trec import readers
from ndcg_core.trec.readers import (
    RUN_LAYOUT,
    _has_empty,
    _one_block,
    arrow_parse,
    last_tag,
    looks_swapped,
    padded,
    read_query,
)
from support import TREC, error_of


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
    assert evaluate(qrels, run, EvaluationOptions(cutoffs=(2,))).table().loc["q", "ndcg_cut_2"] == pytest.approx(
        (3 / np.log2(3)) / 3
    )


def test_a_csv_run_with_only_ranks_ranks_by_them():
    run = read_run(b"qid,docno,rank\nq,a,2\nq,b,1\n")
    qrels = read_qrels(b"q 0 a 0\nq 0 b 1\n")
    assert evaluate(qrels, run, EvaluationOptions(cutoffs=(1,))).table().loc["q", "ndcg_cut_1"] == 1.0


# Bad files with the start of their message; shared with the DuckDB engine's tests (the same errors).
BAD_FILES = [
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
]


@pytest.mark.parametrize("reader, text, message", BAD_FILES)
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


# --- each reader's errors by code and fields: file, line, quote, count ----------------------------------------------

# Each error is checked by its code and fields: the file, the line (counted as the user counts, comments and
# header included), the quoted line and how many more bad lines there are.


def at(line, file="input"):
    return Place("file.line", line=line, file=file)


def rows(run):
    return list(zip(run.qid.to_pylist(), run.docno.to_pylist(), run.score.tolist(), strict=True))


# --- CSV and TSV with a header --------------------------------------------------------------------


def test_a_csv_reads_quoted_fields_comments_blank_lines_and_crlf():
    text = b'# made by hand\nqid,docno,score\r\n\n  # indented comment\n"q1","XDOCX",2.5\r\nq1,d2,1\n\nq2,d3,0\n'
    run = read_run(text)
    assert rows(run) == [("q1", "XDOCX", 2.5), ("q1", "d2", 1.0), ("q2", "d3", 0.0)]
    assert run.tag == "" and run.qid.type == pa.string() and run.docno.type == pa.string()
    assert run.lines.tolist() == [5, 6, 8] and run.lines.dtype == np.int64


def test_a_tsv_keeps_an_empty_last_field_and_names_it():
    error = error_of(read_run, b"qid\tdocno\tscore\nq1\td1\t\n", "r.tsv")
    assert (error.code, error.fields, error.quote) == (
        "run.score_not_number",
        {"place": at(2, "r.tsv"), "value": "''"},
        "q1\td1\t",
    )


def test_a_csv_run_with_score_and_rank_ranks_by_score():
    run = read_run(b"qid,docno,rank,score\nq1,a,1,0.5\nq1,b,2,0.9\n")
    assert rows(run) == [("q1", "a", 0.5), ("q1", "b", 0.9)]
    by_rank = read_run(b"qid,docno,rank\nq1,a,1\nq1,b,2\n")
    assert rows(by_rank) == [("q1", "a", -1.0), ("q1", "b", -2.0)]


def test_a_csv_without_the_columns_it_needs_says_what_it_looked_for():
    error = error_of(read_run, b"qid,docno,sim2\nq1,a,1\n", "r.csv")
    assert (error.code, error.fields) == (
        "run.header_missing",
        {"file": "r.csv", "column": "score", "looked": "score, sim, similarity", "found": "qid, docno, sim2"},
    )
    error = error_of(read_qrels, b"qid,docno,judged\nq1,a,1\n")
    assert (error.code, error.fields["column"], error.fields["looked"]) == (
        "qrels.header_missing",
        "rel",
        "rel, relevance, grade, label, judgment, judgement",
    )


def test_a_csv_with_only_its_header():
    error = error_of(read_run, b"qid,docno,score\n# nothing\n", "r.csv")
    assert (error.code, error.fields) == ("run.header_only", {"file": "r.csv"})
    error = error_of(read_qrels, b"qid,docno,rel\n\n")
    assert (error.code, error.fields) == ("qrels.header_only", {"file": "input"})


def test_csv_lines_of_the_wrong_width_are_quoted_three_at_a_time_and_counted():
    bad = b"".join(b"q%d,d\n" % i for i in range(5))
    error = error_of(read_run, b"qid,docno,score\nq,ok,1\n" + bad, "r.csv")
    assert (error.code, error.fields, error.quote) == (
        "csv.columns",
        {"place": at(3, "r.csv"), "expected": 3, "count": 2},
        "q0,d",
    )
    assert [(e.fields["place"], e.quote) for e in error.also] == [(at(4, "r.csv"), "q1,d"), (at(5, "r.csv"), "q2,d")]
    assert error.more == 2


@pytest.mark.parametrize("column, line", [("qid", b",d1,1\n"), ("docno", b"q1,,1\n")])
def test_an_empty_qid_or_docno_in_a_csv_names_its_line(column, line):
    text = b"qid,docno,score\n# c\nq1,d0,2\n" + line + line.replace(b"1\n", b"0\n")
    error = error_of(read_run, text, "r.csv")
    assert (error.code, error.fields) == ("csv.field_empty", {"place": at(4, "r.csv"), "column": column})


@pytest.mark.parametrize(
    "reader, header, code",
    [
        (read_qrels, b"qid,docno,rel", "qrels.grade_not_number"),
        (read_run, b"qid,docno,score", "run.score_not_number"),
        (read_run, b"qid,docno,rank", "run.rank_not_number"),
    ],
)
def test_csv_numbers_that_are_not_numbers_are_quoted_three_at_a_time(reader, header, code):
    bad = b"".join(b"q,d%d,x%d\n" % (i, i) for i in range(5))
    error = error_of(reader, header + b"\n# c\nq,ok,1\n" + bad, "f.csv")
    assert (error.code, error.fields, error.quote) == (code, {"place": at(4, "f.csv"), "value": "'x0'"}, "q,d0,x0")
    assert [e.fields for e in error.also] == [
        {"place": at(5, "f.csv"), "value": "'x1'"},
        {"place": at(6, "f.csv"), "value": "'x2'"},
    ]
    assert [e.code for e in error.also] == [code, code] and error.more == 2


def test_a_rank_that_is_not_finite_names_its_line():
    error = error_of(read_run, b"qid,docno,rank\n# c\nq1,a,1\nq1,b,inf\n", "r.csv")
    assert (error.code, error.fields) == ("run.rank_not_finite", {"place": at(4, "r.csv"), "value": "inf"})


def test_a_score_that_is_nan_names_its_line_and_an_infinite_score_is_a_score():
    error = error_of(read_run, b"qid,docno,score\n# c\nq1,a,1\nq1,b,nan\n", "r.csv")
    assert (error.code, error.fields) == ("run.score_nan", {"place": at(4, "r.csv"), "value": "nan"})
    error = error_of(read_run, b"# c\nq1 Q0 a 1 1 t\nq1 Q0 b 2 nan t\n")
    assert (error.code, error.fields) == ("run.score_nan", {"place": at(3), "value": "nan"})
    assert read_run(b"q1 Q0 a 1 inf t\nq1 Q0 b 2 -inf t\n").score.tolist() == [np.inf, -np.inf]


# --- TREC text ------------------------------------------------------------------------------------


def test_grades_are_whole_int64_numbers_up_to_2_to_the_53():
    assert read_qrels(b"q 0 a 9007199254740992\n").rel.tolist() == [2**53]
    assert read_qrels(b"q 0 a 1\n").rel.dtype == np.int64
    error = error_of(read_qrels, b"# c\nq 0 a 1\nq 0 b 1.5\n")
    assert (error.code, error.fields) == ("qrels.grade_not_whole", {"place": at(3), "value": "1.5"})
    error = error_of(read_qrels, b"# c\nq 0 a 1\nq 0 b 9007199254740994\n")
    assert (error.code, error.fields) == (
        "qrels.grade_too_large",
        {"place": at(3), "value": "9.0072e+15", "limit": "2^53 = 9007199254740992"},
    )


def test_query_ids_come_dictionary_encoded_and_docnos_as_text():
    run = read_run(b"q1 Q0 007 1 1.0 t\nq1 Q0 1 2 0.5 t\n")
    assert pa.types.is_dictionary(run.qid.type) and run.docno.to_pylist() == ["007", "1"]
    plain = arrow_parse(b"q1 Q0 d 1 1 t\n", "r", RUN_LAYOUT, " ", qid_codes=False)
    assert plain["qid"].type == pa.string()


def test_double_quotes_are_characters_of_a_docno():
    assert read_run(b'q1 Q0 "d1 1 1.0 t\nq1 Q0 d2" 2 0.5 t\n').docno.to_pylist() == ['"d1', 'd2"']


def test_a_line_of_one_field_is_a_line_short_of_columns():
    error = error_of(read_qrels, b"q 0 a 1\nq\n")
    assert (error.code, error.fields) == ("qrels.columns", {"place": at(2), "count": 1})


def test_blank_lines_at_the_end_of_a_file_that_needs_normalising():
    qrels = read_qrels(b"# c\nq 0 a 1\nq 0 b  2\n\n\n\n")
    assert qrels.rel.tolist() == [1, 2] and qrels.lines.tolist() == [2, 3]


def test_pyarrow_numbers_are_reparsed_as_text_to_name_the_bad_ones():
    # Reached when a file needs normalising; "nan" is a number there, a date is not.
    text = b"# c\nq 0 a nan\nq 0 b 2020-01-01\n" + b"".join(b"q 0 d%d x%d\n" % (i, i) for i in range(4))
    error = error_of(read_qrels, text)
    assert (error.code, error.fields, error.quote) == (
        "qrels.grade_not_number",
        {"place": at(3), "value": "'2020-01-01'"},
        "q 0 b 2020-01-01",
    )
    assert [e.fields["place"] for e in error.also] == [at(4), at(5)] and error.more == 2


def test_a_bad_line_is_quoted_as_written_up_to_80_characters():
    error = error_of(read_qrels, b"q 0 a 1\nq 0 b 1 X   \r\nq 0 c")
    assert error.quote == "q 0 b 1 X   " and error.also[0].quote == "q 0 c"
    assert error.more == 0 and error.also[0].fields == {"place": at(3), "count": 3}
    for width in (80, 81):
        line = b"q 0 b 1 " + b"x" * (width - 8)
        quote = error_of(read_qrels, line + b"\n").quote
        assert quote == (line.decode() if width == 80 else line[:77].decode() + "...")


def test_a_bad_byte_names_its_line():
    error = error_of(read_qrels, b"q 0 a 1\nq 0 b 1\nq 0 \xff 1\n")
    assert (error.code, error.fields) == ("file.not_utf8", {"place": at(3)})


def test_the_first_duplicate_by_line_is_named():
    error = error_of(read_run, b"q2 Q0 d 1 1 t\nq1 Q0 d 1 1 t\nq1 Q0 d 2 0 t\nq2 Q0 d 2 0 t\n")
    assert (error.code, error.fields) == (
        "run.duplicate",
        {"place": at(3), "document": "'d'", "query": "'q1'", "first": 2},
    )


# --- the normaliser in small chunks ---------------------------------------------------------------


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(readers, "_CHUNK", 16)


def test_a_file_normalised_in_chunks_keeps_its_rows_and_line_numbers(small_chunks):
    lines = [b"# a comment to start"] + [b"q%d  0\td%d %d" % (i % 3, i, i % 4) for i in range(12)]
    lines.insert(6, b"a-line-longer-than-one-chunk 0 doc 1")
    qrels = read_qrels(b"\n".join(lines))  # no line end after the last line
    assert qrels.docno.to_pylist()[:6] == ["d0", "d1", "d2", "d3", "d4", "doc"]
    assert qrels.qid.to_pylist()[5] == "a-line-longer-than-one-chunk"
    assert qrels.rel.tolist() == [0, 1, 2, 3, 0, 1, 1, 2, 3, 0, 1, 2, 3]
    assert qrels.lines.tolist() == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]


def test_a_first_line_longer_than_a_chunk(small_chunks):
    assert read_qrels(b"a-query-id-longer-than-a-chunk 0 d 1\n\tq 0 e 2\n").rel.tolist() == [1, 2]


def test_bad_lines_in_several_chunks_are_counted_together(small_chunks):
    text = b"\n".join([b"q 0 a 1"] + [b"q  0 b%d" % i for i in range(7)])
    error = error_of(read_qrels, text)
    assert error.fields == {"place": at(2), "count": 3} and error.quote == "q  0 b0"
    assert [e.fields["place"] for e in error.also] == [at(3), at(4)] and error.more == 4


def test_a_doubled_separator_in_a_later_chunk_is_found(small_chunks):
    data = b"q 0 a 1\nq 0 b 1\nq 0 c 1\nq 0 d  1\n"
    assert not padded(data, b" ", 0, 24) and padded(data, b" ")
    assert padded(b"q 0 a 1\nq 0 b 1 \nq 0 c 1\n", b" ")  # the pair straddles the first two chunks


def test_padded_looks_only_between_start_and_stop():
    data = b"a b\nc  d\n"
    assert not padded(data, b" ", 0, 4) and padded(data, b" ", 0, 7) and not padded(data, b" ", 6)


# --- helpers with a contract of their own -----------------------------------------------------------


def test_has_empty_finds_an_empty_string_in_plain_dictionary_and_sliced_arrays():
    assert not _has_empty(pa.array([], pa.string())) and not _has_empty(pa.array(["a", "b"]))
    assert _has_empty(pa.array(["a", "", "b"])) and _has_empty(pa.array(["", "a"]))
    assert _has_empty(pa.array(["a", "b", ""]).dictionary_encode())
    sliced = pa.array(["", "a", "bb", "c"]).slice(1)
    assert not _has_empty(sliced) and _has_empty(pa.array(["a", "b", "", "c"]).slice(1, 2))


def test_the_tag_is_the_last_ranking_lines_within_the_last_64_kib_and_50_lines():
    assert last_tag(b"q Q0 d 1 1 run1\nq Q0 e 2 0 run2\n# a b c d e f\n\n") == "run2"
    assert last_tag(b"q Q0 d 1 1 run1\n" + b"#\n" * 49) == "run1"
    assert last_tag(b"q Q0 d 1 1 run1\n" + b"#\n" * 50) == ""
    line = b"q Q0 d 1 1 TAG\n"  # 15 bytes; 65,537 in all puts the window's start just after the q
    assert last_tag(line + b"#" * (65537 - len(line) - 1) + b"\n") == ""
    assert last_tag(line + b"#" * (65536 - len(line) - 1) + b"\n") == "TAG"


# --- swapped files --------------------------------------------------------------------------------

QRELS_LIKE = b"# judged\n\nq1 0 d1 1\n"
RUN_ERROR = InputError("qrels.columns", place=at(1), count=6)


def test_a_run_given_as_qrels_next_to_qrels_given_as_a_run_looks_swapped(tmp_path):
    path = tmp_path / "run.txt"
    path.write_bytes(QRELS_LIKE)
    for source in (QRELS_LIKE, bytearray(QRELS_LIKE), memoryview(QRELS_LIKE), str(path), path):
        assert looks_swapped(RUN_ERROR, source) is True
    assert looks_swapped(RUN_ERROR, b"q1 Q0 d1 1 1 t\n") is False
    assert looks_swapped(RUN_ERROR, b"# a b c\nq1 Q0 d1 1 1 t\n") is False  # a comment of four fields
    assert looks_swapped(RUN_ERROR, b"#\nq1 Q0 d1 1 1 t\n") is False


def test_other_errors_and_sources_do_not_look_swapped(tmp_path):
    assert looks_swapped(InputError("qrels.columns", place=at(1), count=5), QRELS_LIKE) is False
    assert looks_swapped(InputError("csv.columns", place=at(1), expected=4, count=6), QRELS_LIKE) is False
    assert looks_swapped(RUN_ERROR, str(tmp_path / "missing.txt")) is False
    assert looks_swapped(RUN_ERROR, io.BytesIO(QRELS_LIKE)) is False  # an open file is not looked into
    assert looks_swapped(RUN_ERROR, b"#\n" * 50 + b"q1 0 d1 1\n") is False  # only the first 50 lines are read
    assert looks_swapped(RUN_ERROR, b"") is False


def test_only_the_first_64_kib_are_read_for_the_swap(tmp_path):
    # A comment line, then "q 0 d " ends at byte 65,536: the grade is beyond what is read.
    comment = b"#" * (65536 - 6 - 1) + b"\n"
    data = comment + b"q 0 d 1\n"
    assert looks_swapped(RUN_ERROR, data) is False
    path = tmp_path / "run.txt"
    path.write_bytes(data)
    assert looks_swapped(RUN_ERROR, path) is False
    assert looks_swapped(RUN_ERROR, comment[1:] + b"q 0 d 1\n") is True


# --- one query of a big run -----------------------------------------------------------------------

TIDY = b"q0 Q0 x 1 1 t\nq1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq2 Q0 c 1 1 t\n"


@pytest.mark.parametrize("one_block", [False, True])
def test_read_query_reads_one_block_of_lines(one_block):
    run = read_query(TIDY, "q1", "big.txt", one_block=one_block)
    assert rows(run) == [("q1", "a", 3.0), ("q1", "b", 2.0)] and run.name == "big.txt"
    assert read_query(TIDY, "q1").name == "input"
    assert rows(read_query(memoryview(TIDY), "q2")) == [("q2", "c", 1.0)]
    assert rows(read_query(bytearray(TIDY.replace(b" ", b"\t")), "q0")) == [("q0", "x", 1.0)]


def test_read_query_of_an_absent_query_is_an_empty_run_of_text():
    run = read_query(TIDY, "q9", "big.txt")
    assert len(run) == 0 and run.qid.type == pa.string() and run.docno.type == pa.string()
    assert run.name == "big.txt" and run.score.dtype == np.float64


@pytest.mark.parametrize(
    "data",
    [
        b"\tq1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\n",
        b"q1 Q0 a 1 3 t\n q1 Q0 b 2 2 t\n",
        b"q1 Q0 a 1 3 t\n\tq1 Q0 b 2 2 t\n",
        b"q1 Q0 a 1 3 t\nq2 Q0 z 1 1 t\nq1 Q0 b 2 2 t\n",
    ],
)
def test_read_query_finds_indented_and_scattered_lines(data):
    run = read_query(data, "q1", "big.txt")
    assert rows(run) == [("q1", "a", 3.0), ("q1", "b", 2.0)] and run.name == "big.txt"


def test_read_query_of_a_csv_or_gzip_reads_it_whole():
    csv = b"qid,docno,score\nq1,a,3\nq2,b,1\nq1,c,2\n"
    run = read_query(csv, "q1", "r.csv")
    assert rows(run) == [("q1", "a", 3.0), ("q1", "c", 2.0)] and (run.name, run.tag) == ("r.csv", "")
    run = read_query(gzip.compress(TIDY), "q1", "r.gz")
    assert rows(run) == [("q1", "a", 3.0), ("q1", "b", 2.0)] and (run.name, run.tag) == ("r.gz", "t")


def test_a_last_query_without_a_line_end_is_read():
    assert rows(read_query(b"q0 Q0 x 1 1 t\nq1 Q0 a 1 3 t", "q1")) == [("q1", "a", 3.0)]


@pytest.mark.parametrize(
    "data, key, expected",
    [
        (b"q1 a\nq1 b\nq2 c\n", b"q1", (0, 10)),
        (b"q1\ta\nq1\tb\nq2\tc\n", b"q1", (0, 10)),
        (b"q0 x\nq1 a\nq1\tb\nq2 c\n", b"q1", (5, 15)),
        (b"q0\tx\nq1\ta\nq1 b\nq2\tc\n", b"q1", (5, 15)),
        (b"\nq1 a\n", b"q1", (1, 6)),
        (b"q0 x\nq1 a", b"q1", (5, 9)),
        (b"q0 x\nq1 a\n", b"q2", "absent"),
        (b"q1 a\nq2 b\nq1 c\n", b"q1", "scattered"),
        (b"q1\ta\nq2\tb\nq1\tc\n", b"q1", "scattered"),
        (b"q1 a\n\nq1 b\n", b"q1", "scattered"),
        (b"q1\ta\n\nq1\tb\n", b"q1", "scattered"),
    ],
)
def test_one_block_finds_where_a_querys_lines_are(data, key, expected):
    assert _one_block(data, key) == expected
    if expected == "scattered":  # a caller that checked the file takes the first block
        assert isinstance(_one_block(data, key, checked=True), tuple)


# --- loading: sources, folders, NUL bytes, bad UTF-8 --------------------------------------------


def test_every_kind_of_source_is_read_and_named(tmp_path):
    assert read_qrels(io.StringIO("q 0 dé 1\n")).docno.to_pylist() == ["dé"]
    assert read_qrels(io.BytesIO(b"q 0 d 1\n")).name == "input"
    error = error_of(read_qrels, 5)
    assert (error.code, error.fields) == ("file.source", {"kind": "int"})
    error = error_of(read_qrels, tmp_path)
    assert (error.code, error.fields) == ("file.folder", {"file": str(tmp_path)})
    long_name = "x" * 5000
    error = error_of(read_qrels, long_name)
    assert (error.code, error.fields) == ("file.unreadable", {"file": long_name, "reason": "File name too long"})


@pytest.mark.parametrize(
    "data, line",
    [(b"\x00q 0 d 1\n", 1), (b"q 0 a 1\nq 0 \x00 1\nq 0 \x00 2\n", 2), (b"\nq 0 a 1\nq 0 \x00 1\n", 3)],
)
def test_a_nul_byte_names_the_line_of_the_first(data, line):
    error = error_of(read_qrels, data)
    assert (error.code, error.fields) == ("file.nul", {"place": at(line)})


@pytest.mark.parametrize("data, line", [(b"\xffq 0 d 1\n", 1), (b"q 0 d 1\n\xc3", 2)])
def test_text_that_is_not_utf8_at_either_end(data, line):
    error = error_of(read_qrels, data)
    assert (error.code, error.fields) == ("file.not_utf8", {"place": at(line)})


def test_an_incomplete_character_at_the_end_of_the_last_chunk(small_chunks):
    data = b"q 0 d 1\nq 0 e 1\xc3"
    assert len(data) == 16  # exactly one chunk
    error = error_of(read_qrels, data)
    assert (error.code, error.fields) == ("file.not_utf8", {"place": at(2)})


def test_read_query_of_text_that_is_not_utf8_says_so():
    error = error_of(read_query, b"q1 Q0 d\xff 1 1 t\n", "q1")
    assert (error.code, error.fields) == ("file.not_utf8", {"place": at(1)})


# --- which reader: TREC text or a CSV header ----------------------------------------------------------


def test_a_tab_or_space_inside_a_field_of_a_tidy_file_is_a_separator():
    assert error_of(read_qrels, b"q1\t0\td 1\t1\n").fields == {"place": at(1), "count": 5}
    assert error_of(read_qrels, b"q1 0 d\tx 1\n").fields == {"place": at(1), "count": 5}
    # A lone CR separates fields as trec_eval's isspace does; it does not end a line.
    assert error_of(read_qrels, b"q1 0 d 1\rq2 0 e 2\n").fields == {"place": at(1), "count": 8}


def test_a_csv_header_is_looked_for_in_the_first_50_lines_and_64_kib():
    error = error_of(read_run, b"#\n" * 50 + b"qid,docno,score\nq1,d1,1\n")
    assert (error.code, error.fields) == ("run.columns", {"place": at(51), "count": 1})
    assert readers.csv_table_header(b"#\n" * 49 + b"qid,docno,score\n") == (",", ["qid", "docno", "score"])
    cut = b"#" * (65536 - 8 - 1) + b"\n" + b"qid,docno,score\n"  # the first 64 KiB end at "qid,docn"
    assert readers.csv_table_header(cut) is None


def test_a_csv_header_needs_query_and_document_columns_by_their_names():
    assert readers.csv_table_header(b'"QID","DocNo","Score"\n') == (",", ["qid", "docno", "score"])
    assert readers.csv_table_header(b"qid,Xdocno,score\n") is None
    assert readers.csv_table_header(b"qid,rel\n") is None
    error = error_of(read_qrels, b"qid,rel\nq1,1\n")
    assert (error.code, error.fields) == ("qrels.columns", {"place": at(1), "count": 1})


def test_a_last_line_is_quoted_whole_with_or_without_a_line_end():
    error = error_of(read_run, b"qid,docno,score\nq1,d1,x", "r.csv")
    assert (error.fields, error.quote) == ({"place": at(2, "r.csv"), "value": "'x'"}, "q1,d1,x")
    assert error_of(read_qrels, b"q 0 a 1\nq 0 b 1 X\n").quote == "q 0 b 1 X"
    run = read_run(b"qid,score,docno\nq1,1,DOCX\r\nq1,2,ABC\n")
    assert run.docno.to_pylist() == ["DOCX", "ABC"]


@pytest.mark.parametrize("value", [b"2020-01-01", b"true"])
def test_a_grade_pyarrow_would_take_for_another_type_is_quoted_as_written(value):
    error = error_of(read_qrels, b"# c\nq 0 a " + value + b"\n")
    assert (error.code, error.fields) == ("qrels.grade_not_number", {"place": at(2), "value": repr(value.decode())})


def test_read_query_names_its_file_in_errors_of_a_csv():
    error = error_of(read_query, b"qid,docno,score\nq1,d1,x\n", "q1", "r.csv")
    assert (error.code, error.fields) == ("run.score_not_number", {"place": at(2, "r.csv"), "value": "'x'"})


# --- each helper's own checks, where the readers' earlier checks keep them from being reached ---------


def test_arrow_parse_refuses_text_that_is_not_utf8_naming_the_line_of_the_original():
    error = error_of(arrow_parse, b"q1 Q0 d\xff 1 1 t\n", "r", RUN_LAYOUT, " ")
    assert (error.code, error.fields) == ("file.not_utf8", {"place": at(1, "r")})
    original = b"# c\nq 0 \xff 1\n"
    clean = b"q 0 \xff 1\n"
    error = error_of(arrow_parse, clean, "f", readers.QRELS_LAYOUT, " ", lines=np.array([2]), original=original)
    assert (error.code, error.fields) == ("file.not_utf8", {"place": at(2, "f")})


def test_arrow_parse_gives_up_on_an_empty_docno_or_qid():
    assert arrow_parse(b"q1 Q0  1 1.0 t\n", "r", RUN_LAYOUT, " ") is None
    assert arrow_parse(b"\tQ0\td\t1\t1.0\tt\n", "r", RUN_LAYOUT, "\t") is None


def test_read_csv_refuses_text_that_is_not_utf8():
    header = (",", ["qid", "docno", "score"])
    wanted = {"qid": readers.QID_NAMES, "docno": readers.DOC_NAMES, "score": readers.SCORE_NAMES}
    error = error_of(readers._read_csv, b"qid,docno,score\nq1,d\xff,1\n", "r.csv", header, wanted, "run")
    assert (error.code, error.fields) == ("file.not_utf8", {"place": at(2, "r.csv")})
    assert readers._is_utf8(b"d\xc3\xa9") and not readers._is_utf8(b"d\xff")


def test_line_helpers_at_their_edges():
    assert readers._first_bad_utf8_line(b"all\ngood\n") == 1  # the fallback when no line is bad
    assert readers._line_text(b"\nabc\n", 1) == "" and readers._line_text(b"\nabc\n", 2) == "abc"
    column = pa.chunked_array([["1", "x", "2", "y"]])
    with pytest.raises(InputError) as info:
        readers._raise_bad_numbers(column, "f", b"a 1\nb x\nc 2\nd y\n", None, "qrels.grade_not_number")
    assert info.value.fields == {"place": at(2, "f"), "value": "'x'"} and info.value.also[0].fields["place"] == at(
        4, "f"
    )
    assert padded(b"  a\n", b" ") and padded(b" \na\n", b" ")


def test_a_duplicate_judgment_names_lines_counting_comments_and_blank_lines():
    error = error_of(read_qrels, b"# note\nq 0 a 1\n\nq 0 a 2\n")
    assert error.code == "qrels.duplicate"
    assert (error.fields["place"], error.fields["first"]) == (Place("file.line", line=4, file="input"), 2)


def test_the_first_duplicate_of_a_long_unsorted_run_is_the_one_a_plain_scan_finds():
    # 200 lines over 3 queries, many documents repeated: enough for an unstable sort to swap equal keys.
    rng = np.random.default_rng(0)
    queries, docnos = rng.integers(0, 3, 200).tolist(), rng.integers(0, 200, 200).tolist()
    text = "".join(f"q{q} Q0 d{d} 1 1 t\n" for q, d in zip(queries, docnos, strict=True))
    seen, first = {}, None
    for line, pair in enumerate(zip(queries, docnos, strict=True), start=1):
        if pair in seen:
            first = (seen[pair], line)
            break
        seen[pair] = line
    error = error_of(readers.read_run, text.encode())
    assert (error.fields["first"], error.fields["place"].fields["line"]) == first


# --- readers: a qrels line has exactly four columns -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line",
    [
        (b"q 0 a 1 extra\n", 1),  # a tidy file (pyarrow's fast path)
        (b"q 0 a 1\nq 0 b 0 x\n", 2),
        (b"q\t0\ta\t1\t7\n", 1),  # tab separated
        (b"# judged by hand\nq  0 a 1 2\n", 2),  # comments and padding (the normaliser)
        (b"q 0 a 1\r\nq 0 b 2 0\r\n", 2),  # CRLF
    ],
)
def test_a_qrels_line_with_more_than_four_columns_is_an_error(text, line):
    with pytest.raises(ValueError, match="column") as caught:
        read_qrels(text, name="q.txt")
    assert f"line {line}" in str(caught.value)


def test_a_run_line_may_have_columns_after_the_tag_as_in_trec_eval():
    run = read_run(b"q Q0 a 1 2.5 tag more words\n")
    assert run.docno.to_pylist() == ["a"] and run.score.tolist() == [2.5]


# --- readers: numbers Python reads but pyarrow does not -------------------------------------------------------------


@pytest.mark.parametrize("number", ["1_0", "٣", "１", "1\x1c"])
@pytest.mark.parametrize("read, line", [(read_qrels, "q 0 b {}"), (read_run, "q Q0 b 2 {} t")])
@pytest.mark.parametrize("padding", ["", "  "])  # a tidy file, and one the normaliser rewrites
def test_a_number_pyarrow_cannot_read_is_a_value_error_naming_its_line(number, read, line, padding):
    # Found by tests/test_fuzz_files.py: this was an AssertionError (a traceback from the command line).
    good = "q 0 a 1" if read is read_qrels else "q Q0 a 1 1 t"
    text = f"{good}\n{padding}{line.format(number)}\n".encode()
    with pytest.raises(ValueError, match="number") as caught:
        read(text, name="f.txt")
    assert "line 2" in str(caught.value)


# --- readers: separators on the fast path (found by the hypothesis tests of garbled files) --------------------------

LONG_CRLF = b"".join(b"q 0 d%d 1\r\n" % i for i in range(8000))  # more than the 64 KiB a reader peeks at
WHITESPACE_CASES = [
    # (reader, text, the bad line, the last row read when no line is bad)
    pytest.param("qrels", b"q 0 a 0\n 0 b 0\n", 2, None, id="leading space: three columns, not a blank qid"),
    pytest.param("qrels", b"q 0 a 0\nq 0  1\n", 2, None, id="doubled space: three columns, not a blank docno"),
    pytest.param("run", b"q\tQ0\ta\t1\t2\tt\n\tQ0\tb\t2\t1\tt\n", 2, None, id="leading tab: five columns"),
    pytest.param("qrels", b"q 0 a 0\nq 0 b\x0b1 0\n", 2, None, id="a vertical tab separates (C isspace)"),
    pytest.param("run", b"q Q0 a 1 2 t\nq Q0 b\x0c2 1 1 t\n", None, ("q", "b", 1.0), id="so does a form feed"),
    pytest.param(
        "qrels",
        LONG_CRLF + b"q 0 x 1\rq 0 y 1\r\n",
        8001,
        None,
        id="a lone CR after 64 KiB of CRLF is a separator, not a line end",
    ),
]


@pytest.mark.parametrize("kind, text, bad_line, last_row", WHITESPACE_CASES)
def test_whitespace_separates_columns_the_same_on_every_reading_path(kind, text, bad_line, last_row):
    read = read_qrels if kind == "qrels" else read_run
    if bad_line is None:
        parsed = read(text, name="f.txt")
        values = parsed.rel if kind == "qrels" else parsed.score
        assert (parsed.qid[-1].as_py(), parsed.docno[-1].as_py(), float(values[-1])) == last_row
        return
    with pytest.raises(ValueError, match="column") as caught:
        read(text, name="f.txt")
    assert f"line {bad_line}" in str(caught.value)


@pytest.mark.parametrize("kind, text, bad_line, last_row", [c for c in WHITESPACE_CASES if c.values[0] == "run"])
def test_the_segmented_reader_agrees_with_read_run_on_separators(tmp_path, kind, text, bad_line, last_row):
    from ndcg_core.trec.segmented import evaluate_files

    qrels = b"q 0 a 1\nq 0 b 2\n"
    (tmp_path / "run.txt").write_bytes(text)
    if bad_line is not None:
        with pytest.raises(ValueError, match="column"):
            evaluate_files(qrels, tmp_path / "run.txt", EvaluationOptions(cutoffs=(2,)))
        return
    whole = evaluate(read_qrels(qrels), read_run(text), EvaluationOptions(cutoffs=(2,)))
    assert (
        evaluate_files(qrels, tmp_path / "run.txt", EvaluationOptions(cutoffs=(2,))).columns["ndcg"].tolist()
        == whole.columns["ndcg"].tolist()
    )


@pytest.mark.parametrize(
    "kind, text",
    [
        pytest.param("qrels", b"q 0 a 0\nq  b 1\n", id="qrels: iter missing, doubled space"),
        pytest.param("run", b"q Q0 a 1 2 t\nq Q0 b 2 1 \n", id="run: tag missing, trailing space"),
        pytest.param("run", b"q Q0 a 1 2 t\nq Q0 b  1 t\n", id="run: rank missing, doubled space"),
    ],
)
def test_a_tidy_line_short_of_an_ignored_column_is_an_error(kind, text):
    with pytest.raises(ValueError, match="column"):
        (read_qrels if kind == "qrels" else read_run)(text, name="f.txt")


# --- readers: a TREC line is data, even when its ids are words a CSV header uses ------------------------------------


@pytest.mark.parametrize(
    "kind, text, rows",
    [
        pytest.param("qrels", b"q\t0\tdoc\t1\nq\t0\td2\t0\n", [("q", "doc", 1), ("q", "d2", 0)], id="qrels q/doc"),
        pytest.param(
            "run",
            b"topic\tQ0\tdoc\t1\t2.5\tscore\ntopic\tQ0\tpid\t2\t1\tscore\n",
            [("topic", "doc", 2.5), ("topic", "pid", 1.0)],
            id="run topic/doc/score",
        ),
        pytest.param("run", b"q\tQ0 q 1 0.0\tdoc\n", [("q", "q", 0.0)], id="run with tabs and spaces"),
    ],
)
def test_a_tab_separated_trec_line_is_not_taken_for_a_csv_header(kind, text, rows):
    # Found by tests/test_fuzz_files.py: these were "the header has no rel column" errors.
    parsed = (read_qrels if kind == "qrels" else read_run)(text, name="f.txt")
    values = parsed.rel if kind == "qrels" else parsed.score
    assert list(zip(parsed.qid.to_pylist(), parsed.docno.to_pylist(), values.tolist(), strict=False)) == rows


def test_a_csv_header_is_still_a_header():
    run = read_run(b"qid\tdocno\tscore\nq\ta\t0.5\n", name="r.tsv")
    assert run.docno.to_pylist() == ["a"] and run.score.tolist() == [0.5]


def test_one_querys_block_starts_at_its_first_line_whichever_separator_each_line_uses():
    # The block is found by its first line, separated by a space or by a tab; the search for the other
    # separator stops at the first found, so a tab line before a space line must still start the block.
    for first, second in ((" ", "\t"), ("\t", " ")):
        data = f"q0 Q0 z 1 9 t\nq1{first}Q0 a 1 3 t\nq1{second}Q0 b 2 2 t\nq2 Q0 c 1 1 t\nq10 Q0 d 1 1 t\n".encode()
        for one_block in (True, False):
            assert read_query(data, "q1", one_block=one_block).docno.to_pylist() == ["a", "b"]
            assert read_query(data, "q1", one_block=one_block).score.tolist() == [3.0, 2.0]
    assert read_query(b"q1\tQ0 a 1 3 t\n", "q1").docno.to_pylist() == ["a"]
    assert len(read_query(b"q10 Q0 a 1 3 t\n", "q1").docno) == 0
