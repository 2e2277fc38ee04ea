"""From a move to the new NDCG on screen, in Chromium, while other sessions reorder their lists on the same server.

    python -m benchmarks.bench_instant [--others 0 40] [--moves 60] [--pace 1.0] [--kinds keyboard button drag order]

The app runs on 127.0.0.1 (``streamlit run serve.py``, a free port). One Chromium page opens the Playground and
makes ``--moves`` moves, one every ``--pace`` seconds, cycling through the kinds: Alt+Arrow on a focused row,
a row's up/down button, a drag to the top, and the "Worst order" / "Ideal order" buttons. Each is timed in the
page (``performance.now()``) from the input event (the key's or the click's ``timeStamp``, the pointer-up that
ends a drag) to the first frame painted after the headline figure (``[data-testid="stMetricValue"]``, the first
one) shows the NDCG that ndcg_core gives for the new order; a move whose figure never comes is an error.

Meanwhile ``--others`` sessions (clients of Streamlit's own websocket protocol, in a separate process, as in
``load_classroom.py``) each move one item of their own list to a random place about once per ``--other-pace``
seconds, through the same sortable-list trigger the browser sends.

Where the time goes, for each move (page times; the server's are marks the Playground writes when the server
runs with ``NDCG_LAB_TIMINGS``, see ``ui/timing.py``, put on the page's clock through wall-clock time):
input to the websocket send (the browser), send to the script's start (to the server and waiting to run),
script start to the headline (the Playground's fragment up to ``st.metric``), headline to its websocket frame
in the page (the server's send loop, the socket, the page's event queue), frame to DOM (Streamlit's React
render) and DOM to paint (style, layout, paint). The rest of the script after the headline is reported too.

Bounded: at most ``--moves`` + ``--warmup`` moves per setting, each waited for at most 15 s, and the whole run
stops after ``--max-minutes``. Traffic goes only to the local server.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import math
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import percentile
from benchmarks.bench_from_frame import speed_loop
from benchmarks.load_classroom import ServerMonitor
from benchmarks.server import end_with_parent, start_server
from ndcg_core import dcg, ndcg_at_k
from ui.format import metric_text

ROOT = Path(__file__).resolve().parent.parent
COMPONENT = "ndcg_lab.sortable_list"
# Seconds the server may take to start and the page to draw its list: on a machine shared with many other jobs
# both have taken over a minute.
LOAD_SECONDS = 180
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-background-networking", "--disable-component-update"]

# Put into the page before Streamlit's own code: it wraps the websocket to timestamp frames, listens for the
# input event, and watches the headline figure (a MutationObserver, then the next frame's paint).
PAGE_SCRIPT = r"""
(() => {
  const rec = { armed: false };
  window.__instant = rec;
  const reset = () => Object.assign(rec, {
    expected: null, input: null, key: null, t0: null, sends: [], frames: [], dom: null, raf: null, paint: null,
    dcg: null, explained: null,
  });
  reset();
  const longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longtasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (err) { /* no long-task timing in this browser */ }

  const Native = window.WebSocket;
  class Timed extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (!String(url).includes("/_stcore/stream")) return;
      this.addEventListener("message", (e) => {
        if (!rec.armed && rec.paint === null) return;
        const t = performance.now();
        if (rec.frames.length < 400) rec.frames.push([t, e.data instanceof ArrayBuffer ? e.data.slice(0) : null]);
      });
    }
    send(data) {
      if (rec.armed && rec.t0 !== null) rec.sends.push(performance.now());
      return super.send(data);
    }
  }
  window.WebSocket = Timed;

  const onInput = (e) => {
    if (!rec.armed || rec.t0 !== null || !e.isTrusted || e.type !== rec.input) return;
    if (rec.key && e.key !== rec.key) return;
    rec.t0 = e.timeStamp;
  };
  for (const type of ["keydown", "click", "pointerup"]) window.addEventListener(type, onInput, true);

  const check = () => {
    if (!rec.armed || rec.t0 === null) return;
    // The explanation of the move under the headline, once it names the new DCG ("→ 5.9407 (").
    if (rec.explained === null && rec.dcg !== null) {
      const found = Array.from(document.querySelectorAll('[data-testid="stMarkdown"]'))
        .some((m) => m.textContent.includes("\u2192 " + rec.dcg + " ("));
      if (found) rec.explained = performance.now();
    }
    if (rec.dom !== null) return;
    const value = document.querySelector('[data-testid="stMetricValue"]');
    if (!value || value.textContent.trim() !== rec.expected) return;
    rec.dom = performance.now();
    requestAnimationFrame(() => {
      rec.raf = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { rec.paint = performance.now(); };
      channel.port2.postMessage(0);
    });
  };
  const observe = () => new MutationObserver(check).observe(document.documentElement,
    { subtree: true, childList: true, characterData: true });
  if (document.documentElement) observe(); else document.addEventListener("DOMContentLoaded", observe);

  rec.arm = (expected, input, key, dcg) => {
    reset();
    Object.assign(rec, { expected, input, key: key || null, armed: true, dcg: dcg || null });
  };
  rec.collect = () => {
    const b64 = (buf) => {
      const bytes = new Uint8Array(buf);
      let s = "";
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    };
    const out = {
      t0: rec.t0, sends: rec.sends, dom: rec.dom, raf: rec.raf, paint: rec.paint, origin: performance.timeOrigin,
      explained: rec.explained,
      frames: rec.frames.map(([t, d]) => [t, d ? b64(d) : null]),
      longtasks: longtasks.filter(([s, d]) => rec.t0 !== null && s + d > rec.t0 && (!rec.paint || s < rec.paint)),
    };
    rec.armed = false;
    reset();
    return out;
  };
})();
"""


# --- the other sessions: clients of Streamlit's websocket protocol, in a child process ----------------------


@dataclass
class Other:
    """One learner's tab as the server sees it: a websocket session on the Playground that reorders its list."""

    url: str
    errors: list
    ws: object = None
    page_hash: str = ""
    component: tuple[str, str, str] = ("", "", "")  # (state widget id, events widget id, fragment id)
    order: list[int] = field(default_factory=list)  # the list's item ids, as the server last drew them
    query: str = ""  # the address's query string, as the server last wrote it (a browser sends it back)
    received: int = 0  # bytes of the server's messages so far (the websocket's payloads)

    async def connect(self) -> None:
        import websockets

        self.ws = await websockets.connect(
            self.url.replace("http://", "ws://") + "/_stcore/stream",
            subprotocols=["streamlit"],
            max_size=None,
            ping_interval=None,
        )

    async def run(self, event: dict | None = None) -> tuple[float | None, float]:
        """Run the page (or, with a move, only the fragment the list is in): seconds to the headline, and to the
        end of the run."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = BackMsg()
        msg.rerun_script.page_name = "Playground"
        if self.page_hash:
            msg.rerun_script.page_script_hash = self.page_hash
        msg.rerun_script.query_string = self.query
        if event is not None:
            state_id, events_id, fragment_id = self.component
            # The component's (empty) state, and the move as its trigger: what the list sends on a move.
            widget = msg.rerun_script.widget_states.widgets.add()
            widget.id, widget.json_value = state_id, "{}"
            widget = msg.rerun_script.widget_states.widgets.add()
            widget.id = events_id
            widget.json_trigger_value = json.dumps([{"event": "action", "value": event}])
            msg.rerun_script.fragment_id = fragment_id
        started = time.monotonic()
        await self.ws.send(msg.SerializeToString())
        headline = None
        while True:
            fm = ForwardMsg()
            data = await asyncio.wait_for(self.ws.recv(), timeout=60)
            self.received += len(data)
            fm.ParseFromString(data)
            kind = fm.WhichOneof("type")
            if kind == "new_session":
                self.page_hash = fm.new_session.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query = fm.page_info_changed.query_string
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                element = fm.delta.new_element
                what = element.WhichOneof("type")
                if what == "metric" and headline is None:
                    headline = time.monotonic() - started
                elif what == "bidi_component" and element.bidi_component.component_name == COMPONENT:
                    state_id = element.bidi_component.id
                    self.component = (state_id, f"$$STREAMLIT_INTERNAL_KEY_{state_id}__events", fm.delta.fragment_id)
                    self.order = [it["id"] for it in json.loads(json.loads(element.bidi_component.json))["items"]]
                elif what == "exception":
                    self.errors.append(f"exception on the page: {element.exception.message}")
            elif kind == "script_finished":
                if fm.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # st.rerun(): the page runs again at once
                return headline, time.monotonic() - started


def random_move(
    order: list, rng: random.Random, source: int | None = None, target: int | None = None
) -> tuple[dict, list]:
    """The list trigger's event for moving one item of ``order`` (at random where ``source`` or ``target`` is not
    given), as Alt+arrow keys send it, and the order expected after it."""
    if source is None:
        source = rng.randrange(len(order))
    if target is None:
        target = rng.choice([i for i in range(len(order)) if i != source])
    expected = list(order)
    expected.insert(target, expected.pop(source))
    event = {
        "type": "move",
        "id": order[source],
        "to": target,
        "via": "keyboard",
        "nonce": time.time() * 1000 + rng.random(),
    }
    return event, expected


async def other_learner(url: str, number: int, pace: float, stop: asyncio.Event, stats: dict) -> None:
    rng = random.Random(number)
    other = Other(url, stats["errors"])
    try:
        await other.connect()
        await other.run()
        if not other.order:
            stats["errors"].append("the Playground drew no list")
            return
        stats["opened"] += 1
        await asyncio.sleep(rng.uniform(0, pace))  # the class's moves spread over the interval
        while not stop.is_set():
            started = time.monotonic()
            event, expected = random_move(other.order, rng)
            headline, finished = await other.run(event)
            if headline is None or other.order != expected:
                stats["errors"].append("a move was not drawn")
            else:
                stats["headline"].append(headline)
                stats["finished"].append(finished)
            await asyncio.sleep(max(0.0, rng.uniform(0.8, 1.2) * pace - (time.monotonic() - started)))
    except Exception as err:  # a broken session is an error of the run, reported by the parent
        stats["errors"].append(f"session failed: {type(err).__name__}: {err}")
    finally:
        if other.ws is not None:
            await other.ws.close()


async def others_main(url: str, sessions: int, pace: float, seconds: float) -> None:
    """The child process: open the sessions, say "ready", move until SIGTERM (or the time bound), report."""
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    stats: dict = {"opened": 0, "errors": [], "headline": [], "finished": []}
    tasks = []
    for i in range(sessions):
        tasks.append(asyncio.create_task(other_learner(url, i, pace, stop, stats)))
        await asyncio.sleep(0.05)
    give_up = time.monotonic() + 120
    while stats["opened"] + len(stats["errors"]) < sessions and time.monotonic() < give_up:
        await asyncio.sleep(0.1)
    print(f"ready {stats['opened']}", flush=True)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(stats), flush=True)


def start_others(url: str, sessions: int, pace: float, seconds: float) -> subprocess.Popen:
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "benchmarks.bench_instant",
            "--others-child",
            url,
            str(sessions),
            str(pace),
            str(seconds),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=end_with_parent,
    )
    line = child.stdout.readline()
    if not line.startswith("ready"):
        child.kill()
        raise RuntimeError("the other sessions did not start")
    opened = int(line.split()[1])
    if opened < sessions:
        print(f"  only {opened} of {sessions} other sessions opened the Playground")
    return child


def stop_others(child: subprocess.Popen) -> dict:
    fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # the load's own cost, on the same cores
    child.send_signal(signal.SIGTERM)
    out, _ = child.communicate(timeout=60)
    return {**json.loads(out.strip().splitlines()[-1]), "cpu_seconds": cpu}


# --- the measured learner, in Chromium ----------------------------------------------------------------------


@dataclass
class Move:
    kind: str
    total: float  # input to paint, ms
    parts: dict  # breakdown, ms
    explained: float = math.nan  # input to the move's explanation in the DOM, ms


def ndcg_text(grades: list[int], k: int) -> str:
    return metric_text(ndcg_at_k(grades, k))


def shown_list(page) -> list[tuple[str, int]]:
    return page.locator("ol > li.row:not(.sortable-fallback)").evaluate_all(
        "rows => rows.map(r => [r.querySelector('.label').textContent, Number(r.querySelector('.grade').value)])"
    )


def shown_k(page) -> int:
    label = page.get_by_test_id("stMetricLabel").first.inner_text()
    return int(label.rsplit("@", 1)[1])


def plan(kind: str, rows: list[tuple[str, int]], k: int, step: int) -> tuple[list[tuple[str, int]], dict] | None:
    """The order a move of this kind would make and how to make it, or None if it would not change the figure."""
    grades = [g for _, g in rows]
    now = ndcg_text(grades, k)
    n = len(rows)
    if kind == "order":
        # ndcg_core's ideal and worst orders (by grade); the page's buttons call the same functions.
        target = "Ideal order" if now != ndcg_text(sorted(grades, reverse=True), k) else "Worst order"
        ordered = sorted(rows, key=lambda r: r[1], reverse=target == "Ideal order")
        return (ordered, {"button": target}) if ndcg_text([g for _, g in ordered], k) != now else None
    candidates = []
    for source in range(n):
        for target in (source - 1, source + 1) if kind != "drag" else (0,):
            if 0 <= target < n and target != source and (kind != "drag" or source in (1, 2, 3)):
                moved = list(rows)
                moved.insert(target, moved.pop(source))
                if ndcg_text([g for _, g in moved], k) != now:
                    candidates.append((moved, {"source": source, "target": target}))
    return candidates[step % len(candidates)] if candidates else None


def box(row) -> dict:
    """A row's box once it is on screen (the list may be in the middle of the server's redraw)."""
    for _ in range(50):
        row.wait_for(state="visible", timeout=15_000)
        found = row.bounding_box()
        if found is not None:
            return found
    raise RuntimeError("the list's row never settled on screen")


def make_move(page, kind: str, how: dict) -> None:
    rows = page.locator("ol > li.row")
    if kind == "keyboard":
        rows.nth(how["source"]).focus()
        page.keyboard.press("Alt+ArrowUp" if how["target"] < how["source"] else "Alt+ArrowDown")
    elif kind == "button":
        rows.nth(how["source"]).locator("button.up" if how["target"] < how["source"] else "button.down").click()
    elif kind == "drag":
        source, top = box(rows.nth(how["source"])), box(rows.nth(0))
        page.mouse.move(source["x"] + 60, source["y"] + source["height"] / 2)
        page.mouse.down()
        page.mouse.move(top["x"] + 60, top["y"] + 2, steps=10)
        page.wait_for_timeout(150)  # SortableJS settles the slot on its own timer
        page.mouse.up()
    else:
        page.get_by_role("button", name=how["button"], exact=True).click()


def input_event(kind: str, how: dict) -> tuple[str, str | None]:
    """The page event a move starts from: its type, and for a key press the key (Alt comes first)."""
    if kind == "keyboard":
        return "keydown", "ArrowUp" if how["target"] < how["source"] else "ArrowDown"
    return ("pointerup" if kind == "drag" else "click"), None


def breakdown(record: dict, marks: dict[str, list[tuple[str, float]]]) -> tuple[dict, str | None]:
    """Split one move's time into parts, from the page's frames and the server's marks; the browser's session."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    t0, origin = record["t0"], record["origin"]
    send = next((t for t in record["sends"] if t >= t0), None)
    session, headline_frame, finished_frame = None, None, None
    for t, data in record["frames"]:
        if data is None:
            continue
        fm = ForwardMsg()
        fm.ParseFromString(base64.b64decode(data))
        kind = fm.WhichOneof("type")
        if kind == "new_session" and session is None:
            session = fm.new_session.initialize.session_id
        elif kind == "delta" and headline_frame is None and fm.delta.WhichOneof("type") == "new_element":
            if fm.delta.new_element.WhichOneof("type") == "metric":
                headline_frame = t
        elif kind == "script_finished" and finished_frame is None:
            finished_frame = t
    parts = {"input to send": (send - t0) if send is not None else math.nan}
    mine = {name: [w * 1000 - origin for s, w in stamps if s == session] for name, stamps in marks.items()}
    start = next((t for t in mine.get("start", []) if send is not None and t >= send - 5), None)
    if start is not None and headline_frame is not None:
        head = next((t for t in mine["headline"] if t >= start), math.nan)
        end = next((t for t in mine["end"] if t >= head), math.nan)
        parts.update(
            {
                "send to script start": start - send,
                "script to headline": head - start,
                "headline to its frame": headline_frame - head,
                "script after headline": end - head,
            }
        )
    if headline_frame is not None:
        parts["frame to DOM"] = record["dom"] - headline_frame
        parts["send to frame"] = headline_frame - send if send is not None else math.nan
    parts["DOM to paint"] = record["paint"] - record["dom"]
    parts["long tasks"] = sum(d for _, d in record["longtasks"])
    if finished_frame is not None and send is not None:
        parts["send to script_finished frame"] = finished_frame - send
    # The same time in three places: the browser's work, the server's, and the way between them.
    if "script to headline" in parts and "frame to DOM" in parts:
        parts["BROWSER (input to send, frame to DOM, DOM to paint)"] = (
            parts["input to send"] + parts["frame to DOM"] + parts["DOM to paint"]
        )
        parts["SERVER (send to script start, script to headline)"] = (
            parts["send to script start"] + parts["script to headline"]
        )
        parts["WEBSOCKET (headline to its frame)"] = parts["headline to its frame"]
    return parts, session


