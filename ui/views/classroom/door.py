"""The room's door on the teacher's control page: the room's size, joining closed, and removing a burst of joins
(those of the last minutes, or everyone who never answered), so that a script's joins cannot keep the class out.
An empty room's teacher is told when it will close by itself."""

from __future__ import annotations

import streamlit as st

from ndcg_core.classroom.storage import Room
from ui.database import runtime
from ui.i18n import Translator
from ui.state import app_state, classroom_state, has_widget_value, set_widget_value, widget_value
from ui.views.classroom.commands import refusal_shown, teacher
from ui.views.classroom.common import show_message

SEATS = "_w_cr_seats"
CLOSED = "_w_cr_closed"
RECENT = "_w_cr_recent_minutes"
MOST_MINUTES = 60  # "joined in the last N minutes": a burst is minutes old, never a lesson's length


def door_action(action: str) -> None:
    """Set the room's size, close or open joining, or remove the last minutes' joins (``recent``) or everyone who
    never answered (``silent``), with this session's key (a callback)."""
    t = Translator(app_state().lang)
    cs = classroom_state()
    run = runtime()
    code, key = teacher()
    cs.messages.pop("door_done", None)
    with refusal_shown("door"):
        if action == "seats":
            run.set_seats(code, key, widget_value(SEATS))
        elif action == "closed":
            run.close_joining(code, key, bool(widget_value(CLOSED)))
        elif action == "recent":
            removed = run.kick_recent(code, key, float(widget_value(RECENT, 1)))
            cs.messages["door_done"] = t("classroom.door_removed", count=removed)
        elif action == "silent":
            removed = run.kick_silent(code, key)
            cs.messages["door_done"] = t("classroom.door_removed", count=removed)


def render_door(t: Translator, room: Room) -> None:
    """Who can join: a note when joining is closed or nobody has joined yet, and the door's controls."""
    cs = classroom_state()
    run = runtime()
    door = run.door(room.code)
    if door.closed:
        st.warning(t("classroom.door_closed_note"), icon=":material/door_front:")
    elif room.students == 0:
        st.caption(t("classroom.door_empty", minutes=f"{run.limits.empty_room_minutes:g}"))
    show_message(cs, "door")
    show_message(cs, "door_done", ok=True)
    with st.expander(t("classroom.door"), icon=":material/door_front:"):
        set_widget_value(CLOSED, door.closed)
        st.toggle(
            t("classroom.door_close"),
            key=CLOSED,
            on_change=door_action,
            args=("closed",),
            help=t("classroom.door_close_help"),
        )
        set_widget_value(SEATS, door.seats)
        st.number_input(
            t("classroom.door_seats"),
            min_value=1,
            max_value=run.limits.max_students,
            step=1,
            key=SEATS,
            on_change=door_action,
            args=("seats",),
            help=t("classroom.door_seats_help", limit=run.limits.max_students),
        )
        st.markdown(t("classroom.door_remove_heading"))
        if not has_widget_value(RECENT):
            set_widget_value(RECENT, 1)
        minutes, recent = st.columns([1, 3], vertical_alignment="bottom")
        minutes.number_input(t("classroom.door_minutes"), min_value=1, max_value=MOST_MINUTES, step=1, key=RECENT)
        recent.button(
            t("classroom.door_remove_recent", minutes=widget_value(RECENT, 1)),
            on_click=door_action,
            args=("recent",),
            key="btn_cr_remove_recent",
            width="stretch",
            icon=":material/group_remove:",
        )
        st.button(
            t("classroom.door_remove_silent"),
            on_click=door_action,
            args=("silent",),
            key="btn_cr_remove_silent",
            width="stretch",
            icon=":material/person_off:",
        )
