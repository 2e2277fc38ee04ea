"""The default engine (numpy, in memory) against ``--engine duckdb`` (out of core) on generated runs.

Each evaluation is one ``ndcg-lab-eval -m ndcg_cut.10`` process, timed by the wall clock and measured by its own
peak resident memory (``os.wait4``'s ru_maxrss); the two engines take turns on each file, beside the day's speed
(a fixed Python loop, before and after). Runs are made by ``benchmarks.make_data`` (1000 documents per query,
about 36 bytes a line) and kept in ``--data`` for the next time. ``--explain VALUE`` times ``--explain VALUE``
instead of the evaluation; ``--bad-end`` evaluates a copy of each run with one bad line at its end (refused with
exit status 2). Usage, on a quiet machine:

    nice python -m benchmarks.bench_duckdb [--lines 7 10 30] [--engines numpy duckdb] [--data /tmp/ndcg-bench]
        [--explain 0.1] [--bad-end]
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


def with_bad_end(run: Path) -> Path:
    """A copy of the run with one bad line (a score that is no number) at its end, made once."""
    bad = run.with_name("run-bad-end.txt")
    if not bad.exists():
        shutil.copyfile(run, bad)
        with open(bad, "a") as out:
            out.write("100000 Q0 Dbad 1 x bench\n")
    return bad


def measure(engine: str, qrels: Path, run: Path, explain: str | None = None) -> tuple[float, float, str]:
    """Seconds, peak resident MiB and the printed line (the first, explaining) of one run in its own process."""
    command = [sys.executable, "-m", "ndcg_core", "--engine", engine, "-m", "ndcg_cut.10", str(qrels), str(run)]
    if explain is not None:
        command[3:3] = ["--explain", explain]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    out, err = child.stdout.read(), child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    printed = (
        out.decode().strip().split("\n")[0]
        if child.returncode == 0
        else f"exit {child.returncode}: {err.decode()[-120:]}"
    )
    return seconds, usage.ru_maxrss / 1024, printed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[7, 10, 30], help="run sizes, millions of lines")
    parser.add_argument("--engines", nargs="+", default=["numpy", "duckdb"])
    parser.add_argument("--data", type=Path, default=Path("/tmp/ndcg-bench"))
    parser.add_argument("--explain", metavar="VALUE", help="time --explain VALUE instead of the evaluation")
    parser.add_argument("--bad-end", action="store_true", help="each run with one bad line at its end")
    args = parser.parse_args()
    print(machine())
    print(f"load {os.getloadavg()[0]:.1f}; day's speed: a 10^6-step Python loop {day_speed() * 1000:.0f} ms")
    print(f"free disk under {args.data.parent}: {shutil.disk_usage(args.data.parent).free / 2**30:.0f} GiB")
    print(f"{'lines':>6} {'engine':<7} {'seconds':>8} {'s per M':>8} {'peak MiB':>9}  printed")
    for millions in args.lines:
        qrels, run = collection(millions, args.data)
        if args.bad_end:
            run = with_bad_end(run)
        for engine in args.engines:
            seconds, peak, printed = measure(engine, qrels, run, args.explain)
            row = f"{millions:>5}M {engine:<7} {seconds:8.1f} {seconds / millions:8.2f} {peak:9.0f}  {printed}"
            print(row, flush=True)
    print(f"load {os.getloadavg()[0]:.1f}; day's speed: a 10^6-step Python loop {day_speed() * 1000:.0f} ms")


if __name__ == "__main__":
    main()
