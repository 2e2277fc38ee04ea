"""The phones' HTTP routes, served beside the app by ``serve.py`` (plain JSON and two small pages, no page run behind
them), over the classroom's runtime (``ui.database.runtime``): an answer and a join are its commands, and a card is
made from its service's read of the room (``ClassroomRuntime.service``, shared by the process's phones)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import suppress
from typing import Any, TypeVar, cast

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from ndcg_core.classroom import rules
from ndcg_core.classroom.service import ClassroomService, Submission
from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import (
    arrivals,
    client_address,
    fresh_revision,
    in_flight,
    known_member,
    notices,
    room_changed,
    room_revision,
    runtime,
)
from ui.errors import UiInputError, shown
from ui.http_limits import http_limits, stream_slots
from ui.http_security import new_nonce, page_policy
from ui.i18n import LANGUAGES, Translator
from ui.phones import join_page, phone_page, student_card
from ui.phones.card import plain
from ui.phones.student_card import Reply

NO_STORE = {"Cache-Control": "no-store"}
# A stream's headers: never cached, and not buffered by nginx (which also has the route unbuffered in its template).
STREAM_HEADERS = {**NO_STORE, "X-Accel-Buffering": "no"}
# A comment line this often keeps proxies and phones from closing a quiet stream: below the shortest idle timeouts
# in common use (HAProxy configurations' 30 s; nginx's and load balancers' 60 s), and, as the keep-alives are
# all a waiting class costs, a quarter less than the 15 s the SSE standard suggests for old proxies.
KEEP_ALIVE_SECONDS = 20.0
UNHEARD_SECONDS = 1.0  # while the process hears no notices (its listener reconnecting), a stream looks this often
RETRY_MS = 1000  # the browser's own reconnect delay, sent as the stream's first line
# A teacher's page is told of a room's change at once, then of more at most this often: a class's answers arriving
# together make a run of the live part each half second, as the timer it replaces did.
WATCH_GAP_SECONDS = 0.5
MAX_PART = 10_000  # a part number beyond any activity's: the kind names a wrong one below this
# How many times a class's shared read is made again for the phones whose card it did not bring (an answer heard of
# while it was read: it is not kept), before each phone reads its own: a class woken by an opening while its first
# answers come in then waits on one more read, where each of its phones read its own answers (a query per phone).
PREPARES = 3
MAX_KNOWN_DIGITS = 18  # a room's revision as a phone sends it back: a number, far below 10**18

T = TypeVar("T")


def language(value: Any) -> str:
    """The phone's language from a request (English unless it is one the app has)."""
    return value if isinstance(value, str) and value in LANGUAGES else next(iter(LANGUAGES))


def browser_language(header: str) -> str:
    """The first of the app's languages a browser's ``Accept-Language`` names (by its primary tag: ``zh-CN`` is
    ``zh``), else English: the join link carries no language, and a class's phones mostly speak the class's."""
    for part in header.split(","):
        tag = part.split(";")[0].strip().lower().split("-")[0]
        if tag in LANGUAGES:
            return tag
    return next(iter(LANGUAGES))


class Unreadable(Exception):
    """A query parameter that is no value the route takes (a 400)."""


def read_known(text: str) -> int | None:
    """The ``known`` parameter (the revision a phone shows) as a number, ``None`` when absent; an ``Unreadable``
    for anything but ASCII digits (``int`` also reads "²" and other scripts' digits, and refuses 5,000 of them)."""
    if not text:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_KNOWN_DIGITS):
        raise Unreadable("known")
    return int(text)


def bad_request(what: str) -> JSONResponse:
    return JSONResponse({"error": what}, status_code=400, headers=NO_STORE)


def read_submission(body: dict[str, Any]) -> Submission:
    """What a card sent (``{"activity": 12, "values": [[0, "0.75"], ...]}``) as a ``Submission``; an
    ``InputError`` for anything else."""
    activity, raw = body.get("activity"), body.get("values")
    if type(activity) is not int:
        raise UiInputError("answer.malformed", value=shown(activity))
    if not isinstance(raw, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int and 0 <= pair[0] < MAX_PART for pair in raw
    ):
        raise UiInputError("answer.malformed", value=shown(raw))
    return Submission(activity, tuple((pair[0], pair[1]) for pair in raw))


def card_json(code: str, student: str, lang: str) -> dict[str, Any]:
    """The student's card now, as JSON-ready data (an ``InputError`` if the room is gone; ``StoreUnavailable``
    when the database cannot answer)."""
    svc = runtime().service
    return student_card.card_json(svc, svc.card(code, student), lang)


