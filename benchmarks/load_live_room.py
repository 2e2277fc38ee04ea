"""A live room under load: N students (clients of Streamlit's websocket protocol, as load_classroom.py's) join one
room by its link and answer each activity the teacher opens, while a presenter session shows the class's counts.

    python -m benchmarks.load_live_room [--students 200] [--rounds 3] [--window 20] [--join-spread 40]
                                        [--database sqlite|postgresql] [--teacher page|store] [--phones stream|poll]
                                        [--quiet SECONDS] [--replicas N] [--kill-replica-at SECONDS]
                                        [--restart-postgres-at SECONDS] [--timeout SECONDS]

Each client behaves as a browser does: it runs the page, reruns every ``st.fragment(run_every=...)`` fragment at
the interval the server asks for, and the presenter's panel also when its room's stream says the room changed
(``watch_room``, as ``ui/widgets/room_watch.js`` does), and presses buttons with their fragment's id. A student
joins on the Classroom page, is sent to its phone's own page (``/phone/CODE``), leaves the websocket as a browser
leaving the page does, and from then on does what that page's script does (``ui/widgets/phone_card.js``, played by
``Phone``, each method naming the part of the script it mirrors), over plain HTTP:

- ``--phones stream`` (the default): it keeps one Server-Sent Events stream open on the events route with
  ``known=`` the revision of the card it shows, read as ``EventSource`` reads it (``SseParser``: events, ids,
  ``retry``, comments); a ``card`` event is drawn, ``same`` says the card shown is current. When the stream breaks
  (it ends, its connection is lost, it is refused, or brings no event within the page's ``grace``): after a
  stream that was heard, a new stream within 0.5 s at random (its first event is the card or ``same``); after one
  that brought nothing, the card route once, then a new stream after a backoff of 1 s doubling up to 5 s, plus up
  to 0.5 s at random; after ``tries`` (3) streams in a row that brought nothing while the card route answered, it
  polls the card route instead (as the script does, remembering it for the tab);
- ``--phones poll``: the script's polling from the start (as where streams never get through, and as every phone
  did before the stream): the card route every ``every`` ms with ``known=`` the revision ("same", or the new card).

Its answer is posted to the answer route (sent again by itself, up to three tries, when no reply comes). Each round
the teacher opens a "Predict the NDCG" activity by pressing "Open for the class" on the projector's page (or, with
``--teacher store``, through the database, as a teacher connected to another server process would); each student
sees it appear by itself, waits a random time within the window, types an estimate and presses Send. Reported:

- answer-to-presenter latency: from a student's Send to the presenter's "Answered" count including it (p50, p95),
  and its parts: Send to "Saved", "Saved" to the start of the presenter's next run (the wait its ``run_every``
  interval sets), and that run; the interval itself and how long the live part's runs take;
- activity-to-student latency: from the teacher opening the activity to a student's phone having its card;
- answers lost: each acknowledged answer ("Saved" came back) looked up in the database by its student's id and
  compared with the value sent (never by a number of the client's own: the room numbers students in the order
  their joins commit); joins that failed (a failure of the run); errors (a session that failed, a message other
  than "Saved", an exception element on a page); and a verdict line: the process exits with status 1 unless
  errors, losses and failed joins are all 0;
- CPU: before the class joins, ``--quiet``/2 seconds of the empty room with its projector; once every phone has
  joined, ``--quiet`` seconds (default 10) with every phone waiting and no activity open: each process's share of a
  core, and per 1,000 waiting phones (the empty room's share taken off); each opening's CPU per process until the
  last phone had it (per phone), and per answer; from these, how many students one core carries (an estimate);
- each server process's CPU and resident memory over the run, and the clients' own CPU.

``--replicas 0`` (the default) runs one app process (``serve.py``) with no proxy. ``--replicas N`` starts the
deployment of ``python -m deploy up`` (``deploy.launcher.Deployment``: PostgreSQL unless ``NDCG_LAB_DATABASE_URL``
is set, N app processes, nginx) and every client goes through nginx keeping its ``ndcg_replica`` cookie as a
browser does; the report then has a line per replica (students served, CPU, memory, per 100 students) and the
PostgreSQL and nginx processes' CPU. Faults, timed from the moment the first activity opens:

- ``--kill-replica-at S``: SIGKILL one replica's process group (by default the busiest one the presenter is not
  on; ``--kill-replica`` picks it). Its phones' streams break; each opens a new stream (nginx sends it to a live
  replica, which moves its cookie); reported: each one's time from the kill to its
  first answer from a live replica and to the first event on its new stream, and the answers acknowledged before
  the kill that are still stored. The projector's tab, if it was on the killed replica, reconnects as a browser
  does.
- ``--restart-postgres-at S``: ``pg_ctl restart`` of the deployment's own cluster (fast shutdown, as a failing
  database cuts connections). Errors while it restarts (and 5 s after) are counted apart; a notice on a page is
  not an error, an exception element is; a student whose answer was not saved sends it again, as a person would.

The server runs with its own data folder (SQLite) or, with ``--database postgresql``, against
``NDCG_LAB_DATABASE_URL`` as given in the environment (with ``--replicas N``: the deployment's own cluster when it
is not set). Everything started is stopped by its pid at the end, on Ctrl-C, on SIGTERM and at ``--timeout``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import re
import shutil
import signal
import statistics
import tempfile
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import percentile
from benchmarks.server import free_port, start_server

PAGE = "Classroom"
COOKIE = "ndcg_replica"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
FAULT_GRACE = 5.0  # seconds after a fault's end whose errors are still counted as the fault's
RECONNECT_GIVE_UP = 120.0  # seconds a page keeps trying to reconnect, as a browser tab left open would


class Disconnected(Exception):
    """The client's websocket closed (its server process went away): it reconnects, as a browser does."""


@dataclass
class Errors:
    """What went wrong, each kept with its time: a fault's window is counted apart (see ``FAULT_GRACE``)."""

    plain: list = field(default_factory=list)
    in_fault: list = field(default_factory=list)
    windows: list = field(default_factory=list)  # [start, end or None] of each fault

    def append(self, text: str) -> None:
        now = time.monotonic()
        during = any(start <= now and (end is None or now <= end + FAULT_GRACE) for start, end in self.windows)
        (self.in_fault if during else self.plain).append(text)

    def __len__(self) -> int:
        return len(self.plain) + len(self.in_fault)


