"""A live room under load: N students (clients of Streamlit's websocket protocol, as load_classroom.py's) join one
room by its link and answer each activity the teacher opens, while a presenter session shows the class's counts.

    python -m benchmarks.load_live_room [--students 200] [--rounds 3] [--window 20] [--database sqlite|postgresql]
                                        [--teacher page|store]

Each client behaves as a browser does: it runs the page, reruns every ``st.fragment(run_every=...)`` fragment at
the interval the server asks for (the presenter's panel), asks for the room's revision over HTTP as a phone's room
watcher does (``ui/widgets/room_watch.js``) and sends its trigger when the revision changes, and presses buttons with
their fragment's id. Each round the teacher opens a "Predict the NDCG" activity by pressing "Open for the class" on
the projector's page (or, with ``--teacher store``, through the database, as a teacher connected to another server
process would); each student sees it appear by itself, waits a random time within the window, types an estimate
and presses Send. Reported:

- answer-to-presenter latency: from a student's Send to the presenter's "Answered" count including it (p50, p95);
- activity-to-student latency: from the teacher opening the activity to a student's phone showing it;
- errors (a session that failed, a message other than "Saved", a traceback), and answers lost: acknowledged
  ("Saved" came back) against stored in the database;
- the server's resident memory and CPU.

The server runs with its own data folder (SQLite) or, with ``--database postgresql``, against
``NDCG_LAB_DATABASE_URL`` as given in the environment.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field

from benchmarks import percentile
from benchmarks.load_classroom import ServerMonitor
from benchmarks.server import start_server

PAGE = "Classroom"


@dataclass
class Client:
    """One browser tab, as far as the server can tell: a websocket session running the Classroom page."""

    url: str
    query: str
    label: str
    errors: list
    ws: object = None
    widgets: dict = field(default_factory=dict)  # (kind, label) -> (widget id, fragment id)
    values: dict = field(default_factory=dict)  # widget id -> WidgetState kwargs, as a browser resends them
    auto: dict = field(default_factory=dict)  # fragment id -> interval (run_every)
    texts: list = field(default_factory=list)  # what the last run drew: (kind, text)
    metrics: dict = field(default_factory=dict)  # label -> value
    page_hash: str = ""  # the page's script hash, which a browser sends with every rerun after the first
    watch: tuple = ()  # the room watcher: (component id, fragment id, its data {url, revision, every, ...})

    async def connect(self):
        import websockets

        self.ws = await websockets.connect(
            self.url.replace("http://", "ws://") + "/_stcore/stream",
            subprotocols=["streamlit"],
            max_size=None,
            ping_interval=None,
        )

    async def run(
        self, fragment_id: str = "", trigger: str | None = None, auto: bool = False, component: tuple = ()
    ) -> float:
        """Send one rerun (the page, or one fragment) and read until it finishes; the seconds it took."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        state = msg.rerun_script
        state.query_string, state.page_name = self.query, PAGE
        if self.page_hash:
            state.page_script_hash = self.page_hash
        state.is_auto_rerun = auto
        if fragment_id:
            state.fragment_id = fragment_id
        for widget_id, value in self.values.items():
            w = state.widget_states.widgets.add()
            w.id = widget_id
            for name, v in value.items():
                setattr(w, name, v)
        if trigger is not None:
            w = state.widget_states.widgets.add()
            w.id, w.trigger_value = trigger, True
        if component:
            # A component's trigger, as the browser sends it: its (empty) state and the event.
            component_id, event, value = component
            w = state.widget_states.widgets.add()
            w.id, w.json_value = component_id, "{}"
            w = state.widget_states.widgets.add()
            w.id = f"$$STREAMLIT_INTERNAL_KEY_{component_id}__events"
            w.json_trigger_value = json.dumps([{"event": event, "value": value}])
        started = time.monotonic()
        await self.ws.send(msg.SerializeToString())
        await self.read_until_finished()
        return time.monotonic() - started

    async def read_until_finished(self) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.texts, self.metrics = [], {}
        while True:
            fm = ForwardMsg()
            fm.ParseFromString(await asyncio.wait_for(self.ws.recv(), timeout=60))
            kind = fm.WhichOneof("type")
            if kind == "navigation":
                self.page_hash = fm.navigation.page_script_hash or self.page_hash
            elif kind == "auto_rerun":
                self.auto[fm.auto_rerun.fragment_id] = fm.auto_rerun.interval
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                self.element(fm.delta.new_element, fm.delta.fragment_id)
            elif kind == "script_finished":
                if fm.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    self.texts, self.metrics = [], {}  # st.rerun(): the page runs again at once
                    continue
                return

    def element(self, element, fragment_id: str) -> None:
        what = element.WhichOneof("type")
        if what in ("button", "text_input"):
            widget = getattr(element, what)
            self.widgets[(what, widget.label)] = (widget.id, fragment_id)
        elif what == "metric":
            self.metrics[element.metric.label] = element.metric.body
        elif what == "alert":
            self.texts.append(("alert", element.alert.body))
        elif what == "markdown":
            self.texts.append(("markdown", element.markdown.body))
        elif what == "exception":
            self.errors.append(f"{self.label}: exception on the page: {element.exception.message}")
        elif what == "bidi_component" and element.bidi_component.component_name == "ndcg_lab.room_watch":
            self.watch = (element.bidi_component.id, fragment_id, json.loads(element.bidi_component.json))

    def shows(self, text: str) -> bool:
        return any(text in body for _, body in self.texts)

    def set_text(self, label: str, value: str) -> None:
        widget_id, _ = self.widgets[("text_input", label)]
        self.values[widget_id] = {"string_value": value}

    def button(self, label: str) -> tuple[str, str]:
        return self.widgets[("button", label)]


