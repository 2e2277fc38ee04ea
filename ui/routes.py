"""HTTP routes served beside the app by ``serve.py`` (plain JSON, no page run behind them)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from ndcg_core.classroom import rules
from ndcg_core.errors import InputError
from ui.database import fresh_revision, room_revision


async def room_revision_route(request: Request) -> JSONResponse:
    """``GET /api/room/{code}/revision``: the room's revision, which changes with every teacher action.

    A student's phone polls this every second and reruns its part of the page only when the number changes, so a
    class waiting between activities costs the server no page runs. A room that does not exist, or has expired,
    is a 404. A revision this process read within ``REVISION_TTL`` is answered at once; otherwise the database is
    read in a worker thread, off the event loop.
    """
    try:
        code = rules.read_code(request.path_params["code"])
    except InputError as err:
        return JSONResponse({"error": err.code}, status_code=404, headers=NO_STORE)
    known, revision = fresh_revision(code)
    if not known:
        revision = await run_in_threadpool(room_revision, code)
    if revision is None:
        return JSONResponse({"error": "room.unknown"}, status_code=404, headers=NO_STORE)
    return JSONResponse({"revision": revision}, headers=NO_STORE)


NO_STORE = {"Cache-Control": "no-store"}