def card_at_hand(svc: ClassroomService, code: str, student: str, lang: str, told: int | None) -> dict[str, Any] | None:
    """``card_json`` from what this process has read lately, without reading (``None``: not at hand)."""
    state = svc.card_at_hand(code, student, told)
    return None if state is None else student_card.card_json(svc, state, lang)


async def card_now(
    svc: ClassroomService, code: str, student: str, lang: str, told: int | None = None
) -> dict[str, Any]:
    """``card_json``, made in the event loop when what it needs is at hand. A class's phones woken by one notice
    find it missing together: one thread reads it for all of them (``ClassroomService.prepare``; again, up to
    ``PREPARES`` reads, when an answer heard of meanwhile kept a read from serving), and each makes its card from
    that, instead of a thread and its reads per phone. Failing that, the card is read in a thread.
    ``told``: the revision the room is known to have reached (a notice's, or one just read), so that a class's
    cards made one after another from that one read all count as fresh, however many there are to make."""
    card = card_at_hand(svc, code, student, lang, told)
    for _ in range(PREPARES):
        if card is not None:
            return card
        if svc.card_at_hand(code, "", told) is not None:
            break  # the class's read is at hand: this student's own answer is newer than it, read alone below
        try:
            await shared_read("prepare", code, svc.prepare, code)
        except (InputError, StoreUnavailable):
            break  # said by the read below, for this phone
        card = card_at_hand(svc, code, student, lang, told)
    if card is None:
        card = await run_in_threadpool(card_json, code, student, lang)
    return card


async def shared_read(what: str, code: str, read: Callable[..., T], *args: Any) -> T:
    """``read(*args)`` in a thread, one at a time per room, ``what`` and event loop: whoever asks while one is
    under way waits for its result (or its error). A class arriving or woken at once is one thread's work, where
    500 phones each sent a little read of their own to the thread pool, and waited there behind one another and
    behind the class's answers (p50 0.43 s for a class moving here from a process that was killed)."""
    flights = in_flight()
    key = (id(asyncio.get_running_loop()), what, code)
    flight = flights.get(key)
    if flight is None:
        flight = flights[key] = asyncio.ensure_future(run_in_threadpool(read, *args))
        flight.add_done_callback(lambda _: flights.pop(key, None))
    return cast(T, await asyncio.shield(flight))  # a phone that leaves does not cancel the others' read


async def revision_now(code: str) -> int | None:
    """``room_revision`` (tried once): from the process's short cache in the event loop, else one read shared by
    every phone of the room asking meanwhile (``shared_read``)."""
    fresh, revision = fresh_revision(code)
    if fresh:
        return revision
    return await shared_read("revision", code, room_revision, code, True)


def submit(code: str, student: str, lang: str, body: dict[str, Any]) -> Reply:
    """Store what a card sent (the runtime's ``answer``: checked once by its kind, stored once); the reply in the
    student's language, with the card after it, made from the answers the store returned (no read)."""
    t = Translator(lang)
    try:
        submission = read_submission(body)
    except InputError as err:
        return Reply(False, t.explain(err))
    rt = runtime()
    outcome = rt.answer(code, student, submission)
    svc = rt.service
    done = student_card.reply(t, outcome)
    card = None
    with suppress(InputError, StoreUnavailable):  # the answer is stored; the phone's next look brings its card
        card = student_card.card_json(svc, svc.card(code, student, answered=outcome), lang)
    return Reply(done.ok, done.message, card)


def not_found() -> JSONResponse:
    return JSONResponse({"error": "room.unknown"}, status_code=404, headers=NO_STORE)


def unavailable() -> JSONResponse:
    """The database cannot answer now: a 503, which the pages' scripts wait out."""
    return JSONResponse({"error": "unavailable"}, status_code=503, headers=NO_STORE)


async def member(code_text: str, student_text: Any) -> tuple[str, str] | None:
    """The room code and student id of a request when the student has joined the room, else ``None`` (a
    ``StoreUnavailable`` when the database cannot say)."""
    try:
        code = rules.read_code(code_text)
        student = rules.read_student_id(student_text)
    except InputError:
        return None
    if not known_member(code, student) and not await arrivals().joined(code, student):
        return None
    return code, student


