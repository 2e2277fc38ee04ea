"""Scores are compared as doubles (trec_eval 10.0) by default, and as 32-bit floats (trec_eval 9.x,
pytrec_eval) with ``float32_scores``, through every entry point."""

import io
from math import log2

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core import (
    EvaluationOptions,
    Scoring,
    dcg_from_scores,
    evaluate,
    ndcg_bounds,
    ndcg_from_scores,
    order_by_scores,
    query_ranking,
    read_qrels,
    read_run,
)
from ndcg_core.trec import segmented
from ndcg_core.trec.cli import main
from ndcg_core.trec.segmented import evaluate_files

# The example: 1.000000001 and 1.0 are two doubles but one float32.
QRELS = "q 0 a 1\nq 0 b 0\n"
RUN = "q Q0 a 1 1.000000001 t\nq Q0 b 2 1.0 t\n"
AS_DOUBLES = 1.0  # "a" (grade 1) first: DCG = IDCG = 1; trec_eval 10.0 prints 1.0000
AS_FLOAT32 = 1 / log2(3)  # a tie, broken by docno descending: "b" (grade 0) first, "a" at rank 2


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "run.txt").write_text(RUN)
    return tmp_path / "qrels.txt", tmp_path / "run.txt"


def test_evaluate_and_settings(files):
    qrels, run = read_qrels(files[0]), read_run(files[1])
    assert evaluate(qrels, run, EvaluationOptions(cutoffs=(1, 2))).columns["ndcg"][0] == AS_DOUBLES
    assert evaluate(qrels, run, EvaluationOptions(Scoring(float32_scores=True, ideal="pool"), cutoffs=(1, 2))).columns[
        "ndcg"
    ][0] == pytest.approx(AS_FLOAT32)
    assert (
        evaluate(qrels, run, EvaluationOptions(Scoring(float32_scores=True, ideal="pool"), cutoffs=(1,))).columns[
            "ndcg_cut_1"
        ][0]
        == 0.0
    )
    assert EvaluationOptions().scoring.float32_scores is False
    chosen = EvaluationOptions(Scoring(float32_scores=True, ideal="pool"), cutoffs=(2,))
    assert chosen.scoring.float32_scores is True
    assert evaluate(qrels, run, chosen).columns["ndcg_cut_2"][0] == pytest.approx(AS_FLOAT32)
    assert (
        evaluate(
            qrels, run, EvaluationOptions(Scoring(float32_scores=True, ideal="pool"))
        ).options.scoring.float32_scores
        is True
    )


@pytest.mark.parametrize("float32_scores, expected", [(False, AS_DOUBLES), (True, AS_FLOAT32)])
def test_evaluate_files_in_segments_and_whole(files, monkeypatch, float32_scores, expected):
    whole = evaluate_files(
        files[0], files[1].read_bytes(), EvaluationOptions(Scoring(float32_scores=float32_scores, ideal="pool"))
    )  # bytes: read_run
    mapped = evaluate_files(*files, EvaluationOptions(Scoring(float32_scores=float32_scores, ideal="pool")))
    monkeypatch.setattr(segmented, "SEGMENT_BYTES", 8)
    small = evaluate_files(*files, EvaluationOptions(Scoring(float32_scores=float32_scores, ideal="pool")))
    for result in (whole, mapped, small):
        assert result.columns["ndcg"][0] == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("float32_scores, first", [(False, "a"), (True, "b")])
def test_query_ranking(files, float32_scores, first):
    ranking = query_ranking(read_qrels(files[0]), read_run(files[1]), "q", float32_scores=float32_scores)
    assert ranking["docnos"][0] == first
    assert ranking["scores"] == sorted(ranking["scores"], reverse=not float32_scores)


