"""Seeded TREC qrels and runs for the benchmarks: N queries x D documents, graded 0-4.

python -m benchmarks.make_data 7000 1000 benchmarks/data/7k
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


def write_collection(queries: int, docs: int, folder: Path, seed: int = 7) -> tuple[Path, Path]:
    """Write ``qrels.txt`` (about 30 judged documents per query, 10 of them not retrieved) and ``run.txt``."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    qrels_path, run_path = folder / "qrels.txt", folder / "run.txt"
    with open(qrels_path, "w") as qrels, open(run_path, "w") as run:
        for q in range(queries):
            qid = str(100000 + q)
            doc_ids = rng.choice(50 * docs, size=docs, replace=False)
            scores = np.sort(rng.random(docs) * 30)[::-1]
            judged = rng.choice(docs, size=min(20, docs), replace=False)
            grades = rng.integers(0, 5, size=len(judged))
            lines = [f"{qid} 0 D{doc_ids[j]} {g}\n" for j, g in zip(judged, grades, strict=False)]
            lines += [f"{qid} 0 U{q}x{i} {int(rng.integers(1, 5))}\n" for i in range(10)]
            qrels.writelines(lines)
            run.writelines(
                f"{qid} Q0 D{d} {r + 1} {s:.6f} bench\n" for r, (d, s) in enumerate(zip(doc_ids, scores, strict=False))
            )
    return qrels_path, run_path


if __name__ == "__main__":
    write_collection(int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
