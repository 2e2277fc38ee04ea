"""Running a lesson: choosing one to start a room with (a shipped lesson from ``lessons/``, a file, or a saved code,
``?lesson=CODE``), the control page's "Activity 3 of 8" with Back and Next, a step's countdown, and the leaderboard
at the end of a lesson that keeps scores."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from ndcg_core.classroom import service
from ndcg_core.classroom.lessons import Lesson, outline, read_lesson
from ndcg_core.classroom.results import leaderboard
from ndcg_core.classroom.storage import ActivityRow, LessonProgress, Room
from ndcg_core.errors import InputError
from ndcg_lab import app_dir
from ui.classroom_results import student_name
from ui.database import runtime
from ui.format import md_escape
from ui.i18n import Translator
from ui.projector import PROJECTOR_FONT, worked_table
from ui.state import app_state, classroom_state, has_widget_value, reset_classroom, set_widget_value, widget_value
from ui.views.classroom.commands import refusal_shown, teacher
from ui.views.classroom.common import show_message
from ui.views.classroom.identity import new_room
from ui.widgets.countdown import countdown

LESSONS_DIR = app_dir() / "lessons"  # the checkout's lessons/, installed beside the entry files
LESSON_PARAM = "lesson"  # ?lesson=CODE: a saved lesson to start a room with, or to open in the editor
CHOOSER = "_w_cr_lesson_"  # the landing's lesson chooser's widget keys
LESSON_SOURCES = ("shipped", "file", "code")
LEADERBOARD_TOP = 10
CHECK_COMMAND = "ndcg-lab lesson check FILE"  # python -m ndcg_core.classroom check FILE does the same


def shipped_lessons() -> list[str]:
    """The file names of the lessons shipped in ``lessons/``."""
    return sorted(p.name for p in LESSONS_DIR.glob("*.toml"))


@dataclass(frozen=True)
class Chosen:
    """What a lesson chooser points at (``choice``: the source and what names the lesson in it) and the lesson read
    from it, or why it could not be (``refusal``: a file's problem; a code's is not kept). Kept in the session, so
    that a page run again with the same choice reads no file, database or TOML again: a lesson is read once per
    choice (an upload, a code, a shipped file), and starting a room with it reads nothing more."""

    choice: tuple[str, ...]
    lesson: Lesson | None
    refusal: InputError | None = None


def shipped_lesson(name: str) -> Lesson:
    """A shipped lesson by its file name (an ``InputError`` for a name that is not one)."""
    if name not in shipped_lessons():
        raise InputError("file.missing", file=str(name)[:80])
    return read_lesson((LESSONS_DIR / name).read_bytes(), name)


def chosen_source(prefix: str, lang: str) -> tuple[str, ...] | None:
    """What the chooser under ``prefix`` points at, as a value (``None``: nothing chosen yet): a shipped file's
    name, an upload's id (each upload a new one) and name, or a code as typed."""
    source = widget_value(f"{prefix}source", "shipped")
    if source == "file":
        upload = widget_value(f"{prefix}file")
        return None if upload is None else ("file", str(upload.file_id), str(upload.name))
    if source == "code":
        code = str(widget_value(f"{prefix}code") or "").strip()
        return ("code", code) if code else None
    name = widget_value(f"{prefix}shipped") or default_shipped(shipped_lessons(), lang)
    return ("shipped", name) if name else None


def read_choice(prefix: str, choice: tuple[str, ...]) -> Lesson:
    """The lesson ``choice`` names, read and checked (a file's or a code's problem is an ``InputError``)."""
    source, name = choice[0], choice[-1]
    if source == "file":
        upload = widget_value(f"{prefix}file")
        return read_lesson(upload.getvalue(), name)
    if source == "code":
        return runtime().lesson(name)
    return shipped_lesson(name)


def lesson_from(prefix: str, lang: str) -> Lesson | None:
    """The lesson the chooser under ``prefix`` points at (``None``: nothing chosen yet); an ``InputError`` for a bad
    file or code. Read once per choice and kept (``Chosen``); a database that cannot serve is raised and not kept."""
    choice = chosen_source(prefix, lang)
    if choice is None:
        return None
    chosen = classroom_state().chosen
    kept = chosen.get(prefix)
    if kept is None or kept.choice != choice:
        # The other chooser may hold it already (a ?lesson=CODE link fills both the landing's and the editor's).
        kept = next((other for other in chosen.values() if other.choice == choice), None)
    if kept is None:
        try:
            kept = Chosen(choice, read_choice(prefix, choice))
        except InputError as err:
            if choice[0] == "code":
                raise  # a code not saved yet may be saved in a moment (by another tab): looked up again next run
            kept = Chosen(choice, None, err)
    chosen[prefix] = kept
    if kept.refusal is not None:
        raise kept.refusal
    return kept.lesson


