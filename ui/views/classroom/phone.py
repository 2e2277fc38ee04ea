"""A student's phone: the language, joining, and the current activity drawn by its kind's phone view
(``kinds.VIEWS``), with one status line under the answer.
"""

from __future__ import annotations

import time
from dataclasses import replace

import streamlit as st

from ndcg_core.classroom import rules
from ndcg_core.classroom.store import ActivityRow, Room
from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import anyone_answered, last_room, room_now, store
from ui.format import md_escape
from ui.i18n import LANGUAGES, Translator
from ui.state import (
    ClassroomState,
    app_state,
    classroom_state,
    set_link_value,
    set_widget_value,
    widget_value,
)
from ui.views.classroom.common import activity_heading, outage_text, show_message
from ui.views.classroom.identity import MEMORY_LOOK_SECONDS, MEMORY_WAIT_SECONDS, memory_reported, on_join_here
from ui.views.classroom.kinds import VIEWS
from ui.views.classroom.lesson_run import show_countdown, time_is_up
from ui.widgets.phone_card import cards_served, phone_card
from ui.widgets.room_watch import room_watch


def on_student_lang() -> None:
    chosen = widget_value("_w_cr_lang")
    if chosen in LANGUAGES:  # a segmented control can be cleared; the language stays then
        app_state().lang = chosen


def render_student(t: Translator, cs: ClassroomState, room: Room) -> None:
    top, lang = st.columns([3, 2], vertical_alignment="center")
    top.markdown(t("classroom.room_heading_small", code=room.code))
    set_widget_value("_w_cr_lang", app_state().lang)
    lang.segmented_control(
        t("common.language"),
        list(LANGUAGES),
        format_func=LANGUAGES.__getitem__,
        key="_w_cr_lang",
        on_change=on_student_lang,
        label_visibility="collapsed",
    )
    me = store().student(room.code, cs.student) if cs.student else None
    if me is None:
        if room.ended:
            st.info(t("classroom.ended_student"))
            return
        if not memory_reported(cs):
            # Not the join form yet: this browser may hold the teacher's key or a student id for the room (a
            # new page, a restarted server). Its report reruns the page; "Join" here would make a teacher a student.
            if cs.memory_wait is None:
                cs.memory_wait = time.monotonic()
            checking_identity(t.lang)
            return
        st.text_input(
            t("classroom.nickname"),
            key="_w_cr_nickname",
            max_chars=rules.MAX_NICKNAME,
            help=t("classroom.nickname_help"),
        )
        st.button(t("classroom.join"), on_click=on_join_here, type="primary", key="btn_cr_join_here", width="stretch")
        show_message(cs, "join")
        return
    set_link_value("me", me.id)
    st.caption(
        t("classroom.you_are", name=md_escape(me.nickname))
        if me.nickname
        else t("classroom.you_are_number", number=me.number)
    )
    if cards_served():
        texts = {
            "outage": t("classroom.outage"),
            "unknown": t.explain(InputError("room.unknown", code=room.code)),
            "not_sent": t("classroom.card_not_sent"),
        }
        phone_card(room.code, me.id, t.lang, texts)
    else:
        student_room(t.lang, room.code)


@st.fragment(run_every=MEMORY_LOOK_SECONDS)
def checking_identity(lang: str) -> None:
    """A short "Checking who you are…" while the browser's memory has not reported; after
    ``MEMORY_WAIT_SECONDS`` without a report (its script blocked, say), the page offers the join form."""
    cs = classroom_state()
    if memory_reported(cs):
        st.rerun(scope="app")
    if time.monotonic() - (cs.memory_wait or 0.0) >= MEMORY_WAIT_SECONDS:
        cs.memory = {"room": cs.room, "me": None, "key": None}  # as if the browser kept nothing for the room
        st.rerun(scope="app")
    st.info(Translator(lang)("classroom.checking"), icon=":material/hourglass_empty:")


@st.fragment
def student_room(lang: str, code: str) -> None:
    """Everything on a student's phone that the teacher changes: the current activity, a lock, a reveal, the end.

    The room's watcher (``ui.widgets.room_watch``) reruns only this part when the room's revision changes, and
    answering reruns it too, so neither redraws the sidebar and the rest of the page (a third of the server's
    work per phone when a class of 200 gets a new activity at once).
    """
    t = Translator(lang)
    cs = classroom_state()
    outage: StoreUnavailable | None = None
    try:
        room = room_now(code)
    except InputError as err:
        st.error(t.explain(err))
        return
    except StoreUnavailable as err:
        # The room as last seen stays on the phone, with a notice, so what the student typed stays in its box;
        # the watcher (drawn at no revision) redraws this part once the database answers again.
        outage, known = err, last_room(code)
        st.warning(outage_text(t, err), icon=":material/cloud_off:")
        room_watch(code, cs.student or "", OUTAGE_REVISION)
        if known is None:
            return
        room = known
    else:
        room_watch(room.code, cs.student or "", room.revision)
    if room.ended:
        st.info(t("classroom.ended_student"))
    current = room.current
    if current is None:
        st.info(t("classroom.waiting"))
        return
    # Nobody has answered a new activity yet: the class's phones drawing it at once need no read of their own.
    try:
        mine = store().my_answers(current.id, cs.student or "") if anyone_answered(code, current.id) else {}
    except StoreUnavailable as err:
        if outage is None:  # the watcher tells this part when the database is back (its 503s, then a revision)
            st.warning(outage_text(t, err), icon=":material/cloud_off:")
        mine = {}
    # A time limit run out closes answers as a lock does (the store refuses them after it): what was chosen stays.
    time_up = time_is_up(current)
    if time_up:
        current = replace(current, phase="locked")
    else:
        show_countdown(t, current, wake=True)
    heading = activity_heading(t, current)
    # The heading goes out with each activity's first paragraph: one element fewer for every phone to redraw at once.
    unsent = VIEWS[current.kind].student(t, cs, current, mine, f"**{heading}**\n\n")
    status_line(t, cs, current, bool(mine), unsent, time_up)


OUTAGE_REVISION = -1  # no room has it: the watcher's first answer after an outage differs, and redraws


def status_line(
    t: Translator, cs: ClassroomState, current: ActivityRow, answered: bool, unsent: str | None, time_up: bool = False
) -> None:
    """One status line at a time under the answer: while open, the last send's message (saved, or what was
    wrong), else "you can change it" once something is saved; once locked (or the time is up), what was typed but
    not sent, else that answers are locked."""
    place = f"answer-{current.id}"
    if current.phase != "open":
        cs.messages.pop(place, None)  # "saved, you can change it" and an old error are no longer true
        if time_up:
            st.warning(t("classroom.time_up_student") + (" " + unsent if unsent else ""))
        elif unsent:
            st.warning(unsent)
        elif current.phase == "locked":
            st.info(t("classroom.locked_student"))
    elif cs.messages.get(place):
        show_message(cs, place, ok=cs.messages[place] == t("classroom.saved"))
    elif answered:
        st.caption(t("classroom.change_until_locked"))
