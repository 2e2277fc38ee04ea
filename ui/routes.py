"""HTTP routes served beside the app by ``serve.py`` (plain JSON, no page run behind them)."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse

from ndcg_core.classroom import rules
from ndcg_core.classroom.service import Submission
from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import fresh_revision, is_member, known_member, room_revision, service
from ui.errors import UiInputError, shown
from ui.i18n import LANGUAGES, Translator
from ui.views.classroom import phone_page, student_card
from ui.views.classroom.student_card import Reply

NO_STORE = {"Cache-Control": "no-store"}
MAX_PART = 10_000  # a part number beyond any activity's: the kind names a wrong one below this


def language(value: Any) -> str:
    """The phone's language from a request (English unless it is one the app has)."""
    return value if isinstance(value, str) and value in LANGUAGES else next(iter(LANGUAGES))


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
    return student_card.card_json(service(), service().card(code, student), lang)


def submit(code: str, student: str, lang: str, body: dict[str, Any]) -> Reply:
    """Store what a card sent, checked once by the service; the reply in the student's language, with the card
    after it."""
    t = Translator(lang)
    try:
        submission = read_submission(body)
    except InputError as err:
        return Reply(False, t.explain(err))
    done = student_card.reply(t, service().submit(code, student, submission))
    card = None
    with suppress(InputError, StoreUnavailable):  # the answer is stored; the phone's next look brings its card
        card = card_json(code, student, lang)
    return Reply(done.ok, done.message, card)


def not_found() -> JSONResponse:
    return JSONResponse({"error": "room.unknown"}, status_code=404, headers=NO_STORE)


async def member(code_text: str, student_text: Any) -> tuple[str, str] | None:
    """The room code and student id of a request when the student has joined the room, else ``None`` (a
    ``StoreUnavailable`` when the database cannot say)."""
    try:
        code = rules.read_code(code_text)
        student = rules.read_student_id(student_text)
    except InputError:
        return None
    if not known_member(code, student) and not await run_in_threadpool(is_member, code, student):
        return None
    return code, student


async def phone_card_route(request: Request) -> JSONResponse:
    """``GET /api/room/{code}/card?me=STUDENT&lang=LANG[&known=REVISION]``: the student's card
    (``ui.views.classroom.card``), which the phone draws itself. With ``known``, the revision of the card the phone
    shows, the answer is ``{"revision": N, "same": true}`` while the room is still at that revision (from the
    process's short revision cache, else the database), so the phone asks this one route every 0.75 s and gets a
    new card in the same request as the news of it. Strangers get the same 404 as from the other routes; an outage
    is a 503."""
    try:
        who = await member(request.path_params["code"], request.query_params.get("me"))
        if who is None:
            return not_found()
        known = request.query_params.get("known", "")
        if known.isdigit():
            fresh, revision = fresh_revision(who[0])
            if not fresh:
                revision = await run_in_threadpool(room_revision, who[0], True)
            if revision is None:
                return not_found()
            if revision == int(known):
                return JSONResponse({"revision": revision, "same": True}, headers=NO_STORE)
        lang = language(request.query_params.get("lang"))
        card = await run_in_threadpool(card_json, *who, lang)
    except InputError:
        return not_found()
    except StoreUnavailable:
        return JSONResponse({"error": "unavailable"}, status_code=503, headers=NO_STORE)
    return JSONResponse(card, headers=NO_STORE)


async def answer_route(request: Request) -> JSONResponse:
    """``POST /api/room/{code}/answer`` with JSON ``{"me", "lang", "activity", "values": [[part, value], ...]}``:
    store a student's answer sent from the card; ``{"ok", "message", "card"}`` back (the message in the student's
    language, the card as it is after the answer). Only JSON is taken, so a form on another site cannot post here
    (a browser asks first before sending JSON across sites)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return JSONResponse({"error": "json"}, status_code=415, headers=NO_STORE)
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"error": "json"}, status_code=400, headers=NO_STORE)
    if not isinstance(body, dict):
        return JSONResponse({"error": "json"}, status_code=400, headers=NO_STORE)
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


async def phone_page_route(request: Request) -> HTMLResponse:
    """``GET /phone/{code}?me=STUDENT&lang=LANG``: the student's phone page (``ui.views.classroom.phone_page``).
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
        return HTMLResponse(phone_page.unavailable_html(lang), status_code=503, headers=NO_STORE)
    if found is None:
        return HTMLResponse(phone_page.not_found_html(lang), status_code=404, headers=NO_STORE)
    return HTMLResponse(phone_page.page_html(found, lang), headers=NO_STORE)
