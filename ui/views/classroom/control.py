"""The teacher's control page: lock, reveal, run again, names, end; the way to the projector view and to other
devices; the class's answers live; the next activity; the CSV.
"""

from __future__ import annotations

import time
from urllib.parse import urlencode

import streamlit as st

from ndcg_core.classroom.service import keeps_scores
from ndcg_core.classroom.storage import Room
from ui import classroom_results
from ui.classroom_results import render_class_summary
from ui.database import runtime
from ui.i18n import Translator
from ui.join_link import join_link
from ui.results_download import allowed_downloads, results_file_name
from ui.state import (
    ClassroomState,
    app_state,
    classroom_state,
    page_url,
    set_widget_value,
    widget_value,
)
from ui.views.classroom.commands import refusal_shown, teacher
from ui.views.classroom.common import SCREEN, VIEW_PARAM, show_message
from ui.views.classroom.door import render_door
from ui.views.classroom.lesson_run import off_plan, render_leaderboard, render_lesson_bar
from ui.views.classroom.live import live_panel
from ui.views.classroom.processes import processes_notice
from ui.views.classroom.screen import render_join_info
from ui.views.classroom.setup import setup_part
from ui.widgets.qr import qr_png

# The kinds whose round 2 is the class voting again after talking it over (peer instruction).
VOTE_AGAIN = frozenset({"predict", "choose"})


def teacher_action(action: str) -> None:
    """Lock, reopen, reveal, take answers again, run again, show or hide nicknames, or end the room, with this
    session's key. Running again names the revision the page showed: a retry, or a second click, opens one round."""
    run = runtime()
    code, key = teacher()
    with refusal_shown("control"):
        if action == "lock":
            run.lock(code, key)
        elif action == "unlock":
            run.unlock(code, key)
        elif action == "reveal":
            run.reveal(code, key)
        elif action == "again":
            run.run_again(code, key, after=classroom_state().control_revision)
        elif action == "names":
            run.show_names(code, key, widget_value("_w_cr_names"))
        elif action == "end":
            run.end(code, key)


def control_link(room: Room) -> tuple[str, bool]:
    """The link that gives control of the room on another device, on the address phones can open (the join
    link's), and whether a phone can open it at all (else no QR code is drawn). It holds the key after ``#``, which
    no browser sends to a server: the key reaches no request line and no log (``ui/widgets/link_key.js``)."""
    lang = urlencode({"lang": app_state().lang})
    secret = urlencode({"key": classroom_state().key or ""})
    joining = join_link(room.code, phones=False).url
    if joining is None:
        return f"{page_url({'room': room.code})}&{lang}#{secret}", False
    return f"{joining}&{lang}#{secret}", True


def screen_link(room: Room) -> str:
    return page_url({"room": room.code, VIEW_PARAM: SCREEN, "lang": app_state().lang})


def render_control(t: Translator, cs: ClassroomState, room: Room) -> None:
    """The teacher's control page: the buttons first (it works as a phone remote too), then the way to the
    projector view, what the class sees now, the next activity and the results. The key is shown only on request."""
    st.markdown(t("classroom.control_heading", code=room.code))
    cs.control_revision = room.revision
    show_message(cs, "control")
    processes_notice(t)
    progress = runtime().progress(room.code)
    if progress is not None:
        render_lesson_bar(t, room, progress)
    # The buttons beside what the class sees: on a 1280x720 laptop the answered count and the chart are in the
    # first screen with them (a phone stacks the two columns).
    controls, live = st.columns([3, 5], gap="medium")
    with controls:
        if room.ended:
            st.info(t("classroom.ended_teacher"))
            render_leaderboard(t, room, progress, ended_page=True)
            render_class_summary(t, runtime().class_summary(room.code))
        else:
            render_controls(t, room)
            render_door(t, room)
        # One above the other: each label whole in the narrow column.
        st.link_button(
            t("classroom.open_screen"),
            screen_link(room),
            icon=":material/present_to_all:",
            width="stretch",
            type="primary",
        )
        with st.popover(t("classroom.other_device"), icon=":material/phonelink_lock:", width="stretch"):
            st.warning(t("classroom.other_device_warning"), icon="🔑")
            link, reachable = control_link(room)
            if reachable:
                st.image(qr_png(link), width=220)
            st.code(link, language=None, wrap_lines=True)
        st.caption(t("classroom.screen_help"))
        render_join_info(t, room, compact=True)
    with live:
        live_panel(t.lang, room.code)
    # In a lesson, Next is the one way on: the next activity's setup only once the teacher left the plan.
    if not room.ended and (progress is None or off_plan(room, progress)):
        current = room.current
        # A keyed expander keeps its state on the server: a full run that redraws the page (an answer's notice
        # meanwhile) cannot fold it under the teacher's hand. One key per activity, so each opens as ``expanded`` says.
        with st.expander(
            t("classroom.next_heading"),
            expanded=current is None or progress is not None,
            key=f"cr_next_setup_{current.id if current else 0}",
            on_change="rerun",
        ):
            setup_part(t.lang)  # the expander's only child: the race in ui.live_part moves nothing here
    render_download(t, room, keeps_scores(progress))


