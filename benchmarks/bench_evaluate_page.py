"""The Evaluate page with a large upload against the command line on the same files, in one run.

Each measurement is a fresh process, and the two take turns so the machine's drift hits both alike:
- the command line: ``python -m ndcg_core -m ndcg -m ndcg_cut.5,10,20 qrels run`` (what the page computes);
- the page: Streamlit's AppTest runs the Evaluate page once on the bundled sample (imports, component
  registration: not timed), then with the files handed over as uploads; timed from the script's start to
  its end (parse, evaluate, draw the first results), then once more with the evaluation cached.
Peak memory is each process's peak resident set (the page's holds the uploaded bytes, as the server does).

    python -m benchmarks.bench_evaluate_page [--size 7000x1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.make_data import write_collection

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def page_once(qrels_path: Path, run_path: Path) -> dict[str, float]:
    """In this process: the page's first results and a cached rerun, in seconds, and the peak memory."""
    from streamlit.testing.v1 import AppTest

    from ui.views.evaluate import FileInput

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.switch_page("pages/2_Evaluate.py")
    at.run()  # the sample: warms imports and Streamlit's own start-up, as a running server has them
    uploads = {
        "qrels": FileInput(qrels_path.name, "bench:qrels", qrels_path.read_bytes()),
        "a": FileInput(run_path.name, "bench:run", run_path.read_bytes()),
    }
    state = at.session_state["evaluate"]
    state.source, state.uploads = "upload", uploads
    start = time.perf_counter()
    at.run()
    first = time.perf_counter() - start
    assert not at.exception, at.exception
    shown = next(m.value for m in at.metric if m.label == "Mean NDCG@10")
    start = time.perf_counter()
    at.run()
    rerun = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"first": first, "rerun": rerun, "peak": peak, "shown": float(shown)}


def measure_page(qrels_path: Path, run_path: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_evaluate_page", "--child", str(qrels_path), str(run_path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


CLI_WRAPPER = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "out = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True).stdout\n"
    "t = time.perf_counter() - t\n"
    "print(t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "print(out.strip())\n"
)


def measure_cli(qrels_path: Path, run_path: Path) -> dict[str, float]:
    """Seconds and peak MiB of the command line alone (a wrapper process reports its child's peak)."""
    cmd = [sys.executable, "-m", "ndcg_core", "-m", "ndcg", "-m", "ndcg_cut.5,10,20", str(qrels_path), str(run_path)]
    done = subprocess.run(
        [sys.executable, "-c", CLI_WRAPPER, *cmd], capture_output=True, text=True, check=True, cwd=ROOT
    )
    first, *lines = done.stdout.strip().splitlines()
    seconds, kib = first.split()
    at_10 = next(line for line in lines if line.startswith("ndcg_cut_10 ") and "\tall\t" in line)
    return {"seconds": float(seconds), "peak": int(kib) / 1024, "ndcg_cut_10": float(at_10.split()[-1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="7000x1000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("QRELS", "RUN"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(page_once(Path(args.child[0]), Path(args.child[1]))))
        return
    queries, docs = (int(x) for x in args.size.split("x"))
    folder = HERE / "data" / args.size
    qrels_path, run_path = folder / "qrels.txt", folder / "run.txt"
    if not run_path.exists():
        write_collection(queries, docs, folder)
    print(
        f"machine: {platform.machine()}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()}"
        f" cores, Python {platform.python_version()}"
    )
    print(f"run: {queries * docs:,} lines, {run_path.stat().st_size / 2**20:.0f} MiB")
    cli, page = [], []
    for _ in range(args.repeat):
        cli.append(measure_cli(qrels_path, run_path))
        page.append(measure_page(qrels_path, run_path))
    cli_s = statistics.median(c["seconds"] for c in cli)
    page_s = statistics.median(p["first"] for p in page)
    cli_mem, page_mem = max(c["peak"] for c in cli), max(p["peak"] for p in page)
    print(
        f"command line:          {cli_s:6.2f} s median of {args.repeat}, peak {cli_mem:5.0f} MiB "
        f"(all: {[round(c['seconds'], 2) for c in cli]})"
    )
    print(
        f"page, first results:   {page_s:6.2f} s median of {args.repeat}, peak {page_mem:5.0f} MiB "
        f"(all: {[round(p['first'], 2) for p in page]})"
    )
    print(f"page, cached rerun:    {statistics.median(p['rerun'] for p in page):6.2f} s")
    print(
        f"ratio page / command line: time {page_s / cli_s:.2f} (goal <= 1.5), "
        f"memory +{page_mem - cli_mem:.0f} MiB (goal <= +300)"
    )
    assert all(p["shown"] == cli[0]["ndcg_cut_10"] for p in page), "the page and the command line disagree"


if __name__ == "__main__":
    main()