@dataclass
class Client:
    """One browser tab, as far as the server can tell: a websocket session running the Classroom page, with the
    cookies a browser would keep for the site (nginx's ``ndcg_replica``)."""

    url: str
    query: str
    label: str
    errors: Errors
    ws: object = None
    widgets: dict = field(default_factory=dict)  # (kind, label) -> (widget id, fragment id)
    values: dict = field(default_factory=dict)  # widget id -> WidgetState kwargs, as a browser resends them
    auto: dict = field(default_factory=dict)  # fragment id -> interval (run_every)
    texts: list = field(default_factory=list)  # what the last run drew: (kind, text)
    metrics: dict = field(default_factory=dict)  # label -> value
    page_hash: str = ""  # the page's script hash, which a browser sends with every rerun after the first
    go_url: str = ""  # where the page sent the tab (a phone's own page, /phone/CODE?me=...)
    card_data: dict = field(default_factory=dict)  # the phone page's card data {watch, card, answer, every, ...}
    card: dict = field(default_factory=dict)  # the card the phone shows now (JSON from the card route)
    cookies: dict = field(default_factory=dict)
    replica: str = ""  # the replica serving this tab (the cookie, else X-Replica); "" without nginx
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one run at a time per tab, as in a browser
    lost_at: float | None = None  # when its websocket closed, until the page is shown again
    keeps: dict = field(default_factory=dict)  # the browser's own storage (localStorage): room -> {me, key}
    memory_drawn: tuple = ()  # the browser memory component drawn by the last run: (its id, its data)
    watch_drawn: tuple = ()  # the room watch component last drawn: (its id, its part's fragment id, its data)
    due: asyncio.Event = field(default_factory=asyncio.Event)  # the room watch asked for a run of its part

    def cookie_header(self) -> dict:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    def take_headers(self, headers: list[tuple[str, str]]) -> None:
        """Keep what a browser keeps from a response: its cookies; and note which replica answered."""
        for name, value in headers:
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                key, _, val = pair.partition("=")
                self.cookies[key.strip()] = val.strip()
            elif name.lower() == "x-replica" and value:
                self.replica = value
        self.replica = self.cookies.get(COOKIE, self.replica)

    async def connect(self) -> None:
        import websockets

        self.ws = await websockets.connect(
            self.url.replace("http://", "ws://") + "/_stcore/stream",
            subprotocols=["streamlit"],
            additional_headers=self.cookie_header(),
            max_size=None,
            ping_interval=None,
            proxy=None,
            open_timeout=30,
        )
        self.take_headers(list(self.ws.response.headers.raw_items()))

    async def run(
        self, fragment_id: str = "", trigger: str | None = None, auto: bool = False, component: tuple = ()
    ) -> float:
        """Send one rerun (the page, or one fragment) and read until it finishes; the seconds it took. Raises
        :class:`Disconnected` when the websocket is closed."""
        import websockets
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
        try:
            await self.ws.send(msg.SerializeToString())
            await self.read_until_finished()
            if self.memory_report_due():
                await self.run()  # the browser memory component's report reruns the page, as in a browser
        except (websockets.ConnectionClosed, ConnectionError) as err:
            raise Disconnected(str(err)) from None
        return time.monotonic() - started

    def memory_report_due(self) -> bool:
        """What ``ui/widgets/browser_memory.js`` does with the data it is drawn with: keep or forget the room's
        entry in the browser's storage, and report the entry when it differs from what the server knows (its
        value, sent with this and every later rerun). Whether a report is due."""
        if not self.memory_drawn:
            return False
        component_id, data = self.memory_drawn
        self.memory_drawn = ()
        room = data.get("room")
        if not room:
            return False
        if data.get("forget"):
            self.keeps.pop(room, None)
        elif data.get("remember"):
            self.keeps[room] = {**self.keeps.get(room, {}), **data["remember"]}
        mine = self.keeps.get(room, {})
        entry = {"room": room, "me": mine.get("me"), "key": mine.get("key")}
        known = data.get("known") or {}
        if all(known.get(k) == v for k, v in entry.items()):
            return False
        self.values[component_id] = {"json_value": json.dumps({"memory": entry})}
        return True

    async def read_until_finished(self) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.texts, self.metrics, self.memory_drawn = [], {}, ()
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
        elif what == "bidi_component" and element.bidi_component.component_name == "ndcg_lab.go_to":
            self.go_url = json.loads(element.bidi_component.json)["url"]
        elif what == "bidi_component" and element.bidi_component.component_name == "ndcg_lab.browser_memory":
            self.memory_drawn = (element.bidi_component.id, json.loads(element.bidi_component.json))
        elif what == "bidi_component" and element.bidi_component.component_name == "ndcg_lab.room_watch":
            self.watch_drawn = (element.bidi_component.id, fragment_id, json.loads(element.bidi_component.json))

    def shows(self, text: str) -> bool:
        return any(text in body for _, body in self.texts)

    def set_text(self, label: str, value: str) -> None:
        widget_id, _ = self.widgets[("text_input", label)]
        self.values[widget_id] = {"string_value": value}

    def button(self, label: str) -> tuple[str, str]:
        return self.widgets[("button", label)]

    def ws_closed(self) -> bool:
        return self.ws is None or self.ws.state.name in ("CLOSING", "CLOSED")

    async def reconnect(self, shown: Callable[[Client], bool], on_back: Callable[[Client], None]) -> None:
        """What a browser tab does when its websocket closes: connect again (through nginx, with its cookie,
        backing off while that fails) and rerun the page with the same address, until it is ``shown``."""
        delay, give_up = 0.25, time.monotonic() + RECONNECT_GIVE_UP
        while True:
            with contextlib.suppress(Exception):
                await self.ws.close()
            try:
                await self.connect()
                self.auto.clear()
                self.widgets.clear()
                await self.run()
                if shown(self):
                    on_back(self)
                    return
            except (TimeoutError, Disconnected, OSError) as err:
                if time.monotonic() > give_up:
                    raise Disconnected(f"no page within {RECONNECT_GIVE_UP:.0f} s: {err}") from None
            else:
                if time.monotonic() > give_up:
                    raise Disconnected("the page did not come back as it was") from None
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, 5.0)


async def keep_connected(
    client: Client, stop: asyncio.Event, shown: Callable[[Client], bool], on_back: Callable[[Client], None]
) -> None:
    """Notice at once when the tab's websocket closes, as the browser does, and reconnect it."""
    while not stop.is_set():
        ws = client.ws
        await ws.wait_closed()
        if stop.is_set():
            return
        client.lost_at = client.lost_at or time.monotonic()
        async with client.lock:
            if client.ws is ws:  # nobody reconnected it meanwhile
                await client.reconnect(shown, on_back)


async def keep_fragments_running(client: Client, stop: asyncio.Event, on_run=None) -> None:
    """Rerun every run_every fragment at its interval, as the browser's timer does, and the room watch's part when
    its stream asks (``watch_room``), with the component's trigger as the browser sends it (one run at a time per
    tab)."""
    due: dict[str, float] = {}
    while not stop.is_set():
        now = time.monotonic()
        runs = []
        if client.due.is_set() and client.watch_drawn:
            client.due.clear()
            component_id, fragment_id, _ = client.watch_drawn
            runs.append((fragment_id, False, (component_id, "changed", int(time.time() * 1000))))
        for fragment_id, interval in list(client.auto.items()):
            due.setdefault(fragment_id, now + interval)
            if now >= due[fragment_id]:
                due[fragment_id] = now + interval
                runs.append((fragment_id, True, ()))
        for fragment_id, auto, component in runs:
            try:
                async with client.lock:
                    started = time.monotonic()
                    await client.run(fragment_id, auto=auto, component=component)
            except Disconnected:
                await asyncio.sleep(0.2)  # keep_connected brings the tab back
                continue
            if on_run is not None:
                on_run(client, started)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client.due.wait(), 0.05)


async def watch_room(client: Client, stop: asyncio.Event, counts: Counter) -> None:
    """``ui/widgets/room_watch.js`` played over plain HTTP, once the part has drawn the component: one event stream
    of the room's changes (``seen=`` the mark it was drawn with, then the last id on reconnecting, after the
    stream's ``retry``), each ``changed`` asking for a run of the part (``client.due``); a refused stream asks for
    one every ``every`` seconds instead, and is tried again ``WATCH_RETRY_MS`` later."""
    last_id, retry_ms = "", 1000
    while not stop.is_set():
        if not client.watch_drawn:
            await asyncio.sleep(0.05)
            continue
        data = client.watch_drawn[2]
        path = f"{data['url']}?seen={data['seen']}"
        try:
            resent = {"Last-Event-ID": last_id} if last_id else {}
            reader, writer, headers = await open_event_stream(client, path, resent)
        except StreamBroken:
            counts["watch refused"] += 1
            ends = time.monotonic() + WATCH_RETRY_MS / 1000
            while time.monotonic() < ends and not stop.is_set():
                client.due.set()
                await asyncio.sleep(data["every"])
            continue
        counts["watch opened"] += 1
        parser = SseParser()
        try:
            async for piece in body_pieces(reader, headers):
                for event in parser.feed(piece.decode("utf-8", errors="replace")):
                    if event.name == "changed":
                        counts["watch changed"] += 1
                        client.due.set()
                last_id, retry_ms = parser.last_id, parser.retry or retry_ms
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()
        counts["watch ended"] += 1
        await asyncio.sleep(retry_ms / 1000)  # EventSource's own reconnect


async def http_get_json(client: Client, path: str, conn: dict) -> tuple[int, dict | None]:
    """One GET on a kept-alive HTTP/1.1 connection (opened on first use), as a phone's fetch() sends it."""
    return await http_json(client, "GET", path, conn)


async def http_json(
    client: Client, method: str, path: str, conn: dict, body: dict | None = None
) -> tuple[int, dict | None]:
    """One request on a kept-alive HTTP/1.1 connection (opened on first use), as a phone's fetch() sends it: with
    the tab's cookies, keeping any it is given; ``body`` goes as JSON. The answer's JSON, or ``None``."""
    status, headers, data = await http_request(client, method, path, conn, body)
    return status, (json.loads(data) if "json" in headers.get("content-type", "") else None)


async def http_request(
    client: Client, method: str, path: str, conn: dict, body: dict | None = None
) -> tuple[int, dict, bytes]:
    """One request as ``http_json`` sends it: the status, the headers (lower-case names) and the body."""
    from urllib.parse import urlparse

    address = urlparse(client.url)
    host, port = address.hostname, address.port
    payload = json.dumps(body).encode() if body is not None else b""
    extra = f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n" if body is not None else ""
    for attempt in range(2):
        if "writer" not in conn:
            conn["reader"], conn["writer"] = await asyncio.open_connection(host, port)
        reader, writer = conn["reader"], conn["writer"]
        try:
            cookie = "".join(f"{k}: {v}\r\n" for k, v in client.cookie_header().items())
            head = f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: application/json\r\n"
            writer.write((head + cookie + extra + "\r\n").encode() + payload)
            await writer.drain()
            answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
            lines = answer.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            pairs = [(k.strip(), v.strip()) for k, _, v in (line.partition(":") for line in lines[1:] if line)]
            client.take_headers(pairs)
            headers = {k.lower(): v for k, v in pairs}
            data = await reader.readexactly(int(headers.get("content-length", "0")))
            if headers.get("connection", "").lower() == "close":
                writer.close()
                conn.clear()
            return status, headers, data
        except (ConnectionError, asyncio.IncompleteReadError):
            conn.clear()
            if attempt:
                raise
    raise AssertionError("not reached")


# --- a phone's page script (ui/widgets/phone_card.js), played over plain HTTP ----------------------------------

# phone_card.js's own constants (its top lines): a new stream after one that failed waits STREAM_BACKOFF_FIRST ms,
# doubled each time up to STREAM_BACKOFF_MOST, plus up to STREAM_JITTER ms at random.
STREAM_BACKOFF_FIRST = 1000
STREAM_BACKOFF_MOST = 5000
STREAM_JITTER = 500


@dataclass
class SseEvent:
    """One dispatched Server-Sent Event: its type (``message`` unless named), its data and the stream's last id."""

    name: str
    data: str
    id: str