async def phone_card_route(request: Request) -> JSONResponse:
    """``GET /api/room/{code}/card?me=STUDENT&lang=LANG[&known=REVISION]``: the student's card
    (``ui.phones.card``), which the phone draws itself. With ``known``, the revision of the card the phone
    shows, the answer is ``{"revision": N, "same": true}`` while the room is still at that revision (from the
    process's short revision cache, else the database), so the phone asks this one route every 0.75 s and gets a
    new card in the same request as the news of it. Strangers get the same 404 as from the other routes; an outage
    is a 503."""
    try:
        who = await member(request.path_params["code"], request.query_params.get("me"))
        if who is None:
            return not_found()
        known, told = read_known(request.query_params.get("known", "")), None
        if known is not None:
            revision = await revision_now(who[0])
            if revision is None:
                return not_found()
            if revision == known:
                return JSONResponse({"revision": revision, "same": True}, headers=NO_STORE)
            told = revision
        lang = language(request.query_params.get("lang"))
        card = await card_now(runtime().service, *who, lang, told)
    except Unreadable as err:
        return bad_request(str(err))
    except InputError:
        return not_found()
    except StoreUnavailable:
        return unavailable()
    return JSONResponse(card, headers=NO_STORE)


def event(name: str, data: dict[str, Any], revision: int | str | None = None) -> str:
    """One Server-Sent Event: its id (the room's revision, or a mark), its name, and its data as one line of JSON."""
    head = f"id: {revision}\n" if revision is not None else ""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return f"{head}event: {name}\ndata: {text}\n\n"


async def card_stream(code: str, student: str, lang: str, known: int | None, revision: int) -> AsyncIterator[str]:
    """A phone's stream: ``retry``, then its card if the room moved past ``known`` (else ``same``), then its card
    each time the room's revision moves on, woken by the process's hub (one event per room, no timer per phone),
    and a keep-alive comment when quiet. It ends when the room is gone or the database stops answering: the phone
    then opens a new stream, and when that brings nothing, asks the card route (which says which)."""
    hub, svc = notices(), runtime().service
    yield f"retry: {RETRY_MS}\n\n"
    if hub.closed:
        return
    shown = known
    mark = hub.mark(code)
    if hub.live and mark.revision is not None and mark.revision > revision:
        revision = mark.revision  # heard of while the revision was read (a read shared with phones before this one)
    while True:
        if revision != shown:
            try:
                card = await card_now(svc, code, student, lang, revision)
                if mark.revision is not None and card["revision"] < mark.revision:
                    room_changed(code)  # a revision read just before the notice: read the room once more
                    card = await run_in_threadpool(card_json, code, student, lang)
            except (InputError, StoreUnavailable):
                return
            shown = card["revision"]
            yield event("card", card, shown)
        elif known is not None and shown == known:
            yield event("same", {"revision": shown}, shown)
            known = None  # said once, at the start: a stream's first event comes at once, whatever the room
        while not await hub.wait(code, mark, KEEP_ALIVE_SECONDS if hub.live else UNHEARD_SECONDS):
            if not hub.live:
                break  # no notices now: look at the room's revision as a poll would (shared by the process)
            yield ": keep-alive\n\n"
        if hub.closed:
            return
        heard, mark = mark, hub.mark(code)
        # Woken by a notice (not by a reset, after which anything may have changed): it says the revision.
        told = hub.live and mark.epoch == heard.epoch and mark.revision is not None
        if told and shown is not None and mark.revision is not None and mark.revision <= shown:
            continue  # a notice of a revision shown already (sent twice by a retried write, or read before it came)
        if told and mark.revision is not None:
            revision = mark.revision  # its card reads the room, once for the process's phones (``card_now``)
            continue
        try:
            read = await revision_now(code)
        except StoreUnavailable:
            return
        if read is None:
            return
        revision = max(read, mark.revision or -1)


def end_streams() -> None:
    """End every phone's event stream of this process (it is stopping): each phone reconnects to a live one."""
    notices().close()


class HeldStream(StreamingResponse):
    """An event stream that holds one of ``StreamSlots``'s slots of ``key`` until it ends, however it ends (the
    client gone before its first event included)."""

    def __init__(self, content: AsyncIterator[str], key: tuple[str, ...]) -> None:
        super().__init__(content, media_type="text/event-stream", headers=STREAM_HEADERS)
        self.key = key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            stream_slots().give_back(self.key)


def too_many_streams() -> JSONResponse:
    """A client with as many streams open as it may have: a 429, after which a phone asks the card route and a
    teacher's page runs by its timer, as where streams do not get through."""
    return JSONResponse({"error": "streams"}, status_code=429, headers={**NO_STORE, "Retry-After": "10"})


def held_stream(content: Callable[[], AsyncIterator[str]], key: tuple[str, ...], limit: int) -> Response:
    """``content()`` as a ``HeldStream`` of ``key`` when fewer than ``limit`` of its streams are open, else
    ``too_many_streams``."""
    if not stream_slots().take(key, limit):
        return too_many_streams()
    return HeldStream(content(), key)


