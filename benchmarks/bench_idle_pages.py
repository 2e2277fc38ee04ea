"""What a teacher's pages cost while nothing happens: the control page and the projector view left open, in Debian's
Chromium, on a room with an open Predict activity, and the CPU the server and the browser use over a quiet spell
(``/proc``: user and system time of each process tree), beside the day's speed (``bench_mistakes.day_speed``).

    python -m benchmarks.bench_idle_pages [--seconds 20] [--views control screen]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from benchmarks.bench_instant import CHROMIUM_ARGS, chromium_version, load, machine
from benchmarks.bench_mistakes import day_speed
from benchmarks.server import start_server

VIEWS = {"control": "", "screen": "&view=screen"}
SETTLE_SECONDS = 8.0  # the pages' first runs and their streams' first runs are over by then


def children() -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            found.setdefault(parent, []).append(int(entry.name))
    return found


def tree(root: int, kids: dict[int, list[int]]) -> list[int]:
    seen, todo = [], [root]
    while todo:
        pid = todo.pop()
        seen.append(pid)
        todo += kids.get(pid, [])
    return seen


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def measure(views: list[str], seconds: float) -> tuple[float, float]:
    """Percent of a core used by the server and by the browser while ``views`` sit open for ``seconds``."""
    from playwright.sync_api import sync_playwright

    from ndcg_core.classroom.kinds.lists import random_list
    from ndcg_core.classroom.kinds.predict import Predict
    from ndcg_core.classroom.storage import Classroom, database_url

    data = tempfile.mkdtemp(prefix="ndcg-lab-idle-")
    env = {"NDCG_LAB_DATA_DIR": data}
    server, url = start_server(env)
    try:
        store = Classroom(database_url(env))
        room, key = store.rooms.create()
        store.rooms.open_activity(room.code, key, Predict(random_list(1)))
        store.close()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            for view in views:
                context.new_page().goto(f"{url}/Classroom?room={room.code}&key={key}{VIEWS[view]}")
            time.sleep(SETTLE_SECONDS)
            kids = children()
            ours = tree(os.getpid(), kids)
            app = tree(server.pid, kids)
            chrome = [pid for pid in ours if pid != os.getpid() and pid not in app]
            start, app0, chrome0 = time.monotonic(), cpu_seconds(app), cpu_seconds(chrome)
            time.sleep(seconds)
            spent = time.monotonic() - start
            result = 100 * (cpu_seconds(app) - app0) / spent, 100 * (cpu_seconds(chrome) - chrome0) / spent
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--views", nargs="+", choices=sorted(VIEWS), default=["control", "screen"])
    args = parser.parse_args()
    print(f"machine: {machine()}; {chromium_version()}; {time.strftime('%Y-%m-%d %H:%M')}; {load()}")
    print(f"day's speed: the fixed loop took {1000 * day_speed():.0f} ms")
    groups = [[view] for view in args.views] + ([args.views] if len(args.views) > 1 else [])
    for views in groups:
        server, browser = measure(views, args.seconds)
        print(f"{' + '.join(views)}: server {server:.1f}% of a core, Chromium {browser:.1f}% ({args.seconds:g} s)")
    print(f"day's speed after: the fixed loop took {1000 * day_speed():.0f} ms")


if __name__ == "__main__":
    main()
