"""How long comparing runs takes on a 1M-line run: ``ndcg-lab compare`` end to end and ``compare`` on runs read.

    python -m benchmarks.bench_compare [--queries 1000] [--docs 1000] [--runs 3] [--repeat 3]

Seeded TREC data (``benchmarks.make_data``: graded 0-4, 30 judgments per query) and ``--runs - 1`` other runs of
the same documents, each the baseline's scores with seeded noise added (so every query's order changes a little and
the tests have differences to weigh). For each: the command line in a fresh process (``ndcg-lab compare -m
ndcg_cut.10 QRELS BASE RUN ... --csv F --json F --latex F``: read every file, evaluate each run, the three tests
with their 10,000-flip randomization, Holm, print, write the three files), and ``compare`` alone on files already
read (``ndcg_core.trec.compare``: the Evaluate page's case has its per-query values already), medians of
``--repeat``, wall-clock and CPU seconds, beside the day's speed (a fixed loop of plain Python, before and after)
and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.bench_explain import ROOT, print_conditions, process_seconds
from benchmarks.bench_mistakes import day_speed
from benchmarks.make_data import write_collection
from ndcg_core.trec.compare import compare
from ndcg_core.trec.readers import read_qrels, read_run


def noisy_copy(run: Path, target: Path, seed: int) -> Path:
    """The run with seeded noise on every score (6 decimals kept): each query's order moves a little."""
    rng = np.random.default_rng(seed)
    with open(run) as source, open(target, "w") as out:
        for line in source:
            qid, q0, docno, rank, score, _tag = line.split()
            out.write(f"{qid} {q0} {docno} {rank} {float(score) + rng.normal(0, 1.5):.6f} {target.stem}\n")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3, help="runs compared, the baseline included")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    speed_before, load_before = day_speed(), os.getloadavg()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        qrels_path, base_path = write_collection(args.queries, args.docs, folder)
        paths = [base_path, *(noisy_copy(base_path, folder / f"run{i}.txt", seed=i) for i in range(1, args.runs))]
        command = ["compare", "-m", "ndcg_cut.10", str(qrels_path), *map(str, paths)]
        command += ["--csv", str(folder / "c.csv"), "--json", str(folder / "c.json"), "--latex", str(folder / "c.tex")]
        cli = [process_seconds("ndcg_lab", command) for _ in range(args.repeat)]
        printed = subprocess.run(
            [sys.executable, "-m", "ndcg_lab", *command[:-6]], check=True, capture_output=True, text=True, cwd=ROOT
        ).stdout
        qrels, runs = read_qrels(str(qrels_path)), [read_run(str(path)) for path in paths]
        core, core_cpu = [], []
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            compare(qrels, runs, "ndcg_cut.10")
            core.append(time.perf_counter() - start)
            core_cpu.append(time.process_time() - start_cpu)
        lines = sum(len(run) for run in runs[:1])
    print_conditions(speed_before, load_before[0])
    print("| runs compared | lines each | command line, end to end (CPU) | compare on files read (CPU) |")
    print("|---|---|---|---|")
    print(
        f"| {args.runs} | {lines:,} | {statistics.median(w for w, _ in cli):.2f} s "
        f"({statistics.median(c for _, c in cli):.2f} s) | {statistics.median(core):.2f} s "
        f"({statistics.median(core_cpu):.2f} s) |"
    )
    print()
    print(printed)


if __name__ == "__main__":
    main()
