"""A classroom's load: N sessions on one local server, each reordering its list every 2 s. Reports the time
from a reorder to the updated NDCG (p50, p95), errors, and the server's CPU and memory over time.

    python -m benchmarks.load_classroom [--client ws|browser] [--sessions 40] [--seconds 120] [--interval 2]

--client ws (the default) speaks Streamlit's own websocket protocol, as the browser does: each session
opens the Playground, then presses Shuffle, Ideal order or Worst order (a reorder made by the server),
and the time runs until the new NDCG arrives. It costs the client almost nothing, so the figures are the
server's. --client browser drives headless Chromium pages instead (Move up buttons); 40 Chromium pages
on 2 cores swamp the machine, so that mode measures the browsers more than the server.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import threading
import time
from pathlib import Path

from benchmarks import percentile
from benchmarks.server import start_server

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class ServerMonitor(threading.Thread):
    """Samples the server's CPU share and resident memory once a second from /proc."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.samples, self.stopped = pid, [], threading.Event()

    def _cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def _rss_mib(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def run(self) -> None:
        start, last_cpu, last_t = time.monotonic(), self._cpu_seconds(), time.monotonic()
        while not self.stopped.wait(1.0):
            now, cpu = time.monotonic(), self._cpu_seconds()
            self.samples.append((now - start, 100 * (cpu - last_cpu) / (now - last_t), self._rss_mib()))
            last_cpu, last_t = cpu, now


async def learner(
    browser,
    url: str,
    seconds: float,
    interval: float,
    seed: int,
    latencies: list,
    errors: list,
    loaded: list,
    ready: asyncio.Event,
) -> None:
    rng = random.Random(seed)
    context = await browser.new_context(viewport={"width": 1366, "height": 900})
    page = await context.new_page()
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    try:
        await page.goto(f"{url}/Playground", timeout=120_000)
        await page.locator("li.row").first.wait_for(timeout=120_000)
        loaded.append(seed)
        await ready.wait()
        await asyncio.sleep(rng.uniform(0, interval))  # spread the class's clicks over the interval
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.monotonic()
            labels = await page.locator("li.row .label").all_inner_texts()
            row = rng.randint(1, len(labels) - 1)
            expected = f"after moving {labels[row]} from {row + 1} to {row}"
            await page.locator("li.row").nth(row).locator("button.up").click()
            clicked = time.monotonic()
            try:
                await page.wait_for_function(
                    "t => [...document.querySelectorAll('[data-testid=stCaptionContainer]')]"
                    ".some(e => e.textContent.includes(t))",
                    arg=expected,
                    timeout=15_000,
                    polling="raf",
                )
                latencies.append(time.monotonic() - clicked)
            except Exception as err:  # a timeout is an error of the run, not of this script
                errors.append(f"no update within 15 s: {type(err).__name__}")
            if await page.get_by_test_id("stException").count():
                errors.append("a traceback on the page")
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))
    except Exception as err:
        errors.append(f"session failed: {type(err).__name__}: {err}")
    finally:
        await context.close()


async def ws_learner(
    url: str,
    seconds: float,
    interval: float,
    seed: int,
    latencies: list,
    errors: list,
    loaded: list,
    ready: asyncio.Event,
) -> None:
    """One learner as a client of Streamlit's websocket protocol."""
    import websockets
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    rng = random.Random(seed)

    async def rerun(ws, button: tuple[str, str] | None) -> tuple[float | None, dict[str, tuple[str, str]]]:
        """Run the page (or, as a browser does, only the fragment the pressed button is in)."""
        msg = BackMsg()
        msg.rerun_script.page_name = "Playground"
        if button is not None:
            button_id, fragment_id = button
            widget = msg.rerun_script.widget_states.widgets.add()
            widget.id, widget.trigger_value = button_id, True
            if fragment_id:
                msg.rerun_script.fragment_id = fragment_id
        started = time.monotonic()
        await ws.send(msg.SerializeToString())
        first_metric, buttons = None, {}
        while True:
            fm = ForwardMsg()
            fm.ParseFromString(await asyncio.wait_for(ws.recv(), timeout=30))
            kind = fm.WhichOneof("type")
            if kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                element = fm.delta.new_element
                what = element.WhichOneof("type")
                if what == "button":
                    buttons[element.button.label] = (element.button.id, fm.delta.fragment_id)
                elif what == "metric" and first_metric is None:
                    first_metric = time.monotonic() - started
                elif what == "exception":
                    errors.append(f"exception on the page: {element.exception.message}")
            elif kind == "script_finished":
                return first_metric, buttons

    ws_url = url.replace("http://", "ws://") + "/_stcore/stream"
    try:
        async with websockets.connect(ws_url, subprotocols=["streamlit"], max_size=None) as ws:
            _, buttons = await rerun(ws, None)
            loaded.append(seed)
            await ready.wait()
            await asyncio.sleep(rng.uniform(0, interval))
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                started = time.monotonic()
                label = rng.choice(["Shuffle", "Ideal order", "Worst order"])
                elapsed, buttons = await rerun(ws, buttons[label])
                if elapsed is None:
                    errors.append("a rerun drew no NDCG")
                else:
                    latencies.append(elapsed)
                await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))
    except Exception as err:
        errors.append(f"session failed: {type(err).__name__}: {err}")