def default_shipped(names: list[str], lang: str) -> str | None:
    """The shipped lesson in the reader's language first."""
    return next((n for n in names if n.endswith(f".{lang}.toml")), names[0] if names else None)


def lesson_chooser(t: Translator, prefix: str) -> Lesson | None:
    """Where a lesson comes from (shipped, a file, a code; a ``?lesson=CODE`` link chooses the code), and its
    outline, as the check command prints it (each activity with its list, k, gain, discount, question and answer);
    the lesson, or ``None`` with the problem shown (what was typed or chosen stays)."""
    link_code = st.query_params.get(LESSON_PARAM)
    if link_code and not has_widget_value(f"{prefix}code"):
        set_widget_value(f"{prefix}source", "code")
        set_widget_value(f"{prefix}code", link_code)
    source = st.radio(
        t("classroom.lesson_source"),
        LESSON_SOURCES,
        format_func=lambda s: t(f"classroom.lesson_source.{s}"),
        horizontal=True,
        key=f"{prefix}source",
    )
    if source == "shipped":
        names = shipped_lessons()
        first = default_shipped(names, t.lang)
        if not has_widget_value(f"{prefix}shipped") and first is not None:
            set_widget_value(f"{prefix}shipped", first)
        st.selectbox(t("classroom.lesson_shipped"), names, key=f"{prefix}shipped")
    elif source == "file":
        st.file_uploader(t("classroom.lesson_file"), type=["toml"], key=f"{prefix}file")
    else:
        st.text_input(t("classroom.lesson_code"), key=f"{prefix}code", max_chars=12, placeholder="K7P3QX")
    try:
        lesson = lesson_from(prefix, t.lang)
    except InputError as err:
        st.error(t.explain(err))
        return None
    if lesson is not None:
        st.caption(outline_text(t, lesson))
        with st.expander(t("classroom.lesson_check", command=CHECK_COMMAND), expanded=True):
            st.code(outline(lesson), language=None, wrap_lines=True)
    return lesson


def outline_text(t: Translator, lesson: Lesson) -> str:
    """ "“Title”: 8 activities: Predict the NDCG, Rank it best, …" (the title as typed, escaped)."""
    kinds = ", ".join(t(f"classroom.kind.{step.activity.kind}") for step in lesson.steps)
    return t("classroom.lesson_outline", title=md_escape(lesson.title), count=len(lesson.steps), kinds=kinds)


def start_lesson_room() -> None:
    """Start a room that runs the chosen lesson; its first activity opens with Next."""
    with refusal_shown("lesson") as attempt:
        lesson = lesson_from(CHOOSER, app_state().lang)
        if lesson is None:
            raise InputError("lesson.no_activities")
        room, key = new_room(lesson)
    if attempt.refused:
        return
    cs = reset_classroom()
    cs.room, cs.key = room.code, key


def render_lesson_start(t: Translator) -> None:
    """The landing's "Start from a lesson"."""
    st.subheader(t("classroom.lesson_heading"))
    st.caption(t("classroom.lesson_help"))
    lesson_chooser(t, CHOOSER)
    st.button(t("classroom.lesson_start"), on_click=start_lesson_room, key="btn_cr_lesson_start", type="primary")
    show_message(classroom_state(), "lesson")


# --- the control page: Activity 3 of 8, Back and Next ------------------------------------------------------


def go_to_step(step: int) -> None:
    """Show step ``step`` of the room's lesson (Next opens it; Back shows it again as it was)."""
    with refusal_shown("control"):
        runtime().go_to_step(*teacher(), step)


def off_plan(room: Room, progress: LessonProgress | None) -> bool:
    """Whether the control page is off its room's lesson plan: the teacher chose to leave it, or an activity of
    their own is open (the store says so, so a reload or another server knows it too)."""
    if progress is None or room.ended:
        return False
    return classroom_state().off_plan or not progress.shows(room.current)


def leave_plan() -> None:
    classroom_state().off_plan = True


def back_to_plan(step: int) -> None:
    """Back to the lesson: its step ``step`` shown again as it was (nothing to show before the first)."""
    classroom_state().off_plan = False
    if step >= 0:
        go_to_step(step)


