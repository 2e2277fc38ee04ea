"""How long explaining a number takes: every convention combination on a 1M-line run (goal: <= 10 s).

    python -m benchmarks.bench_explain [--queries 1000] [--docs 1000] [--repeat 3]

Seeded TREC data (``benchmarks.make_data``: graded 0-4, 30 judgments per query, 10 of them not retrieved; scores
with 6 decimals, so a few scores tie as doubles and more as 32-bit floats), and the same run with its scores rounded
to 2 decimals, where ties between documents of different grades are everywhere (the worst case: every tie policy and
both score precisions change numbers). Every axis is busy on these files: ties (file order among the tie policies),
judged-only (980 of each query's 1000 documents are unjudged) and -M's depths (``ndcg_cut.10`` searches -M 5; the
whole ranking's ``ndcg``, asked of the 6-decimal run too, every depth from 5 to 500). For each: the command line end
to end in a fresh process (``ndcg-lab-eval --explain VALUE -m MEASURE``: read both files, search, print), and
``explain_run`` alone on files already read (the Evaluate page's case), medians of ``--repeat`` runs, wall-clock and
CPU seconds (CPU time moves less than wall-clock time on a machine shared with other work), with how many variants
were compared. The day's speed: the time of a fixed loop of plain Python before and after, to compare runs on a
machine whose speed drifts.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_mistakes import day_speed, machine
from benchmarks.make_data import write_collection
from ndcg_core.teaching.explain import explain_run
from ndcg_core.trec.measures import Measure, ndcg_cut
from ndcg_core.trec.readers import read_qrels, read_run

ROOT = Path(__file__).resolve().parents[1]


def rounded_copy(run: Path, target: Path) -> Path:
    """The run with every score rounded to 2 decimals: ties between graded documents in nearly every query."""
    with open(run) as source, open(target, "w") as out:
        for line in source:
            qid, q0, docno, rank, score, tag = line.split()
            out.write(f"{qid} {q0} {docno} {rank} {float(score):.2f} {tag}\n")
    return target


def process_seconds(module: str, args: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one ``python -m MODULE ARGS`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", module, *args], check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli_seconds(qrels: Path, run: Path, value: str, measure: str) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one ``ndcg-lab-eval --explain`` process."""
    return process_seconds("ndcg_core", ["--explain", value, "-m", measure, str(qrels), str(run)])


def print_conditions(speed_before: float, load_before: float) -> None:
    """The machine, the time, the day's speed and the load average before (as given) and now, then a blank line."""
    speed_after, load_after = day_speed(), os.getloadavg()[0]
    print(f"machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M')}")
    print(
        f"day's speed (fixed loop of plain Python): {1000 * speed_before:.0f} ms before, {1000 * speed_after:.0f} ms "
        f"after; load average {load_before:.1f} before, {load_after:.1f} after"
    )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    speed_before, load_before = day_speed(), os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = write_collection(args.queries, args.docs, Path(folder))
        tied_path = rounded_copy(run_path, Path(folder) / "tied.txt")
        qrels = read_qrels(str(qrels_path))
        cases = (
            ("scores with 6 decimals", run_path, ndcg_cut(10)),
            ("scores with 6 decimals", run_path, Measure("ndcg")),
            ("scores rounded to 2 decimals", tied_path, ndcg_cut(10)),
        )
        for label, path, measure in cases:
            run = read_run(str(path))
            value = "0.0101"
            searched, core, core_cpu = 0, [], []
            for _ in range(args.repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                explanation = explain_run(qrels, run, measure, value)
                core.append(time.perf_counter() - start)
                core_cpu.append(time.process_time() - start_cpu)
                searched = explanation.searched
            cli = [
                cli_seconds(qrels_path, path, value, measure.name.replace("_cut_", "_cut.")) for _ in range(args.repeat)
            ]
            rows.append(
                (
                    label,
                    measure.name,
                    len(run),
                    searched,
                    statistics.median(w for w, _ in cli),
                    statistics.median(c for _, c in cli),
                    statistics.median(core),
                    statistics.median(core_cpu),
                )
            )
    print_conditions(speed_before, load_before[0])
    print(
        "| run | measure | lines | variants compared | command line, end to end (CPU) "
        "| explain_run on files read (CPU) |"
    )
    print("|---|---|---|---|---|---|")
    for label, name, lines, searched, cli_w, cli_c, core_w, core_c in rows:
        print(
            f"| {label} | {name} | {lines:,} | {searched} | {cli_w:.2f} s ({cli_c:.2f} s) "
            f"| {core_w:.2f} s ({core_c:.2f} s) |"
        )


if __name__ == "__main__":
    main()