async def keep_fragments_running(client: Client, stop: asyncio.Event, on_run=None) -> None:
    """Rerun every run_every fragment at its interval, as the browser's timer does (one at a time per tab)."""
    due: dict[str, float] = {}
    while not stop.is_set():
        now = time.monotonic()
        for fragment_id, interval in list(client.auto.items()):
            due.setdefault(fragment_id, now + interval)
            if now >= due[fragment_id]:
                due[fragment_id] = now + interval
                async with client.lock:
                    await client.run(fragment_id, auto=True)
                if on_run is not None:
                    on_run(client)
        await asyncio.sleep(0.05)


async def http_get_json(host: str, port: int, path: str, conn: dict) -> tuple[int, dict | None]:
    """One GET on a kept-alive HTTP/1.1 connection (opened on first use), as a phone's fetch() sends it."""
    for attempt in range(2):
        if "writer" not in conn:
            conn["reader"], conn["writer"] = await asyncio.open_connection(host, port)
        reader, writer = conn["reader"], conn["writer"]
        try:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: application/json\r\n\r\n".encode())
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            if headers.get("connection", "").lower() == "close":
                writer.close()
                conn.clear()
            is_json = "json" in headers.get("content-type", "")
            return status, (json.loads(body) if is_json else None)
        except (ConnectionError, asyncio.IncompleteReadError):
            conn.clear()
            if attempt:
                raise
    raise AssertionError("not reached")


async def watch_room(client: Client, stop: asyncio.Event, on_run) -> None:
    """What ``ui/widgets/room_watch.js`` does on a phone: ask for the room's revision every ``every`` ms over HTTP
    and, when it differs from the one drawn, send the component's trigger (which reruns the student's fragment)."""
    from urllib.parse import urlparse

    address = urlparse(client.url)
    conn: dict = {}
    try:
        while not stop.is_set():
            component_id, fragment_id, data = client.watch
            await asyncio.sleep(data["every"] / 1000)
            status, body = await http_get_json(address.hostname, address.port, data["url"], conn)
            if body is None:
                client.errors.append(f"{client.label}: the revision route is missing (status {status})")
                return
            if status == 404 or body.get("revision") != data["revision"]:
                value = {"revision": body.get("revision"), "nonce": time.time() * 1000 + random.random()}
                async with client.lock:
                    await client.run(fragment_id, component=(component_id, "changed", value))
                on_run(client)
    finally:
        if "writer" in conn:
            conn["writer"].close()


@dataclass
class Round:
    number: int = 0
    opened: float = 0.0
    activity_id: int = 0
    sent: dict = field(default_factory=dict)  # student -> time Send was pressed
    acked: dict = field(default_factory=dict)  # student -> time "Saved" came back
    seen: dict = field(default_factory=dict)  # student -> time the activity appeared
    presenter: list = field(default_factory=list)  # (time, answered count)


