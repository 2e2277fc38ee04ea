"""Classroom: a live room. The teacher starts it and projects its code and QR code; students join on their
phones and answer four kinds of activity; the class's answers appear on the projector as they arrive.

Everything lives in the database (``ndcg_core.classroom.store``); every number comes from
``ndcg_core.classroom.activities``. The presenter's panel is a fragment that runs every second
(``st.fragment(run_every=...)``) and redraws the counts and chart. A student's phone asks the server for the room's
revision over plain HTTP every second (``ui.widgets.room_watch``) and reruns its part of the page only when the
teacher has changed something.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import urlencode

import altair as alt
import pandas as pd
import streamlit as st

from ndcg_core.classroom import activities as acts
from ndcg_core.classroom import rules
from ndcg_core.classroom.activities import ListSpec
from ndcg_core.classroom.store import ActivityRow, Room
from ndcg_core.errors import InputError, shown
from ndcg_core.lists.items import Item
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.results import RESULTS
from ndcg_core.teaching.exercises import exercise
from ui import classroom_results
from ui.classroom_results import render_class_summary
from ui.database import answer_stored, anyone_answered, client_source, is_member, room_changed, room_now, store
from ui.exercise_text import choice_text, conventions_text
from ui.exercise_text import explain as explain_exercise
from ui.exercise_text import prompt as exercise_prompt
from ui.format import md_escape, metric_text
from ui.i18n import LANGUAGES, Translator
from ui.join_link import join_link, join_note
from ui.projector import PROJECTOR_FONT, big_chart, share_bars, worked_table
from ui.state import (
    ClassroomState,
    app_state,
    classroom_state,
    has_widget_value,
    page_url,
    playground_state,
    practice_state,
    reset_classroom,
    set_link_value,
    set_widget_value,
    widget_value,
)
from ui.widgets.browser_memory import browser_memory
from ui.widgets.qr import qr_png
from ui.widgets.room_watch import room_watch
from ui.widgets.sortable import apply_action, sortable_list

# How often the presenter's panel runs. Every run of a fragment costs the server about 5 ms of one core whatever
# it draws, which is why students do not poll this way (a class of 200 would need a whole core for it alone,
# benchmarks/load_live_room.py) but through ui.widgets.room_watch.
PRESENTER_SECONDS = 1.0
SOURCES = ("results", "preset", "random", "playground")
# The projector view is the room's address with view=screen, opened from the control page in the teacher's
# browser, which holds the key: the address itself gives nothing away, and any other browser gets a student's page.
VIEW_PARAM, SCREEN = "view", "screen"
# Fixed CSS, no user text, for the projector view only: no sidebar, toolbar or top padding in the way, and every
# text at 20 px or more (Altair's labels are set on the charts themselves, see big_chart).
SCREEN_CSS = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
header[data-testid="stHeader"] { display: none !important; }
section.main .block-container, .stMainBlockContainer {
  max-width: 100% !important; padding: 0.75rem 2rem 1rem !important; }
.stApp p, .stApp li, .stApp label, .stApp .stMarkdown, .stApp td, .stApp th,
.stApp [data-testid="stCaptionContainer"], .stApp [data-testid="stCaptionContainer"] p,
.stApp [data-testid="stCode"] code, .stApp button p, .stApp p code { font-size: 1.35rem !important; }
.stApp [data-testid="stCaptionContainer"], .stApp [data-testid="stCaptionContainer"] p { opacity: 1; }
.stApp [data-testid="stMetricLabel"] p { font-size: 1.35rem !important; }
.stApp [data-testid="stMetricValue"] > div, .stApp [data-testid="stMetricValue"] p {
  font-size: min(3rem, 17cqi) !important; line-height: 1.15; }
.stApp h3 { font-size: 2rem !important; padding: 0.25rem 0 !important; }
.stApp [data-testid="stImage"] img { image-rendering: pixelated; }
</style>
"""
# How long a page with a room but no identity waits for the browser to say what it keeps (its report comes within
# a fraction of a second) before it offers the join form anyway, and how often it looks meanwhile.
MEMORY_WAIT_SECONDS = 2.0
MEMORY_LOOK_SECONDS = 0.5


# --- the link: ?room=CODE (everyone), &me=ID (a student), &key=SECRET (the teacher's keep link) ----------


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
        if store().is_teacher(cs.room, key):
            cs.key, cs.student = key, None
        else:
            cs.messages["top"] = t.explain(InputError("room.bad_key"))
    return cs


def on_memory() -> None:
    """The browser reported what it keeps for this room (before the page runs): adopt it."""
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
    cs.memory = memory
    if cs.key is None and memory["key"] and store().is_teacher(cs.room, memory["key"]):
        cs.key, cs.student = memory["key"], None
    elif cs.key is None and cs.student is None and memory["me"]:
        try:
            me = rules.read_student_id(memory["me"])
        except InputError:
            return
        if store().student(cs.room, me) is not None:
            cs.student = me


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


# --- starting and joining ------------------------------------------------------------------------------


def start_room() -> None:
    t = Translator(app_state().lang)
    try:
        room, key = store().create_room()
    except InputError as err:
        classroom_state().messages["start"] = t.explain(err)
        return
    cs = reset_classroom()
    cs.room, cs.key = room.code, key


def join(code: Any) -> None:
    """Join a room by its code, with the nickname typed (this browser's id, or a new one)."""
    t = Translator(app_state().lang)
    cs = classroom_state()
    me = cs.student or rules.new_student_id()
    try:
        student = store().join(code, me, widget_value("_w_cr_nickname"), source=client_source())
    except InputError as err:
        cs.messages["join"] = t.explain(err)
        return
    if student.room != cs.room:
        cs = reset_classroom()
    cs.room, cs.student = student.room, student.id
    cs.messages.pop("join", None)


def on_join_typed() -> None:
    join(widget_value("_w_cr_code"))


