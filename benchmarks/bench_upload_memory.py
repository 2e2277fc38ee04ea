"""Server memory across repeated large uploads: the parsed-file and evaluation caches are bounded, so the
resident memory levels off instead of growing with every upload.

Each round hands the Evaluate page a different run (the same lines plus a distinct comment line, so the
content hash differs and nothing is reused) and records the process's resident memory after the run.

    python -m benchmarks.bench_upload_memory [--size 7000x1000] [--rounds 8]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.make_data import write_collection

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def command_line_ndcg10(qrels_path: Path, run_path: Path) -> float:
    """Mean NDCG@10 as ``python -m ndcg_core`` prints it (4 decimals, as the page shows it)."""
    out = subprocess.run(
        [sys.executable, "-m", "ndcg_core", "-m", "ndcg_cut.10", str(qrels_path), str(run_path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    return float(next(line for line in out.splitlines() if "\tall\t" in line).split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="7000x1000")
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    queries, docs = (int(x) for x in args.size.split("x"))
    qrels_path, run_path = write_collection(queries, docs, HERE / "data" / args.size)

    from streamlit.testing.v1 import AppTest

    from ui.views.evaluate import FileInput, content_key

    qrels, run = qrels_path.read_bytes(), run_path.read_bytes()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; run {len(run) / 2**20:.0f} MiB per upload")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
    at.switch_page("pages/2_Evaluate.py")
    expected = command_line_ndcg10(qrels_path, run_path)
    at.run()  # the sample first, as a visitor arrives
    at.session_state["evaluate"].source = "upload"
    for i in range(args.rounds):
        data = run + f"# upload {i}\n".encode()
        uploads = {
            "qrels": FileInput(qrels_path.name, content_key(qrels), qrels),
            "a": FileInput(f"run{i}.txt", content_key(data), data),
        }
        at.session_state["evaluate"].uploads = uploads
        started = time.perf_counter()
        at.run()
        assert not at.exception, at.exception
        shown = next(m.value for m in at.metric if m.label == "Mean NDCG@10")
        assert float(shown) == expected, f"the page shows {shown}, the command line {expected}: not this upload"
        del data, uploads
        print(f"upload {i + 1}: {time.perf_counter() - started:.1f} s, resident memory {rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