async def events_route(request: Request) -> Response:
    """``GET /api/room/{code}/events?me=STUDENT&lang=LANG[&known=REVISION]``: the student's card as Server-Sent
    Events (``card_stream``), ``text/event-stream``. Strangers get the same 404 as from the card route; an outage
    is a 503; a student with ``HttpLimits.streams_per_student`` streams open in this process gets a 429 for
    another (the phone then asks the card route)."""
    try:
        known = read_known(request.query_params.get("known", ""))
        who = await member(request.path_params["code"], request.query_params.get("me"))
        if who is None:
            return not_found()
        notices()  # this process's hub and listener, before the first look at the room
        revision = await revision_now(who[0])
    except Unreadable as err:
        return bad_request(str(err))
    except InputError:
        return not_found()
    except StoreUnavailable:
        return unavailable()
    if revision is None:
        return not_found()
    lang = language(request.query_params.get("lang"))
    code, student = who
    return held_stream(
        lambda: card_stream(code, student, lang, known, revision),
        ("student", code, student),
        http_limits().streams_per_student,
    )


async def room_watch(code: str, seen: str | None) -> AsyncIterator[str]:
    """A teacher's page's stream (``ui/widgets/room_watch.js``): ``retry``, then at once ``same`` if the mark the
    process has heard is ``seen`` (the mark the page was drawn at, or the stream's last id when the browser
    reconnects), else ``changed``, each with that mark as its id; then ``changed`` at each notice of the room (an
    action, an answer, a join), at most one per ``WATCH_GAP_SECONDS``. While the process hears no notices,
    ``changed`` each ``UNHEARD_SECONDS``, so the page reads the room as its timer did. It ends when the process
    stops."""
    hub = notices()
    yield f"retry: {RETRY_MS}\n\n"
    mark = hub.mark(code)
    # An event at once either way: a page whose stream brings none is behind a proxy that holds events back.
    yield event("same" if seen == mark.text() else "changed", {}, mark.text())
    while not hub.closed:
        heard = await hub.wait(code, mark, KEEP_ALIVE_SECONDS if hub.live else UNHEARD_SECONDS, anything=True)
        if hub.closed:
            return
        if not heard and hub.live:
            yield ": keep-alive\n\n"
            continue
        mark = hub.mark(code)
        yield event("changed", {}, mark.text())
        await asyncio.sleep(WATCH_GAP_SECONDS)


async def watch_route(request: Request) -> Response:
    """``GET /api/room/{code}/watch[?seen=MARK]``: when room ``code`` changes, as Server-Sent Events
    (``room_watch``), for the live part of the control page and the projector view. It says only that something
    changed, never what.

    A room that does not exist (or no longer does) is answered as one that does and has not changed: the route
    tells nobody whether a code is a room's, so guessing codes here learns nothing, and needs no limit of its own
    (joining is where a wrong code counts). A code that is not one (its form is public) is a 404; an outage is a
    503 (it says nothing of the room either). A client address with ``HttpLimits.watch_streams_per_client``
    streams open in this process gets a 429 for another (the page then runs by its timer)."""
    try:
        code = rules.read_code(request.path_params["code"])
        notices()  # this process's hub and listener, before the first look at the room
        await revision_now(code)  # an outage is said now, as for a known room; the revision itself is not used
    except InputError:
        return not_found()
    except StoreUnavailable:
        return unavailable()
    seen = request.headers.get("last-event-id") or request.query_params.get("seen")
    client = request.client.host if request.client is not None else "local"
    return held_stream(lambda: room_watch(code, seen), ("watch", client), http_limits().watch_streams_per_client)


async def answer_route(request: Request) -> JSONResponse:
    """``POST /api/room/{code}/answer`` with JSON ``{"me", "lang", "activity", "values": [[part, value], ...]}``:
    store a student's answer sent from the card; ``{"ok", "message", "card"}`` back (the message in the student's
    language, the card as it is after the answer). Only JSON is taken, so a form on another site cannot post here
    (a browser asks first before sending JSON across sites)."""
    body = await json_body(request)
    if isinstance(body, JSONResponse):
        return body
    try:
        who = await member(request.path_params["code"], body.get("me"))
    except StoreUnavailable:
        who = ("", "")  # the answer's own try says so, in the student's language
    if who is None:
        return not_found()
    lang = language(body.get("lang"))
    if who == ("", ""):
        reply = student_card.unavailable(Translator(lang))
    else:
        reply = await run_in_threadpool(submit, *who, lang, body)
    return JSONResponse(reply.to_json(), headers=NO_STORE)