def read_marks(path: Path, seen: int) -> tuple[dict[str, list[tuple[str, float]]], int]:
    marks: dict[str, list[tuple[str, float]]] = {"start": [], "headline": [], "end": []}
    # Only whole lines: the server may be half-way through writing the last one.
    lines = path.read_text().split("\n")[:-1] if path.exists() else []
    for line in lines[seen:]:
        m = json.loads(line)
        marks.setdefault(m["mark"], []).append((m["session"], m["t"]))
    return marks, len(lines)


def measure(url: str, marks_path: Path, args, deadline: float) -> tuple[list[Move], list[str]]:
    from playwright.sync_api import sync_playwright

    moves, errors = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 1000})
        page.add_init_script(PAGE_SCRIPT)
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.goto(f"{url}/Playground")
        page.locator("ol > li.row").first.wait_for(timeout=1000 * LOAD_SECONDS)
        if args.items != 5:
            page.get_by_text("Edit labels and grades").click()
            box = page.get_by_role("textbox", name="All grades at once, in ranked order")
            box.fill(", ".join(str((i * 7) % 4) for i in range(args.items)))
            box.press("Enter")
            page.locator("ol > li.row").nth(args.items - 1).wait_for(timeout=30000)
            page.get_by_text("Edit labels and grades").click()
        page.wait_for_timeout(2000)
        marks, seen = read_marks(marks_path, 0)
        step = 0
        for i in range(args.warmup + args.moves):
            if time.monotonic() > deadline:
                errors.append("stopped at the time bound")
                break
            kind = args.kinds[i % len(args.kinds)]
            rows, k = shown_list(page), shown_k(page)
            planned = plan(kind, rows, k, step)
            step += 1
            if planned is None:
                continue
            after, how = planned
            expected = ndcg_text([g for _, g in after], k)
            new_dcg = metric_text(dcg([g for _, g in after], k))
            started = time.monotonic()
            page.evaluate(
                "([e, input, key, d]) => window.__instant.arm(e, input, key, d)",
                [expected, *input_event(kind, how), new_dcg],
            )
            make_move(page, kind, how)
            try:
                page.wait_for_function("() => window.__instant.paint !== null", timeout=15000, polling=50)
            except Exception:
                errors.append(f"{kind}: the figure did not show {expected} within 15 s")
                page.evaluate("() => window.__instant.collect()")
                page.wait_for_timeout(1000)
                continue
            page.wait_for_timeout(400)  # let the rest of the run arrive, for the script_finished frame
            record = page.evaluate("() => window.__instant.collect()")
            page.wait_for_timeout(200)
            new_marks, seen = read_marks(marks_path, seen)
            for name, stamps in new_marks.items():
                marks[name] += stamps
            parts, _ = breakdown(record, marks)
            # The ideal and worst orders may put items of one grade either way round: compare grades there.
            column = 1 if kind == "order" else 0
            if [row[column] for row in shown_list(page)] != [row[column] for row in after]:
                errors.append(f"{kind}: the list is not in the expected order after the move")
            if i >= args.warmup:
                explained = record["explained"] - record["t0"] if record["explained"] is not None else math.nan
                moves.append(Move(kind, record["paint"] - record["t0"], parts, explained))
            page.wait_for_timeout(max(0, int(1000 * (args.pace - (time.monotonic() - started)))))
        browser.close()
    return moves, errors