class SseParser:
    """The HTML standard's event-stream interpretation, as a browser's ``EventSource`` does it: lines end with CR LF,
    LF or CR; a blank line dispatches the event (none when its data is empty); ``:`` starts a comment; ``event``,
    ``data`` (lines joined by LF), ``id`` (kept across events: the last event id) and ``retry`` (digits only: the
    reconnection time in ms) are the fields; a single space after the colon is dropped; any other field is
    ignored."""

    def __init__(self) -> None:
        self.buffer = ""
        self.pending_cr = False
        self.name = ""
        self.data: list[str] = []
        self.last_id = ""
        self.retry: int | None = None
        self.comments = 0

    def feed(self, text: str) -> list[SseEvent]:
        """The events completed by ``text`` (any piece of the stream, decoded as UTF-8)."""
        if self.pending_cr and text.startswith("\n"):
            text = text[1:]  # the LF of a CR LF split between two pieces
        self.pending_cr = False
        self.buffer += text
        events: list[SseEvent] = []
        while True:
            found = re.search(r"\r\n|\r|\n", self.buffer)
            if found is None:
                return events
            if found.group() == "\r" and found.end() == len(self.buffer):
                self.pending_cr = True  # maybe the first half of a CR LF: the line ends here either way
            line, self.buffer = self.buffer[: found.start()], self.buffer[found.end() :]
            event = self.line(line)
            if event is not None:
                events.append(event)

    def line(self, line: str) -> SseEvent | None:
        if not line:
            data, name = self.data, self.name or "message"
            self.data, self.name = [], ""
            return SseEvent(name, "\n".join(data), self.last_id) if data else None
        if line.startswith(":"):
            self.comments += 1
            return None
        field_name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field_name == "event":
            self.name = value
        elif field_name == "data":
            self.data.append(value)
        elif field_name == "id" and "\0" not in value:
            self.last_id = value
        elif field_name == "retry" and value.isdigit():
            self.retry = int(value)
        return None


async def body_pieces(reader: asyncio.StreamReader, headers: dict) -> AsyncIterator[bytes]:
    """A response's body as it arrives: chunked (a stream through uvicorn or nginx), of a given length, or up to the
    connection's end."""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                return
            yield await reader.readexactly(size)
            await reader.readexactly(2)
    elif "content-length" in headers:
        yield await reader.readexactly(int(headers["content-length"]))
    else:
        while piece := await reader.read(65536):
            yield piece


class StreamBroken(Exception):
    """The ``EventSource`` fired ``error``: a refused stream (not 200, not ``text/event-stream``), a lost connection,
    or the stream's end."""


WATCH_RETRY_MS = 10_000  # room_watch.js's RETRY_MS: a refused watch stream is tried again this much later


async def open_event_stream(
    client: Client, path: str, extra: dict
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, dict]:
    """An ``EventSource``'s request (``Accept: text/event-stream``, the tab's cookies, ``extra`` headers) on a new
    connection, through to its response's head: the reader, the writer and the headers (lower-case names). Raises
    :class:`StreamBroken` when the browser would fire ``error`` (a refusal, or no connection)."""
    from urllib.parse import urlparse

    address = urlparse(client.url)
    host, port = address.hostname, address.port
    writer = None
    try:
        reader, writer = await asyncio.open_connection(host, port)
        more = "".join(f"{k}: {v}\r\n" for k, v in {**client.cookie_header(), **extra}.items())
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
                f"Cache-Control: no-cache\r\n{more}\r\n"
            ).encode()
        )
        await writer.drain()
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        pairs = [(k.strip(), v.strip()) for k, _, v in (line.partition(":") for line in lines[1:] if line)]
        client.take_headers(pairs)
        headers = {k.lower(): v for k, v in pairs}
        if status != 200 or not headers.get("content-type", "").startswith("text/event-stream"):
            raise StreamBroken(str(status))
        return reader, writer, headers
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as err:
        if writer is not None:
            writer.close()
        raise StreamBroken(type(err).__name__) from None
    except StreamBroken:
        if writer is not None:
            writer.close()
        raise


class Phone:
    """A student's phone after joining: ``ui/widgets/phone_card.js`` played step by step, each method naming the part
    of the script it mirrors, with the same data (``card_data``: the routes, ``every``, ``fallback``, ``grace``,
    ``tries``, ``probe``) and the same constants. The card it shows is ``client.card`` (the script's
    ``root._card``); ``on_card`` is called whenever it shows one (the script's ``show``), ``on_answered`` whenever a
    live server answered (a card route's answer or an event of a stream), ``on_stream`` at a stream's first event.
    Not mirrored: the countdown (the benchmark's activities have no time limit) and drawing."""

    def __init__(self, client: Client, run: Run, on_card, on_answered, on_stream) -> None:
        self.client, self.run, self.data = client, run, client.card_data
        self.counts = run.counts
        self.on_card, self.on_answered, self.on_stream = on_card, on_answered, on_stream
        self.conn: dict = {}  # fetch()'s kept-alive connection (the stream has its own)
        self.down = False  # state.down
        self.failures = 0  # state.failures: requests with no answer in a row
        self.stream_failures = 0  # state.streamFailures: streams that brought nothing while the card route answered
        self.backoff = 0.0  # state.backoff, ms
        self.polling = False  # state.polling
        self.poll_key = False  # sessionStorage's POLL_KEY: the tab's next page polls at once
        self.retry_ms: int | None = None  # the stream's retry field (EventSource's reconnection time)
        self.last_event_id = ""

    async def start(self, mode: str) -> None:
        """The script's last lines: ``pollFirst`` (no ``EventSource``, no events route, or the tab polled before;
        here also ``--phones poll``) fetches the card and polls, else ``openStream``."""
        try:
            if mode == "poll" or not self.data.get("events") or self.poll_key:
                await self.fetch_card()
                await self.start_polling()
            else:
                await self.streams()
        finally:
            if "writer" in self.conn:
                self.conn["writer"].close()

    async def get_json(self, path: str) -> tuple[int, dict | None]:
        """``getJSON``: one fetch() on the page's kept-alive connection."""
        return await http_get_json(self.client, path, self.conn)

    def show(self, card: dict) -> None:
        """``show``: the card drawn (the benchmark only notes it; the script also skips drawing a card that
        differs only by its revision)."""
        self.client.card = card
        self.counts["card shown"] += 1
        self.on_card(self.client)

    async def fetch_card(self) -> bool:
        """``fetchCard``: the card route without ``known``; whether it brought a card (a 503 or 404 marks the page
        down; no answer at all counts a failure)."""
        try:
            code, body = await self.get_json(self.data["card"])
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
            self.conn.clear()
            self.counts["card failed"] += 1
            self.failures += 1
            return False
        self.counts["card"] += 1
        self.failures = 0
        if code != 200 or body is None:
            self.counts[f"card answered {code}"] += 1
            self.down = True
            return False
        self.on_answered(self.client)
        self.down = False
        self.show(body)
        return True

    def probe_wait(self) -> float:
        """``scheduleProbe``'s delay, seconds: ``probe`` ms and a jitter."""
        return (self.data["probe"] + random.random() * STREAM_JITTER) / 1000

    async def start_polling(self) -> None:
        """``startPolling``, then ``poll`` every ``every`` ms (``fallback`` ms after a 503, a 404 or no answer):
        with ``known=`` the card's revision unless the page is down; a "same" draws nothing. Every ``probe`` ms
        (``scheduleProbe``) a stream is tried beside the polling (``openStream(true)``); once one is heard, it
        stops the polling (``stopPolling``) and goes on as the page's stream (``streams``)."""
        if self.polling:
            return
        self.polling = self.poll_key = True
        self.counts["phones polling"] += 1
        wait = self.data["every"]
        probe: asyncio.Task | None = None
        probe_at = time.monotonic() + self.probe_wait()
        while not self.run.stop.is_set():
            if probe is None and time.monotonic() >= probe_at:
                self.counts["stream tried while polling"] += 1
                probe = asyncio.create_task(self.open_stream())
            if not self.polling:  # its stream was heard: stopPolling()
                break
            if probe is not None and probe.done():  # broken() while polling: the polling goes on
                probe, probe_at = None, time.monotonic() + self.probe_wait()
            await asyncio.sleep(wait / 1000)
            if not self.polling:
                break
            wait = self.data["every"]
            known = f"&known={self.client.card['revision']}" if self.client.card and not self.down else ""
            try:
                code, body = await self.get_json(self.data["card"] + known)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
                self.conn.clear()
                self.counts["poll failed"] += 1
                self.failures += 1
                wait = self.data["fallback"]
                continue
            self.counts["card poll" if known else "card"] += 1
            self.failures = 0
            if code != 200 or body is None:
                self.counts[f"card answered {code}"] += 1
                self.down = True
                wait = self.data["fallback"]
                continue
            self.down = False
            self.on_answered(self.client)
            if not body.get("same"):
                self.show(body)
        if probe is not None:
            if self.polling:
                probe.cancel()  # the run is over
                with contextlib.suppress(asyncio.CancelledError):
                    await probe
                return
            self.counts["back on the stream from polling"] += 1
            await self.streams(await probe)

    async def streams(self, heard: bool | None = None) -> None:
        """``openStream`` and ``broken`` in turn: after a stream that was heard breaks, a new one after a jitter; after
        one that brought nothing, the card route once, then a new stream after the backoff and a jitter; ``tries``
        streams that brought nothing while the card route answered make the page poll. ``heard``: a stream that has
        just broken (the probe that took over from the polling), whether it was heard."""
        while not self.run.stop.is_set():
            if heard is None:
                heard = await self.open_stream()
            # broken(source, heard): after a stream that was heard, a new one at once (no card route)
            if heard:
                self.backoff, heard = 0.0, None
                await asyncio.sleep(random.random() * STREAM_JITTER / 1000)
                continue
            heard = None
            if await self.fetch_card():
                self.stream_failures += 1
            if self.stream_failures >= self.data["tries"]:
                await self.start_polling()
                return
            self.backoff = min(STREAM_BACKOFF_MOST, max(STREAM_BACKOFF_FIRST, 2 * self.backoff))
            await asyncio.sleep((self.backoff + random.random() * STREAM_JITTER) / 1000)

    async def open_stream(self) -> bool:
        """``openStream``: a new ``EventSource`` on the events route with ``known=`` the revision shown, until it
        breaks (its ``onerror``) or brings no ``same``/``card`` event within ``grace`` ms (``state.silent``);
        whether it was heard. The page's ``onerror`` closes the source at once, so the browser's own reconnect
        after ``retry`` ms never comes: the next stream is ``broken``'s (``streams``)."""
        known = f"&known={self.client.card['revision']}" if self.client.card else ""
        heard = asyncio.Event()
        reading = asyncio.create_task(self.read_stream(self.data["events"] + known, heard))
        first = asyncio.create_task(heard.wait())
        try:
            await asyncio.wait({reading, first}, timeout=self.data["grace"] / 1000, return_when="FIRST_COMPLETED")
            if not heard.is_set() and not reading.done():
                self.counts["stream silent past the grace"] += 1
                return False  # the finally closes it (source.close())
            with contextlib.suppress(StreamBroken):
                await reading
            return heard.is_set()
        finally:
            first.cancel()
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, StreamBroken):
                await reading

    async def read_stream(self, path: str, heard: asyncio.Event) -> None:
        """The ``EventSource`` itself: its request (``Accept: text/event-stream``, the tab's cookies), then each
        event as the page's listeners take it (``same`` and ``card``: ``hear``; ``card``: ``show``). Raises
        :class:`StreamBroken` when the browser would fire ``error``."""
        self.counts["stream opened"] += 1
        try:
            reader, writer, headers = await open_event_stream(self.client, path, {})
        except StreamBroken as err:
            self.counts[f"stream refused {err}" if str(err).isdigit() else "stream failed"] += 1
            raise
        try:
            parser = SseParser()
            async for piece in body_pieces(reader, headers):
                comments = parser.comments
                for event in parser.feed(piece.decode("utf-8", errors="replace")):
                    self.last_event_id = event.id
                    if event.name not in ("same", "card"):
                        continue
                    self.counts[f"stream event {event.name}"] += 1
                    # hear(): the first event resets the failures and the backoff
                    if not heard.is_set():
                        heard.set()
                        self.stream_failures, self.backoff = 0, 0.0
                        if self.polling:  # stopPolling(): streams get through again
                            self.polling = self.poll_key = False
                        self.on_stream(self.client)
                    self.down = False
                    self.on_answered(self.client)
                    if event.name == "card":
                        try:
                            card = json.loads(event.data)
                        except ValueError:
                            continue  # the script ignores a card it cannot read
                        self.show(card)
                self.counts["stream keep-alive"] += parser.comments - comments
                self.retry_ms = parser.retry
            self.counts["stream ended"] += 1
            raise StreamBroken("ended")
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as err:
            self.counts["stream failed"] += 1
            raise StreamBroken(type(err).__name__) from None
        finally:
            writer.close()