def on_join_here() -> None:
    join(classroom_state().room)


def leave() -> None:
    reset_classroom()
    for name in ("room", "me", "key"):
        if name in st.query_params:
            del st.query_params[name]


def render_landing(t: Translator, cs: ClassroomState) -> None:
    """No room yet: join one with a code, or start one."""
    st.markdown(t("classroom.intro"))
    left, right = st.columns(2, gap="large")
    with left:
        st.subheader(t("classroom.join_heading"))
        st.text_input(
            t("classroom.code"), key="_w_cr_code", max_chars=12, placeholder="K7P3QX", help=t("classroom.code_help")
        )
        st.text_input(
            t("classroom.nickname"),
            key="_w_cr_nickname",
            max_chars=rules.MAX_NICKNAME,
            help=t("classroom.nickname_help"),
        )
        st.button(t("classroom.join"), on_click=on_join_typed, type="primary", key="btn_cr_join_code")
        show_message(cs, "join")
    with right:
        st.subheader(t("classroom.start_heading"))
        st.markdown(t("classroom.start_help"))
        st.button(t("classroom.start"), on_click=start_room, key="btn_cr_start")
        show_message(cs, "start")


def show_message(cs: ClassroomState, place: str, ok: bool = False) -> None:
    text = cs.messages.get(place)
    if text:
        (st.success if ok else st.error)(text)


# --- the page --------------------------------------------------------------------------------------------


def render_page(t: Translator) -> None:
    cs = apply_link(t, classroom_state())
    if cs.room is None:
        st.title(t("classroom.title"))
        render_landing(t, cs)
        return
    remember(cs)
    try:
        room = store().room(cs.room)
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


# --- the teacher -------------------------------------------------------------------------------------------


def teacher_action(action: str, *args: Any) -> None:
    """Lock, reveal, take answers again, run again, show or hide nicknames, or end the room, with this session's
    key."""
    t = Translator(app_state().lang)
    cs = classroom_state()
    s = store()
    try:
        if action == "phase":
            s.set_phase(cs.room or "", cs.key or "", args[0])
        elif action == "again":
            s.run_again(cs.room or "", cs.key or "")
        elif action == "names":
            s.show_names(cs.room or "", cs.key or "", widget_value("_w_cr_names"))
        elif action == "end":
            s.end_room(cs.room or "", cs.key or "")
        room_changed(cs.room or "")
        cs.messages.pop("control", None)
    except InputError as err:
        cs.messages["control"] = t.explain(err)


def control_link(room: Room) -> tuple[str, bool]:
    """The link that gives control of the room on another device (it holds the key), on the address phones can
    open (the join link's), and whether a phone can open it at all (else no QR code is drawn)."""
    secret = urlencode({"key": classroom_state().key or "", "lang": app_state().lang})
    joining = join_link(room.code).url
    if joining is None:
        return f"{page_url({'room': room.code})}&{secret}", False
    return f"{joining}&{secret}", True


def screen_link(room: Room) -> str:
    return page_url({"room": room.code, VIEW_PARAM: SCREEN, "lang": app_state().lang})


def render_control(t: Translator, cs: ClassroomState, room: Room) -> None:
    """The teacher's control page: the buttons first (it works as a phone remote too), then the way to the
    projector view, what the class sees now, the next activity and the results. The key is shown only on request."""
    st.markdown(t("classroom.control_heading", code=room.code))
    cs.control_revision = room.revision
    show_message(cs, "control")
    if room.ended:
        st.info(t("classroom.ended_teacher"))
        render_class_summary(t, store().class_summary(room.code))
    else:
        render_controls(t, room)
    projector, other = st.columns(2, vertical_alignment="center")
    projector.link_button(
        t("classroom.open_screen"), screen_link(room), icon=":material/present_to_all:", width="stretch", type="primary"
    )
    with other.popover(t("classroom.other_device"), icon=":material/phonelink_lock:", width="stretch"):
        st.warning(t("classroom.other_device_warning"), icon="🔑")
        link, reachable = control_link(room)
        if reachable:
            st.image(qr_png(link), width=220)
        st.code(link, language=None, wrap_lines=True)
    st.caption(t("classroom.screen_help"))
    render_join_info(t, room, compact=True)
    live_panel(t.lang, room.code)
    if not room.ended:
        current = room.current
        with st.expander(t("classroom.next_heading"), expanded=current is None):
            render_setup(t)
    render_download(t, room)


def render_join_info(t: Translator, room: Room, compact: bool) -> None:
    """How to join: the code, the link and its QR code (small; "show large" fills the screen), or why phones cannot
    open a link from here."""
    link = join_link(room.code)
    if link.url is None:  # no QR code of an address no phone could open
        st.markdown(t("classroom.join_code_only", code=room.code))
        if compact:
            join_note(t, link)
        else:  # the class's screen says only that there is no link; the why is on the control page
            st.warning(t("classroom.join_note.none"), icon=":material/wifi_off:")
        return
    if compact:
        st.markdown(t("classroom.join_line", code=room.code, url=md_link_text(link.url)))
        join_note(t, link)
        return
    qr, text, large = st.columns([1, 8, 2], vertical_alignment="center")
    qr.image(qr_png(link.url), width=110)
    # The notes on reaching this computer are for the teacher (the control page has them), not the class's screen.
    text.markdown(t("classroom.join_bar", code=room.code, url=md_link_text(link.url)))
    if large.button(t("classroom.big_qr_short"), key="btn_cr_big_qr", icon=":material/qr_code_2:", width="stretch"):
        big_qr(t, link.url, room.code)


def md_link_text(url: str) -> str:
    """A URL shown as text, not a link Markdown would make (the link is for reading out and typing)."""
    return "`" + url.replace("`", "") + "`"