async def run(sessions: int, seconds: float, interval: float, client: str = "ws") -> None:
    from playwright.async_api import async_playwright

    if client == "ws":
        return await run_ws(sessions, seconds, interval)
    server, url = start_server()
    monitor = ServerMonitor(server.pid)
    latencies: list[float] = []
    errors: list[str] = []
    loaded: list[int] = []
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=[
                    "--no-sandbox",
                    "--headless",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                ],
            )
            ready = asyncio.Event()
            tasks = [
                asyncio.create_task(learner(browser, url, seconds, interval, i, latencies, errors, loaded, ready))
                for i in range(sessions)
            ]
            give_up = time.monotonic() + 180
            while len(loaded) < sessions and time.monotonic() < give_up and not all(t.done() for t in tasks):
                await asyncio.sleep(0.5)  # the whole class opens the page, then starts together
            print(f"{len(loaded)} of {sessions} sessions loaded the Playground")
            ready.set()
            monitor.start()
            began = time.monotonic()
            await asyncio.gather(*tasks)
            monitor.stopped.set()
            await browser.close()
    finally:
        server.terminate()
    report(sessions, seconds, interval, began, latencies, errors, monitor)


async def run_ws(sessions: int, seconds: float, interval: float) -> None:
    server, url = start_server()
    monitor = ServerMonitor(server.pid)
    latencies: list[float] = []
    errors: list[str] = []
    loaded: list[int] = []
    try:
        ready = asyncio.Event()
        tasks = [
            asyncio.create_task(ws_learner(url, seconds, interval, i, latencies, errors, loaded, ready))
            for i in range(sessions)
        ]
        give_up = time.monotonic() + 120
        while len(loaded) < sessions and time.monotonic() < give_up and not all(t.done() for t in tasks):
            await asyncio.sleep(0.2)
        print(f"{len(loaded)} of {sessions} sessions opened the Playground")
        ready.set()
        monitor.start()
        began = time.monotonic()
        await asyncio.gather(*tasks)
        monitor.stopped.set()
    finally:
        server.terminate()
    report(sessions, seconds, interval, began, latencies, errors, monitor)


def report(sessions, seconds, interval, began, latencies, errors, monitor) -> None:
    times = sorted(latencies)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(
        f"{sessions} sessions, one reorder every {interval:g} s each, for {seconds:g} s "
        f"({time.monotonic() - began:.0f} s in all)"
    )
    if times:
        p50 = statistics.median(times) * 1000
        p95 = percentile(times, 0.95) * 1000
        print(
            f"reorders: {len(times)}; to the updated NDCG: p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
            f"max {times[-1] * 1000:.0f} ms"
        )
    print(f"errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    if monitor.samples:
        cpu = [c for _, c, _ in monitor.samples]
        rss = [r for _, _, r in monitor.samples]
        half = len(rss) // 2
        print(f"server CPU: mean {statistics.mean(cpu):.0f}% of one core, max {max(cpu):.0f}%")
        print(
            f"server memory: start {rss[0]:.0f} MiB, after the first minute {rss[min(60, len(rss) - 1)]:.0f} MiB, "
            f"end {rss[-1]:.0f} MiB (second half: {min(rss[half:]):.0f}-{max(rss[half:]):.0f} MiB)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--client", choices=["ws", "browser"], default="ws")
    args = parser.parse_args()
    asyncio.run(run(args.sessions, args.seconds, args.interval, args.client))


if __name__ == "__main__":
    main()
