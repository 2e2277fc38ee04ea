"""The live part of the control page and of the projector view: who joined, the current activity and the
class's answers so far, drawn by the activity kind's presenter (``kinds.VIEWS``).

Under ``serve.py`` it runs when the room changes (the teacher's action, an answer, a join, from any process): a
stream of the room's changes asks for each run (``ui/widgets/room_watch.py``), at most one per half second, and
the part runs every ``QUIET_SECONDS`` besides. Served without the routes (``streamlit run app.py``), it runs every
``PRESENTER_SECONDS`` (half a second). Either way it reads the database only when the process's hub
(``ui.database.notices``) has heard of a change in the room since it last read, or at least every
``QUIET_SECONDS``; otherwise it draws again what it read (a countdown moves on by itself).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import streamlit as st

from ndcg_core.classroom import kinds
from ndcg_core.classroom.kinds.base import Answer
from ndcg_core.classroom.notices import Mark
from ndcg_core.classroom.service import keeps_scores, lesson_over
from ndcg_core.classroom.storage import Room
from ndcg_core.classroom.storage.answers import in_order
from ndcg_core.errors import InputError
from ui.classroom_results import render_class_summary
from ui.classroom_text import activity_heading
from ui.database import notices, runtime
from ui.format import md_escape
from ui.i18n import Translator
from ui.live_part import live_part
from ui.phones.phone_page import pages_served
from ui.state import (
    classroom_state,
)
from ui.views.classroom.common import PRESENTER_SECONDS, outage_notice
from ui.views.classroom.kinds import VIEWS
from ui.views.classroom.lesson_run import render_leaderboard, show_countdown, status_text
from ui.views.classroom.waiting import waiting_join
from ui.widgets.room_watch import room_watch

QUIET_SECONDS = 15.0  # the live part reads the room at least this often, notices or none (a room that expired)
FEW_ANSWERS = 500  # heard of more new answers than this since the last read, the live part reads them all again
# The reads an answer cannot change: after notices of answers alone, these are kept and the answers read anew.
ANSWER_FREE = frozenset({"room", "progress", "roster", "earlier"})
R = TypeVar("R")


class LiveReads:
    """The database reads of one room's live part, kept while the process's hub hears nothing of the room: each
    ``read`` is made once, then given back from memory until the room changes. The class's answers are kept by
    student (``books``): after notices of answers alone, only the students the notices name are read again
    (``pending``), not the whole class twice a second."""

    def __init__(
        self,
        code: str,
        mark: Mark | None,
        at: float,
        kept: dict[tuple[Any, ...], Any] | None = None,
        books: dict[int, dict[str, tuple[Answer, ...]]] | None = None,
        pending: dict[int, set[str]] | None = None,
    ) -> None:
        self.code = code
        self.mark = mark
        self.at = at
        self.kept: dict[tuple[Any, ...], Any] = kept or {}
        self.books = books or {}  # activity id -> {student id: their answers}, as last read
        self.pending = pending or {}  # activity id -> the students whose answers changed since

    def read(self, key: tuple[Any, ...], call: Callable[[], R]) -> R:
        """What ``call`` read, once per ``key`` until the room changes (an error is not kept: read again)."""
        if key not in self.kept:
            self.kept[key] = call()
        return self.kept[key]

    def answers(self, activity_id: int) -> list[Answer]:
        """Every answer to ``activity_id`` (``Answers.for_activity``): the book kept, with the students heard of
        since read again, or the whole class's when there is no book or too many were heard of."""
        key = ("answers", activity_id)
        if key not in self.kept:
            book = self.books.get(activity_id)
            heard = self.pending.get(activity_id, set())
            if book is None or len(heard) > FEW_ANSWERS:
                book = runtime().answer_book(activity_id)
            elif heard:
                book = {**book, **runtime().answer_book(activity_id, heard)}
            self.books[activity_id] = book
            self.pending.pop(activity_id, None)
            self.kept[key] = in_order(book)
        answers: list[Answer] = self.kept[key]
        return answers

    def after_answers(self, mark: Mark, heard: list[tuple[int, str]]) -> LiveReads:
        """These reads at ``mark``, after the answers ``heard`` (activity, student) since this one's mark: what no
        answer changes kept, the answers' books kept with the students heard of to read again."""
        pending = {activity: set(students) for activity, students in self.pending.items()}
        for activity, student in heard:
            pending.setdefault(activity, set()).add(student)
        kept = {key: value for key, value in self.kept.items() if key[0] in ANSWER_FREE}
        return LiveReads(self.code, mark, self.at, kept, dict(self.books), pending)


def live_reads(code: str, fresh: bool = False) -> LiveReads:
    """This session's reads of room ``code``: those kept, unless the hub heard of a change (or it is not hearing
    notices now), they are ``QUIET_SECONDS`` old, or ``fresh``; after answers alone, those an answer cannot change,
    with the answers' books (``LiveReads.after_answers``). The hub's mark is taken before any read, so a change
    during the reads is read again at the next run."""
    state = classroom_state()
    kept = state.live_reads
    now = time.monotonic()
    hub = notices()
    if (
        not fresh
        and isinstance(kept, LiveReads)
        and kept.code == code
        and now - kept.at <= QUIET_SECONDS
        and hub.changed(code, kept.mark)
        and kept.mark is not None
    ):
        mark = hub.mark(code)
        if mark == replace(kept.mark, answers=mark.answers):
            heard = hub.answered(code, kept.mark, mark)
            if heard is not None:
                state.live_reads = kept = kept.after_answers(mark, heard)
                return kept
    if (
        fresh
        or not isinstance(kept, LiveReads)
        or kept.code != code
        or now - kept.at > QUIET_SECONDS
        or hub.changed(code, kept.mark)
    ):
        kept = LiveReads(code, hub.mark(code), now)
        state.live_reads = kept
    return kept


