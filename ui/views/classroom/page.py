"""The Classroom page's routing: no room (join or start one), the teacher's control page, the projector view
(``?view=screen``) or a student's phone; a database outage is a notice and the page comes back by itself.
"""

from __future__ import annotations

import streamlit as st

from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import database_answers, runtime
from ui.i18n import Translator
from ui.live_part import live_part
from ui.state import (
    ClassroomState,
    app_state,
    classroom_state,
    has_widget_value,
    set_link_value,
    set_widget_value,
    widget_values,
)
from ui.views.classroom.common import OUTAGE_LOOK_SECONDS, SCREEN, VIEW_PARAM, outage_text, show_message
from ui.views.classroom.control import render_control
from ui.views.classroom.identity import (
    apply_link,
    join_form,
    leave,
    on_join_typed,
    passphrase_box,
    remember,
    start_room,
    take_link_key,
)
from ui.views.classroom.lesson_editor import render_editor
from ui.views.classroom.lesson_run import render_lesson_start
from ui.views.classroom.phone import render_student
from ui.views.classroom.screen import render_screen


@live_part(OUTAGE_LOOK_SECONDS)
def database_back(lang: str) -> None:
    """Under the notice of a page that could not be drawn: redraw the whole page once the database answers."""
    if database_answers():
        st.rerun(scope="app")


def render_landing(t: Translator, cs: ClassroomState) -> None:
    """No room yet: join one with a code, or start one."""
    st.markdown(t("classroom.intro"))
    left, right = st.columns(2, gap="large")
    with left:
        st.subheader(t("classroom.join_heading"))
        join_form(t, "cr_join_code", on_join_typed, "btn_cr_join_code", code=True)
        show_message(cs, "join")
    with right:
        st.subheader(t("classroom.start_heading"))
        st.markdown(t("classroom.start_help"))
        passphrase_box(t)
        st.button(t("classroom.start"), on_click=start_room, key="btn_cr_start")
        show_message(cs, "start")
        render_lesson_start(t)
    st.subheader(t("editor.heading"))
    st.caption(t("editor.help"))
    render_editor(t)


def render_page(t: Translator) -> None:
    """The Classroom page; when the database cannot serve, a short notice, and the page comes back by itself."""
    cs = classroom_state()
    for key, value in cs.typed.items():  # what was typed before an outage cut a run short, back in its widget
        if not has_widget_value(key):
            set_widget_value(key, value)
    cs.typed = {}
    try:
        draw_page(t)
    except StoreUnavailable as err:
        # The widgets this run did not draw lose their values: kept here until the page is drawn again.
        cs.typed = widget_values("_w_cr_")
        st.warning(outage_text(t, err), icon=":material/cloud_off:")
        database_back(t.lang)


def draw_page(t: Translator) -> None:
    cs = apply_link(t, classroom_state())
    if cs.room is None:
        st.title(t("classroom.title"))
        render_landing(t, cs)
        return
    take_link_key(cs)
    remember(cs)
    try:
        room = runtime().room(cs.room)
    except InputError as err:
        st.title(t("classroom.title"))
        st.error(t.explain(err))
        st.button(t("classroom.start_over"), on_click=leave, key="btn_cr_leave")
        return
    set_link_value("room", room.code)
    set_link_value("lang", app_state().lang)
    show_message(cs, "top")
    if cs.key is not None and st.query_params.get(VIEW_PARAM) == SCREEN:
        render_screen(t, room)
    elif cs.key is not None:
        render_control(t, cs, room)
    else:
        render_student(t, cs, room)