async def student(
    url: str,
    code: str,
    me: str,
    number: int,
    rounds: list,
    state: dict,
    errors: list,
    stop: asyncio.Event,
    window: float,
) -> None:
    rng = random.Random(number)
    client = Client(url, f"room={code}&me={me}", f"student {number}", errors)
    client.lock = asyncio.Lock()
    try:
        await client.connect()
        async with client.lock:
            await client.run()
            client.set_text("Nickname (optional)", f"s{number}")
            join_id, fragment = client.button("Join")
            await client.run(fragment, trigger=join_id)
        if not client.shows("You are"):
            errors.append(f"{client.label}: did not join")
            return
        state["joined"] += 1

        def on_run(c: Client) -> None:
            current = state["round"]
            if (
                current is not None
                and number not in current.seen
                and ("text_input", ESTIMATE) in c.widgets
                and any(ESTIMATE_HEADING in body for _, body in c.texts)
            ):
                current.seen[number] = time.monotonic()

        if not client.watch:
            errors.append(f"{client.label}: no room watcher on the page")
            return
        timer = asyncio.create_task(watch_room(client, stop, on_run))
        answered = set()
        while not stop.is_set():
            current = state["round"]
            if current is None or current.number in answered or number not in current.seen:
                await asyncio.sleep(0.1)
                continue
            answered.add(current.number)
            await asyncio.sleep(rng.uniform(0, window))
            async with client.lock:
                client.set_text(ESTIMATE, f"{rng.uniform(0.5, 1.0):.2f}")
                send_id, fragment = client.button("Send")
                current.sent[number] = time.monotonic()
                await client.run(fragment, trigger=send_id)
                if client.shows("Saved"):
                    current.acked[number] = time.monotonic()
                else:
                    shown = [body for kind, body in client.texts if kind == "alert"]
                    errors.append(f"{client.label}: not saved: {shown[:1]}")
        timer.cancel()
    except Exception as err:  # a broken session is an error of the run, reported below
        errors.append(f"{client.label}: {type(err).__name__}: {err}")
    finally:
        if client.ws is not None:
            await client.ws.close()


ESTIMATE = "Your estimate of NDCG (0 to 1)"
ESTIMATE_HEADING = "Predict the NDCG"
OPEN = "Open for the class"


async def presenter(url: str, code: str, key: str, state: dict, errors: list, stop: asyncio.Event) -> None:
    client = Client(url, f"room={code}&key={key}", "presenter", errors)
    client.lock = asyncio.Lock()

    def on_run(c: Client) -> None:
        current, value = state["round"], c.metrics.get("Answered")
        if current is not None and value:
            current.presenter.append((time.monotonic(), int(value.split("/")[0])))

    try:
        await client.connect()
        await client.run()
        state["presenter"] = client
        await keep_fragments_running(client, stop, on_run)
    except Exception as err:
        errors.append(f"presenter: {type(err).__name__}: {err}")
    finally:
        if client.ws is not None:
            await client.ws.close()


def latencies(r: Round) -> list[float]:
    """Send-to-presenter time of each acknowledged answer: the j-th answer stored is counted once the presenter
    shows at least j answers."""
    order = sorted(r.acked, key=r.acked.get)
    out = []
    for j, number in enumerate(order, start=1):
        shown = next((t for t, n in r.presenter if n >= j and t >= r.acked[number] - 1e-3), None)
        if shown is not None:
            out.append(shown - r.sent[number])
    return out


