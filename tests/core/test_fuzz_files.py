"""Hypothesis on valid and near-valid TREC files: ndcg_core's readers against a reference reader, and
evaluate() against pytrec_eval, per query, and across tie policies.

``python -m pytest tests/test_fuzz_files.py --hypothesis-show-statistics`` shows the share of examples
that reach each check (the events); HYPOTHESIS_PROFILE=deep runs 5,000 examples.
"""

import numpy as np
import pytest
import pytrec_eval
from hypothesis import event, given

from ndcg_core import EvaluationOptions, Scoring, evaluate, read_qrels, read_run
from trec_files import as_dicts, file_pairs, read_as_the_reference_does, reference_read

CUTOFFS = (1, 3, 10)
MEASURES = ("ndcg", "ndcg_cut_1", "ndcg_cut_3", "ndcg_cut_10")


def tidy(rows, kind):
    if kind == "qrels":
        return "".join(f"{q} 0 {d} {g}\n" for q, d, g in rows).encode()
    return "".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, d, s in rows).encode()


@given(file_pairs())
def test_files_read_as_the_reference_reads_them_and_evaluate_as_pytrec_eval(pair):
    _, qrels_data, run_data = pair
    qrels = read_as_the_reference_does(qrels_data, "qrels")
    run = read_as_the_reference_does(run_data, "run")
    if qrels is None or run is None:
        return
    judged_rows, ranked_rows = reference_read(qrels_data, "qrels"), reference_read(run_data, "run")
    judged, ranked = as_dicts(judged_rows), as_dicts(ranked_rows)
    shared = sorted(set(judged) & set(ranked), key=lambda q: q.encode("utf-8"))
    if not shared:
        with pytest.raises(ValueError):
            evaluate(qrels, run, EvaluationOptions(cutoffs=CUTOFFS))
        event("evaluate: no shared query, refused")
        return
    result = evaluate(qrels, run, EvaluationOptions(cutoffs=CUTOFFS))
    assert result.qids == shared  # trec_eval's order: query ids compared as bytes
    ours = result.table()

    # pytrec_eval on the reference's rows. A query judged only with negative grades is left to the rule below:
    # trec_eval cannot size an empty ideal for it (a listed difference), and pytrec_eval's C code then goes
    # wrong later in the same process (seen here: a later call never returns).
    usable = {q: docs for q, docs in judged.items() if any(g >= 0 for g in docs.values())}
    compared = [q for q in shared if q in usable]
    for q in shared:
        if q not in usable:
            assert all(ours.loc[q, measure] == 0.0 for measure in MEASURES), q
    if compared:
        theirs = pytrec_eval.RelevanceEvaluator(usable, {"ndcg", "ndcg_cut.1,3,10"}).evaluate(
            {q: ranked[q] for q in compared}
        )
        as_float32 = evaluate(
            qrels, run, EvaluationOptions(Scoring(float32_scores=True, ideal="pool"), cutoffs=CUTOFFS)
        ).table()  # as pytrec_eval ranks
        for q in compared:
            for measure in MEASURES:
                assert as_float32.loc[q, measure] == pytest.approx(theirs[q][measure], abs=1e-9), (q, measure)

    # Each query on its own gives the same row.
    for q in shared:
        alone = evaluate(
            read_qrels(tidy([r for r in judged_rows if r[0] == q], "qrels")),
            read_run(tidy([r for r in ranked_rows if r[0] == q], "run")),
            EvaluationOptions(cutoffs=CUTOFFS),
        )
        assert alone.qids == [q]
        for measure in MEASURES:
            assert alone.table().loc[q, measure] == ours.loc[q, measure], (q, measure)

    # Every policy stays in [0, 1], and worst <= trec_eval, average <= best.
    by_policy = {"trec_eval": ours}
    for ties in ("best", "worst", "average"):
        by_policy[ties] = evaluate(
            qrels, run, EvaluationOptions(Scoring(ties=ties, ideal="pool"), cutoffs=CUTOFFS)
        ).table()
    for frame in by_policy.values():
        values = frame[list(MEASURES)].to_numpy()
        assert np.all((values >= 0) & (values <= 1 + 1e-12))
    for middle in ("trec_eval", "average"):
        assert np.all(
            by_policy["worst"][list(MEASURES)].to_numpy() <= by_policy[middle][list(MEASURES)].to_numpy() + 1e-12
        )
        assert np.all(
            by_policy[middle][list(MEASURES)].to_numpy() <= by_policy["best"][list(MEASURES)].to_numpy() + 1e-12
        )
    event("evaluate: checked against pytrec_eval, per query and across tie policies")