def render_screen(t: Translator, room: Room) -> None:
    """The projector view: a slim join bar, the question, the live count and chart, and the reveal. No controls."""
    st.html(SCREEN_CSS)
    render_join_info(t, room, compact=False)
    screen_panel(t.lang, room.code)


def big_qr(t: Translator, url: str, code: str) -> None:
    """The QR code as large as the screen allows, for the back of a lecture hall."""

    def show() -> None:
        # As tall as a 720-pixel projector leaves room for: the middle half of a large dialog.
        _, middle, _ = st.columns([1, 2, 1])
        middle.image(qr_png(url, scale=20), width="stretch")
        middle.code(url, language=None, wrap_lines=True)

    st.dialog(t("classroom.room_heading_plain", code=code), width="large")(show)()


def render_controls(t: Translator, room: Room) -> None:
    current = room.current
    # Two rows of two: every label whole at projector type on a laptop, and a phone stacks them anyway.
    top, bottom = st.columns(2), st.columns(2, vertical_alignment="center")
    cols = [*top, *bottom]
    if current is not None:
        if current.phase == "open":
            cols[0].button(
                t("classroom.lock"),
                on_click=teacher_action,
                args=("phase", "locked"),
                key="btn_cr_lock",
                width="stretch",
                icon=":material/lock:",
            )
        elif current.phase == "revealed":
            # A reveal is final (the store refuses to reopen it): the same activity runs again as a new round.
            cols[0].button(
                t("classroom.again"),
                on_click=teacher_action,
                args=("again",),
                key="btn_cr_again",
                width="stretch",
                icon=":material/replay:",
            )
        else:
            cols[0].button(
                t("classroom.unlock"),
                on_click=teacher_action,
                args=("phase", "open"),
                key="btn_cr_unlock",
                width="stretch",
                icon=":material/lock_open:",
            )
        cols[1].button(
            t("classroom.reveal"),
            on_click=teacher_action,
            args=("phase", "revealed"),
            key="btn_cr_reveal",
            width="stretch",
            type="primary",
            disabled=current.phase == "revealed",
            icon=":material/visibility:",
        )
    set_widget_value("_w_cr_names", room.show_names)
    cols[2].toggle(t("classroom.show_names"), key="_w_cr_names", on_change=teacher_action, args=("names",))
    with cols[3].popover(t("classroom.end"), icon=":material/stop_circle:", width="stretch"):
        st.markdown(t("classroom.end_confirm"))
        st.button(t("classroom.end_now"), on_click=teacher_action, args=("end",), key="btn_cr_end", type="primary")


def render_setup(t: Translator) -> None:
    """The next activity: its kind and its options, and the button that opens it for the class."""
    kind = st.radio(
        t("classroom.kind"),
        acts.KINDS,
        format_func=lambda k: t(f"classroom.kind.{k}"),
        horizontal=True,
        key="_w_cr_kind",
    )
    st.caption(t(f"classroom.kind_help.{kind}"))
    if kind in ("predict", "rank"):
        source = st.radio(
            t("classroom.source"),
            SOURCES,
            format_func=lambda s: t(f"classroom.source.{s}"),
            horizontal=True,
            key="_w_cr_source",
        )
        if source in ("results", "preset"):  # a named list from a registry: real results, or a worked example
            registry: Any = RESULTS if source == "results" else PRESETS
            st.selectbox(
                t(f"classroom.{source}"),
                registry.names(),
                format_func=lambda name: t.entry(source, registry[name], "label"),
                key=f"_w_cr_{source}",
            )
        elif source == "random":
            st.number_input(t("classroom.seed"), min_value=0, max_value=10**9, value=16, step=1, key="_w_cr_seed")
        if kind == "rank":
            st.checkbox(t("classroom.show_grades"), key="_w_cr_show_grades", help=t("classroom.show_grades_help"))
        try:
            spec = base_list()
        except InputError as err:
            st.error(t.explain(err))  # for example a Playground list longer than a phone shows
        else:
            # The teacher's screen is often the projector's: a Rank list's grades stay off it too.
            hidden = kind == "rank" and not widget_value("_w_cr_show_grades", False)
            st.caption(
                t("classroom.setup_hidden")
                if hidden
                else t("classroom.setup_list", grades=", ".join(metric_text(g, 0) for g in spec.grades))
            )
            if len(spec.grades) > 1:
                st.number_input(
                    t("classroom.k"), min_value=1, max_value=len(spec.grades), value=spec.k, step=1, key=k_key(spec)
                )
        if kind == "rank":
            st.radio(
                t("classroom.twist"),
                acts.TWISTS,
                format_func=lambda w: t(f"classroom.twist.{w}"),
                horizontal=True,
                key="_w_cr_twist",
            )
    elif kind == "compare":
        st.selectbox(
            t("classroom.pair"), list(acts.PAIRS), format_func=lambda p: t(f"classroom.pair.{p}"), key="_w_cr_pair"
        )
        st.radio(
            t("classroom.metric"),
            acts.METRICS,
            format_func=lambda m: t(f"classroom.metric.{m}", k=5),
            horizontal=True,
            key="_w_cr_metric",
        )
    else:
        a, b = st.columns(2)
        a.number_input(
            t("classroom.practice_seed"),
            min_value=0,
            max_value=10**9,
            value=int(practice_state().seed),
            step=1,
            key="_w_cr_practice_seed",
        )
        b.number_input(
            t("classroom.practice_count"),
            min_value=1,
            max_value=acts.MAX_EXERCISES,
            value=5,
            step=1,
            key="_w_cr_practice_count",
        )
    st.button(
        t("classroom.open"), on_click=open_activity, key="btn_cr_open", type="primary", icon=":material/play_arrow:"
    )
    show_message(classroom_state(), "open")


