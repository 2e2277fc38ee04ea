"""HTTP routes served beside the app by ``serve.py`` (plain JSON, no page run behind them)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from ndcg_core.classroom import rules
from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import fresh_revision, is_member, known_member, room_revision


async def room_revision_route(request: Request) -> JSONResponse:
    """``GET /api/room/{code}/revision?me=STUDENT``: the room's revision, which changes with every teacher action.

    A student's phone polls this every second and reruns its part of the page only when the number changes, so a
    class waiting between activities costs the server no page runs. Only a student of the room gets an answer: a
    room that does not exist or has expired, and a student id that has not joined it, are the same 404, so the
    route tells a stranger nothing about which codes are in use (joining with a wrong code is slowed; this must
    not be a way round that). A revision this process read within ``REVISION_TTL`` is answered at once; otherwise
    the database is read in a worker thread, off the event loop, tried once: when it is not answering, the answer
    is ``503 {"error": "unavailable"}`` and the phone keeps asking.
    """
    try:
        code = rules.read_code(request.path_params["code"])
        student = rules.read_student_id(request.query_params.get("me"))
    except InputError:
        return not_found()
    try:
        if not known_member(code, student) and not await run_in_threadpool(is_member, code, student):
            return not_found()
        known, revision = fresh_revision(code)
        if not known:
            revision = await run_in_threadpool(room_revision, code, True)
    except StoreUnavailable:
        return JSONResponse({"error": "unavailable"}, status_code=503, headers=NO_STORE)
    if revision is None:
        return not_found()
    return JSONResponse({"revision": revision}, headers=NO_STORE)


NO_STORE = {"Cache-Control": "no-store"}


def not_found() -> JSONResponse:
    return JSONResponse({"error": "room.unknown"}, status_code=404, headers=NO_STORE)
