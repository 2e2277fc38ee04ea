"""The default engine (numpy, in memory) against ``--engine spark`` (Apache Spark, ``local[2]``) on generated runs,
TREC text and the same run as Parquet.

Each evaluation is one ``ndcg-lab-eval -m ndcg_cut.10`` process, timed by the wall clock; its memory is the peak
resident memory of its whole process tree (Spark's JVM is a child of the Python process), sampled every 0.2 s
from /proc. The engines take turns on each file, beside the day's speed (a fixed Python loop, before and after).
Runs are ``bench_duckdb``'s (``benchmarks.make_data``, kept in ``--data``); the Parquet copy is made once beside
the text. Spark needs PySpark (the ``spark`` extra) and Java 17 or later. Usage, on a quiet machine:

    nice python -m benchmarks.bench_spark [--lines 7] [--engines numpy spark] [--master local[2]]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from benchmarks.bench_duckdb import collection
from benchmarks.bench_mistakes import day_speed, machine
from ndcg_core import read_run

PAGE = os.sysconf("SC_PAGE_SIZE")


def parquet_copy(run: Path) -> Path:
    """The run as a Parquet file (qid, docno, score), made once beside it."""
    target = run.with_suffix(".parquet")
    if not target.exists():
        read = read_run(str(run))
        pq.write_table(pa.table({"qid": read.qid, "docno": read.docno, "score": read.score}), target)
    return target


def tree_rss(root: int) -> int:
    """Resident bytes of a process and all its descendants, now."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * PAGE
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total


def measure(engine: str, master: str, qrels: Path, run: Path) -> tuple[float, float, str]:
    """Seconds, peak resident MiB of the process tree and the printed line of one evaluation."""
    command = [sys.executable, "-m", "ndcg_core", "--engine", engine, "-m", "ndcg_cut.10", str(qrels), str(run)]
    if engine == "spark":
        command[5:5] = ["--spark-master", master]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    while child.poll() is None:
        peak = max(peak, tree_rss(child.pid))
        time.sleep(0.2)
    seconds = time.perf_counter() - start
    out, err = child.communicate()
    printed = out.decode().strip() if child.returncode == 0 else f"exit {child.returncode}: {err.decode()[-200:]}"
    return seconds, peak / 2**20, printed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[7], help="run sizes, millions of lines")
    parser.add_argument("--engines", nargs="+", default=["numpy", "spark"])
    parser.add_argument("--master", default="local[2]", help="the Spark master (default: local[2])")
    parser.add_argument("--data", type=Path, default=Path("/tmp/ndcg-bench"))
    args = parser.parse_args()
    print(machine())
    print(f"load {os.getloadavg()[0]:.1f}; day's speed: a 10^6-step Python loop {day_speed() * 1000:.0f} ms")
    print(f"{'lines':>6} {'engine':<7} {'input':<8} {'seconds':>8} {'s per M':>8} {'peak MiB':>9}  printed")
    for millions in args.lines:
        qrels, run = collection(millions, args.data)
        for engine in args.engines:
            for kind, path in (("text", run), ("parquet", parquet_copy(run))):
                if kind == "parquet" and engine == "numpy":
                    continue  # the default engine reads no Parquet
                seconds, peak, printed = measure(engine, args.master, qrels, path)
                row = f"{millions:>5}M {engine:<7} {kind:<8} {seconds:8.1f} {seconds / millions:8.2f} {peak:9.0f}"
                print(f"{row}  {printed}", flush=True)
    print(f"load {os.getloadavg()[0]:.1f}; day's speed: a 10^6-step Python loop {day_speed() * 1000:.0f} ms")


if __name__ == "__main__":
    main()
