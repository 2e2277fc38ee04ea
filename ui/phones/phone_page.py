"""A student's phone page under ``serve.py``: a small page of its own (``GET /phone/{code}?me=ID&lang=LANG``), not a
Streamlit page. It draws the student's card (``ui/widgets/phone_card.js``) as the events route sends it (a stream of
Server-Sent Events that brings the new card the moment the teacher acts), falls back by itself to asking the card
route every 0.75 s where streams do not get through, and posts answers to the answer route, all over plain HTTP.

Why a page of its own: a Streamlit page keeps a websocket and a session on one server process. When that process
dies, every phone on it comes back at once to the others, each a new session and a page run (about 30 ms of one
core each, measured before this page existed): 500 phones were 15 s of a process's time, while the teacher's live
panel waited. A phone on this page holds no session: its next request goes to a live process through nginx,
and the class carries on. Joining, and finding out who the phone is, stay on the Classroom page, which sends the
phone here once it knows (``ui.views.classroom.phone.render_student``).
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from urllib.parse import urlencode

from ndcg_core.classroom.storage import Student
from ndcg_core.errors import InputError
from ui.database import runtime
from ui.format import md_escape
from ui.i18n import LANGUAGES, Translator
from ui.phones.card import plain, runs
from ui.widgets.served import COMPONENTS

WIDGETS = Path(__file__).resolve().parents[1] / "widgets"

# Set to "1" by serve.py, which serves this page and the card routes; without it (``streamlit run app.py``,
# AppTest) the Classroom page draws the phone's card itself, with Streamlit (``phone.draw_card``).
ROUTES_ENV = "NDCG_LAB_PHONE_ROUTES"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# How often a phone page asks for its card: a "same" answer costs the server about 0.25 ms of a core (1,000 phones,
# a third of a core), and a new activity reaches a phone within this time and the revision cache's.
POLL_SECONDS = 0.75
FALLBACK_SECONDS = 2.0  # how long a phone waits before asking again after a failed request or a 503
# A stream that brings no event this long after it was opened is held up (a proxy that buffers it): it counts as
# failed. After this many failed streams in a row while the card route answers, the page polls instead.
STREAM_GRACE_SECONDS = 4.0
STREAM_TRIES = 3
# While polling, the page tries a stream again this often: a class that fell back while its server was overloaded
# (a replica killed, its phones all arriving at the other) goes back to streams once they get through again.
STREAM_PROBE_SECONDS = 30.0


def pages_served() -> bool:
    """Whether this process serves the phone page and its routes (it was started through ``serve.py``)."""
    return os.environ.get(ROUTES_ENV) == "1"


def page_address(code: str, student: str, lang: str) -> str:
    """The phone page of ``student`` in room ``code``, in language ``lang``."""
    return f"/phone/{code}?{urlencode({'me': student, 'lang': lang})}"


def runs_html(markdown: str) -> str:
    """Markdown (``card.runs``) as HTML: every run escaped, bold ones in ``<strong>``."""
    return "".join(
        f"<strong>{html.escape(text)}</strong>" if bold else html.escape(text)
        for para in runs(markdown)
        for text, bold in para
    )


def language_links(address: Callable[[str], str], lang: str) -> str:
    """The header's links to the page in each of the app's languages (``address(lang)``), the current one marked."""
    return "".join(
        f'<a href="{html.escape(address(other))}" hreflang="{other}" lang="{other}"'
        f' aria-current="{str(other == lang).lower()}">{html.escape(name)}</a>'
        for other, name in LANGUAGES.items()
    )


@cache
def _base_css() -> str:
    return (WIDGETS / "phone_page_base.css").read_text(encoding="utf-8")


def fill(template: str, values: dict[str, str]) -> str:
    """``template`` with each ``{name}`` replaced by its value, and the look both phone pages share put in. One
    pass: what is put in is never read for placeholders again."""
    values = {"base_css": _base_css(), **values}
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


@cache
def _assets() -> tuple[str, str, str]:
    """The page's template, its card's CSS, and its script: SortableJS, then the card's module as a function."""
    template = (WIDGETS / "phone_page.html").read_text(encoding="utf-8")
    css = (WIDGETS / "phone_card.css").read_text(encoding="utf-8")
    card = (WIDGETS / "phone_card.js").read_text(encoding="utf-8")
    card = card.replace("export default function (component)", "function runCard(component)", 1)
    js = (COMPONENTS / "Sortable.min.js").read_text(encoding="utf-8") + "\n" + card
    return template, css, js


