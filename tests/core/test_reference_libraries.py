"""Agreement with scikit-learn and pytrec_eval, run here on seeded random data with ties and unjudged documents.

pytrec_eval compares scores as 32-bit floats (trec_eval 9.x), so it is compared with ``float32_scores=True``;
scikit-learn compares doubles, as ndcg_core does by default (trec_eval 10.0).
"""

from math import log2

import numpy as np
import pytest
import pytrec_eval
from sklearn.metrics import dcg_score, ndcg_score

from ndcg_core import EvaluationOptions, InputError, Scoring, dcg_from_scores, evaluate, ndcg_at_k, ndcg_from_scores
from ndcg_core.trec.readers import read_qrels, read_run

SEEDS = range(40)


def _tied_list(rng):
    n = int(rng.integers(2, 30))
    grades = rng.integers(0, 5, size=n)
    scores = rng.integers(0, 6, size=n).astype(float)  # few distinct values: many ties
    k = int(rng.integers(1, n + 3))
    return grades, scores, k


@pytest.mark.parametrize("seed", SEEDS)
def test_sklearn_default_averages_ties_as_our_average_policy(seed):
    grades, scores, k = _tied_list(np.random.default_rng(seed))
    assert ndcg_from_scores(grades, scores, k, ties="average") == pytest.approx(
        ndcg_score([grades], [scores], k=k), abs=1e-9
    )
    assert dcg_from_scores(grades, scores, k, ties="average") == pytest.approx(
        dcg_score([grades], [scores], k=k), abs=1e-9
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_sklearn_ignore_ties_matches_any_fixed_order_when_scores_are_distinct(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    grades = rng.integers(0, 5, size=n)
    scores = rng.permutation(n).astype(float)
    k = int(rng.integers(1, n + 3))
    for policy in ("trec_eval", "best", "worst"):
        assert ndcg_from_scores(grades, scores, k, ties=policy) == pytest.approx(
            ndcg_score([grades], [scores], k=k, ignore_ties=True), abs=1e-9
        )


NEAR = 1e-9  # added to a score: a different double, the same float32


def _random_collection(rng):
    """Qrels with grades -1..3 and a run with tied scores, scores equal only as float32, and unjudged documents."""
    qrels_lines, run_lines = [], []
    qrels, run = {}, {}
    for q in range(int(rng.integers(3, 9))):
        qid = f"q{q}"
        docs = [f"d{j}" for j in range(int(rng.integers(5, 40)))]
        judged = [d for d in docs if rng.random() < 0.7]
        extra = [f"x{j}" for j in range(int(rng.integers(0, 5)))]  # judged, never retrieved
        qrels[qid] = {}
        for d in judged + extra:
            grade = int(rng.integers(-1, 4))
            qrels[qid][d] = grade
            qrels_lines.append(f"{qid} 0 {d} {grade}")
        if rng.random() < 0.15:
            continue  # a judged query the run does not answer
        run[qid] = {}
        for d in docs:
            score = float(rng.integers(0, 8)) / 2 + NEAR * int(rng.integers(0, 2))  # tied, or tied only as float32
            run[qid][d] = score
            run_lines.append(f"{qid}\tQ0\t{d}\t0\t{score}\tsys")
    run_lines.append("zz Q0 d0 1 1.0 sys")  # a query with no judgments is ignored
    run.setdefault("zz", {})["d0"] = 1.0
    return qrels, run, "\n".join(qrels_lines).encode(), "\n".join(run_lines).encode()


@pytest.mark.parametrize("seed", SEEDS)
def test_pytrec_eval_agrees_per_query_with_ideal_from_the_qrels(seed):
    qrels, run, qrels_text, run_text = _random_collection(np.random.default_rng(seed))
    ours = evaluate(
        read_qrels(qrels_text),
        read_run(run_text),
        EvaluationOptions(Scoring(float32_scores=True, ideal="pool"), cutoffs=(1, 3, 5, 10)),
    ).table()
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg", "ndcg_cut.1,3,5,10"}).evaluate(
        {q: d for q, d in run.items() if q in qrels}
    )
    assert sorted(theirs) == sorted(ours.index)
    for qid, values in theirs.items():
        for measure in ("ndcg", "ndcg_cut_1", "ndcg_cut_3", "ndcg_cut_5", "ndcg_cut_10"):
            assert ours.loc[qid, measure] == pytest.approx(values[measure], abs=1e-9), (qid, measure)


@pytest.mark.parametrize("seed", range(10))
def test_a_custom_gain_per_grade_equals_pytrec_eval_on_regraded_qrels(seed):
    # pytrec_eval cannot parse trec_eval's ndcg.1=3,... (it aborts), so the oracle is the
    # same qrels with each grade replaced by its integer gain, scored with plain ndcg.
    mapping = {1: 3, 2: 9, 3: 5}
    qrels, run, qrels_text, run_text = _random_collection(np.random.default_rng(100 + seed))
    ours = evaluate(
        read_qrels(qrels_text),
        read_run(run_text),
        EvaluationOptions(Scoring(float32_scores=True, ideal="pool"), cutoffs=(), full_gain=mapping),
    )
    regraded = {q: {d: mapping.get(g, g) for d, g in docs.items()} for q, docs in qrels.items()}
    theirs = pytrec_eval.RelevanceEvaluator(regraded, {"ndcg"}).evaluate({q: d for q, d in run.items() if q in qrels})
    for qid, values in theirs.items():
        assert ours.table().loc[qid, "ndcg"] == pytest.approx(values["ndcg"], abs=1e-9)


def test_scores_are_doubles_by_default_and_32_bit_floats_as_pytrec_eval_on_request():
    # 1.0000000001 and 1.0 are two doubles but one float32. As doubles "a" (grade 1) ranks first:
    # NDCG@1 = 1, as trec_eval 10.0 prints. As float32 they tie and "b" (grade 0) goes first, by docno
    # descending: NDCG@1 = 0, as pytrec_eval gives.
    qrels = read_qrels(b"q 0 a 1\nq 0 b 0\n")
    run = read_run(b"q Q0 a 1 1.0000000001 s\nq Q0 b 2 1.0 s\n")
    theirs = pytrec_eval.RelevanceEvaluator({"q": {"a": 1, "b": 0}}, {"ndcg_cut.1"}).evaluate(
        {"q": {"a": 1.0000000001, "b": 1.0}}
    )["q"]["ndcg_cut_1"]
    as_float32 = (
        evaluate(qrels, run, EvaluationOptions(Scoring(float32_scores=True, ideal="pool"), cutoffs=(1,)))
        .table()
        .loc["q", "ndcg_cut_1"]
    )
    assert as_float32 == theirs == 0.0
    assert evaluate(qrels, run, EvaluationOptions(cutoffs=(1,))).table().loc["q", "ndcg_cut_1"] == 1.0


@pytest.mark.parametrize("seed", range(10))
def test_single_lists_with_float32_scores_equal_pytrec_eval(seed):
    rng = np.random.default_rng(300 + seed)
    n = int(rng.integers(2, 25))
    grades = [int(g) for g in rng.integers(0, 4, size=n)]
    scores = [float(s) / 2 + NEAR * int(rng.integers(0, 2)) for s in rng.integers(0, 5, size=n)]
    items = [f"d{i}" for i in range(n)]
    k = int(rng.integers(1, n + 2))
    theirs = pytrec_eval.RelevanceEvaluator({"q": dict(zip(items, grades, strict=False))}, {f"ndcg_cut.{k}"}).evaluate(
        {"q": dict(zip(items, scores, strict=False))}
    )["q"][f"ndcg_cut_{k}"]
    ours = ndcg_from_scores(grades, scores, k, items=items, float32_scores=True)
    assert ours == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("seed", range(15))
def test_sklearn_agrees_with_evaluate_when_ideal_comes_from_the_run_and_ties_are_averaged(seed):
    qrels, run, qrels_text, run_text = _random_collection(np.random.default_rng(200 + seed))
    ours = evaluate(
        read_qrels(qrels_text),
        read_run(run_text),
        EvaluationOptions(Scoring(ties="average", ideal="list"), cutoffs=(3, 10)),
    )
    for qid, docs in run.items():
        if qid not in qrels:
            continue
        names = sorted(docs)
        grades = [max(qrels[qid].get(d, 0), 0) for d in names]  # unjudged and -1 count as 0
        scores = [docs[d] for d in names]
        for k in (3, 10):
            expected = ndcg_score([grades], [scores], k=k) if any(grades) else 0.0
            assert ours.table().loc[qid, f"ndcg_cut_{k}"] == pytest.approx(expected, abs=1e-9), (qid, k)


# --- a judged pool as peer libraries pass it: the judged grades only, unjudged results count 0 -------------------


@pytest.mark.parametrize("seed", range(20))
def test_a_pool_of_the_qrels_alone_scores_a_ranking_with_unjudged_documents_as_pytrec_eval(seed):
    # trec_eval's qrels judge some documents; the ranking also retrieves unjudged ones, which gain 0.
    rng = np.random.default_rng(500 + seed)
    n = int(rng.integers(3, 25))
    items = [f"d{i}" for i in range(n)]
    unjudged = items[int(rng.integers(0, n))]  # at least one, anywhere in the ranking
    judged = {d: int(rng.integers(0, 4)) for d in items if d != unjudged and rng.random() < 0.5}
    judged.update({f"x{j}": int(rng.integers(1, 4)) for j in range(int(rng.integers(0, 4)))})  # never retrieved
    judged.setdefault("x_last", 2)  # at least one relevant judgment, so NDCG is defined
    scores = {d: float(n - i) for i, d in enumerate(items)}  # distinct: no tie to settle
    k = int(rng.integers(1, n + 3))
    theirs = pytrec_eval.RelevanceEvaluator({"q": judged}, {f"ndcg_cut.{k}"}).evaluate({"q": scores})["q"]
    grades = [judged.get(d, 0) for d in items]
    assert ndcg_at_k(grades, k, pool=list(judged.values())) == pytest.approx(theirs[f"ndcg_cut_{k}"], abs=1e-12)


def test_ranx_style_qrels_hold_only_the_relevant_documents():
    # ranx: qrels {"q": {"d1": 2, "d3": 1, "d4": 3}}, run d1 > d2 > d3; d2 is unjudged and counts 0.
    ranked, pool = [2, 0, 1], [2, 1, 3]
    expected = (2 + 0 / log2(3) + 1 / 2) / (3 + 2 / log2(3) + 1 / 2)
    assert ndcg_at_k(ranked, 3, pool=pool) == pytest.approx(expected, abs=1e-15)
    assert ndcg_at_k(ranked, 1, pool=pool) == pytest.approx(2 / 3, abs=1e-15)


def test_spark_and_elasticsearch_style_ratings_with_the_exponential_gain():
    # Spark's RankingMetrics.ndcgAt with relevance values, and Elasticsearch's rank_eval dcg with
    # normalize: gains 2^rating - 1, unrated hits count 0, the ideal from the ratings given.
    ranked, ratings = [0, 3, 0, 1], [1, 3, 2]  # hits 1 and 3 unrated; a rated document (2) never retrieved
    dcg_4 = 7 / log2(3) + 1 / log2(5)
    idcg_4 = 7 + 3 / log2(3) + 1 / log2(4)
    assert ndcg_at_k(ranked, 4, gain="exponential", pool=ratings) == pytest.approx(dcg_4 / idcg_4, abs=1e-15)


def test_a_pool_needs_only_the_grades_whose_gain_is_positive():
    assert ndcg_at_k([0, 2], pool=[2]) == pytest.approx(1 / log2(3), abs=1e-15)
    # Under a custom gain, a grade that gains 0 or less needs no entry either; one that gains more does.
    assert ndcg_at_k([1, 2], pool=[2], gain={1: 0}) == pytest.approx(1 / log2(3), abs=1e-15)
    assert ndcg_at_k([1, 2], pool=[2], gain={1: -1}) == pytest.approx((-1 + 2 / log2(3)) / 2, abs=1e-15)
    for gain in ({1: 0.5}, "linear", "exponential"):
        with pytest.raises(InputError) as caught:
            ndcg_at_k([1, 2], pool=[2], gain=gain)
        assert (caught.value.code, caught.value.fields) == ("ideal.lacks_grade", {"value": "1", "position": 1})
    # Each positive grade as often as the list has it: two 2s need two.
    with pytest.raises(InputError, match="position 2"):
        ndcg_at_k([2, 2, 0], pool=[2, 1])
