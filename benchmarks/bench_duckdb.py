"""The default engine (numpy, in memory) against ``--engine duckdb`` (out of core) on generated runs.

Each evaluation is one ``ndcg-lab-eval -m ndcg_cut.10`` process, timed by the wall clock and measured by its own
peak resident memory (``os.wait4``'s ru_maxrss); the two engines take turns on each file, beside the day's speed
(a fixed Python loop, before and after). Runs are made by ``benchmarks.make_data`` (1000 documents per query,
about 36 bytes a line) and kept in ``--data`` for the next time. Usage, on a quiet machine:

    nice python -m benchmarks.bench_duckdb [--lines 7 10 30] [--engines numpy duckdb] [--data /tmp/ndcg-bench]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.bench_mistakes import day_speed, machine
from benchmarks.make_data import write_collection

DOCS_PER_QUERY = 1000


def collection(millions: int, data: Path) -> tuple[Path, Path]:
    """Qrels and a run of ``millions`` million lines, made once."""
    folder = data / f"{millions}m"
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    if not run.exists():
        write_collection(millions * 1_000_000 // DOCS_PER_QUERY, DOCS_PER_QUERY, folder)
    return qrels, run


def measure(engine: str, qrels: Path, run: Path) -> tuple[float, float, str]:
    """Seconds, peak resident MiB and the printed line of one evaluation in its own process."""
    command = [sys.executable, "-m", "ndcg_core", "--engine", engine, "-m", "ndcg_cut.10", str(qrels), str(run)]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    out, err = child.stdout.read(), child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    printed = out.decode().strip() if child.returncode == 0 else f"exit {child.returncode}: {err.decode()[-200:]}"
    return seconds, usage.ru_maxrss / 1024, printed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[7, 10, 30], help="run sizes, millions of lines")
    parser.add_argument("--engines", nargs="+", default=["numpy", "duckdb"])
    parser.add_argument("--data", type=Path, default=Path("/tmp/ndcg-bench"))
    args = parser.parse_args()
    print(machine())
    print(f"load {os.getloadavg()[0]:.1f}; day's speed: a 10^6-step Python loop {day_speed() * 1000:.0f} ms")
    print(f"free disk under {args.data.parent}: {shutil.disk_usage(args.data.parent).free / 2**30:.0f} GiB")
    print(f"{'lines':>6} {'engine':<7} {'seconds':>8} {'s per M':>8} {'peak MiB':>9}  printed")
    for millions in args.lines:
        qrels, run = collection(millions, args.data)
        for engine in args.engines:
            seconds, peak, printed = measure(engine, qrels, run)
            row = f"{millions:>5}M {engine:<7} {seconds:8.1f} {seconds / millions:8.2f} {peak:9.0f}  {printed}"
            print(row, flush=True)
    print(f"load {os.getloadavg()[0]:.1f}; day's speed: a 10^6-step Python loop {day_speed() * 1000:.0f} ms")


if __name__ == "__main__":
    main()