def playground_list() -> ListSpec:
    """The Playground's current list, k and gain (this session's), as a class list."""
    gain = playground_state().gain
    if gain not in acts.ACTIVITY_GAINS:
        raise InputError("activity.gain", value=shown(gain), choices=", ".join(acts.ACTIVITY_GAINS))
    items = list(playground_state().items)
    pool = tuple(it.grade for it in playground_state().extra) if playground_state().ideal == "pool" else ()
    return ListSpec(
        tuple(it.label for it in items),
        tuple(it.grade for it in items),
        max(1, min(int(playground_state().k), len(items))),
        gain,
        pool,
    )


def base_list() -> ListSpec:
    """The list the teacher's choices point at, with its own k."""
    source = widget_value("_w_cr_source", "preset")
    if source == "playground":
        return playground_list()
    if source == "random":
        return acts.random_list(widget_value("_w_cr_seed", 16))
    if source == "results":
        return acts.result_list(widget_value("_w_cr_results") or RESULTS.names()[0])
    return acts.preset_list(widget_value("_w_cr_preset") or PRESETS.names()[0])


def k_key(spec: ListSpec) -> str:
    """The k box's key: one per list, so choosing another list starts from that list's k."""
    return "_w_cr_k_" + "_".join(metric_text(g, 0) for g in spec.grades) + f"_{len(spec.labels)}"


def chosen_list() -> ListSpec:
    """The list with the k the teacher set."""
    spec = base_list()
    return spec.with_k(int(widget_value(k_key(spec)) or spec.k))


def build_activity() -> acts.Activity:
    kind = widget_value("_w_cr_kind", "predict")
    if kind == "predict":
        return acts.Predict(chosen_list())
    if kind == "rank":
        return acts.rank_activity(
            chosen_list(), widget_value("_w_cr_twist", "exponential"), bool(widget_value("_w_cr_show_grades", False))
        )
    if kind == "compare":
        return acts.compare_activity(widget_value("_w_cr_pair", "seed003"), widget_value("_w_cr_metric", "ndcg"))
    return acts.practice_activity(widget_value("_w_cr_practice_seed", 2026), widget_value("_w_cr_practice_count", 5))


def open_activity() -> None:
    t = Translator(app_state().lang)
    cs = classroom_state()
    try:
        store().open_activity(cs.room or "", cs.key or "", build_activity())
    except InputError as err:
        cs.messages["open"] = t.explain(err)
        return
    room_changed(cs.room or "")
    cs.messages.pop("open", None)


def render_download(t: Translator, room: Room) -> None:
    def results_csv() -> bytes:
        return classroom_results.results_csv(t, store().results(room.code))

    st.download_button(
        t("classroom.download"),
        results_csv,
        file_name=f"ndcg_lab_room_{room.code}.csv",
        mime="text/csv",
        key="btn_cr_csv",
        icon=":material/download:",
    )


@st.fragment(run_every=PRESENTER_SECONDS)
def live_panel(lang: str, code: str) -> None:
    """The control page's live part: who has joined, the current activity, and the class's answers so far."""
    draw_live(Translator(lang), code, screen=False)


@st.fragment(run_every=PRESENTER_SECONDS)
def screen_panel(lang: str, code: str) -> None:
    """The projector view's live part: the same as the control page's, at projector size, with no controls."""
    draw_live(Translator(lang), code, screen=True)


def draw_live(t: Translator, code: str, screen: bool) -> None:
    try:
        room = store().room(code)
    except InputError as err:
        st.error(t.explain(err))
        return
    if not screen and room.revision != classroom_state().control_revision:
        # Changed from another device (the lecturer's phone, or a second window): the buttons follow.
        st.rerun(scope="app")
    current = room.current
    if screen and room.ended:
        st.info(t("classroom.ended_screen"))
        render_class_summary(t, store().class_summary(room.code), screen=True)
        return
    if current is None:
        st.metric(t("classroom.joined"), room.students)
        if room.ended:
            st.info(t("classroom.ended_screen"))
        else:
            st.info(t("classroom.no_activity_screen" if screen else "classroom.no_activity_teacher"))
        render_roster(t, room)
        return
    activity = current.activity()
    summary = activity.summary(store().answers(current.id))
    if screen:
        title, a, b = st.columns([3, 1, 1], vertical_alignment="bottom")
        title.subheader(activity_heading(t, current))
    else:  # beside the sidebar, the figures get a column each of their own width
        st.subheader(activity_heading(t, current))
        a, b = st.columns(2)
    a.metric(t("classroom.answered"), f"{summary.count} / {room.students}")
    b.metric(t("classroom.phase"), t(f"classroom.phase.{current.phase}"))
    revealed = current.phase == "revealed"
    presenters: dict[str, Callable[..., None]] = {
        "predict": present_predict,
        "rank": present_rank,
        "compare": present_compare,
        "practice": present_practice,
    }
    presenters[current.kind](t, activity, summary, revealed, screen)
    render_roster(t, room)


def activity_heading(t: Translator, current: ActivityRow) -> str:
    """ "Activity 3: Which is better?", and "· Round 2" when it is run again."""
    heading = t("classroom.activity_heading", number=current.number, kind=t(f"classroom.kind.{current.kind}"))
    return heading + (" · " + t("classroom.round", round=current.round) if current.round > 1 else "")


def render_roster(t: Translator, room: Room) -> None:
    if not room.show_names or not room.students:
        return
    names = [s.nickname for s in store().roster(room.code) if s.nickname]
    if names:
        st.caption(t("classroom.roster", count=len(names)))
        st.markdown(" · ".join(md_escape(n) for n in names))


def list_table(t: Translator, labels: tuple[str, ...], grades: tuple[float, ...] | None) -> None:
    """A short ranked list as a Markdown table: no toolbar in the way on a phone, and cheap to send every
    time the page is drawn (a whole class draws it at once when an activity opens). Labels are escaped.
    ``grades=None``: positions and labels only (grades hidden until the reveal)."""
    st.markdown(table_markdown(t, labels, grades))


