"""Marks in the Playground's live part for ``benchmarks/bench_instant.py``: off (a no-op) unless the server was
started with ``NDCG_LAB_TIMINGS`` naming a file, to which each mark is appended as one JSON line
(session id, mark name, wall-clock time) so the benchmark can line the server's run up with the browser's."""

from __future__ import annotations

import json
import os
import threading
import time

_PATH = os.environ.get("NDCG_LAB_TIMINGS")
_LOCK = threading.Lock()


def mark(name: str) -> None:
    if not _PATH:
        return
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    line = json.dumps({"session": ctx.session_id if ctx else "", "mark": name, "t": time.time()})
    with _LOCK, open(_PATH, "a", encoding="utf-8") as out:
        out.write(line + "\n")
