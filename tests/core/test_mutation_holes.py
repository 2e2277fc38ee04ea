"""Tests for bugs that planted mutations showed the rest of the suite would let through (issue 18).

Every expected value here is worked out independently of ndcg_core: a DCG written out with its
log2 terms, a brute force over every order, or a worked example.
"""

import itertools
import math
import random

import pytest

from ndcg_core import evaluate, evaluation_options, read_qrels, read_run


def hand_dcg(gains, k=None):
    """DCG written out: the gain at rank i divided by log2(i + 1)."""
    top = list(gains) if k is None else list(gains)[:k]
    return sum(g / math.log2(i + 1) for i, g in enumerate(top, start=1))


# --- tie policies of the multi-query evaluation -------------------------------------------------

TIED = b"q1 0 a 1\nq1 0 b 0\nq2 0 c 2\nq2 0 d 0\nq2 0 e 1\n"
TIED_RUN = (
    b"q1 Q0 a 1 1.0 s\nq1 Q0 b 2 1.0 s\n"  # a and b tie
    b"q2 Q0 c 1 0.5 s\nq2 Q0 d 2 0.5 s\nq2 Q0 e 3 0.5 s\n"  # all three tie
)


def test_best_and_worst_ties_in_evaluate_by_hand():
    qrels, run = read_qrels(TIED), read_run(TIED_RUN)
    best = evaluate(qrels, run, cutoffs=(1, 3), ties="best").table()
    worst = evaluate(qrels, run, cutoffs=(1, 3), ties="worst").table()
    trec = evaluate(qrels, run, cutoffs=(1, 3), ties="trec_eval").table()
    # q1: best puts a (grade 1) first, worst puts b (grade 0) first.
    assert best.loc["q1", "ndcg"] == 1.0 and best.loc["q1", "ndcg_cut_1"] == 1.0
    assert worst.loc["q1", "ndcg"] == pytest.approx((0 + 1 / math.log2(3)) / 1)
    assert worst.loc["q1", "ndcg_cut_1"] == 0.0
    # q2: best is c, e, d (2, 1, 0); worst is d, e, c (0, 1, 2); trec_eval is docno descending: e, d, c.
    ideal_q2 = 2 + 1 / math.log2(3)
    assert best.loc["q2", "ndcg"] == pytest.approx(1.0)
    assert worst.loc["q2", "ndcg"] == pytest.approx((0 + 1 / math.log2(3) + 2 / math.log2(4)) / ideal_q2)
    assert worst.loc["q2", "ndcg_cut_1"] == 0.0
    assert trec.loc["q2", "ndcg"] == pytest.approx((1 + 0 + 2 / math.log2(4)) / ideal_q2)
    assert trec.loc["q2", "ndcg_cut_1"] == pytest.approx(1 / 2)


def _tied_collection(rng):
    """A few small queries (at most 6 retrieved each) with many tied scores, for a brute force."""
    qrels, run = {}, {}
    for q in range(rng.randint(1, 4)):
        qid = f"q{q}"
        docs = [f"d{j}" for j in range(rng.randint(1, 6))]
        qrels[qid] = {d: rng.randint(-1, 3) for d in docs if rng.random() < 0.8}
        qrels[qid].update({f"x{j}": rng.randint(0, 3) for j in range(rng.randint(0, 2))})  # never retrieved
        if not qrels[qid]:
            qrels[qid]["x9"] = 1
        run[qid] = {d: float(rng.randint(0, 2)) for d in docs}
    qrels_text = "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    run_text = "".join(f"{q} Q0 {d} 0 {s} t\n" for q, docs in run.items() for d, s in docs.items())
    return qrels, run, qrels_text.encode(), run_text.encode()


def _brute_force_bounds(judged, scored, k):
    """The lowest and highest NDCG@k over every order of the run that keeps scores descending."""
    gain = {d: max(judged.get(d, 0), 0) for d in scored}
    ideal = hand_dcg(sorted((max(g, 0) for g in judged.values()), reverse=True), k)
    values = []
    for order in itertools.permutations(scored):
        if all(scored[a] >= scored[b] for a, b in zip(order, order[1:], strict=False)):
            values.append(hand_dcg([gain[d] for d in order], k) / ideal if ideal > 0 else 0.0)
    return min(values), max(values)


@pytest.mark.parametrize("seed", range(30))
def test_best_and_worst_ties_in_evaluate_are_the_brute_force_bounds(seed):
    qrels, run, qrels_text, run_text = _tied_collection(random.Random(seed))
    q, r = read_qrels(qrels_text), read_run(run_text)
    cutoffs = (1, 2, 4)
    best = evaluate(q, r, cutoffs=cutoffs, ties="best").table()
    worst = evaluate(q, r, cutoffs=cutoffs, ties="worst").table()
    for qid in run:
        for k, column in [(None, "ndcg"), *((k, f"ndcg_cut_{k}") for k in cutoffs)]:
            low, high = _brute_force_bounds(qrels[qid], run[qid], k)
            assert worst.loc[qid, column] == pytest.approx(low, abs=1e-12), (qid, column)
            assert best.loc[qid, column] == pytest.approx(high, abs=1e-12), (qid, column)


# --- readers: a qrels line has exactly four columns ---------------------------------------------


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


# --- readers: numbers Python reads but pyarrow does not ----------------------------------------


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


# --- readers: separators on the fast path (found by the hypothesis tests of garbled files) -------

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
            evaluate_files(qrels, tmp_path / "run.txt", evaluation_options(cutoffs=(2,)))
        return
    whole = evaluate(read_qrels(qrels), read_run(text), cutoffs=(2,))
    assert (
        evaluate_files(qrels, tmp_path / "run.txt", evaluation_options(cutoffs=(2,))).columns["ndcg"].tolist()
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


# --- readers: a TREC line is data, even when its ids are words a CSV header uses ------------------


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