async def main_async(args) -> None:
    from ndcg_core.classroom import activities as acts
    from ndcg_core.classroom import rules
    from ndcg_core.classroom.rules import Limits
    from ndcg_core.classroom.store import Store, database_url

    if args.database == "sqlite":
        os.environ.pop("NDCG_LAB_DATABASE_URL", None)
        os.environ["NDCG_LAB_DATA_DIR"] = tempfile.mkdtemp(prefix="ndcg-lab-load-")
    elif not os.environ.get("NDCG_LAB_DATABASE_URL"):
        raise SystemExit("--database postgresql needs NDCG_LAB_DATABASE_URL")
    store = Store(database_url(), limits=Limits.from_environment())
    room, key = store.create_room()
    server, url = start_server()
    monitor = ServerMonitor(server.pid)
    monitor.start()
    clients = ServerMonitor(os.getpid())  # this process: every simulated phone and the projector
    clients.start()
    errors: list[str] = []
    state: dict = {"round": None, "joined": 0, "presenter": None}
    stop = asyncio.Event()
    rounds: list[Round] = []
    began = time.monotonic()
    try:
        tasks = [asyncio.create_task(presenter(url, room.code, key, state, errors, stop))]
        for i in range(args.students):
            tasks.append(
                asyncio.create_task(
                    student(url, room.code, rules.new_student_id(), i + 1, rounds, state, errors, stop, args.window)
                )
            )
            await asyncio.sleep(args.join_spread / args.students)  # a class arrives over a minute or so
        give_up = time.monotonic() + 120
        while state["joined"] + len(errors) < args.students and time.monotonic() < give_up:
            await asyncio.sleep(0.5)
        print(f"{state['joined']} of {args.students} students joined ({time.monotonic() - began:.0f} s)", flush=True)
        for number in range(args.rounds):
            r = Round(number=number)
            if args.teacher == "page":
                # The teacher presses "Open for the class" on the projector's page: the same server process.
                projector = state["presenter"]
                button_id, fragment = projector.button(OPEN)
                r.opened = time.monotonic()
                state["round"] = r
                async with projector.lock:
                    await projector.run(fragment, trigger=button_id)
                r.activity_id = store.room(room.code).current.id
            else:
                # A teacher on another process: only the database tells this one (within REVISION_TTL).
                activity = store.open_activity(room.code, key, acts.Predict(acts.random_list(number + 1)))
                r.opened, r.activity_id = time.monotonic(), activity.id
                state["round"] = r
            rounds.append(r)
            deadline = r.opened + args.window + 30
            while time.monotonic() < deadline:
                done = len(r.sent) >= state["joined"] and all(n in r.acked for n in r.sent)
                if done and r.presenter and r.presenter[-1][1] >= len(r.acked):
                    break
                await asyncio.sleep(0.2)
            await asyncio.sleep(1.5)
            print(f"round {number + 1}: {len(r.seen)} saw it, {len(r.acked)} answers acknowledged", flush=True)
    finally:
        stop.set()
        await asyncio.sleep(2)
        for task in tasks:
            task.cancel()
        monitor.stopped.set()
        clients.stopped.set()
        server.terminate()
    report(args, rounds, store, errors, monitor, began)
    if clients.samples:
        cpu = [c for _, c, _ in clients.samples]
        print(
            f"the clients' own process (all phones and the projector, on the same cores): CPU mean "
            f"{statistics.mean(cpu):.0f}% of one core, max {max(cpu):.0f}%"
        )
    store.close()


def report(args, rounds: list[Round], store, errors: list[str], monitor, began: float) -> None:
    answer_times, seen_times, acked, lost = [], [], 0, 0
    for r in rounds:
        answer_times += latencies(r)
        seen_times += [t - r.opened for t in r.seen.values()]
        stored = {a.student for a in store.answers(r.activity_id)}
        acked += len(r.acked)
        lost += len(r.acked) - len(stored & {n for n in r.acked})
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"database {args.database}"
    )
    print(
        f"{args.students} students, {args.rounds} rounds, answers spread over {args.window:g} s "
        f"({time.monotonic() - began:.0f} s in all)"
    )
    if answer_times:
        print(
            f"answer to presenter: p50 {statistics.median(answer_times):.2f} s, "
            f"p95 {percentile(answer_times, 0.95):.2f} s, max {max(answer_times):.2f} s "
            f"({len(answer_times)} answers)"
        )
    if seen_times:
        print(
            f"activity to student: p50 {statistics.median(seen_times):.2f} s, "
            f"p95 {percentile(seen_times, 0.95):.2f} s, max {max(seen_times):.2f} s"
        )
    print(f"answers acknowledged {acked}, lost {lost}")
    print(f"errors: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    if monitor.samples:
        cpu = [c for _, c, _ in monitor.samples]
        rss = [r for _, _, r in monitor.samples]
        print(f"server CPU: mean {statistics.mean(cpu):.0f}% of one core, max {max(cpu):.0f}%")
        print(f"server memory: start {rss[0]:.0f} MiB, peak {max(rss):.0f} MiB, end {rss[-1]:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--window", type=float, default=20.0, help="seconds over which each round's answers come")
    parser.add_argument("--join-spread", type=float, default=40.0, help="seconds over which the class joins")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument(
        "--teacher",
        choices=["page", "store"],
        default="page",
        help="open each activity by the projector's button (page) or through the database, as a teacher on another "
        "server process would (store)",
    )
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