def page_html(student: Student, lang: str, nonce: str = "") -> str:
    """The phone page of a student who has joined; ``nonce``: its script's and style's, which the page's Content
    Security Policy names."""
    t = Translator(lang)
    code, me = student.room, student.id
    you = (
        t("classroom.you_are", name=md_escape(student.nickname))
        if student.nickname
        else t("classroom.you_are_number", number=student.number)
    )
    data = {
        "code": code,
        "me": me,
        "lang": lang,
        "card": f"/api/room/{code}/card?{urlencode({'me': me, 'lang': lang})}",
        "events": f"/api/room/{code}/events?{urlencode({'me': me, 'lang': lang})}",
        "grace": int(STREAM_GRACE_SECONDS * 1000),
        "tries": STREAM_TRIES,
        "probe": int(STREAM_PROBE_SECONDS * 1000),
        "answer": f"/api/room/{code}/answer",
        "every": int(POLL_SECONDS * 1000),
        "fallback": int(FALLBACK_SECONDS * 1000),
        "texts": {
            "outage": t("classroom.outage"),
            "unknown": plain(t.explain(InputError("room.unknown", code=code))),
            "not_sent": t("classroom.card_not_sent"),
            "offline": t("connection.lost") + " " + t("connection.kept"),
        },
    }
    values = {
        "lang": "zh-Hans" if lang == "zh" else lang,
        "title": html.escape(f"{t('classroom.room_heading_small', code=code).strip('*')} · NDCG Lab"),
        "room": runs_html(t("classroom.room_heading_small", code=code)),
        "language": html.escape(t("common.language")),
        "languages": language_links(lambda other: page_address(code, me, other), lang),
        "you": runs_html(you),
        # JSON inside <script>: "<" written as its escape, so no text in it can close the element.
        "data": json.dumps(data, ensure_ascii=False).replace("<", "\\u003c"),
    }
    template, css, js = _assets()
    return fill(template, values | {"css": css, "js": js, "nonce": nonce})


def student_of(code: str, student: str) -> Student | None:
    """The student ``student`` of room ``code`` as stored, or ``None``."""
    return runtime().student(code, student)


def short_html(lang: str, text: str, *, join: bool = False, reload_after: int = 0, nonce: str = "") -> str:
    """A page of one sentence: with a link back to joining, or reloading itself after ``reload_after`` seconds
    (``nonce``: its style's)."""
    t = Translator(lang)
    refresh = f'<meta http-equiv="refresh" content="{reload_after}">' if reload_after else ""
    link = f'<p><a href="/Classroom">{html.escape(t("classroom.join"))}</a></p>' if join else ""
    return (
        f'<!doctype html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">{refresh}'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>NDCG Lab</title>'
        f'<style nonce="{html.escape(nonce)}">body {{ font-family: system-ui, sans-serif; margin: 1rem; }}</style>'
        "</head>"
        f"<body><p>{html.escape(plain(text))}</p>{link}"
        "</body></html>"
    )


def not_found_html(lang: str, nonce: str = "") -> str:
    """The page for an address that is no phone of a room: what happened, and the way back to joining."""
    return short_html(lang, Translator(lang)("classroom.phone_not_found"), join=True, nonce=nonce)


def unavailable_html(lang: str, nonce: str = "") -> str:
    """The page while the database cannot say whose phone this is: it tries again every few seconds."""
    return short_html(lang, Translator(lang)("classroom.outage"), reload_after=3, nonce=nonce)