def table_markdown(t: Translator, labels: tuple[str, ...], grades: tuple[float, ...] | None) -> str:
    """``list_table``'s Markdown."""
    if grades is None:
        rows = [f"| {t('table.position')} | {t('table.item')} |", "|---:|:---|"]
        rows += [f"| {i} | {md_escape(label)} |" for i, label in enumerate(labels, start=1)]
    else:
        rows = [f"| {t('table.position')} | {t('table.item')} | {t('table.grade')} |", "|---:|:---|---:|"]
        rows += [
            f"| {i} | {md_escape(label)} | {metric_text(grade, 0)} |"
            for i, (label, grade) in enumerate(zip(labels, grades, strict=False), start=1)
        ]
    return "\n".join(rows)


def query_line(t: Translator, spec: ListSpec) -> str:
    """The query the list answers, as a Markdown paragraph (escaped), or nothing for a list without one."""
    return t("classroom.query", query=md_escape(spec.query)) + "\n\n" if spec.query else ""


def spec_caption(t: Translator, spec: ListSpec, grades_shown: bool = True) -> str:
    """The conventions the list's NDCG@k is computed under (gain, discount, k, the ideal's source) and, for a
    judged pool, what it adds: its grades, or only how many items while the grades are hidden."""
    text = conventions_text(spec.conventions(), t)
    if spec.pool:
        text += " " + (
            t("classroom.pool_caption", grades=", ".join(metric_text(g, 0) for g in spec.pool))
            if grades_shown
            else t("classroom.pool_caption_hidden", count=len(spec.pool))
        )
    return text


def histogram_chart(
    t: Translator, bins: list[acts.Bin], truth: float | None, axis: str, marker: str = "classroom.truth_label"
) -> alt.LayerChart | alt.FacetChart:
    """The class's values as bars of width 0.05 over [0, 1], and the true (or best) value as a rule once revealed."""
    frame = pd.DataFrame(
        {"low": [b.low for b in bins], "high": [b.high for b in bins], "count": [b.count for b in bins]}
    )
    bars = (
        alt.Chart(frame)
        .mark_bar(color="#0b63ce")
        .encode(
            x=alt.X("low:Q", bin="binned", scale=alt.Scale(domain=[0, 1]), title=axis),
            x2="high:Q",
            y=alt.Y(
                "count:Q",
                title=t("classroom.students"),
                axis=alt.Axis(tickMinStep=1, format="d"),
                scale=alt.Scale(domain=[0, max(3, max(b.count for b in bins))]),
            ),
            tooltip=[alt.Tooltip("low:Q", format=".2f"), alt.Tooltip("high:Q", format=".2f"), "count:Q"],
        )
    )
    layers = [bars]
    if truth is not None:
        rule = pd.DataFrame({"truth": [truth], "label": [t(marker, value=metric_text(truth))]})
        layers.append(alt.Chart(rule).mark_rule(color="#d62728", size=3).encode(x="truth:Q"))
        right = truth > 0.7  # the label on the rule's inner side, so it never runs past the chart's edge
        layers.append(
            alt.Chart(rule)
            .mark_text(
                color="#d62728",
                align="right" if right else "left",
                dx=-6 if right else 6,
                dy=-6,
                fontSize=PROJECTOR_FONT,
                fontWeight="bold",
            )
            .encode(x="truth:Q", y=alt.value(12), text="label:N")
        )
    return alt.layer(*layers).properties(height=300)


def histogram_text(t: Translator, bins: list[acts.Bin]) -> str:
    """The histogram in words, for a screen reader and for anyone who cannot see the bars."""
    filled = [t("classroom.bin", low=f"{b.low:.2f}", high=f"{b.high:.2f}", count=b.count) for b in bins if b.count]
    return t("classroom.bins", bins=" · ".join(filled)) if filled else t("classroom.no_answers")


def present_predict(
    t: Translator, activity: acts.Predict, summary: acts.PredictSummary, revealed: bool, screen: bool = False
) -> None:
    spec = activity.spec
    st.markdown(query_line(t, spec) + t("classroom.predict_question", k=spec.k))
    left, right = st.columns([2, 3])
    with left:
        list_table(t, spec.labels, spec.grades)
        st.caption(spec_caption(t, spec))
    with right:
        big_chart(
            histogram_chart(t, summary.bins, summary.truth if revealed else None, t("classroom.guess_axis")), screen
        )
        st.caption(histogram_text(t, summary.bins))
    if not revealed:
        st.caption(t("classroom.truth_hidden"))
        return
    st.success(
        t("classroom.predict_reveal", truth=metric_text(summary.truth), within=summary.within, count=summary.count)
    )
    frame = spec.terms()
    columns = ("position", "item", "grade", "term", "cumulative_dcg", "cumulative_idcg")
    worked_table(frame[list(columns)].rename(columns={c: t(f"table.{c}") for c in columns}), screen)


def rank_question(t: Translator, activity: acts.Rank) -> str:
    question = "classroom.rank_question" if activity.show_grades else "classroom.rank_question_hidden"
    return query_line(t, activity.spec) + t(question, k=activity.spec.k, twist=t(f"classroom.twist.{activity.twist}"))


def graded_order(t: Translator, spec: ListSpec, order: list[int]) -> str:
    """An order as "title (grade) > title (grade)", titles escaped: for the reveal."""
    return " > ".join(f"{md_escape(spec.labels[i])} ({metric_text(spec.grades[i], 0)})" for i in order)