# --- report -------------------------------------------------------------------------------------------------


def figure(values: list[float]) -> str:
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return "n/a"
    return f"median {statistics.median(values):5.0f} ms, p90 {percentile(values, 0.9):5.0f} ms"


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor() or platform.machine(),
    )
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def chromium_version() -> str:
    try:
        return subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "Chromium"


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


PART_ORDER = (
    "BROWSER (input to send, frame to DOM, DOM to paint)",
    "SERVER (send to script start, script to headline)",
    "WEBSOCKET (headline to its frame)",
    "input to send",
    "send to script start",
    "script to headline",
    "headline to its frame",
    "frame to DOM",
    "DOM to paint",
    "send to frame",
    "script after headline",
    "send to script_finished frame",
    "long tasks",
)


def report(others: int, moves: list[Move], errors: list[str], other_stats: dict | None, monitor) -> None:
    totals = [m.total for m in moves]
    print(f"\n== {others} other sessions: {len(moves)} moves, {load()}")
    if totals:
        print(f"input to new NDCG painted: {figure(totals)}  (min {min(totals):.0f}, max {max(totals):.0f})")
        for kind in sorted({m.kind for m in moves}):
            print(f"  {kind:9s} {figure([m.total for m in moves if m.kind == kind])}")
        explained = [m.explained for m in moves]
        shown = sum(not math.isnan(x) for x in explained)
        print(f"input to the move's explanation in the DOM: {figure(explained)}  ({shown} of {len(moves)} seen)")
        print("where the time goes (per move; median and p90 of each part):")
        for name in PART_ORDER:
            values = [m.parts[name] for m in moves if name in m.parts]
            if values:
                print(f"  {name:52s} {figure(values)}")
    if monitor is not None and monitor.samples:
        cpu = [c for _, c, _ in monitor.samples]
        print(f"server CPU: mean {statistics.mean(cpu):.0f}% of one core, max {max(cpu):.0f}%")
    if other_stats is not None:
        done, finished = other_stats["headline"], other_stats["finished"]
        print(
            f"other sessions: {other_stats['opened']} opened, {len(done)} moves, send to headline frame "
            f"{figure([1000 * x for x in done])}, to the end of the run {figure([1000 * x for x in finished])}"
        )
        print(f"the other sessions' client process used {other_stats['cpu_seconds']:.1f} s of CPU")
        errors = errors + other_stats["errors"]
    print(f"errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--others", type=int, nargs="+", default=[0, 40], help="other sessions, one setting each")
    parser.add_argument("--moves", type=int, default=60, help="timed moves per setting")
    parser.add_argument("--warmup", type=int, default=4, help="moves made first and not counted")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between the measured learner's moves")
    parser.add_argument("--other-pace", type=float, default=1.0, help="seconds between each other session's moves")
    parser.add_argument("--kinds", nargs="+", default=["keyboard", "button", "keyboard", "drag", "keyboard", "order"])
    parser.add_argument("--items", type=int, default=5, help="items in the measured list (5: the default example)")
    parser.add_argument("--max-minutes", type=float, default=20.0)
    parser.add_argument("--others-child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.others_child:
        url, sessions, pace, seconds = args.others_child
        asyncio.run(others_main(url, int(sessions), float(pace), float(seconds)))
        return
    deadline = time.monotonic() + 60 * args.max_minutes
    print(f"machine: {machine()}; {chromium_version()}; {time.strftime('%Y-%m-%d %H:%M')}; {load()}")
    print(f"day's speed: speed_loop() {speed_loop():.0f} ms (benchmarks/bench_from_frame.py)")
    marks_path = Path(tempfile.mkdtemp(prefix="ndcg-instant-")) / "marks.jsonl"
    server, url = start_server(env={"NDCG_LAB_TIMINGS": str(marks_path)}, seconds=LOAD_SECONDS)
    try:
        for others in args.others:
            monitor = ServerMonitor(server.pid)
            child = start_others(url, others, args.other_pace, 60 * args.max_minutes) if others else None
            monitor.start()
            try:
                moves, errors = measure(url, marks_path, args, deadline)
            finally:
                monitor.stopped.set()
                other_stats = stop_others(child) if child else None
            report(others, moves, errors, other_stats, monitor)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
