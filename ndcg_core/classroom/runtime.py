"""The live classroom as one way in: every command a teacher or a phone gives (start a room, open an activity,
lock, reveal, go back or on in a lesson, run or vote again, end, the door and its kicks; join, answer) and the reads
the pages draw from, over the process's store and its ``ClassroomService``. No Streamlit here: the Streamlit views
hold one handle to a ``ClassroomRuntime`` (``ui.database.runtime``) and no repository, and the tests run every
command without a browser.

A command returns what it did (a room, a row, a count) or raises the store's refusal as it is: an ``InputError``
(a wrong key, a phase the room is not in, a bad value) or a ``StoreUnavailable`` (the database cannot serve). After
a teacher's command on a room, ``changed(code)`` is told, so that the process's own reads of the room (its phones'
shared reads) follow at once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from .kinds import Activity
from .kinds.base import Answer
from .lessons import Lesson
from .results import ActivityOutcome, RoomResults
from .rules import Limits
from .service import CardState, ClassroomService, Outcome, Submission
from .storage import ActivityRow, Classroom, Door, LessonProgress, Room, Student


def nothing_changed(code: str) -> None:
    """No reads of a room kept by the process to forget (``ClassroomRuntime``'s ``changed`` by default)."""


class ClassroomRuntime:
    """The classroom's commands and reads over ``store`` (``service``: the process's phones' service, made over
    ``store`` unless given; ``changed``: told a room's code after a teacher changed the room)."""

    def __init__(
        self,
        store: Classroom,
        service: ClassroomService | None = None,
        changed: Callable[[str], None] = nothing_changed,
    ) -> None:
        self.store = store
        self.service = service if service is not None else ClassroomService(store)
        self.changed = changed

    # --- starting a room ---------------------------------------------------------------------------------

    def start_room(self, *, source: str = "", passphrase: Any = None) -> tuple[Room, str]:
        """A new room and its teacher's key, started by client ``source`` with ``passphrase`` (when the server
        asks for one)."""
        return self.store.rooms.create(source=source, passphrase=passphrase)

    def start_lesson(self, lesson: Lesson, *, source: str = "", passphrase: Any = None) -> tuple[Room, str]:
        """A new room that runs ``lesson`` (its first activity opens with ``go_to_step(..., 0)``), and its key."""
        room, key = self.start_room(source=source, passphrase=passphrase)
        self.store.lessons.use(room.code, key, lesson)
        return room, key

    def use_lesson(self, code: str, key: Any, lesson: Lesson) -> None:
        """Run ``lesson`` in room ``code`` from now on (it replaces the lesson the room ran)."""
        self.store.lessons.use(code, key, lesson)
        self.changed(code)

    def save_lesson(self, lesson: Lesson) -> str:
        """The code ``lesson`` is saved under (``?lesson=CODE``; the same lesson, the same code)."""
        return self.store.lessons.save(lesson)

    def is_teacher(self, code: str, key: Any) -> bool:
        """Whether ``key`` is room ``code``'s teacher key."""
        return self.store.rooms.is_teacher(code, key)

    # --- the teacher's commands on a room ----------------------------------------------------------------

    def open(self, code: str, key: Any, activity: Activity, *, after: int | None = None) -> ActivityRow:
        """Open ``activity`` for the class, as of revision ``after`` (the one the teacher's page showed: a retry,
        or a second click, opens it once)."""
        row = self.store.rooms.open_activity(code, key, activity, after=after)
        self.changed(code)
        return row

    def lock(self, code: str, key: Any) -> None:
        """Take no more answers to the current activity."""
        self._phase(code, key, "locked")

    def unlock(self, code: str, key: Any) -> None:
        """Take answers to the locked current activity again."""
        self._phase(code, key, "open")

    def reveal(self, code: str, key: Any) -> None:
        """Show the current activity's answer (final: it runs again as a new round, ``run_again``)."""
        self._phase(code, key, "revealed")

    def _phase(self, code: str, key: Any, phase: str) -> None:
        self.store.rooms.set_phase(code, key, phase)
        self.changed(code)

    def run_again(self, code: str, key: Any, *, after: int | None = None) -> ActivityRow:
        """The current activity as a new round, as of revision ``after`` (one round per revision): "Run again"
        after a reveal, and "Vote again" (peer instruction: the class votes again after talking it over)."""
        row = self.store.rooms.run_again(code, key, after=after)
        self.changed(code)
        return row

    vote_again = run_again

    def go_to_step(self, code: str, key: Any, step: int) -> ActivityRow:
        """Show step ``step`` (from 0) of the room's lesson: Next opens it, Back shows it again as it was."""
        row = self.store.lessons.step(code, key, step)
        self.changed(code)
        return row

    def show_names(self, code: str, key: Any, show: bool) -> None:
        """Show the students' nicknames on the projector (or hide them)."""
        self.store.rooms.show_names(code, key, show)
        self.changed(code)

    def end(self, code: str, key: Any) -> None:
        """End the room: no activity opens and no answer is taken any more; its results stay."""
        self.store.rooms.end(code, key)
        self.changed(code)

    # --- the door ----------------------------------------------------------------------------------------

    def set_seats(self, code: str, key: Any, seats: Any) -> None:
        """Take at most ``seats`` students (students already in stay)."""
        self.store.doors.set_seats(code, key, seats)
        self.changed(code)

    def close_joining(self, code: str, key: Any, closed: bool) -> None:
        """Close joining (``closed``) or open it again."""
        self.store.doors.set_closed(code, key, closed)
        self.changed(code)

    def kick_recent(self, code: str, key: Any, minutes: float) -> int:
        """Remove the students who joined in the last ``minutes``; how many were removed."""
        removed = self.store.doors.remove(code, key, joined_within=minutes * 60)
        self.changed(code)
        return removed

    def kick_silent(self, code: str, key: Any) -> int:
        """Remove every student who never answered; how many were removed."""
        removed = self.store.doors.remove(code, key, never_answered=True)
        self.changed(code)
        return removed

    # --- the phones --------------------------------------------------------------------------------------

    def join(self, code: Any, student: str, nickname: Any = None, *, source: str = "") -> Student:
        """Student ``student`` joins room ``code`` (read forgivingly) with ``nickname``, from client ``source``
        (joining again gives the student as they are)."""
        return self.store.students.join(code, student, nickname, source=source)

    def answer(self, code: str, student: str, submission: Submission) -> Outcome:
        """A student's submission checked once and stored (``ClassroomService.submit``): its refusals are in the
        ``Outcome``, never raised."""
        return self.service.submit(code, student, submission)

    def card(self, code: str, student: str, room: Room | None = None) -> CardState:
        """What ``student``'s card needs now (``ClassroomService.card``)."""
        return self.service.card(code, student, room)

    # --- reads -------------------------------------------------------------------------------------------

    @property
    def limits(self) -> Limits:
        return self.store.limits

    @property
    def passphrase_asked(self) -> bool:
        """Whether a lecturer must give a passphrase to start a room."""
        return self.store.rooms.passphrase is not None

    def clock(self) -> float:
        """The store's time (seconds since the epoch)."""
        return self.store.database.clock()

    def room(self, code: str) -> Room:
        """Room ``code`` as stored now (an ``InputError`` if there is none open)."""
        return self.store.rooms.get(code)

    def student(self, code: str, student: str) -> Student | None:
        """Student ``student`` of room ``code``, or ``None``."""
        return self.store.students.get(code, student)

    def roster(self, code: str) -> list[Student]:
        return self.store.students.roster(code)

    def door(self, code: str) -> Door:
        return self.store.doors.get(code)

    def progress(self, code: str) -> LessonProgress | None:
        """Where the room's lesson is (``None``: the room runs none)."""
        return self.store.lessons.progress(code)

    def lesson_text(self, code: Any) -> str:
        """The TOML text of the lesson saved under ``code`` (a read: nothing is written)."""
        return self.store.lessons.text(code)

    def lesson(self, code: Any) -> Lesson:
        """The lesson saved under ``code``, read and parsed (a read: nothing is written); an ``InputError`` if there
        is none."""
        return self.store.lessons.load(code)

    def earlier_round(self, code: str, current: ActivityRow) -> ActivityRow | None:
        return self.store.rooms.earlier_round(code, current)

    def answer_book(self, activity_id: int, only: Collection[str] | None = None) -> dict[str, tuple[Answer, ...]]:
        """The answers to an activity by student (``only`` those students)."""
        return self.store.answers.book(activity_id, only)

    def results(self, code: str) -> RoomResults:
        """The room's results (every answer, scored as the room revealed them)."""
        return self.store.answers.results(code)

    def class_summary(self, code: str) -> list[ActivityOutcome]:
        return self.store.answers.class_summary(code)
