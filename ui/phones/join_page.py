"""Joining a room from its link under ``serve.py`` (``GET /join/{code}?lang=LANG``): a small page of its own with the
nickname form, not a Streamlit page, posting to the join route (``POST /api/room/{code}/join``); the phone then goes
to its own page (``phone_page.py``). Without ``serve.py`` the join link is the Classroom page's, where the same form
is drawn with Streamlit (``identity.join_form``).

Why a page of its own: a join through the Classroom page is a Streamlit session and two page runs on the server (the
page, then the press of Join), and a phone loads Streamlit's whole front end for one text box. A class of 2,000
joining within a minute was more than two cores could run; here a join is one small page and one request.
"""

from __future__ import annotations

import html
import json
from functools import cache
from typing import Any
from urllib.parse import urlencode

from ndcg_core.classroom import rules
from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import learned_member, runtime
from ui.i18n import Translator
from ui.phones.card import plain
from ui.phones.phone_page import WIDGETS, fill, language_links, page_address, runs_html


def join_address(code: str, lang: str) -> str:
    """The join page of room ``code`` in language ``lang``."""
    return f"/join/{code}?{urlencode({'lang': lang})}"


@cache
def _assets() -> tuple[str, str, str]:
    """The page's template, the card's CSS (its form looks like a card's) and its script."""
    template = (WIDGETS / "join_page.html").read_text(encoding="utf-8")
    css = (WIDGETS / "phone_card.css").read_text(encoding="utf-8")
    js = (WIDGETS / "join_page.js").read_text(encoding="utf-8")
    return template, css, js


def join_html(code: str, lang: str, nonce: str = "") -> str:
    """The join page of room ``code`` (a code already read by ``rules.read_code``); ``nonce``: its script's and
    style's, which the page's Content Security Policy names."""
    t = Translator(lang)
    data = {
        "code": code,
        "lang": lang,
        "join": f"/api/room/{code}/join",
        "teacher": f"/Classroom?{urlencode({'room': code})}",
        "texts": {"failed": t("classroom.join_not_sent"), "offline": t("classroom.join_not_sent")},
    }
    template, css, js = _assets()
    values = {
        "lang": "zh-Hans" if lang == "zh" else lang,
        "title": html.escape(f"{t('classroom.join_heading')} · NDCG Lab"),
        "room": runs_html(t("classroom.room_heading_small", code=code)),
        "language": html.escape(t("common.language")),
        "languages": language_links(lambda other: join_address(code, other), lang),
        "heading": html.escape(t("classroom.join_heading")),
        "nickname": html.escape(t("classroom.nickname")),
        "nickname_help": runs_html(t("classroom.nickname_help", limit=rules.MAX_NICKNAME)),
        "join": html.escape(t("classroom.join")),
        # JSON inside <script>: "<" written as its escape, so no text in it can close the element.
        "data": json.dumps(data, ensure_ascii=False).replace("<", "\\u003c"),
        "css": css,
        "js": js,
        "nonce": nonce,
    }
    return fill(template, values)


def join(code: str, body: dict[str, Any], lang: str, source: str) -> dict[str, Any]:
    """What the join form posted (``{"nickname", "me", "again"}``), done: ``{"ok": true, "me", "phone"}`` (the
    student's id and phone page), or ``{"ok": false, "message"}`` in the student's language. ``me`` is the id this
    browser joined with before (a bad one is replaced by a new id); ``again``: only back to that student's phone,
    never a new join (an empty message when the room does not know the id: the form is shown)."""
    t = Translator(lang)
    try:
        me = rules.read_student_id(body.get("me")) if body.get("me") else rules.new_student_id()
    except InputError:
        me = rules.new_student_id()
    try:
        if body.get("again") is True:
            student = runtime().student(code, me)
            if student is None:
                return {"ok": False, "message": ""}
        else:
            student = runtime().join(code, me, body.get("nickname"), source=source)
    except InputError as err:
        return {"ok": False, "message": plain(t.explain(err))}
    except StoreUnavailable:
        return {"ok": False, "message": plain(t("classroom.join_outage"))}
    learned_member(student.room, student.id)  # its phone page's first requests need not ask the database
    return {"ok": True, "me": student.id, "phone": page_address(student.room, student.id, lang)}
