"""Playground speed: the page's script run on the server, and mouse-up to new NDCG in Chromium.

1. Script run: the Playground page run through Streamlit's AppTest with a list of N items
   (the time AppTest reports includes its own small overhead, so it is an upper bound).
2. Drag latency: a real server and Debian's Chromium; the item is dragged with the mouse,
   and the time runs from the mouse-up to the moment the headline shows the new NDCG.

    python -m benchmarks.bench_playground [--sizes 20 100] [--runs 30]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

from benchmarks import percentile
from benchmarks.server import start_server
from ndcg_core import ndcg_at_k
from ndcg_core.lists.items import make_items

ROOT = Path(__file__).resolve().parent.parent


def sample_items(n: int):
    return make_items([f"doc {i}" for i in range(1, n + 1)], [(i * 7) % 4 for i in range(n)])


def script_runs(n: int, runs: int) -> list[float]:
    from streamlit.testing.v1 import AppTest

    from ui.format import metric_text
    from ui.state import PlaygroundState

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/1_Playground.py")
    state = PlaygroundState.from_preset()
    state.spec = state.spec.with_items(sample_items(n)).with_k(10)
    at.session_state["playground"] = state
    at.run()
    times = []
    for i in range(runs):
        state = at.session_state["playground"]
        items = list(state.spec.items)
        items.insert(0, items.pop(i % n))  # a different order each run, as after a move
        state.spec = state.spec.with_items(items)
        start = time.perf_counter()
        at.run()
        times.append((time.perf_counter() - start) * 1000)
        assert not at.exception, at.exception
        shown = next(m.value for m in at.metric if m.label == "NDCG@10")
        assert shown == metric_text(ndcg_at_k([it.grade for it in items], 10)), "the page did not draw this order"
    return times


def drag_latencies(url: str, n: int, runs: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    grades = ", ".join(str((i * 7) % 4) for i in range(n))
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--headless", "--disable-background-networking", "--disable-component-update"],
        )
        page = browser.new_page(viewport={"width": 1366, "height": 1000})
        page.goto(f"{url}/Playground")
        page.locator("li.row").first.wait_for(timeout=30000)
        if n != 5:
            page.get_by_text("Edit labels and grades").click()
            box = page.get_by_role("textbox", name="All grades at once, in ranked order")
            box.fill(grades)
            box.press("Enter")
            page.locator("li.row").nth(n - 1).wait_for(timeout=30000)
        value = page.get_by_test_id("stMetricValue").first
        rows = page.locator("li.row")
        for i in range(runs):
            before = value.inner_text()
            source, target = rows.nth(1 + i % 3).bounding_box(), rows.nth(0).bounding_box()
            page.mouse.move(source["x"] + 60, source["y"] + source["height"] / 2)
            page.mouse.down()
            page.mouse.move(target["x"] + 60, target["y"] + 2, steps=10)
            start = time.perf_counter()
            page.mouse.up()
            page.wait_for_function(
                "before => document.querySelector('[data-testid=stMetricValue]').innerText !== before",
                arg=before,
                polling="raf",
                timeout=15000,
            )
            out.append((time.perf_counter() - start) * 1000)
            page.wait_for_timeout(300)
        browser.close()
    return out


def summary(times: list[float]) -> str:
    return f"median {statistics.median(times):.0f} ms, p90 {percentile(times, 0.9):.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    for n in args.sizes:
        print(f"script run, {n} items: {summary(script_runs(n, args.runs))}")
    server, url = start_server()
    try:
        for n in args.sizes:
            print(f"mouse-up to new NDCG in Chromium, {n} items: {summary(drag_latencies(url, n, args.runs))}")
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
