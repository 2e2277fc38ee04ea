"""The Evaluate page with a large upload: from the upload being in hand to the results on the page.

The page's script runs through Streamlit's AppTest with the files handed over as an upload
(so parsing, evaluating and drawing are all timed; the first run has a cold cache, the next
runs show what a rerun costs once the parse and evaluation are cached).

    python benchmarks/bench_evaluate_page.py [--size 1000x1000] [--reruns 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from make_data import write_collection  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1000x1000")
    parser.add_argument("--reruns", type=int, default=3)
    args = parser.parse_args()
    queries, docs = (int(x) for x in args.size.split("x"))
    qrels_path, run_path = write_collection(queries, docs, HERE / "data" / args.size)

    from streamlit.testing.v1 import AppTest

    from ui.evaluate_view import FileInput

    qrels, run = qrels_path.read_bytes(), run_path.read_bytes()
    uploads = {"qrels": FileInput(qrels_path.name, "bench:qrels", qrels), "a": FileInput(run_path.name, "bench:run", run)}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.switch_page("pages/2_Evaluate.py")
    at.session_state["ev_source"] = "upload"
    at.session_state["ev_uploads"] = uploads
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    lines = run.count(b"\n")
    print(f"run: {lines:,} lines, {len(run) / 2**20:.0f} MiB")
    start = time.perf_counter()
    at.run()
    first = time.perf_counter() - start
    assert not at.exception, at.exception
    print(f"first run (parse + evaluate + draw): {first:.2f} s; mean NDCG@10 shown: "
          f"{next(m.value for m in at.metric if m.label == 'Mean NDCG@10')}")
    for _ in range(args.reruns):
        start = time.perf_counter()
        at.run()
        print(f"rerun (cached): {time.perf_counter() - start:.2f} s")
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