def present_rank(
    t: Translator, activity: acts.Rank, summary: acts.RankSummary, revealed: bool, screen: bool = False
) -> None:
    spec = activity.spec
    st.markdown(rank_question(t, activity))
    st.caption(spec_caption(t, spec, activity.show_grades or revealed))
    big_chart(
        histogram_chart(
            t, summary.bins, summary.maximum if revealed else None, t("classroom.reached_axis"), "classroom.best_label"
        ),
        screen,
    )
    st.caption(histogram_text(t, summary.bins))
    if not revealed:
        return
    st.success(t("classroom.rank_reveal", found=summary.found, count=summary.count, best=metric_text(summary.maximum)))
    mistake = summary.mistake
    if mistake is not None:
        st.warning(
            t(
                "classroom.rank_mistake",
                label=md_escape(mistake.label),
                position=mistake.position,
                count=mistake.count,
                grade=metric_text(mistake.grade, 0),
                ideal=metric_text(mistake.ideal_grade, 0),
            )
        )
    st.caption(t("classroom.best_order", order=graded_order(t, spec, spec.best_order())))


def pair_tables(t: Translator, pair: acts.Pair, columns: Any = None) -> None:
    left, right = columns if columns is not None else st.columns(2)
    for col, name, labels, grades in ((left, "A", pair.labels_a, pair.a), (right, "B", pair.labels_b, pair.b)):
        with col:
            st.markdown(f"**{t('classroom.system', name=name)}**")
            list_table(t, labels, grades)


def present_compare(
    t: Translator, activity: acts.Compare, summary: acts.CompareSummary, revealed: bool, screen: bool = False
) -> None:
    metric = t(f"classroom.metric.{activity.metric}", k=activity.pair.k)
    st.markdown(t("classroom.compare_question", metric=metric))
    st.caption(conventions_text(activity.conventions(), t))
    if screen:
        # Side by side on a projector: the two rankings and the votes all above the fold at 1280x720.
        a_col, b_col, chart_col = st.columns(3, gap="medium")
        pair_tables(t, activity.pair, (a_col, b_col))
    else:
        pair_tables(t, activity.pair)
        chart_col = st.container()
    votes = pd.DataFrame(
        {"vote": [t(f"classroom.vote.{v}") for v in acts.VOTES], "count": [summary.votes[v] for v in acts.VOTES]}
    )
    chart = (
        alt.Chart(votes)
        .mark_bar(color="#0b63ce")
        .encode(
            x=alt.X("vote:N", sort=None, title=None, axis=alt.Axis(labelAngle=0)),
            y=alt.Y(
                "count:Q",
                title=t("classroom.students"),
                axis=alt.Axis(tickMinStep=1, format="d"),
                scale=alt.Scale(domain=[0, max(3, *summary.votes.values())]),
            ),
            tooltip=["vote:N", "count:Q"],
        )
        .properties(height=240)
    )
    with chart_col:
        big_chart(chart, screen)
    if not revealed:
        return
    rows = [
        {
            t("classroom.metric_column"): t(f"classroom.metric.{m}", k=activity.pair.k),
            "A": metric_text(va),
            "B": metric_text(vb),
            t("classroom.verdict"): t(f"classroom.vote.{verdict}"),
        }
        for m, (va, vb, verdict) in summary.verdicts.items()
    ]
    worked_table(pd.DataFrame(rows), screen)
    st.success(
        t(
            "classroom.compare_reveal",
            agree=summary.agree,
            count=summary.count,
            metric=metric,
            verdict=t(f"classroom.vote.{activity.verdict(activity.metric)}"),
        )
    )


def present_practice(
    t: Translator, activity: acts.Practice, summary: acts.PracticeSummary, revealed: bool, screen: bool = False
) -> None:
    st.markdown(t("classroom.practice_question", seed=activity.seed, count=len(activity.numbers)))
    names = [
        t("classroom.exercise", number=i + 1, kind=t(f"practice.kind.{ex.kind}"))
        for i, ex in enumerate(activity.exercises())
    ]
    shares = [right / answered if answered else 0.0 for answered, right in summary.parts]
    texts = [t("classroom.share", right=right, answered=answered) for answered, right in summary.parts]
    big_chart(share_bars(names, shares, texts, t("classroom.share_axis")), screen)
    if not revealed:
        for part in range(len(activity.numbers)):
            st.caption(
                t("classroom.exercise_note", number=part + 1, text=conventions_text(activity.conventions(part), t))
            )
    if revealed:
        for i, ex in enumerate(activity.exercises()):
            st.caption(
                t("classroom.exercise", number=i + 1, kind=t(f"practice.kind.{ex.kind}"))
                + " · "
                + explain_exercise(ex, t)
            )


# --- the student ---------------------------------------------------------------------------------------------


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
    try:
        room = room_now(code)
    except InputError as err:
        st.error(t.explain(err))
        return
    room_watch(room.code, cs.student or "", room.revision)
    if room.ended:
        st.info(t("classroom.ended_student"))
    current = room.current
    if current is None:
        st.info(t("classroom.waiting"))
        return
    # Nobody has answered a new activity yet: the class's phones drawing it at once need no read of their own.
    mine = store().my_answers(current.id, cs.student or "") if anyone_answered(code, current.id) else {}
    heading = activity_heading(t, current)
    # The heading goes out with each activity's first paragraph: one element fewer for every phone to redraw at once.
    views: dict[str, Callable[..., str | None]] = {
        "predict": student_predict,
        "rank": student_rank,
        "compare": student_compare,
        "practice": student_practice,
    }
    unsent = views[current.kind](t, cs, current, mine, f"**{heading}**\n\n")
    status_line(t, cs, current, bool(mine), unsent)


def status_line(t: Translator, cs: ClassroomState, current: ActivityRow, answered: bool, unsent: str | None) -> None:
    """One status line at a time under the answer: while open, the last send's message (saved, or what was
    wrong), else "you can change it" once something is saved; once locked, what was typed but not sent, else
    that answers are locked."""
    place = f"answer-{current.id}"
    if current.phase != "open":
        cs.messages.pop(place, None)  # "saved, you can change it" and an old error are no longer true
        if unsent:
            st.warning(unsent)
        elif current.phase == "locked":
            st.info(t("classroom.locked_student"))
    elif cs.messages.get(place):
        show_message(cs, place, ok=cs.messages[place] == t("classroom.saved"))
    elif answered:
        st.caption(t("classroom.change_until_locked"))


