"""The load benchmark's projector does what room_watch.js does: one stream of the room's changes opened with the mark
the part was drawn at, a run of the part asked for at each ``changed``, the stream's last id sent back when it is
opened again after it ended, and a run asked for every ``every`` seconds while the stream is refused."""

from __future__ import annotations

import asyncio
from collections import Counter

import benchmarks.load_live_room as load
from support import run_coroutine
from ui.phones.routes import event


async def play(respond, until, timeout: float = 10.0) -> tuple[list[str], Counter, int]:
    """Run ``watch_room`` against a server answering each watch request with ``respond(number, writer)`` until
    ``until(heads, counts, runs asked)``: the requests' heads, the counts and the runs asked for."""
    heads: list[str] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            heads.append((await reader.readuntil(b"\r\n\r\n")).decode())
            await respond(len(heads), writer)
        finally:
            writer.close()

    listening = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    client = load.Client(f"http://127.0.0.1:{port}", "", "presenter", load.Errors())
    client.watch_drawn = ("component", "fragment", {"url": "/api/room/ABCD/watch", "seen": "p.0.1.2.3", "every": 0.05})
    counts: Counter = Counter()
    stop = asyncio.Event()
    runs = 0

    async def runner() -> None:  # what keep_fragments_running does with client.due
        nonlocal runs
        while True:
            await client.due.wait()
            client.due.clear()
            runs += 1

    tasks = [asyncio.create_task(load.watch_room(client, stop, counts)), asyncio.create_task(runner())]
    try:
        async with asyncio.timeout(timeout):
            while not until(heads, counts, runs):
                await asyncio.sleep(0.02)
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        listening.close()
        await listening.wait_closed()
    return heads, counts, runs


def test_each_change_asks_for_a_run_and_a_reconnect_sends_the_last_id() -> None:
    async def respond(number: int, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nretry: 20\n\n")
        if number == 1:
            writer.write((event("changed", {}, "p.0.2.2.3") + event("changed", {}, "p.0.2.3.3")).encode())
            await writer.drain()  # then the stream ends: the browser opens it again after retry
        else:
            await writer.drain()
            await asyncio.sleep(1)  # held open past the test's end

    heads, counts, runs = run_coroutine(play(respond, lambda h, c, r: len(h) == 2))
    assert heads[0].startswith("GET /api/room/ABCD/watch?seen=p.0.1.2.3 ") and "Last-Event-ID" not in heads[0]
    assert "Last-Event-ID: p.0.2.3.3\r\n" in heads[1]
    assert counts["watch changed"] == 2 and counts["watch ended"] == 1 and runs >= 1


def test_a_refused_stream_asks_for_a_run_every_so_often() -> None:
    async def respond(number: int, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        await writer.drain()

    heads, counts, runs = run_coroutine(play(respond, lambda h, c, r: r >= 4))
    assert counts["watch refused"] == 1 and len(heads) == 1  # tried again only WATCH_RETRY_MS later
