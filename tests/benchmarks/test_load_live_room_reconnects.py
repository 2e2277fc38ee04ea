"""The load benchmark's phone does what phone_card.js does when its stream breaks: after a stream that was heard, a
new stream with the revision it shows and no card route; after one that brought nothing, the card route once; and
after three streams that brought nothing while the card route answered, polling."""

from __future__ import annotations

import asyncio
import json

import pytest

import benchmarks.load_live_room as load
from support import run_coroutine
from ui.phones.routes import event

CARD = {"activity": 3, "revision": 7, "phase": "open", "blocks": []}


class FakeServer:
    """A server of the phone page's routes: the card route answers ``CARD``; the events route as ``stream`` says."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.paths: list[str] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode()
            path = head.split()[1]
            self.paths.append(path)
            if path.startswith("/api/room/ABCD/events"):
                await self.stream(self, writer)
            else:
                body = json.dumps(CARD).encode()
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        finally:
            writer.close()

    def events(self) -> list[str]:
        return [p for p in self.paths if "/events" in p]


async def play(stream, until, timeout: float = 10.0, probe: int = 60_000) -> tuple[FakeServer, load.Phone]:
    """Run a phone against a ``FakeServer`` until ``until(server, phone)`` holds (``probe``: the page's ms between
    streams tried while it polls)."""
    server = FakeServer(stream)
    listening = await asyncio.start_server(server.handle, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    client = load.Client(f"http://127.0.0.1:{port}", "", "phone", load.Errors())
    client.card_data = {
        "card": "/api/room/ABCD/card?me=x&lang=en",
        "events": "/api/room/ABCD/events?me=x&lang=en",
        "answer": "/api/room/ABCD/answer",
        "every": 50,
        "fallback": 50,
        "grace": 300,
        "tries": 3,
        "probe": probe,
    }
    run = load.Run(errors=load.Errors(), stop=asyncio.Event(), window=1.0)
    phone = load.Phone(client, run, lambda c: None, lambda c: None, lambda c: None)
    task = asyncio.create_task(phone.start("stream"))
    try:
        async with asyncio.timeout(timeout):
            while not until(server, phone):
                await asyncio.sleep(0.02)
    finally:
        run.stop.set()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        listening.close()
        await listening.wait_closed()
    return server, phone


@pytest.fixture
def short_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load, "STREAM_BACKOFF_FIRST", 20)
    monkeypatch.setattr(load, "STREAM_BACKOFF_MOST", 50)
    monkeypatch.setattr(load, "STREAM_JITTER", 10)


def test_a_stream_heard_then_ended_is_opened_again_with_the_revision_shown(short_backoff: None) -> None:
    async def stream(server: FakeServer, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
        if len(server.events()) == 1:
            writer.write(f"retry: 3000\n\n{event('card', CARD, 7)}".encode())
            await writer.drain()  # then the stream ends: the phone streams again at once
        else:
            writer.write(f"retry: 1000\n\n{event('same', {'revision': 7}, 7)}".encode())
            await writer.drain()
            await asyncio.sleep(5)

    # Until the second stream's retry is read: the server sees the request before the phone reads the answer.
    server, phone = run_coroutine(play(stream, lambda s, p: len(s.events()) >= 2 and p.retry_ms == 1000))
    first, second = server.events()
    assert "known=" not in first
    assert second.endswith("&known=7")
    assert not any(p.startswith("/api/room/ABCD/card") for p in server.paths)  # the new stream brings the card
    assert phone.retry_ms == 1000  # the stream's own, as each EventSource has its own
    assert phone.client.card == CARD
    assert not phone.polling


def test_three_streams_that_bring_nothing_while_the_card_route_answers_make_the_phone_poll(
    short_backoff: None,
) -> None:
    async def stream(server: FakeServer, writer: asyncio.StreamWriter) -> None:
        # A proxy that answers the stream but holds its events back: nothing within the grace.
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
        await writer.drain()
        await asyncio.sleep(5)

    server, phone = run_coroutine(play(stream, lambda s, p: sum("known=7" in x and "/card" in x for x in s.paths) >= 2))
    assert len(server.events()) == 3
    assert phone.polling and phone.poll_key
    assert phone.counts["stream silent past the grace"] == 3


def test_a_polling_phone_tries_a_stream_again_and_goes_back_to_it_once_one_is_heard(short_backoff: None) -> None:
    async def stream(server: FakeServer, writer: asyncio.StreamWriter) -> None:
        if len(server.events()) <= 3:  # held back: the phone falls back to polling
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
            await writer.drain()
            await asyncio.sleep(5)
            return
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
        writer.write(event("same", {"revision": 7}, 7).encode())
        await writer.drain()
        await asyncio.sleep(5)

    server, phone = run_coroutine(play(stream, lambda s, p: len(s.events()) == 4 and not p.polling, probe=200))
    assert phone.counts["phones polling"] == 1 and phone.counts["stream tried while polling"] == 1
    assert not phone.poll_key  # the tab's next page streams
    assert phone.counts["stream event same"] == 1


def test_a_refused_stream_counts_as_one_that_brought_nothing(short_backoff: None) -> None:
    async def stream(server: FakeServer, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nno")
        await writer.drain()

    server, phone = run_coroutine(play(stream, lambda s, p: p.polling))
    assert len(server.events()) == 3
    assert phone.counts["stream refused 200"] == 3