def unsent_text(t: Translator, key: str, sent_before: bool, **fields: Any) -> str:
    """A value typed but not sent when answers closed, and whether an earlier answer counts instead."""
    text = t(f"classroom.unsent.{key}", **fields)
    return text + " " + t("classroom.unsent_earlier") if sent_before else text


def submit(activity_id: int, values: list[tuple[int, Any]]) -> None:
    """Send answers to the store; the message says saved or what is wrong, in this student's language."""
    t = Translator(app_state().lang)
    cs = classroom_state()
    place = f"answer-{activity_id}"
    if not values:
        cs.messages[place] = t.explain(InputError("answer.no_choice"))
        return
    try:
        store().answer(cs.room or "", cs.student or "", activity_id, values)
    except InputError as err:
        cs.messages[place] = t.explain(err)
        return
    answer_stored(cs.room or "", activity_id)
    cs.messages[place] = t("classroom.saved")


def typed(value: Any) -> str:
    return "" if value is None else str(value).strip()


def same_number(text: str, sent: float) -> bool:
    """Whether a typed estimate is the one stored ("0.80" is 0.8)."""
    try:
        return float(text) == float(sent)
    except ValueError:
        return False


def student_predict(t: Translator, cs: ClassroomState, current: ActivityRow, mine: dict, lead: str) -> str | None:
    activity = current.activity()
    assert isinstance(activity, acts.Predict)  # the caller chose this view by the activity's kind
    spec = activity.spec
    # The question and its list in one element: one message fewer for each of a class's phones at once.
    question = lead + query_line(t, spec) + t("classroom.predict_question", k=spec.k)
    st.markdown(question + "\n\n" + table_markdown(t, spec.labels, spec.grades))
    st.caption(spec_caption(t, spec))
    key = f"_w_cr_estimate_{current.id}"
    unsent = None
    if current.phase != "revealed":
        if not has_widget_value(key) and 0 in mine:
            set_widget_value(key, metric_text(mine[0], 2))
        # Still drawn (disabled) once locked, so what was typed and not sent can be named.
        st.text_input(t("classroom.estimate"), key=key, placeholder="0.75", disabled=current.phase != "open")
    if current.phase == "open":
        st.button(
            t("classroom.send"),
            on_click=lambda: submit(current.id, [(0, widget_value(key, ""))]),
            type="primary",
            key=f"btn_cr_send_{current.id}",
            width="stretch",
        )
    else:
        value = typed(widget_value(key))
        if value and not (0 in mine and same_number(value, mine[0])):
            unsent = unsent_text(t, "estimate", 0 in mine, value=md_escape(value[:20]))
    if 0 in mine:
        st.markdown(t("classroom.your_estimate", value=metric_text(mine[0], 2)))
    if current.phase == "revealed":
        result = activity.result(mine[0]) if 0 in mine else None
        truth = activity.truth()
        if result is None:
            st.info(t("classroom.truth_was", truth=metric_text(truth)))
        else:
            (st.success if result.right else st.warning)(
                t(
                    "classroom.your_predict_result",
                    truth=metric_text(truth),
                    off=metric_text(result.detail["off"], 3),
                    verdict=t("classroom.within" if result.right else "classroom.not_within"),
                )
            )
    return unsent


def rank_items(spec: ListSpec, order: list[int]) -> list[Item]:
    """The list in a student's order; an item's id is its place in the teacher's list, plus one."""
    return [Item(i + 1, spec.labels[i], spec.grades[i]) for i in order]


def on_rank_action(activity_id: int, spec: ListSpec) -> None:
    """A move on the student's list (drag, buttons or keys), kept in this session until sent."""
    cs = classroom_state()
    action = widget_value(f"cr_rank_{activity_id}").get("action")
    if action is None:
        return
    order = cs.orders.get(activity_id, list(range(len(spec.grades))))
    try:
        moved, _ = apply_action(rank_items(spec, order), action, top=int(max(spec.grades)))
    except InputError:
        return  # a malformed action from the browser changes nothing
    cs.orders[activity_id] = [it.id - 1 for it in moved]


def student_rank(t: Translator, cs: ClassroomState, current: ActivityRow, mine: dict, lead: str) -> str | None:
    """Reorder the list. Unless the teacher chose to show them, the grades stay off the phone (the browser is
    never sent them) until the reveal, which shows the judged grades of the student's order, its NDCG@k and
    the best order."""
    activity = current.activity()
    assert isinstance(activity, acts.Rank)  # the caller chose this view by the activity's kind
    spec = activity.spec
    dealt = list(range(len(spec.grades)))
    order = cs.orders.get(current.id) or list(mine.get(0) or dealt)
    cs.orders[current.id] = order
    revealed = current.phase == "revealed"
    st.markdown(lead + rank_question(t, activity))
    st.caption(spec_caption(t, spec, activity.show_grades or revealed))
    if current.phase == "open":
        sortable_list(
            rank_items(spec, order),
            key=f"cr_rank_{current.id}",
            k=spec.k,
            top=int(max(4, max(spec.grades))),
            texts=t.group("sortable"),
            on_action=lambda: on_rank_action(current.id, spec),
            readonly=True,
            show_grades=activity.show_grades,
        )
        st.button(
            t("classroom.send_order"),
            on_click=lambda: submit(current.id, [(0, list(cs.orders[current.id]))]),
            type="primary",
            key=f"btn_cr_send_{current.id}",
            width="stretch",
        )
        return None
    if not revealed:
        shown_grades = tuple(spec.grades[i] for i in order) if activity.show_grades else None
        list_table(t, tuple(spec.labels[i] for i in order), shown_grades)
        if not activity.show_grades:
            st.caption(t("classroom.grades_hidden"))
    unsent = None
    if order != list(mine.get(0) or dealt):
        unsent = unsent_text(t, "order", 0 in mine)
    if not revealed:
        return unsent
    best = activity.maximum()
    if 0 in mine:
        sent = list(mine[0])
        st.markdown(t("classroom.your_order_graded"))
        list_table(t, tuple(spec.labels[i] for i in sent), tuple(spec.grades[i] for i in sent))
        result = activity.result(sent)
        (st.success if result.right else st.warning)(
            t(
                "classroom.your_rank_result",
                reached=metric_text(result.detail["reached"]),
                best=metric_text(result.detail["best"]),
            )
        )
    else:
        st.info(t("classroom.rank_not_sent", k=spec.k, best=metric_text(best)))
    st.caption(t("classroom.best_order", order=graded_order(t, spec, spec.best_order())))
    return unsent


