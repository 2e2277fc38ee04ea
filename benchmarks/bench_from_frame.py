"""How long ``Run.from_frame`` and ``Qrels.from_frame`` take on a million rows (pandas DataFrames with string and
with integer ids), against reading the same rows through CSV text (``read_run(df.to_csv().encode())``), with a
measure of the machine's speed that day (``speed_loop``).

    python -m benchmarks.bench_from_frame [--rows 1000000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from ndcg_core import Qrels, Run
from ndcg_core.trec.readers import read_run


def speed_loop() -> float:
    """Milliseconds for a fixed pure-Python loop: the day's speed of this machine, to set beside the figures."""
    start = time.perf_counter()
    total = 0
    for i in range(3_000_000):
        total += i % 7
    return (time.perf_counter() - start) * 1000


def frames(rows: int, integer_ids: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(7)
    queries = rows // 1000
    q = np.repeat(np.arange(queries), 1000)[:rows]
    d = np.tile(np.arange(1000), queries)[:rows]
    query = q if integer_ids else pd.array([f"q{x}" for x in q], dtype="str")
    doc = d if integer_ids else pd.array([f"d{x}" for x in d], dtype="str")
    run = pd.DataFrame({"query": query, "doc": doc, "score": rng.random(rows)})
    qrels = pd.DataFrame({"query": query, "doc": doc, "grade": rng.integers(0, 4, rows)})
    return qrels, run


def best_of(call, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"speed loop: {speed_loop():.0f} ms")
    for integer_ids in (False, True):
        qrels, run = frames(args.rows, integer_ids)
        kind = "integer ids" if integer_ids else "string ids"
        print(
            f"{args.rows:,} rows, {kind}: Run.from_frame {best_of(lambda run=run: Run.from_frame(run)):.2f} s, "
            f"Qrels.from_frame {best_of(lambda qrels=qrels: Qrels.from_frame(qrels)):.2f} s"
        )
    text = run.to_csv(index=False).encode()
    print(f"through CSV text: read_run {best_of(lambda: read_run(text, name='run.csv'), 1):.2f} s")


if __name__ == "__main__":
    main()