@dataclass
class Round:
    number: int = 0
    opened: float = 0.0
    activity_id: int = 0
    # Keyed by the student's id (``me``, which the phone knows and the store keeps), never by a number of the
    # client's own: the room's numbers follow the order joins commit, which is not the order they started.
    sent: dict = field(default_factory=dict)  # student id -> time Send was (last) pressed
    acked: dict = field(default_factory=dict)  # student id -> time "Saved" came back
    values: dict = field(default_factory=dict)  # student id -> the estimate acknowledged
    seen: dict = field(default_factory=dict)  # student id -> time the activity appeared
    presenter: list = field(default_factory=list)  # (run started, run ended, answered count) of each panel run
    herd: tuple = ()  # ({process: CPU-seconds}, seconds) from the opening until every phone showed the activity
    cpu_at_open: dict = field(default_factory=dict)  # {process: CPU-seconds} at the opening
    phones: Counter = field(default_factory=Counter)  # process -> phones it served at the opening (their cookie)
    cpu_at_end: dict = field(default_factory=dict)  # ... once every answer was on the projector
    ended: float = 0.0
    stored_after: float | None = None  # seconds from the teacher's press to the activity stored (its server's clock)


def between_rounds() -> None:
    """The clients' process collects its cyclic garbage now, with every answer of the round in: during a round its
    collector is off (a pause there would be every simulated phone's at once, which no class of real phones has)."""
    gc.collect()


def is_app(name: str) -> bool:
    """Whether a monitor's name is an app process's (a replica's number, or the one server)."""
    return name.isdigit() or name == "server"


def processes_cpu(monitors: dict) -> dict[str, float]:
    """Each monitored process's CPU-seconds so far (with its children where its monitor counts them), read now;
    a process that is gone is left out."""
    children: dict[int, list[int]] = {}
    if any(m.tree for m in monitors.values()):
        children = children_of()
    out = {}
    for name, monitor in monitors.items():
        reading = monitor._read(children)
        if reading is not None:
            out[name] = reading[0]
    return out