def student_compare(t: Translator, cs: ClassroomState, current: ActivityRow, mine: dict, lead: str) -> str | None:
    activity = current.activity()
    assert isinstance(activity, acts.Compare)  # the caller chose this view by the activity's kind
    metric = t(f"classroom.metric.{activity.metric}", k=activity.pair.k)
    st.markdown(lead + t("classroom.compare_question", metric=metric))
    st.caption(conventions_text(activity.conventions(), t))
    pair_tables(t, activity.pair)
    key = f"_w_cr_vote_{current.id}"
    if not has_widget_value(key) and 0 in mine:
        set_widget_value(key, mine[0])
    st.radio(
        t("classroom.your_vote"),
        acts.VOTES,
        format_func=lambda v: t(f"classroom.vote.{v}"),
        index=None,
        horizontal=True,
        key=key,
        disabled=current.phase != "open",
    )
    if current.phase == "open":
        st.button(
            t("classroom.send"),
            on_click=lambda: submit(current.id, [(0, widget_value(key))]),
            type="primary",
            key=f"btn_cr_send_{current.id}",
            width="stretch",
        )
        return None
    vote = widget_value(key)
    unsent = (
        unsent_text(t, "vote", 0 in mine, value=t(f"classroom.vote.{vote}")) if vote and vote != mine.get(0) else None
    )
    if current.phase == "revealed":
        verdict = activity.verdict(activity.metric)
        text = t("classroom.your_compare_result", metric=metric, verdict=t(f"classroom.vote.{verdict}"))
        (st.success if mine.get(0) == verdict else st.warning)(text)
        for m in acts.METRICS:
            va, vb = activity.values(m)
            st.caption(
                t(
                    "classroom.metric_values",
                    metric=t(f"classroom.metric.{m}", k=activity.pair.k),
                    a=metric_text(va),
                    b=metric_text(vb),
                )
            )
    return unsent


def send_practice(t: Translator, activity: acts.Practice, activity_id: int, keys: list[str]) -> None:
    """Send every typed answer. Each is checked first: the readable ones are saved, and each unreadable one is
    named by its exercise; every typed value stays in its box either way."""
    values, errors = [], []
    for part, key in enumerate(keys):
        raw = widget_value(key)
        if raw in (None, ""):
            continue
        try:
            activity.check(raw, part)
        except InputError as err:
            errors.append(t("classroom.exercise_note", number=part + 1, text=t.explain(err)))
        else:
            values.append((part, raw))
    if not errors:
        submit(activity_id, values)
        return
    place = f"answer-{activity_id}"
    if values:
        submit(activity_id, values)
    saved = classroom_state().messages.get(place) == t("classroom.saved")
    if values and not saved:  # the store refused them (locked meanwhile, too fast): that message stays
        return
    classroom_state().messages[place] = " ".join(
        [*errors, t("classroom.others_saved" if saved else "classroom.nothing_saved")]
    )


def student_practice(t: Translator, cs: ClassroomState, current: ActivityRow, mine: dict, lead: str) -> str | None:
    activity = current.activity()
    assert isinstance(activity, acts.Practice)  # the caller chose this view by the activity's kind
    st.markdown(lead)
    keys = []
    unsent = []
    for part, number in enumerate(activity.numbers):
        ex = exercise(activity.seed, number)
        st.markdown(f"**{t('classroom.exercise', number=part + 1, kind=t(f'practice.kind.{ex.kind}'))}**")
        exercise_prompt(ex, t)
        key = f"_w_cr_practice_{current.id}_{part}"
        keys.append(key)
        if not has_widget_value(key) and part in mine:
            set_widget_value(key, mine[part]["answer"])
        value = typed(widget_value(key))
        if value and value != (mine[part]["answer"] if part in mine else None):
            unsent.append(part + 1)
        disabled = current.phase != "open"
        if ex.kind in ("dcg_term", "dcg", "ndcg"):
            st.text_input(t("practice.your_answer"), key=key, placeholder="0.00", disabled=disabled)
        else:
            st.radio(
                t("practice.your_answer"),
                acts.choices(ex),
                index=None,
                horizontal=True,
                key=key,
                disabled=disabled,
                format_func=partial(choice_text, ex, t=t),
            )
        if current.phase == "revealed":
            if part in mine:
                right = mine[part]["right"]
                (st.success if right else st.error)(
                    t("practice.right" if right else "practice.wrong", why=explain_exercise(ex, t))
                )
            else:
                st.info(explain_exercise(ex, t))
    if current.phase == "open":
        st.button(
            t("classroom.send_all"),
            on_click=partial(send_practice, t, activity, current.id, keys),
            type="primary",
            key=f"btn_cr_send_{current.id}",
            width="stretch",
        )
        return None
    if not unsent:
        return None
    return unsent_text(t, "practice", any(n - 1 in mine for n in unsent), numbers=", ".join(map(str, unsent)))
