"""End-to-end time and peak memory: ndcg_core's CLI against pytrec_eval on the same files.

Each tool runs in a fresh process (read files, rank, NDCG@10 per query, mean), timed with
wall-clock and measured by ru_maxrss; the two tools take turns. Usage:

    python -m benchmarks.bench_cli [--sizes 1000x1000 7000x1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
from pathlib import Path

from benchmarks.make_data import write_collection

HERE = Path(__file__).resolve().parent

PYTREC_EVAL = r"""
import sys, pytrec_eval
def read_qrels(path):
    out = {}
    with open(path) as f:
        for line in f:
            q, _, d, r = line.split()
            out.setdefault(q, {})[d] = int(r)
    return out
def read_run(path):
    out = {}
    with open(path) as f:
        for line in f:
            q, _, d, _, s, _ = line.split()[:6]
            out.setdefault(q, {})[d] = float(s)
    return out
qrels, run = read_qrels(sys.argv[1]), read_run(sys.argv[2])
res = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
print("ndcg_cut_10 all %.4f" % (sum(v["ndcg_cut_10"] for v in res.values()) / len(res)))
"""


WRAPPER = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "out = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True).stdout\n"
    "t = time.perf_counter() - t\n"
    "print(t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "print(out.strip().splitlines()[-1])\n"
)


def measure(cmd: list[str]) -> tuple[float, float, str]:
    """Seconds, peak resident MiB and last output line of one fresh process.

    A wrapper process runs the tool, so ru_maxrss of its children is this tool's peak alone.
    """
    done = subprocess.run([sys.executable, "-c", WRAPPER, *cmd], capture_output=True, text=True, check=True)
    first, last = done.stdout.strip().splitlines()
    seconds, kib = first.split()
    return float(seconds), int(kib) / 1024, last


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", nargs="+", default=["1000x1000", "7000x1000"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, {platform.python_version()}, "
        f"{subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores"
    )
    for size in args.sizes:
        queries, docs = (int(x) for x in size.split("x"))
        folder = HERE / "data" / size
        qrels, run = folder / "qrels.txt", folder / "run.txt"
        if not run.exists():
            write_collection(queries, docs, folder)
        mb = run.stat().st_size / 2**20
        ours_cmd = [sys.executable, "-m", "ndcg_core", "-m", "ndcg_cut.10", str(qrels), str(run)]
        theirs_cmd = [sys.executable, "-c", PYTREC_EVAL, str(qrels), str(run)]
        tools = {"ndcg_core": ours_cmd, "pytrec_eval": theirs_cmd}
        runs: dict[str, list[tuple[float, float, str]]] = {label: [] for label in tools}
        for _ in range(args.repeat):  # alternate the tools, so that the machine's drift hits both alike
            for label, cmd in tools.items():
                runs[label].append(measure(cmd))
        rows = {
            label: (statistics.median(r[0] for r in done), max(r[1] for r in done), done[0][2])
            for label, done in runs.items()
        }
        print(f"\n{size} ({queries * docs:,} run lines, {mb:.0f} MB)")
        for label, (sec, mem, out) in rows.items():
            print(f"  {label:<12} {sec:7.2f} s median of {args.repeat}   peak {mem:7.0f} MiB   {out}")
        print(f"  speed-up {rows['pytrec_eval'][0] / rows['ndcg_core'][0]:.1f}x")


if __name__ == "__main__":
    main()