def too_large() -> JSONResponse:
    return JSONResponse({"error": "too_large"}, status_code=413, headers={**NO_STORE, "Connection": "close"})


async def read_body(request: Request, limit: int) -> bytes | None:
    """A request's body, read up to ``limit`` bytes (``None``: it is longer, by its ``Content-Length`` before any
    of it is read, or by what arrives)."""
    length = request.headers.get("content-length")
    if length is not None and not (length.isascii() and length.isdigit() and len(length) <= 12):
        return None
    if length is not None and int(length) > limit:
        return None
    parts, size = [], 0
    async for part in request.stream():
        size += len(part)
        if size > limit:
            return None
        parts.append(part)
    return b"".join(parts)


async def json_body(request: Request) -> dict[str, Any] | JSONResponse:
    """A request's JSON object, or the response refusing it: only JSON is taken, so a form on another site cannot
    post here (a browser asks first before sending JSON across sites); a body over ``HttpLimits.max_body_bytes`` is
    a 413, read no further; a body that is not one JSON object (nested too deep to read included) is a 400."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return JSONResponse({"error": "json"}, status_code=415, headers=NO_STORE)
    raw = await read_body(request, http_limits().max_body_bytes)
    if raw is None:
        return too_large()
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        return bad_request("json")
    if not isinstance(body, dict):
        return bad_request("json")
    return body


def page(make: Callable[[str], str], status_code: int = 200) -> HTMLResponse:
    """A phone's page, ``make(nonce)``, with its Content Security Policy (only its own script and style run)."""
    nonce = new_nonce()
    headers = {**NO_STORE, "Content-Security-Policy": page_policy(nonce)}
    return HTMLResponse(make(nonce), status_code=status_code, headers=headers)


async def join_page_route(request: Request) -> HTMLResponse:
    """``GET /join/{code}?lang=LANG``: the join page of a room (``ui.phones.join_page``); a code that is
    not one gets the page for an address that is no room's (404). Whether the room is open is said when Join is
    pressed, as on the Classroom page (a wrong code counts against its source there). Without ``lang``, the
    browser's own language if the app has it."""
    asked = request.query_params.get("lang")
    lang = language(asked) if asked else browser_language(request.headers.get("accept-language", ""))
    try:
        code = rules.read_code(request.path_params["code"])
    except InputError:
        return page(lambda nonce: phone_page.not_found_html(lang, nonce), 404)
    return page(lambda nonce: join_page.join_html(code, lang, nonce))


async def join_route(request: Request) -> JSONResponse:
    """``POST /api/room/{code}/join`` with JSON ``{"lang", "nickname", "me", "again"}``: join the room
    (``join_page.join``); ``{"ok", "me", "phone"}`` or ``{"ok": false, "message"}`` back, in the student's
    language. The source a wrong code counts against is the client's address (no header a client sends is
    read but from a proxy that ``NDCG_LAB_TRUSTED_PROXIES`` names: ``ui.database.client_address``)."""
    body = await json_body(request)
    if isinstance(body, JSONResponse):
        return body
    lang = language(body.get("lang"))
    try:
        code = rules.read_code(request.path_params["code"])
    except InputError as err:
        return JSONResponse({"ok": False, "message": plain(Translator(lang).explain(err))}, headers=NO_STORE)
    try:
        peer = request.client.host if request.client is not None else None
        source = client_address(peer, request.headers.get("x-forwarded-for"))
    except InputError as err:  # the server's setting is wrong: said, as the Classroom page says it
        return JSONResponse({"ok": False, "message": plain(Translator(lang).explain(err))}, headers=NO_STORE)
    reply = await run_in_threadpool(join_page.join, code, body, lang, source)
    return JSONResponse(reply, headers=NO_STORE)


async def phone_page_route(request: Request) -> HTMLResponse:
    """``GET /phone/{code}?me=STUDENT&lang=LANG``: the student's phone page (``ui.phones.phone_page``).
    Anyone else gets a short page saying to join again (404), as strangers get from the other routes; while the
    database cannot answer, a 503 page that reloads itself."""
    lang = language(request.query_params.get("lang"))
    try:
        code = rules.read_code(request.path_params["code"])
        student = rules.read_student_id(request.query_params.get("me"))
        found = await run_in_threadpool(phone_page.student_of, code, student)
    except InputError:
        found = None
    except StoreUnavailable:
        return page(lambda nonce: phone_page.unavailable_html(lang, nonce), 503)
    if found is None:
        return page(lambda nonce: phone_page.not_found_html(lang, nonce), 404)
    joined = found
    return page(lambda nonce: phone_page.page_html(joined, lang, nonce))