def render_lesson_bar(t: Translator, room: Room, progress: LessonProgress) -> None:
    """The lesson's title, "Activity 3 of 8", and one way on: Back and Next. Off the plan, the way back to it."""
    title, step = progress.title, progress.step
    if step < 0:
        st.markdown(t("classroom.lesson_not_started", title=md_escape(title), count=progress.count))
    else:
        bar = t("classroom.lesson_bar", title=md_escape(title), step=step + 1, count=progress.count)
        current = room.current
        if current is not None and progress.shows(current) and current.round > 1:  # "Vote again": its round 2
            bar += " · **" + t("classroom.round", round=current.round) + "**"
        st.markdown(bar)
    if room.ended:
        return
    if off_plan(room, progress):
        st.info(t("classroom.plan_left"), icon=":material/alt_route:")
        label = "classroom.plan_back_first" if step < 0 else "classroom.plan_back"
        st.button(
            t(label, step=step + 1, count=progress.count),
            on_click=back_to_plan,
            args=(step,),
            key="btn_cr_plan_back",
            type="primary",
            icon=":material/undo:",
        )
        return
    back, forward = st.columns(2)
    back.button(
        t("classroom.lesson_back"),
        on_click=go_to_step,
        args=(step - 1,),
        key="btn_cr_lesson_back",
        disabled=step <= 0,
        width="stretch",
        icon=":material/arrow_back:",
    )
    forward.button(
        t("classroom.lesson_first" if step < 0 else "classroom.lesson_next"),
        on_click=go_to_step,
        args=(step + 1,),
        key="btn_cr_lesson_next",
        disabled=step >= progress.count - 1,
        width="stretch",
        type="primary",
        icon=":material/arrow_forward:",
    )
    if step == progress.count - 1:
        st.caption(t("classroom.lesson_last"))
    st.button(
        t("classroom.plan_leave"),
        on_click=leave_plan,
        key="btn_cr_plan_leave",
        type="tertiary",
        icon=":material/alt_route:",
        help=t("classroom.plan_leave_help"),
    )


# --- time limits -------------------------------------------------------------------------------------------


def now() -> float:
    """The time, as the store keeps it (seconds since the epoch)."""
    return time.time()


def seconds_left(current: ActivityRow) -> float | None:
    """Seconds until answers to ``current`` close by its time limit (``None``: no limit, or not open)."""
    return service.seconds_left(current, now())


def answers_status(current: ActivityRow) -> service.AnswersStatus:
    """Whether ``current`` takes answers now (``service.answers_status``: its phase, or ``"time_up"``)."""
    return service.answers_status(current.phase, seconds_left(current))


def status_text(t: Translator, current: ActivityRow) -> str:
    """``current``'s status as the control page and the projector word it: "open", "locked", "revealed", or
    "Time is up" once its time limit has run out."""
    status = answers_status(current)
    return t("classroom.time_up") if status == "time_up" else t(f"classroom.phase.{status}")


def show_countdown(t: Translator, current: ActivityRow, screen: bool = False, wake: bool = False) -> None:
    """The countdown of an open activity with a time limit while time is left (``wake``: rerun this part of the
    page at zero, so that what it draws beside the countdown, the status above all, says the time is up); none once
    it ran out, when the status says so."""
    left = seconds_left(current)
    if left is None or left <= 0:
        return
    size = 2 * PROJECTOR_FONT if screen else PROJECTOR_FONT
    countdown(left, t("classroom.time_left"), size=size, wake=wake, key=f"cr_countdown_{current.id}")


# --- scores ------------------------------------------------------------------------------------------------


def show_names_for_leaderboard() -> None:
    """Show the room's nicknames, so its leaderboard shows (the control page's switch beside the hidden board)."""
    with refusal_shown("control"):
        runtime().show_names(*teacher(), True)


def render_leaderboard(
    t: Translator, room: Room, progress: LessonProgress | None, screen: bool = False, *, ended_page: bool = False
) -> None:
    """At the end of a lesson that keeps scores: the students with the most points (nickname, or "student 3").
    While nicknames are hidden the projector shows nothing and the control page says why, with the switch that
    shows them (drawn once: by the live part while the room is open, by ``ended_page``'s caller once it ended)."""
    if not service.keeps_scores(progress) or not service.lesson_over(room, progress):
        return
    if not room.show_names:
        if not screen and ended_page == room.ended:
            st.info(t("classroom.leaderboard_hidden"))
            st.button(
                t("classroom.show_names"),
                on_click=show_names_for_leaderboard,
                key="btn_cr_board_names",
                icon=":material/badge:",
            )
        return
    standings = leaderboard(runtime().results(room.code), LEADERBOARD_TOP)
    st.subheader(t("classroom.leaderboard"))
    if not standings:
        st.caption(t("classroom.leaderboard_none"))
        return
    frame = pd.DataFrame(
        {
            t("classroom.leaderboard_place"): [s.place for s in standings],
            # The projector's table draws Markdown in its cells: a nickname is escaped there (the grid shows text).
            t("classroom.leaderboard_name"): [
                md_escape(name) if screen else name
                for name in (student_name(t, s.student, s.nickname) for s in standings)
            ],
            t("classroom.leaderboard_points"): [s.points for s in standings],
        }
    )
    worked_table(frame, screen)