def test_single_list_functions():
    grades, scores, items = [1, 0], [1.000000001, 1.0], ["a", "b"]
    assert list(order_by_scores(scores, grades, items)) == [0, 1]
    assert list(order_by_scores(scores, grades, items, float32_scores=True)) == [1, 0]
    assert ndcg_from_scores(grades, scores, items=items) == AS_DOUBLES
    assert ndcg_from_scores(grades, scores, items=items, float32_scores=True) == pytest.approx(AS_FLOAT32)
    assert dcg_from_scores(grades, scores, items=items) == 1.0
    assert dcg_from_scores(grades, scores, items=items, float32_scores=True) == pytest.approx(1 / log2(3))
    # average: as float32 the two share their mean gain, 0.5 at rank 1 and 0.5 at rank 2
    assert dcg_from_scores(grades, scores, ties="average") == 1.0
    assert dcg_from_scores(grades, scores, ties="average", float32_scores=True) == pytest.approx(0.5 + 0.5 / log2(3))
    assert ndcg_bounds(grades, scores) == (1.0, 1.0)
    worst, best = ndcg_bounds(grades, scores, float32_scores=True)
    assert worst == pytest.approx(AS_FLOAT32) and best == 1.0


@pytest.mark.parametrize("args, expected", [([], "1.0000"), (["--float32-scores"], "0.6309")])
def test_the_command_line(files, capsys, args, expected):
    assert main(["-m", "ndcg", *args, *map(str, files)]) == 0
    assert capsys.readouterr().out == f"ndcg                  \tall\t{expected}\n"


@pytest.mark.parametrize(
    "call",
    [
        lambda: evaluate(
            read_qrels(QRELS.encode()),
            read_run(RUN.encode()),
            EvaluationOptions(Scoring(float32_scores="yes", ideal="pool")),
        ),
        lambda: EvaluationOptions(Scoring(float32_scores=1, ideal="pool")),
        lambda: ndcg_from_scores([1, 0], [1.0, 2.0], float32_scores="no"),
        lambda: query_ranking(read_qrels(QRELS.encode()), read_run(RUN.encode()), "q", float32_scores=None),
    ],
)
def test_the_option_is_true_or_false(call):
    with pytest.raises(ValueError, match="float32_scores"):
        call()


def test_minus_zero_and_zero_tie_as_in_c():
    # -0.0 == 0.0 in C, so they tie and the docno decides ("b" before "a") in both modes.
    qrels = read_qrels(QRELS.encode())
    run = read_run(b"q Q0 a 1 -0.0 t\nq Q0 b 2 0.0 t\n")
    for float32_scores in (False, True):
        assert evaluate(qrels, run, EvaluationOptions(Scoring(float32_scores=float32_scores, ideal="pool"))).columns[
            "ndcg"
        ][0] == pytest.approx(AS_FLOAT32)
        assert ndcg_from_scores([1, 0], [-0.0, 0.0], items=["a", "b"], float32_scores=float32_scores) == (
            pytest.approx(AS_FLOAT32)
        )


@pytest.mark.parametrize(
    "low, high",
    [(1e-50, 2e-50), (-2e-50, -1e-50), (-1e-50, 1e-50), (1e39, 2e39), (-2e39, -1e39), (16777216.0, 16777217.0)],
)
@pytest.mark.parametrize("low_first", [False, True])
def test_scores_beyond_float32_range_or_precision(low, high, low_first):
    # Equal as float32 (0, -0, an infinity, or the same rounding), distinct as doubles: "a" scores higher.
    qrels = read_qrels(QRELS.encode())
    lines = [f"q Q0 a 1 {high!r} t\n", f"q Q0 b 2 {low!r} t\n"]
    run = read_run("".join(lines[::-1] if low_first else lines).encode())
    with np.errstate(over="ignore"):
        assert np.float32(high) == np.float32(low) and high != low
    assert evaluate(qrels, run).columns["ndcg"][0] == AS_DOUBLES
    assert evaluate(qrels, run, EvaluationOptions(Scoring(float32_scores=True, ideal="pool"))).columns["ndcg"][
        0
    ] == pytest.approx(AS_FLOAT32)