def live_panel(lang: str, code: str) -> None:
    """The control page's live part: who has joined, the current activity, and the class's answers so far."""
    (watched_panel if pages_served() else timed_panel)(lang, code, screen=False)


def screen_panel(lang: str, code: str, ended: bool = False) -> None:
    """The projector view's live part: the same as the control page's, at projector size, with no controls
    (``ended``: whether the room had ended when the page around it was drawn)."""
    (watched_panel if pages_served() else timed_panel)(lang, code, screen=True, ended=ended)


@live_part(QUIET_SECONDS)
def watched_panel(lang: str, code: str, screen: bool, ended: bool = False) -> None:
    """A live part run by the room's changes (``room_watch``), and every ``QUIET_SECONDS``."""
    # The mark before the part reads anything: a change while it reads makes one more run.
    room_watch(code, notices().mark(code).text(), PRESENTER_SECONDS, key="cr_room_watch")
    t = Translator(lang)
    with outage_notice(t):
        draw_live(t, code, screen=screen, ended=ended)


@live_part(PRESENTER_SECONDS)
def timed_panel(lang: str, code: str, screen: bool, ended: bool = False) -> None:
    """A live part run by its timer, every ``PRESENTER_SECONDS``."""
    t = Translator(lang)
    with outage_notice(t):
        draw_live(t, code, screen=screen, ended=ended)


def draw_live(t: Translator, code: str, screen: bool, ended: bool = False) -> None:
    reads = live_reads(code)
    try:
        room = reads.read(("room",), lambda: runtime().room(code))
        if not screen and room.revision != classroom_state().control_revision:
            # This page's own action, maybe not yet heard through PostgreSQL: read once more before following it.
            reads = live_reads(code, fresh=True)
            room = reads.read(("room",), lambda: runtime().room(code))
    except InputError as err:
        st.error(t.explain(err))
        return
    if screen and room.ended != ended:
        # Ended from the control page: the whole projector view follows, its join bar gone.
        st.rerun(scope="app")
    if not screen and room.revision != classroom_state().control_revision:
        # Changed from another device (the lecturer's phone, or a second window): the buttons follow.
        st.rerun(scope="app")
    current = room.current
    progress = reads.read(("progress",), lambda: runtime().progress(room.code))
    if screen and room.ended:
        st.info(t("classroom.ended_screen"))
        render_leaderboard(t, room, progress, screen=True)
        render_class_summary(t, reads.read(("summary",), lambda: runtime().class_summary(room.code)), screen=True)
        return
    if current is None:
        # The projector's waiting screen: the QR code large beside the count (the control page has its own).
        with waiting_join(room) if screen and not room.ended else st.container():
            st.metric(t("classroom.joined"), room.students)
            if room.ended:
                st.info(t("classroom.ended_screen"))
            else:
                st.info(t("classroom.no_activity_screen" if screen else "classroom.no_activity_teacher"))
            render_roster(t, room, reads)
        return
    activity = current.activity()
    summary = kinds.summary(activity, reads.answers(current.id))
    heading = activity_heading(t, current)  # a lesson's step: "Activity 3 of 8: ..."
    if screen:
        title, a, b = st.columns([3, 1, 1], vertical_alignment="bottom")
        title.subheader(heading)
    else:  # beside the sidebar, the figures get a column each of their own width
        st.subheader(heading)
        a, b = st.columns(2)
    a.metric(t("classroom.answered"), f"{summary.count} / {room.students}")
    b.metric(t("classroom.phase"), status_text(t, current))
    # At zero the part runs again, so the status says the time is up when the countdown does, not at the next
    # quiet run up to 15 s later ("Time is up" beside "Answers: open").
    show_countdown(t, current, screen=screen, wake=True)
    revealed = current.phase == "revealed"
    main = side = st.container()
    if screen and keeps_scores(progress) and lesson_over(room, progress) and room.show_names:
        # At a scoring lesson's end the leaderboard sits beside the last reveal: both on a 1280x720 projector.
        main, side = st.columns([5, 2], gap="medium")
    views, before = VIEWS[current.kind], None
    if revealed and views.ROUNDS and current.round > 1:
        # A round run again: at its reveal, the round before beside it (its answers are final by now).
        earlier = reads.read(("earlier", current.id), lambda: runtime().earlier_round(room.code, current))
        if earlier is not None:
            before = kinds.summary(activity, reads.answers(earlier.id))
    with main:
        own = current.question.get(t.lang)
        round_number, students = current.round, room.students
        views.present(t, activity, summary, revealed, screen, own, before, round_number, students)
    with side:
        render_leaderboard(t, room, progress, screen=screen)
    render_roster(t, room, reads)


def render_roster(t: Translator, room: Room, reads: LiveReads) -> None:
    if not room.show_names or not room.students:
        return
    names = [s.nickname for s in reads.read(("roster",), lambda: runtime().roster(room.code)) if s.nickname]
    if names:
        st.caption(t("classroom.roster", count=len(names)))
        st.markdown(" · ".join(md_escape(n) for n in names))
