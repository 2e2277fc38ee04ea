"""A ranking order kept as its judged rows (``prepared_columns``, what the default engine's explanation reads for each
variant) gives ``evaluate_prepared``'s columns bit for bit, under every gain, discount, ideal, tie policy, score
precision, cut and judged-only, whatever was asked before it."""

from __future__ import annotations

import itertools

import numpy as np
import pyarrow as pa

from ndcg_core.lists.discounts import DISCOUNTS
from ndcg_core.lists.gains import GAINS
from ndcg_core.lists.scoring import IDEAL_SOURCES, Scoring
from ndcg_core.lists.ties import TIE_POLICIES
from ndcg_core.trec.evaluate import EvaluationOptions, evaluate_prepared, prepare, prepared_columns
from ndcg_core.trec.readers import Qrels, Run


def tied_files(seed: int) -> tuple[Qrels, Run]:
    """Nine queries of 12 documents, 7 judged (a grade of -1 among them), an eighth judged and not retrieved, one
    query judged only; scores tie as doubles, and more as 32-bit floats, between documents of different grades."""
    rng = np.random.default_rng(seed)
    q_qid, q_doc, q_rel, r_qid, r_doc, r_score = [], [], [], [], [], []
    for q in range(10):
        for d in range(7):
            q_qid.append(f"q{q}"), q_doc.append(f"d{d}"), q_rel.append(int(rng.integers(-1, 4)))
        q_qid.append(f"q{q}"), q_doc.append(f"x{q}"), q_rel.append(2)
        if q == 9:
            continue
        for d in rng.permutation(12):
            r_qid.append(f"q{q}"), r_doc.append(f"d{d}"), r_score.append(rng.choice([1.0, 1.0 + 1e-9, 2.0, 2.5, 3.0]))
    qrels = Qrels(pa.array(q_qid), pa.array(q_doc), np.array(q_rel, dtype=np.int64))
    return qrels, Run(pa.array(r_qid), pa.array(r_doc), np.array(r_score))


def every_option() -> list[EvaluationOptions]:
    options = []
    for gain, discount, ideal, ties, float32 in itertools.product(
        GAINS.names(), DISCOUNTS.names(), sorted(IDEAL_SOURCES), TIE_POLICIES.names(), (False, True)
    ):
        table = ((1, 5.0), (3, 0.5)) if gain == "custom" else ()
        scoring = Scoring(gain, table, discount, ideal=ideal, ties=ties, float32_scores=float32)
        for max_docs, judged_only, full_gain in ((None, False, None), (5, True, None), (None, True, ((2, 9.0),))):
            options.append(
                EvaluationOptions(
                    scoring, cutoffs=(3, 10), max_docs=max_docs, judged_only=judged_only, full_gain=full_gain
                )
            )
    return options


def test_every_option_s_columns_are_evaluate_s_bits_in_any_order_of_asking():
    qrels, run = tied_files(11)
    options = every_option()
    assert len(options) > 100
    kept = prepare(qrels, run, complete=True)
    for i in np.random.default_rng(3).permutation(len(options)):  # a kept order must not depend on the first asker
        expected = evaluate_prepared(prepare(qrels, run, complete=True), options[i]).columns
        got = prepared_columns(kept, options[i])
        assert got.keys() == expected.keys(), options[i]
        for name, values in expected.items():
            assert np.array_equal(got[name], values, equal_nan=True), (name, options[i])
            assert got[name].dtype == values.dtype, (name, options[i])