def reference(judged, ranked, float32_scores):
    """NDCG per query written out: rank by (score, docno) descending, sum grade / log2(rank + 1)."""
    out = {}
    for qid, docs in ranked.items():
        if qid not in judged:
            continue
        rounded = {d: float(np.float32(s)) if float32_scores else s for d, s in docs.items()}
        order = sorted(rounded, key=lambda d: (rounded[d], d.encode()), reverse=True)
        dcg = sum(max(judged[qid].get(d, 0), 0) / log2(i + 2) for i, d in enumerate(order))
        ideal = sorted((g for g in judged[qid].values() if g > 0), reverse=True)
        idcg = sum(g / log2(i + 2) for i, g in enumerate(ideal))
        out[qid] = dcg / idcg if idcg > 0 else 0.0
    return out


BASES = [0.5, 1.0, 2.0, -1.0, 0.0, -0.0, 3e38, 1e-40]
score = st.builds(
    lambda base, steps: base + steps * 1e-9 * max(abs(base), 1.0) if steps else base,
    st.sampled_from(BASES),
    st.integers(-2, 2),
)


@given(
    rows=st.lists(
        st.tuples(st.sampled_from(["q1", "q2", "q10"]), st.sampled_from(["a", "b", "c", "d", "e", "f"]), score),
        min_size=1,
        max_size=30,
        unique_by=lambda r: (r[0], r[1]),
    ),
    grades=st.lists(st.integers(-1, 3), min_size=6, max_size=6),
    segment=st.integers(1, 200),
)
def test_random_near_ties_rank_as_written_out_in_both_modes(tmp_path_factory, rows, grades, segment):
    judged = {q: dict(zip("abcdef", grades, strict=False)) for q in ("q1", "q2", "q10")}
    ranked = {}
    for q, d, s in rows:
        ranked.setdefault(q, {})[d] = s
    qrels_text = "".join(f"{q} 0 {d} {g}\n" for q, docs in judged.items() for d, g in docs.items())
    run_text = "".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, d, s in rows)
    folder = tmp_path_factory.mktemp("near")
    (folder / "qrels.txt").write_text(qrels_text)
    (folder / "run.txt").write_text(run_text)
    previous = segmented.SEGMENT_BYTES
    segmented.SEGMENT_BYTES = segment
    try:
        for float32_scores in (False, True):
            expected = reference(judged, ranked, float32_scores)
            whole = evaluate(
                read_qrels(qrels_text.encode()),
                read_run(run_text.encode()),
                EvaluationOptions(Scoring(float32_scores=float32_scores, ideal="pool"), cutoffs=(1,)),
            )
            mapped = evaluate_files(
                folder / "qrels.txt",
                folder / "run.txt",
                EvaluationOptions(Scoring(float32_scores=float32_scores, ideal="pool"), cutoffs=(1,)),
            )
            for result in (whole, mapped):
                assert dict(zip(result.qids, result.columns["ndcg"], strict=False)) == pytest.approx(
                    expected, abs=1e-12
                )
    finally:
        segmented.SEGMENT_BYTES = previous


@pytest.mark.parametrize("args, expected", [([], "1.0000"), (["--float32-scores"], "0.6309")])
def test_a_dash_reads_the_run_from_standard_input(files, monkeypatch, capsys, args, expected):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(RUN.encode())))
    monkeypatch.setattr(segmented, "_evaluate_mapped", None)  # standard input is never mapped
    assert main(["-m", "ndcg", *args, str(files[0]), "-"]) == 0
    assert capsys.readouterr().out == f"ndcg                  \tall\t{expected}\n"


def test_a_bad_line_on_standard_input_is_named(files, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"q Q0 a 1\n")))
    assert main([str(files[0]), "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ndcg-lab-eval: line 1 of standard input:") and err.count("\n") == 1
