"""Who this browser is in a room: the link (``?room=CODE``, ``&me=ID``, the teacher's ``#key=SECRET``, or an older
link's ``&key=SECRET``), what the browser keeps, starting a room, joining one and leaving.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

import streamlit as st

from ndcg_core.classroom import rules
from ndcg_core.classroom.lessons import Lesson
from ndcg_core.classroom.storage import Room
from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import client_source, is_member, passphrase_asked, runtime
from ui.i18n import Translator
from ui.state import (
    ClassroomState,
    app_state,
    classroom_state,
    reset_classroom,
    widget_value,
)
from ui.views.classroom.commands import refusal_shown
from ui.widgets.browser_memory import browser_memory
from ui.widgets.link_key import link_key

# How long a page with a room but no identity waits for the browser to say what it keeps (its report comes within
# a fraction of a second) before it offers the join form anyway, and how often it looks meanwhile.
MEMORY_WAIT_SECONDS = 2.0


MEMORY_LOOK_SECONDS = 0.5
LINK_KEY = "cr_link_key"
PASSPHRASE = "_w_cr_passphrase"  # the lecturer's passphrase box's key


def apply_link(t: Translator, cs: ClassroomState) -> ClassroomState:
    """Take the room, student id and teacher key a link brings (once each); the key leaves the address bar."""
    params = st.query_params
    room_param = params.get("room")
    if room_param and room_param != cs.room:
        try:
            code = rules.read_code(room_param)
        except InputError as err:
            app_state().notice = t("classroom.bad_link", message=t.explain(err))
            del st.query_params["room"]
        else:
            if code != cs.room:
                cs = reset_classroom()
                cs.room = code
    if cs.room is None:
        return cs
    me = params.get("me")
    if me and me != cs.student and cs.key is None:
        try:
            cs.student = rules.read_student_id(me)
        except InputError as err:
            app_state().notice = t("classroom.bad_link", message=t.explain(err))
            del st.query_params["me"]
    key = params.get("key")
    if key:
        # Off the address bar at once: a projected screen would show it to the class.
        del st.query_params["key"]
        if runtime().is_teacher(cs.room, key):
            cs.key, cs.student = key, None
        else:
            cs.messages["top"] = t.explain(InputError("room.bad_key"))
    return cs


def take_link_key(cs: ClassroomState) -> None:
    """Listen for the teacher's key in the address's fragment (a control link's ``#key=``, never sent to a server)."""
    if cs.room is not None and cs.key is None:
        link_key(on_link_key, key=LINK_KEY)


def on_link_key() -> None:
    """The page's address carried ``#key=...`` (now gone from it): this session controls the room if it is the key."""
    cs = classroom_state()
    key = (widget_value(LINK_KEY) or {}).get("key")
    if cs.room is None or cs.key is not None or not isinstance(key, str) or not key:
        return
    t = Translator(app_state().lang)
    try:
        if runtime().is_teacher(cs.room, key):
            cs.key, cs.student = key, None
        else:
            cs.messages["top"] = t.explain(InputError("room.bad_key"))
    except StoreUnavailable as err:
        cs.messages["top"] = t.explain(err)


def on_memory() -> None:
    """The browser reported what it keeps for this room (before the page runs): adopt it (if the database is not
    answering, the page's run that follows shows the notice, and adopts it once the database is back)."""
    with suppress(StoreUnavailable):
        adopt_memory(classroom_state(), widget_value("cr_memory").get("memory"))


def adopt_memory(cs: ClassroomState, reported: Any) -> None:
    """Take what this browser keeps for the room (``{"room", "me", "key"}``) as this session's identity: a teacher
    key the store accepts, or a student id the room knows. The same for whichever of the teacher's views the page
    draws: it asks only whether this browser holds the key for this room."""
    if cs.room is None or not isinstance(reported, dict) or reported.get("room") != cs.room:
        return  # nothing reported yet, or a report about another room
    memory = {"room": cs.room, "me": reported.get("me"), "key": reported.get("key")}
    if memory == cs.memory:
        return
    # Taken as reported only once the store has answered: a report met by a database outage is looked at again.
    if cs.key is None and memory["key"] and runtime().is_teacher(cs.room, memory["key"]):
        cs.key, cs.student = memory["key"], None
    elif cs.key is None and cs.student is None and memory["me"]:
        try:
            me = rules.read_student_id(memory["me"])
        except InputError:
            me = None
        if me is not None and runtime().student(cs.room, me) is not None:
            cs.student = me
    cs.memory = memory


def remember(cs: ClassroomState) -> None:
    """Keep this session's identity in the browser, and learn what the browser already holds.

    The browser's report is read from the component's value on every run, not only in ``on_memory``: a new server
    session (the server restarted, or the page reconnected to another server process) gets the value the browser
    already holds with its first run, and Streamlit calls no ``on_change`` for a widget the session has not drawn
    yet, nor later, since the value does not change. Reading it here makes a teacher's page come back to the
    teacher's controls by itself.
    """
    if cs.room is None:
        return
    identity = {"key": cs.key} if cs.key else {"me": cs.student} if cs.student else None
    known = cs.memory
    if known is None and cs.student and not cs.key and is_member(cs.room, cs.student):
        # A student's page opened by their link in a new session (a reload, or a reconnect to another process
        # after one failed): a browser that keeps just that id need not report it, which would rerun the page
        # once more (a whole class at once when a process fails). Any other memory, a teacher's key included,
        # is still reported, and so is any memory for an id the room does not know.
        known = {"room": cs.room, "me": cs.student, "key": None}
    held = browser_memory(cs.room, known=known, remember=identity, on_change=on_memory)
    adopt_memory(cs, held.get("memory"))


def memory_reported(cs: ClassroomState) -> bool:
    """Whether this browser has said what it keeps for the room (or was given up on, ``MEMORY_WAIT_SECONDS``)."""
    return cs.memory is not None and cs.memory.get("room") == cs.room


def new_room(lesson: Lesson | None = None) -> tuple[Room, str]:
    """A new room (running ``lesson``, if given) and its key, started by this page's client with the passphrase
    typed (when the server asks for one); an ``InputError`` when refused (the passphrase, the rooms per client and
    hour, the rooms open)."""
    source, passphrase = client_source(), widget_value(PASSPHRASE)
    if lesson is None:
        return runtime().start_room(source=source, passphrase=passphrase)
    return runtime().start_lesson(lesson, source=source, passphrase=passphrase)


def passphrase_box(t: Translator) -> None:
    """The lecturer's passphrase, on a server that asks for one before starting a room (hidden as typed)."""
    if passphrase_asked():
        st.text_input(t("classroom.passphrase"), key=PASSPHRASE, type="password", help=t("classroom.passphrase_help"))


def start_room() -> None:
    with refusal_shown("start") as attempt:
        room, key = new_room()
    if attempt.refused:
        return
    cs = reset_classroom()
    cs.room, cs.key = room.code, key


def join_form(t: Translator, key: str, on_join: Callable[[], None], button_key: str, *, code: bool = False) -> None:
    """The join form: the room's code (``code``) and the nickname, then Join. A form that Enter does not send, so
    Streamlit writes no English "Press Enter" over the boxes; the nickname's limit is said under its box, and a
    longer one is refused with a message when Join is pressed (never cut silently)."""
    with st.form(key, enter_to_submit=False, border=False):
        if code:
            st.text_input(
                t("classroom.code"), key="_w_cr_code", max_chars=12, placeholder="K7P3QX", help=t("classroom.code_help")
            )
        st.text_input(t("classroom.nickname"), key="_w_cr_nickname")
        st.caption(t("classroom.nickname_help", limit=rules.MAX_NICKNAME))
        st.form_submit_button(t("classroom.join"), on_click=on_join, type="primary", key=button_key, width="stretch")


def join(code: Any) -> None:
    """Join a room by its code, with the nickname typed (this browser's id, or a new one)."""
    cs = classroom_state()
    me = cs.student or rules.new_student_id()
    with refusal_shown("join") as attempt:
        student = runtime().join(code, me, widget_value("_w_cr_nickname"), source=client_source())
    if attempt.refused:
        return
    if student.room != cs.room:
        cs = reset_classroom()
    cs.room, cs.student = student.room, student.id


def on_join_typed() -> None:
    join(widget_value("_w_cr_code"))


def on_join_here() -> None:
    join(classroom_state().room)


def leave() -> None:
    reset_classroom()
    for name in ("room", "me", "key"):
        if name in st.query_params:
            del st.query_params[name]
