"""HTTP routes served beside the app by ``serve.py`` (plain JSON, no page run behind them)."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse

from ndcg_core.classroom import rules
from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import fresh_revision, is_member, known_member, room_revision
from ui.views.classroom import phone_api, phone_page

NO_STORE = {"Cache-Control": "no-store"}


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
        lang = phone_api.language(request.query_params.get("lang"))
        card = await run_in_threadpool(phone_api.card_json, *who, lang)
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
    lang = phone_api.language(body.get("lang"))
    if who == ("", ""):
        reply = phone_api.unavailable(lang)
    else:
        reply = await run_in_threadpool(phone_api.answer, *who, lang, body.get("activity"), body.get("values"))
    return JSONResponse(reply.to_json(), headers=NO_STORE)


async def phone_page_route(request: Request) -> HTMLResponse:
    """``GET /phone/{code}?me=STUDENT&lang=LANG``: the student's phone page (``ui.views.classroom.phone_page``).
    Anyone else gets a short page saying to join again (404), as strangers get from the other routes; while the
    database cannot answer, a 503 page that reloads itself."""
    lang = phone_api.language(request.query_params.get("lang"))
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