def render_controls(t: Translator, room: Room) -> None:
    current = room.current
    # Lock and Reveal side by side, the names toggle and End under them: every label whole in the page's narrow
    # column beside the class's answers, and a phone stacks them anyway.
    cols = [*st.columns(2), st.container(), st.container()]
    if current is not None:
        if current.phase == "open":
            cols[0].button(
                t("classroom.lock"),
                on_click=teacher_action,
                args=("lock",),
                key="btn_cr_lock",
                width="stretch",
                icon=":material/lock:",
            )
        elif current.phase == "revealed":
            # A reveal is final (the store refuses to reopen it): the same activity runs again as a new round.
            vote = current.kind in VOTE_AGAIN
            cols[0].button(
                t("classroom.vote_again" if vote else "classroom.again"),
                on_click=teacher_action,
                args=("again",),
                key="btn_cr_again",
                width="stretch",
                icon=":material/how_to_vote:" if vote else ":material/replay:",
                help=t("classroom.vote_again_help") if vote else None,
            )
        else:
            cols[0].button(
                t("classroom.unlock"),
                on_click=teacher_action,
                args=("unlock",),
                key="btn_cr_unlock",
                width="stretch",
                icon=":material/lock_open:",
            )
        cols[1].button(
            t("classroom.reveal"),
            on_click=teacher_action,
            args=("reveal",),
            key="btn_cr_reveal",
            width="stretch",
            type="primary",
            disabled=current.phase == "revealed",
            icon=":material/visibility:",
        )
    if current is not None and current.phase == "locked" and current.kind in VOTE_AGAIN:
        # Peer instruction: the class talks it over without the answer, then votes again; both rounds at the reveal.
        st.button(
            t("classroom.vote_again_locked"),
            on_click=teacher_action,
            args=("again",),
            key="btn_cr_vote_again",
            width="stretch",
            icon=":material/how_to_vote:",
            help=t("classroom.vote_again_help"),
        )
    set_widget_value("_w_cr_names", room.show_names)
    cols[2].toggle(t("classroom.show_names"), key="_w_cr_names", on_change=teacher_action, args=("names",))
    with cols[3].popover(t("classroom.end"), icon=":material/stop_circle:", width="stretch"):
        st.markdown(t("classroom.end_confirm"))
        st.button(t("classroom.end_now"), on_click=teacher_action, args=("end",), key="btn_cr_end", type="primary")


def prepare_results(code: str, points: bool) -> None:
    """Make the room's results CSV as of now and keep it for the download button (a callback); its one download
    is allowed (``ui.results_download``)."""
    t = Translator(app_state().lang)
    cs = classroom_state()
    with refusal_shown("csv") as attempt:
        cs.results_csv = classroom_results.results_csv(t, runtime().results(code), points)
    if attempt.refused:
        return
    cs.results_at = time.time()
    allowed_downloads().allow(code)


def render_download(t: Translator, room: Room, points: bool = False) -> None:
    """The room's results as CSV (with each answer's points when the room's lesson keeps scores), in two steps.

    Answers keep arriving while this part of the page stays as drawn, so the file is made when asked for; and it is
    made by a button before the download, not by the download itself: a file made on the download's press belongs
    to no session, and a busy server's clean-up (a class's phones and panels finish a run every moment) deleted it
    before the browser fetched it, which then saved an error page under a hash for a name. Each file is downloaded
    once (``ui.results_download``): its address, seen again later, serves nothing."""
    cs = classroom_state()
    st.button(
        t("classroom.prepare_csv"),
        on_click=prepare_results,
        args=(room.code, points),
        key="btn_cr_prepare_csv",
        icon=":material/table_view:",
    )
    show_message(cs, "csv")
    if cs.results_csv is None or cs.results_at is None:
        return
    st.download_button(
        t("classroom.download"),
        cs.results_csv,
        file_name=results_file_name(room.code),
        mime="text/csv",
        key="btn_cr_csv",
        icon=":material/download:",
        type="primary",
    )
    st.caption(t("classroom.csv_as_of", time=time.strftime("%H:%M:%S", time.localtime(cs.results_at))))