def cpu_between(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU-seconds used by each process between two readings (those present in both)."""
    return {name: after[name] - before[name] for name in before if name in after and after[name] >= before[name]}


@dataclass
class Run:
    """What the clients share: the rounds, the faults' times, the class's clients."""

    errors: Errors
    stop: asyncio.Event
    window: float
    round: Round | None = None
    joined: int = 0
    presenter: Client | None = None
    phones: str = "stream"  # what a phone does after joining: the page's script (stream) or polling only (poll)
    join: str = "link"  # how a student joins: the projected link's own join page (link) or the Classroom page (page)
    students: dict = field(default_factory=dict)  # number -> Client
    ids: dict = field(default_factory=dict)  # number -> the student's id (me)
    join_failures: list = field(default_factory=list)  # why each student that did not join did not
    counts: Counter = field(default_factory=Counter)
    killed_at: float | None = None
    back: dict = field(default_factory=dict)  # number -> seconds from the kill to its first answer from a live replica
    back_stream: dict = field(default_factory=dict)  # number -> seconds from the kill to an event on a new stream
    resent: int = 0  # answers sent again after one was not saved
    panel_runs: list = field(default_factory=list)  # seconds each run of the presenter's live part took
    lags: list = field(default_factory=list)  # (when, seconds late) the clients' own event loop woke, in rounds
    done_ids: set = field(default_factory=set)  # the activities of the rounds before this one
    phones_by_process: Counter = field(default_factory=Counter)  # process -> phones that joined through it
    empty: tuple = ()  # (seconds, {process: CPU-seconds}) with only the projector in the room
    quiet: tuple = ()  # (seconds, {process: CPU-seconds}) with every phone waiting, no activity open
    quiet_counts: Counter = field(default_factory=Counter)  # the phones' requests and events meanwhile


ESTIMATE = "Your estimate of NDCG (0 to 1)"
ESTIMATE_HEADING = "Predict the NDCG"
OPEN = "Open for the class"
YOU_ARE = "You are"
SAVED = "Saved"


async def student(url: str, code: str, me: str, number: int, run: Run) -> None:
    rng = random.Random(number)
    client = Client(url, f"room={code}&me={me}", f"student {number}", run.errors)
    run.students[number] = client
    run.ids[number] = me
    tasks: list[asyncio.Task] = []
    joined = False

    def on_card(c: Client) -> None:
        current = run.round
        card = c.card
        if (
            current is not None
            and me not in current.seen
            and card.get("activity") is not None
            and card.get("activity") not in run.done_ids  # the round's id may not be known yet: not an earlier one
            and card.get("phase") == "open"
            and any(b.get("type") == "number" for b in card.get("blocks", ()))
        ):
            current.seen[me] = time.monotonic()

    def on_answered(c: Client) -> None:
        # A phone whose replica was killed: its first answer from a live one since.
        if c.lost_at is not None and run.killed_at is not None:
            run.back[number] = time.monotonic() - run.killed_at
            c.lost_at = None

    def on_stream(c: Client) -> None:
        # A phone whose replica was killed: back on a stream (its first event) from a live one.
        # Its stream's first event may be its first answer from a live replica too (on_answered comes just after).
        lost = c.lost_at is not None or number in run.back
        if run.killed_at is not None and lost and number not in run.back_stream:
            run.back_stream[number] = time.monotonic() - run.killed_at

    try:
        if run.join == "link":
            # The projected link (serve.py): its join page, then what its script does (join_page.js) for a browser
            # that has not joined before: the nickname posted with no id; the reply names the phone's page and id.
            conn: dict = {}
            status, _, _ = await http_request(client, "GET", f"/join/{code}", conn)
            status, reply = (
                await http_json(
                    client, "POST", f"/api/room/{code}/join", conn, {"lang": "en", "me": None, "nickname": f"s{number}"}
                )
                if status == 200
                else (status, None)
            )
            conn["writer"].close()
            if reply is None or not reply.get("ok"):
                run.join_failures.append(f"{client.label}: its join answered {status}: {reply}")
                return
            me = run.ids[number] = reply["me"]
            client.go_url = reply["phone"]
        else:
            await client.connect()
            async with client.lock:
                await client.run()
                client.set_text("Nickname (optional)", f"s{number}")
                join_id, fragment = client.button("Join")
                await client.run(fragment, trigger=join_id)
            if not client.shows(YOU_ARE) or not client.go_url:
                run.join_failures.append(f"{client.label}: did not join (or was not sent to its phone page)")
                return
            # The Classroom page sends the phone to its own page: the tab leaves the Streamlit page (its websocket
            # closes) and loads that page, which holds its card's addresses.
            await client.ws.close()
        conn = {}
        status, _, page = await http_request(client, "GET", client.go_url, conn)
        conn["writer"].close()
        found = re.search(rb'<script type="application/json" id="card-data">(.*?)</script>', page, re.S)
        if status != 200 or found is None:
            run.join_failures.append(f"{client.label}: its phone page answered {status}")
            return
        client.card_data = json.loads(found.group(1))
        joined = True
        run.joined += 1  # joined, and its page shown: what the teacher waits for before the first activity
        phone = Phone(client, run, on_card, on_answered, on_stream)
        tasks.append(asyncio.create_task(phone.start(run.phones)))
        answered = set()
        while not run.stop.is_set():
            current = run.round
            if current is None or current.number in answered or me not in current.seen:
                await asyncio.sleep(0.1)
                continue
            answered.add(current.number)
            await asyncio.sleep(rng.uniform(0, run.window))
            await send_answer(client, current, me, f"{rng.uniform(0.5, 1.0):.2f}", run)
    except Exception as err:  # a broken session is an error of the run (before its page: a failed join)
        text = f"{client.label}: {type(err).__name__}: {err}"
        (run.errors.append if joined else run.join_failures.append)(text)
    finally:
        for task in tasks:
            task.cancel()


async def send_answer(client: Client, current: Round, me: str, estimate: str, run: Run) -> None:
    """Type the estimate and press Send on the card until "Saved" comes back (three presses, as a person would retry
    after a message). Each press is what the card's script does: one POST to the answer route, sent again by itself
    (up to three tries, 0.5 s apart) when no reply comes back (a 502 from nginx, a lost connection)."""
    conn: dict = {}
    data = client.card_data
    activity = client.card.get("activity")  # the card's, as the phone's Send has it
    body = {"me": data["me"], "lang": data["lang"], "activity": activity, "values": [[0, estimate]]}
    try:
        for _press in range(3):
            current.sent[me] = time.monotonic()
            status, reply = 0, None
            for attempt in range(3):
                if attempt:
                    run.counts["answer sent again by the card"] += 1
                    await asyncio.sleep(0.5)
                try:
                    status, reply = await http_json(client, "POST", data["answer"], conn, body)
                except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as err:
                    conn.clear()
                    status, reply = 0, {"message": type(err).__name__}
                    continue
                if reply is not None and "ok" in reply:
                    break
            if status == 200 and reply and reply.get("ok") and SAVED in reply.get("message", ""):
                current.acked[me] = time.monotonic()
                current.values[me] = estimate
                if reply.get("card"):
                    client.card = reply["card"]
                return
            run.errors.append(f"{client.label}: not saved: {status} {(reply or {}).get('message', '')[:80]}")
            run.resent += 1
            await asyncio.sleep(2.0)
    finally:
        if "writer" in conn:
            conn["writer"].close()


async def loop_lag(run: Run, every: float = 0.1) -> None:
    """How late the clients' own event loop wakes from a sleep of ``every`` seconds while a round runs: every time
    this side measures (a Send, a "Saved", the presenter's run) is as late as its loop, and 2,000 phones share it."""
    while not run.stop.is_set():
        start = time.monotonic()
        await asyncio.sleep(every)
        if run.round is not None:
            run.lags.append((start, time.monotonic() - start - every))


async def presenter(url: str, code: str, key: str, run: Run) -> None:
    client = Client(url, f"room={code}&key={key}", "presenter", run.errors)

    def on_run(c: Client, started: float) -> None:
        current, value = run.round, c.metrics.get("Answered")
        if current is not None and value:
            current.presenter.append((started, time.monotonic(), int(value.split("/")[0])))
        if current is not None:
            run.panel_runs.append(time.monotonic() - started)  # from the first opening on (not while joining)

    def on_back(c: Client) -> None:
        c.lost_at = None
        run.counts["presenter reconnected"] += 1

    try:
        await client.connect()
        await client.run()
        run.presenter = client
        watcher = asyncio.create_task(
            keep_connected(client, run.stop, lambda c: ("button", OPEN) in c.widgets, on_back)
        )
        ear = asyncio.create_task(watch_room(client, run.stop, run.counts))
        await keep_fragments_running(client, run.stop, on_run)
        watcher.cancel()
        ear.cancel()
    except Exception as err:
        run.errors.append(f"presenter: {type(err).__name__}: {err}")
    finally:
        if client.ws is not None:
            with contextlib.suppress(Exception):
                await client.ws.close()


def latencies(r: Round) -> list[tuple[float, float, float, float]]:
    """For each acknowledged answer: its Send-to-presenter time, with its parts: Send to "Saved", "Saved" to the
    start of the presenter's run that showed it (waiting for the panel's next run), and that run. The j-th answer
    acknowledged is counted as shown by the first run that ended after it and shows at least j answers."""
    order = sorted(r.acked, key=r.acked.get)
    out = []
    for j, me in enumerate(order, start=1):
        acked = r.acked[me]
        shown = next(((s, e) for s, e, n in r.presenter if n >= j and e >= acked - 1e-3), None)
        if shown is not None:
            start, end = shown
            out.append((end - r.sent[me], acked - r.sent[me], max(0.0, start - acked), end - max(start, acked)))
    return out


# --- processes' CPU and memory ----------------------------------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _rss_mib(pid: int, proportional: bool = False) -> float:
    """Resident memory, or with ``proportional`` its share of pages shared with other processes (PSS), so that a
    server's processes sharing a buffer pool are not counted once each."""
    try:
        path, label = (f"/proc/{pid}/smaps_rollup", "Pss:") if proportional else (f"/proc/{pid}/status", "VmRSS:")
        for line in Path(path).read_text().splitlines():
            if line.startswith(label):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class TreeMonitor:
    """The CPU share and resident memory of a process (and, with ``tree``, its children, their memory as PSS) once a
    second. The root's
    pid is asked each time: PostgreSQL's changes when it restarts. With ``tree``, CPU counts children that ended
    (the kernel adds them to their parent's), so PostgreSQL's short-lived backends are in it. While the process is
    gone (killed, restarting) there are no samples."""

    def __init__(self, name: str, root: Callable[[], int | None], tree: bool = False) -> None:
        self.name, self.root, self.tree = name, root, tree
        self.samples: list[tuple[float, float, float]] = []  # (seconds since start, CPU %, RSS MiB)
        self.cpu_seconds = 0.0
        self.baseline: float | None = None  # memory (MiB) once the process had drawn the page, before the class
        self._last: tuple[float, float] | None = None  # (time, CPU-seconds)

    def _read(self, children: dict[int, list[int]]) -> tuple[float, float] | None:
        pid = self.root()
        if pid is None or _stat(pid) is None:
            return None
        cpu = rss = 0.0
        todo, first = [pid], True
        while todo:
            p = todo.pop()
            fields = _stat(p)
            if fields is None:
                continue
            ticks = (
                int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if first and self.tree else 0)
            )
            cpu, rss, first = cpu + ticks / CLOCK_TICKS, rss + _rss_mib(p, self.tree), False
            if self.tree:
                todo += children.get(p, [])
        return cpu, rss

    def sample(self, now: float, start: float, children: dict[int, list[int]]) -> None:
        reading = self._read(children)
        if reading is None:
            self._last = None
            return
        if self._last is not None and reading[0] >= self._last[1]:
            self.cpu_seconds += reading[0] - self._last[1]
            self.samples.append((now - start, 100 * (reading[0] - self._last[1]) / (now - self._last[0]), reading[1]))
        self._last = (now, reading[0])


def children_of() -> dict[int, list[int]]:
    """Every process's children, by its pid (one pass over /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    return children


class Sampler(threading.Thread):
    """One thread sampling every monitor once a second (one pass over /proc for those that need children)."""

    def __init__(self, monitors: list[TreeMonitor]) -> None:
        super().__init__(daemon=True)
        self.monitors, self.stopped = monitors, threading.Event()

    def run(self) -> None:
        start = time.monotonic()
        while True:
            children = children_of() if any(m.tree for m in self.monitors) else {}
            now = time.monotonic()
            for monitor in self.monitors:
                monitor.sample(now, start, children)
            if self.stopped.wait(1.0):
                return


def process_line(monitor: TreeMonitor, students: int | None = None) -> str:
    if not monitor.samples:
        return f"{monitor.name}: no samples"
    cpu = [c for _, c, _ in monitor.samples]
    rss = [r for _, _, r in monitor.samples]
    line = (
        f"{monitor.name}: CPU mean {statistics.mean(cpu):.0f}% of one core, max {max(cpu):.0f}%, "
        f"{monitor.cpu_seconds:.0f} CPU-s; memory before the class {monitor.baseline or rss[0]:.0f} MiB, "
        f"peak {max(rss):.0f} MiB"
    )
    if students:
        line += (
            f"; per 100 students: {100 * monitor.cpu_seconds / students:.1f} CPU-s, "
            f"{100 * (max(rss) - (monitor.baseline or rss[0])) / students:.0f} MiB"
        )
    return line


# --- the run ----------------------------------------------------------------------------------------------------


async def main_async(args, parts: dict) -> None:
    from ndcg_core.classroom import rules
    from ndcg_core.classroom.kinds.lists import random_list
    from ndcg_core.classroom.kinds.predict import Predict
    from ndcg_core.classroom.rules import Limits
    from ndcg_core.classroom.storage import Classroom, database_url

    # The room's limit is a setting: the run's class must fit (the replicas read it from their environment).
    os.environ["NDCG_LAB_MAX_STUDENTS"] = str(max(args.students, Limits().max_students))
    # Every simulated phone comes from this machine's one address: the whole class may join at once from it.
    os.environ["NDCG_LAB_JOIN_BURST"] = str(max(args.students, Limits().join_burst))
    if args.database == "sqlite":
        if args.replicas:
            raise SystemExit("--replicas needs --database postgresql (replicas share one database)")
        os.environ.pop("NDCG_LAB_DATABASE_URL", None)
        os.environ["NDCG_LAB_DATA_DIR"] = parts["data_dir"] = tempfile.mkdtemp(prefix="ndcg-lab-load-")
    elif not os.environ.get("NDCG_LAB_DATABASE_URL") and not args.replicas:
        raise SystemExit("--database postgresql needs NDCG_LAB_DATABASE_URL (or --replicas N, which starts one)")
    if args.restart_postgres_at is not None and (not args.replicas or os.environ.get("NDCG_LAB_DATABASE_URL")):
        raise SystemExit("--restart-postgres-at needs --replicas N and the deployment's own PostgreSQL")
    if args.kill_replica_at is not None and args.replicas < 2:
        raise SystemExit("--kill-replica-at needs --replicas 2 or more")

    monitors: dict[str, TreeMonitor] = {}
    if args.replicas:
        from deploy.launcher import Deployment

        port = free_port()
        os.environ["NDCG_LAB_PUBLIC_URL"] = f"http://127.0.0.1:{port}"
        deployment = Deployment(args.replicas, port, listen="127.0.0.1")
        parts["deployment"] = deployment
        lines: list[str] = []
        await asyncio.to_thread(deployment.start, lines.append)
        url = lines[-1].split()[-1]
        database = next(line.split()[1] for line in lines if line.startswith("database "))
        os.environ.setdefault("NDCG_LAB_DATABASE_URL", database)
        for number, app in enumerate(deployment.apps, start=1):
            monitors[str(number)] = TreeMonitor(f"replica {number} (pid {app.pid})", lambda pid=app.pid: pid)
        if deployment.postgres is not None:
            pid_file = deployment.postgres[0] / "postmaster.pid"

            def postmaster() -> int | None:
                try:
                    return int(pid_file.read_text().split()[0])
                except (OSError, ValueError, IndexError):
                    return None

            monitors["postgres"] = TreeMonitor("PostgreSQL (all its processes)", postmaster, tree=True)
        nginx_pid = deployment.nginx.pid
        monitors["nginx"] = TreeMonitor("nginx (master and worker)", lambda: nginx_pid, tree=True)
    else:
        server, url = start_server()
        parts["server"] = server
        monitors["server"] = TreeMonitor(f"server (pid {server.pid})", lambda: server.pid)
    monitors["clients"] = TreeMonitor("the clients' own process (all phones and the projector)", os.getpid)
    sampler = Sampler(list(monitors.values()))
    sampler.start()
    parts["sampler"] = sampler

    # Each process draws the page once before the class comes (imports, caches): memory per student is measured
    # from there.
    direct = (
        [f"http://127.0.0.1:{app.args[app.args.index('--server.port') + 1]}" for app in parts["deployment"].apps]
        if args.replicas
        else [url]
    )
    for address in direct:
        warm = Client(address, "", "warm-up", Errors())
        await warm.connect()
        await warm.run()
        await warm.ws.close()
    await asyncio.sleep(1.5)
    for monitor in monitors.values():
        monitor.baseline = monitor.samples[-1][2] if monitor.samples else None
    store = Classroom(database_url(), limits=Limits.from_environment())
    parts["store"] = store
    room, key = store.rooms.create()
    run = Run(errors=Errors(), stop=asyncio.Event(), window=args.window, phones=args.phones, join=args.join)
    rounds: list[Round] = []
    began = time.monotonic()
    tasks = [asyncio.create_task(presenter(url, room.code, key, run)), asyncio.create_task(loop_lag(run))]
    faults: list[asyncio.Task] = []
    parts["report"] = lambda: report(args, rounds, store, run, monitors, began, kill_report)
    kill_report: dict = {}
    try:
        if args.quiet:
            # The room with only its projector: what the projector's live part costs when nothing happens, to take
            # from the waiting class's figure below.
            while run.presenter is None and time.monotonic() - began < 60:
                await asyncio.sleep(0.2)
            await asyncio.sleep(2.0)
            run.empty = await measure_quiet(monitors, args.quiet / 2)
        for i in range(args.students):
            me = rules.new_student_id()
            tasks.append(asyncio.create_task(student(url, room.code, me, i + 1, run)))
            await asyncio.sleep(args.join_spread / args.students)  # a class arrives over a minute or so
        give_up = time.monotonic() + args.join_spread + 120
        while run.joined + len(run.join_failures) < args.students and time.monotonic() < give_up:
            await asyncio.sleep(0.5)
        print(
            f"{run.joined} of {args.students} students joined, {len(run.join_failures)} failed to "
            f"({time.monotonic() - began:.0f} s)",
            flush=True,
        )
        run.phones_by_process = phones_by_process(args, run)
        if args.replicas:
            spread = run.phones_by_process
            print("students by replica (their cookie): " + ", ".join(f"{k}: {v}" for k, v in sorted(spread.items())))
            kill_report["joined_by_replica"] = spread
        # The class's clients, made by now, live to the end: out of the cyclic collector's way, a full collection
        # (a pause of every phone of this one process, 0.1 s and more) does not land in a round and count as the
        # server's. Nor does any other: a thousand real phones do not pause together, and this one process did, for
        # 0.11 s in all, while the first opening's cards (larger than the waiting cards they replace) came in. The
        # collector runs between rounds instead (``between_rounds``).
        gc.collect()
        gc.freeze()
        gc.disable()
        if args.quiet:
            # Every phone on its page (its stream open, or polling), no activity open: what a waiting class costs.
            await asyncio.sleep(3.0)
            counts_before = Counter(run.counts)
            run.quiet = await measure_quiet(monitors, args.quiet)
            run.quiet_counts = Counter(run.counts)
            run.quiet_counts.subtract(counts_before)
            print(f"quiet phase: {args.quiet:g} s with every phone waiting", flush=True)
        first_open: list[float] = []
        for number in range(args.rounds):
            r = Round(number=number)
            if run.round is not None:
                run.done_ids.add(run.round.activity_id)
            r.cpu_at_open = await asyncio.to_thread(processes_cpu, monitors)
            r.phones = phones_by_process(args, run)
            if args.teacher == "page":
                # The teacher presses "Open for the class" on the projector's page.
                projector = run.presenter
                async with projector.lock:
                    button_id, fragment = projector.button(OPEN)
                    r.opened, pressed_wall = time.monotonic(), time.time()
                    run.round = r
                    await projector.run(fragment, trigger=button_id)
                current = (await asyncio.to_thread(store.rooms.get, room.code)).current
                r.activity_id = current.id
                r.stored_after = current.opened_at - pressed_wall  # the press to the activity stored
            else:
                # A teacher on another process: only the database tells this one (within REVISION_TTL).
                activity = await asyncio.to_thread(
                    store.rooms.open_activity, room.code, key, Predict(random_list(number + 1))
                )
                r.opened, r.activity_id = time.monotonic(), activity.id
                run.round = r
            rounds.append(r)
            if not first_open:
                first_open.append(r.opened)
                if args.kill_replica_at is not None:
                    faults.append(asyncio.create_task(kill_replica(args, parts, run, rounds, kill_report)))
                if args.restart_postgres_at is not None:
                    faults.append(asyncio.create_task(restart_postgres(args, parts, run)))
            deadline = r.opened + args.window + 30
            while time.monotonic() < deadline:
                if not r.herd and len(r.seen) >= run.joined:
                    at = time.monotonic()
                    r.herd = (
                        cpu_between(r.cpu_at_open, await asyncio.to_thread(processes_cpu, monitors)),
                        at - r.opened,
                    )
                done = len(r.sent) >= run.joined and all(n in r.acked for n in r.sent)
                if done and r.presenter and r.presenter[-1][2] >= len(r.acked):
                    break
                await asyncio.sleep(0.2)
            await asyncio.sleep(1.5)
            r.ended, r.cpu_at_end = time.monotonic(), await asyncio.to_thread(processes_cpu, monitors)
            between_rounds()
            apps = sum(v for k, v in r.herd[0].items() if is_app(k)) if r.herd else 0.0
            herd = (
                f"; the app processes used {apps:.2f} CPU-s until the last phone showed it "
                f"({1000 * apps / len(r.seen):.2f} ms per phone, early answers included)"
                if r.herd and r.seen
                else ""
            )
            seen = sorted(t - r.opened for t in r.seen.values())
            spread = f"; seen p50 {statistics.median(seen):.2f} s, p95 {percentile(seen, 0.95):.2f} s" if seen else ""
            if seen and args.replicas:
                replica_of = {run.ids.get(n): c.replica for n, c in run.students.items()}
                by: dict[str, list[float]] = {}
                for me, at in r.seen.items():
                    by.setdefault(str(replica_of.get(me)), []).append(at - r.opened)
                home = run.presenter.replica if run.presenter is not None else "?"
                spread += (
                    " (p95 by replica: "
                    + ", ".join(f"{k} {percentile(sorted(v), 0.95):.2f} s" for k, v in sorted(by.items()))
                    + f"; the projector on {home})"
                )
            stored = f"; stored {r.stored_after:.2f} s after the press" if r.stored_after is not None else ""
            last = max(r.seen.values(), default=r.opened)
            lags = [lag for at, lag in run.lags if r.opened <= at <= last]
            if lags:  # this side's own lateness while the class got it, to tell from the server's
                stored += f"; the clients' loop late by at most {max(lags):.2f} s meanwhile"
            used = cpu_between(r.cpu_at_open, r.cpu_at_end)
            whole = ", ".join(f"{label(k)} {v:.2f}" for k, v in sorted(used.items()) if k != "clients")
            print(
                f"round {number + 1}: {len(r.seen)} saw it, {len(r.acked)} answers acknowledged{herd}{spread}{stored}; "
                f"CPU-s over the round's {r.ended - r.opened:.0f} s: {whole}",
                flush=True,
            )
        for task in faults:
            await task
    finally:
        gc.enable()
        run.stop.set()
        for task in tasks + faults:
            task.cancel()
        await asyncio.gather(*tasks, *faults, return_exceptions=True)


async def measure_quiet(monitors: dict, seconds: float) -> tuple[float, dict[str, float]]:
    """Each process's CPU-seconds over ``seconds`` from now."""
    before, start = await asyncio.to_thread(processes_cpu, monitors), time.monotonic()
    await asyncio.sleep(seconds)
    after = await asyncio.to_thread(processes_cpu, monitors)
    return time.monotonic() - start, cpu_between(before, after)


def phones_by_process(args, run: Run) -> Counter:
    """How many of the joined phones each app process serves (its replica cookie; the one server without nginx)."""
    joined = [c for c in run.students.values() if c.card_data]
    return Counter(c.replica for c in joined) if args.replicas else Counter({"server": len(joined)})


async def kill_replica(args, parts: dict, run: Run, rounds: list[Round], out: dict) -> None:
    """SIGKILL one replica's process group ``--kill-replica-at`` seconds after the first activity opened."""
    await asyncio.sleep(args.kill_replica_at)
    deployment = parts["deployment"]
    spread = Counter(c.replica for c in run.students.values())
    number = args.kill_replica
    if number is None:
        # The busiest replica the presenter is not on: the answers' way to the projector stays measured.
        others = [k for k, _ in spread.most_common() if k != run.presenter.replica and k.isdigit()]
        number = int(others[0]) if others else 1
    app = deployment.apps[number - 1]
    out["killed"] = number
    out["students_on_it"] = spread.get(str(number), 0)
    out["acked_before"] = [(r.activity_id, set(r.acked)) for r in rounds]
    run.errors.windows.append([time.monotonic(), None])
    run.killed_at = time.monotonic()
    for c in run.students.values():
        if c.replica == str(number):
            c.lost_at = run.killed_at  # until a live replica answers its phone (watch_card's on_answered)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(app.pid, signal.SIGKILL)
    print(f"killed replica {number} (pid {app.pid}), serving {out['students_on_it']} students", flush=True)
    await asyncio.to_thread(app.wait)
    # The fault's window ends when its phones are back (or have given up).
    while time.monotonic() - run.killed_at < RECONNECT_GIVE_UP and any(
        c.lost_at is not None for c in run.students.values()
    ):
        await asyncio.sleep(0.5)
    run.errors.windows[-1][1] = time.monotonic()
    print(f"{len(run.back)} phones answered by a live replica after the kill", flush=True)


async def restart_postgres(args, parts: dict, run: Run) -> None:
    """``pg_ctl restart`` of the deployment's cluster ``--restart-postgres-at`` seconds after the first activity
    opened."""
    from deploy.postgres import restart_in_place

    await asyncio.sleep(args.restart_postgres_at)
    datadir, bin_dir = parts["deployment"].postgres
    window = [time.monotonic(), None]
    run.errors.windows.append(window)
    await asyncio.to_thread(restart_in_place, datadir, bin_dir)
    window[1] = time.monotonic()
    run.counts["postgres restart seconds"] = round(window[1] - window[0], 1)
    print(f"PostgreSQL restarted in {window[1] - window[0]:.1f} s", flush=True)


def same_value(stored: Any, sent: str) -> bool:
    """Whether the value stored is the estimate sent (a number, kept as typed or as a float)."""
    try:
        return abs(float(stored) - float(sent)) < 1e-9
    except (TypeError, ValueError):
        return str(stored) == sent


def check_stored(store, rounds: list[Round]) -> tuple[int, int, list[str]]:
    """Each acknowledged answer looked up by its student's id (``Answers.of_student``): how many were acknowledged,
    how many are missing or stored with another value, and the first few of those."""
    acked, lost, examples = 0, 0, []
    for r in rounds:
        for me, estimate in r.values.items():
            acked += 1
            stored = store.answers.of_student(r.activity_id, me)
            if 0 not in stored or not same_value(stored[0], estimate):
                lost += 1
                if len(examples) < 3:
                    examples.append(f"round {r.number + 1}, student {me}: sent {estimate}, stored {stored.get(0)}")
    return acked, lost, examples


def spread_text(values: list[float], unit: str = "s") -> str:
    """p50, p95 and max of a list of seconds."""
    return (
        f"p50 {statistics.median(values):.2f} {unit}, p95 {percentile(sorted(values), 0.95):.2f} {unit}, "
        f"max {max(values):.2f} {unit}"
    )


def label(name: str) -> str:
    """A monitor's short name in the report: "replica 2", "server", "postgres", "nginx", "clients"."""
    return f"replica {name}" if name.isdigit() else name


def capacity_lines(args, rounds: list[Round], run: Run) -> list[str]:
    """CPU per 1,000 waiting phones and per opening, per process, and how many students one core carries."""
    lines: list[str] = []
    phones = run.phones_by_process
    waiting_rate = 0.0  # the app processes' CPU-seconds per second per waiting phone (the empty room's taken off)
    quiet_rates: dict[str, float] = {}  # app process -> CPU-seconds per second while the class waits
    if run.quiet:
        seconds, cpu = run.quiet
        empty_seconds, empty = run.empty or (1.0, {})
        for name, used in sorted(cpu.items()):
            share = 100 * used / seconds
            base = 100 * empty.get(name, 0.0) / empty_seconds
            count = phones.get(name, 0) if is_app(name) else sum(phones.values())
            per = f", {1000 * (share - base) / count:.2f}% per 1,000 phones" if count else ""
            lines.append(
                f"waiting, {label(name)}: {share:.1f}% of a core with {count} phones waiting (the empty room with "
                f"the projector: {base:.1f}%){per}"
            )
        quiet_rates = {k: v / seconds for k, v in cpu.items() if is_app(k)}
        apps = sum(quiet_rates.values())
        apps_empty = sum(v for k, v in empty.items() if is_app(k)) / empty_seconds
        if run.joined:
            waiting_rate = max(0.0, apps - apps_empty) / run.joined
            lines.append(
                f"waiting, all app processes: {100 * waiting_rate * 1000:.2f}% of a core per 1,000 phones "
                f"(goal: under 5%); the phones' traffic meanwhile: "
                + (", ".join(f"{k} {v}" for k, v in sorted(run.quiet_counts.items()) if v) or "none")
            )
    opening: dict[str, list[float]] = {}  # app process -> the opening's CPU-seconds per phone on it, each round
    answer: dict[str, list[float]] = {}  # app process -> the rest of the round's CPU-seconds per answer
    for r in rounds:
        if r.herd and r.seen:
            used, seconds = r.herd
            phones = r.phones or run.phones_by_process  # a killed replica's phones are on the others by now
            parts = ", ".join(
                f"{label(name)} {used[name]:.2f} CPU-s"
                + (f" ({1000 * used[name] / phones[name]:.2f} ms per phone)" if phones.get(name) else "")
                for name in sorted(used)
                if is_app(name) or name in ("postgres", "nginx")
            )
            lines.append(f"opening {r.number + 1}, until the last phone had it ({seconds:.2f} s): {parts}")
            # Per app process: the opening's CPU per phone on it, and the rest of the round's (its waiting share
            # taken off) per answer from its phones. With replicas, the one without the projector gives the phones'
            # own cost; the projector's process adds its live part's runs.
            whole = cpu_between(r.cpu_at_open, r.cpu_at_end) if r.cpu_at_end else {}
            rate = dict(quiet_rates)
            for name, count in phones.items():
                if not count or name not in used:
                    continue
                opening.setdefault(name, []).append(used[name] / count)
                if name in whole and r.values:
                    answers = len(r.values) * count / max(1, sum(phones.values()))
                    rest = whole[name] - used[name] - rate.get(name, 0.0) * max(0.0, r.ended - r.opened - seconds)
                    answer.setdefault(name, []).append(max(0.0, rest) / answers)
    if opening:
        per_open = min(statistics.mean(v) for v in opening.values())
        per_answer = min(statistics.mean(v) for v in answer.values()) if answer else 0.0
        lines.append(
            "per opening, CPU per phone: "
            + ", ".join(f"{label(k)} {1000 * statistics.mean(v):.2f} ms" for k, v in sorted(opening.items()))
            + (
                "; per answer, the rest of the round: "
                + ", ".join(f"{label(k)} {1000 * statistics.mean(v):.2f} ms" for k, v in sorted(answer.items()))
                if answer
                else ""
            )
            + (" (the projector's process includes its live part's runs)" if len(opening) > 1 else "")
        )
        # One core, for the goals at 1,000 students: an opening reaches every phone within 0.5 s (its work done in
        # half a second), and a round's answers, spread over the window, with the waiting phones, keep the core
        # under 70% busy (what is left goes to latency). The cheapest process's figures: the phones' own cost.
        reach = 0.5 / per_open if per_open else float("inf")
        per_student = per_answer / args.window + waiting_rate
        rounds_cap = 0.7 / per_student if per_student else float("inf")
        lines.append(
            f"one core carries about {min(reach, rounds_cap):,.0f} students (an opening's work within 0.5 s: "
            f"{reach:,.0f}; answers over {args.window:g} s with the class waiting, under 70% of the core: "
            f"{rounds_cap:,.0f}); estimated from this run's figures, not measured (the press's own page run counts "
            "in the opening: only a class of hundreds makes it small)"
        )
    return lines


def report(args, rounds: list[Round], store, run: Run, monitors: dict, began: float, kill: dict) -> bool:
    """Print the run's figures and its verdict; whether it failed (any error, lost answer or failed join)."""
    timings = [t for r in rounds for t in latencies(r)]
    seen_times = [t - r.opened for r in rounds for t in r.seen.values()]
    acked, lost, examples = check_stored(store, rounds)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"database {args.database}, "
        + (f"{args.replicas} replicas behind nginx" if args.replicas else "one process, no proxy")
        + f"; load average before: {args.load_before}"
    )
    print(
        f"{args.students} students, phones: {args.phones}, {args.rounds} rounds, answers spread over "
        f"{args.window:g} s ({time.monotonic() - began:.0f} s in all)"
    )
    interval = sorted(set(run.presenter.auto.values())) if run.presenter is not None else []
    if timings:
        print(f"answer to presenter: {spread_text([t[0] for t in timings])} ({len(timings)} answers)")
        print(
            f"  of which Send to Saved: {spread_text([t[1] for t in timings])}; Saved to the start of the panel's "
            f"next run: {spread_text([t[2] for t in timings])}; that run: {spread_text([t[3] for t in timings])}"
        )
    if run.panel_runs:
        print(
            f"the presenter's live part: runs every {', '.join(f'{i:g}' for i in interval) or '?'} s "
            f"(run_every){' and when its room stream says changed' if run.counts['watch opened'] else ''}, "
            f"each run {spread_text(run.panel_runs)} ({len(run.panel_runs)} runs)"
        )
    if seen_times:
        print(f"activity to student: {spread_text(seen_times)}")
    if run.lags:
        late = [lag for _, lag in run.lags]
        print(f"the clients' own event loop (every phone and the presenter), late to wake: {spread_text(late)}")
    print(
        f"answers acknowledged {acked}, lost {lost} (looked up by student id, the value compared); sent again after "
        f"a failed send: {run.resent}" + (f"; e.g. {'; '.join(examples)}" if examples else "")
    )
    print(
        f"joins failed: {len(run.join_failures)} of {args.students} (goal 0)"
        + (f" (first: {run.join_failures[0]})" if run.join_failures else "")
    )
    errors = run.errors
    print(f"errors: {len(errors.plain)}" + (f" (first: {errors.plain[0]})" if errors.plain else ""))
    if errors.windows:
        print(
            f"errors during the faults (and {FAULT_GRACE:g} s after): {len(errors.in_fault)}"
            + (f" (first: {errors.in_fault[0]})" if errors.in_fault else "")
        )
    if kill and "killed" in kill:
        back, stream = list(run.back.values()), list(run.back_stream.values())
        line = (
            f"killed replica {kill['killed']} with {kill['students_on_it']} students: {len(back)} of its phones "
            "answered by a live replica"
        )
        if back:
            line += f", kill to that answer {spread_text(back)}"
        if stream:
            line += f"; {len(stream)} back on a stream, kill to its first event {spread_text(stream)}"
        print(line)
        before = sum(len(students) for _, students in kill["acked_before"])
        kept = sum(1 for act, group in kill["acked_before"] for me in group if 0 in store.answers.of_student(act, me))
        print(f"answers acknowledged before the kill: {before}, still stored: {kept}")
        lost += before - kept
    if "postgres restart seconds" in run.counts:
        print(f"PostgreSQL restart took {run.counts['postgres restart seconds']} s")
    if args.phones == "stream":
        print(
            f"phones that fell back to polling (3 streams in a row brought nothing while the card route answered): "
            f"{run.counts['phones polling']}"
        )
    counts = {k: v for k, v in run.counts.items() if k != "postgres restart seconds"}
    if counts:
        print("clients' counts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for line in capacity_lines(args, rounds, run):
        print(line)
    at_end = Counter(c.replica for c in run.students.values() if c.card_data)
    # Per 100 students: those a replica served from the start (a killed one's moved to the others part-way).
    served = kill.get("joined_by_replica", at_end)
    for name, monitor in monitors.items():
        students = served.get(name) if args.replicas else args.students if name == "server" else None
        prefix = f"[{served.get(name, 0)} students joined, {at_end.get(name, 0)} at the end] " if name.isdigit() else ""
        print(prefix + process_line(monitor, students))
    failures = [
        f"{what}: {n}"
        for what, n in (
            ("errors", len(errors)),
            ("answers lost", lost),
            ("joins failed", len(run.join_failures)),
            ("rounds not run", args.rounds - len(rounds)),
        )
        if n
    ]
    print("verdict: " + ("FAILED (" + ", ".join(failures) + ")" if failures else "0 errors, 0 lost, every join done"))
    return bool(failures)


def raise_open_files() -> None:
    """The soft limit on open files up to the hard one, for this process and the servers it starts: each phone holds
    two connections (its stream and its requests), and each is a file here, in nginx and in an app process."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


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
    parser.add_argument(
        "--join",
        choices=["link", "page"],
        default="link",
        help="join by the projected link (serve.py's join page: one page and one request) or on the Classroom page "
        "(a Streamlit session, as without serve.py)",
    )
    parser.add_argument("--replicas", type=int, default=0, help="app processes behind nginx (0: one, no nginx)")
    parser.add_argument("--kill-replica-at", type=float, help="SIGKILL a replica this many s after the first opening")
    parser.add_argument(
        "--kill-replica", type=int, help="which replica to kill (default: the busiest without the presenter)"
    )
    parser.add_argument(
        "--restart-postgres-at", type=float, help="restart PostgreSQL this many s after the first opening"
    )
    parser.add_argument(
        "--phones",
        choices=["stream", "poll"],
        default="stream",
        help="what a phone does after joining: its page's script, the event stream with its reconnects and its "
        "fallback (stream), or the script's polling from the start (poll, the design before the stream)",
    )
    parser.add_argument(
        "--quiet",
        type=float,
        default=10.0,
        help="seconds measured with every phone waiting and no activity open (and half as long before the class "
        "joins, the room empty); 0: none",
    )
    parser.add_argument("--timeout", type=float, default=1200.0, help="stop everything after this many seconds")
    args = parser.parse_args()
    raise_open_files()
    args.load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average before the run: {args.load_before}", flush=True)

    def on_term(signum, frame) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    parts: dict = {}
    failed = False
    try:
        asyncio.run(asyncio.wait_for(main_async(args, parts), timeout=args.timeout))
    except (KeyboardInterrupt, TimeoutError) as stop:
        print(f"stopped early: {type(stop).__name__}", flush=True)
        failed = True
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if "sampler" in parts:
            parts["sampler"].stopped.set()
        try:
            if "report" in parts:
                failed = parts["report"]() or failed
        finally:
            if "server" in parts:
                parts["server"].terminate()
                parts["server"].wait(timeout=30)
            if "deployment" in parts:
                parts["deployment"].stop()
            if "store" in parts:
                parts["store"].close()
            if "data_dir" in parts:
                shutil.rmtree(parts["data_dir"], ignore_errors=True)
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
