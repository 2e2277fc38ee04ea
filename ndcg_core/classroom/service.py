"""The live classroom as a student's phone uses it, whichever draws the phone (its own page under ``serve.py``, or
the Streamlit page where the app runs without it): what the student's card needs now, and an answer checked once
and stored. No Streamlit and no UI here; the UI words what this returns in the student's language.

Three words keep the answer's path apart: a ``Submission`` is what a phone sent (the activity and each part's value
as typed), an ``Entry`` is one part's value as its kind checked it (typed, with how a typed number was read), and
an ``Answer`` (``ndcg_core.classroom.storage``) is a stored row.

One ``ClassroomService`` serves a server process: it keeps that process's shared caches (the cards a whole class
gets alike, the scores of a room at its revision), so it is made once per process, beside the process's store.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from ..errors import InputError, Note, StoreUnavailable
from . import results, rules
from .kinds import Activity
from .kinds.base import part_of
from .storage import ActivityRow, Classroom, LessonProgress, Room
from .storage.answers import Sending
from .storage.group_commit import GroupCommit

CACHE_SIZE = 256  # entries kept per cache and process: a few per room (one per language and revision)
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class RoomReads(Protocol):
    """How the service reads a room for a phone: the room at its current revision and a student's answers to an
    activity (both may be shared by a process's phones, ``ui.database``: ``read_answers`` reads a whole class's),
    told when an answer is stored; and the same without reading (``None``: not at hand), for a card made where no
    read may wait (an event loop)."""

    def room(self, code: str) -> Room: ...

    def answers_of(self, code: str, activity_id: int, student: str) -> Mapping[int, Any]: ...

    def read_answers(self, code: str, activity_id: int) -> None: ...

    def answer_stored(self, code: str, activity_id: int, student: str | None = None) -> None: ...

    def room_at_hand(self, code: str, told: int | None = None) -> Room | None: ...

    def answers_at_hand(self, code: str, activity_id: int, student: str) -> Mapping[int, Any] | None: ...


class StoreReads:
    """``RoomReads`` straight from the store, every call a read (no sharing between phones, nothing at hand)."""

    def __init__(self, store: Classroom) -> None:
        self.store = store

    def room(self, code: str) -> Room:
        return self.store.rooms.get(code)

    def answers_of(self, code: str, activity_id: int, student: str) -> Mapping[int, Any]:
        return self.store.answers.of_student(activity_id, student)

    def read_answers(self, code: str, activity_id: int) -> None:
        return None

    def answer_stored(self, code: str, activity_id: int, student: str | None = None) -> None:
        return None

    def room_at_hand(self, code: str, told: int | None = None) -> Room | None:
        return None

    def answers_at_hand(self, code: str, activity_id: int, student: str) -> Mapping[int, Any] | None:
        return None


class Recent(Generic[K, V]):
    """A thread-safe cache of the ``size`` most recently stored values, oldest dropped first."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._lock = threading.Lock()
        self._size = size
        self._values: OrderedDict[K, V] = OrderedDict()

    def peek(self, key: K) -> tuple[bool, V | None]:
        """Whether a value is kept for ``key``, and the value; never makes one."""
        with self._lock:
            if key in self._values:
                return True, self._values[key]
        return False, None

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for ``key``, or ``make()`` kept for it (made outside the lock: two threads may both make
        it, and the later one is kept)."""
        with self._lock:
            if key in self._values:
                return self._values[key]
        value = make()
        with self._lock:
            self._values[key] = value
            while len(self._values) > self._size:
                self._values.popitem(last=False)
        return value


@dataclass(frozen=True)
class Score:
    """A student's points so far and place among the students who answered (``place`` ``None``: none yet)."""

    points: int
    place: int | None
    count: int
    final: bool  # the lesson is over: these are the final points


@dataclass(frozen=True)
class CardState:
    """What a student's card needs now: the room, its current activity (as stored), the student's own answers to it
    by part, the seconds left by its time limit while it is open (``None``: no limit, or not open; zero or below:
    the time is up) and their score when the room's lesson keeps scores."""

    room: Room
    current: ActivityRow | None
    mine: Mapping[int, Any]
    left: float | None
    score: Score | None

    @property
    def status(self) -> AnswersStatus | None:
        """Whether the current activity takes answers (``answers_status``; ``None``: no activity)."""
        return None if self.current is None else answers_status(self.current.phase, self.left)

    @property
    def time_up(self) -> bool:
        return self.status == "time_up"

    @property
    def shared(self) -> bool:
        """Whether the card is the same for every student who has not answered (the score aside)."""
        return not self.mine

    def key(self, lang: str) -> tuple[str, int, str, bool]:
        """What a shared card depends on: the room, its revision, the language and whether the time is up."""
        return self.room.code, self.room.revision, lang, self.time_up


@dataclass(frozen=True)
class Submission:
    """What a phone sent: the activity it answers and each part's value as typed, (part, value) pairs."""

    activity: int
    values: tuple[tuple[int, Any], ...]


@dataclass(frozen=True)
class Entry:
    """One part's value as its kind checked it (a typed value, as stored), and how a typed number was read when
    the student should be told ("read 0,62 as 0.62")."""

    part: int
    value: Any
    note: Note | None = None


@dataclass(frozen=True)
class Outcome:
    """What a submission got: the entries stored, each part refused on its own (a Practice set's exercise, with its
    problem), or the refusal of the whole submission (nothing stored)."""

    stored: tuple[Entry, ...] = ()
    refused: tuple[tuple[int, InputError], ...] = ()
    error: InputError | StoreUnavailable | None = None
    mine: Mapping[int, Any] | None = None  # the student's answers to the activity once stored (``None``: unknown)
    activity: int | None = None  # the activity's id

    @property
    def ok(self) -> bool:
        return self.error is None and not self.refused


def keeps_scores(progress: LessonProgress | None) -> bool:
    """Whether the room runs a lesson that keeps scores."""
    return progress is not None and progress.scores


def lesson_over(room: Room, progress: LessonProgress | None) -> bool:
    """Whether the lesson is at its end: the room ended, or the last step revealed."""
    if progress is None:
        return False
    current = room.current
    last = progress.step == progress.count - 1 and current is not None and current.phase == "revealed"
    return room.ended or last


def seconds_left(current: ActivityRow, now: float) -> float | None:
    """Seconds until answers to ``current`` close by its time limit at time ``now`` (``None``: no limit, or not
    open), by the rule the store checks an answer's time by (``rules.seconds_left``)."""
    if current.phase != "open":
        return None
    return rules.seconds_left(current.opened_at, current.time_limit, now)


AnswersStatus = Literal["open", "time_up", "locked", "revealed"]
_PHASE_STATUS: dict[str, AnswersStatus] = {"open": "open", "locked": "locked", "revealed": "revealed"}


def answers_status(phase: str, left: float | None) -> AnswersStatus:
    """Whether an activity in ``phase`` takes answers, with ``left`` seconds of its time limit (``seconds_left``):
    the one status the projector, the control page and a phone all word. It is the phase, except ``"time_up"`` for
    an open activity whose time limit has run out (zero or below), which takes no answers either: the phase stays
    open in the store, so a screen that read the phase alone said "open" beside a countdown saying "Time is up"."""
    if phase == "open" and left is not None and left <= 0:
        return "time_up"
    return _PHASE_STATUS[phase]


class ClassroomService:
    """A student's card and their answers, over the process's store (``reads``: how a room is read for a phone,
    straight from the store unless a process shares its reads)."""

    def __init__(self, store: Classroom, reads: RoomReads | None = None) -> None:
        self.store = store
        self.reads: RoomReads = reads if reads is not None else StoreReads(store)
        self.cards: Recent[tuple[str, int, str, bool], dict[str, Any]] = Recent()
        self._scores: Recent[tuple[str, int], dict[str, Score] | None] = Recent()
        # A class's answers that come in together are stored together: one transaction for all that arrive while
        # the one before is written (a transaction each cost most of the database's and this process's work).
        self.answering: GroupCommit[Sending, dict[int, Any]] = GroupCommit(
            store.answers.submit_many, key=lambda sending: (sending.code, sending.student, sending.activity)
        )

    # --- the card ---------------------------------------------------------------------------------------

    def card(self, code: str, student: str, room: Room | None = None, answered: Outcome | None = None) -> CardState:
        """What ``student``'s card in room ``code`` needs now (``room``: the room as already read; ``answered``:
        what the student's submission just got, whose answers once stored need no read). An ``InputError`` if the
        room is gone; ``StoreUnavailable`` when the database cannot answer."""
        room = self.reads.room(code) if room is None else room
        current = room.current
        if current is None:
            mine: Mapping[int, Any] = {}
        elif answered is not None and answered.mine is not None and answered.activity == current.id:
            mine = answered.mine
        else:
            mine = self.reads.answers_of(code, current.id, student)
        left = None if current is None else seconds_left(current, self.store.database.clock())
        return CardState(room, current, mine, left, self.score(room, student))

    def card_at_hand(self, code: str, student: str, told: int | None = None) -> CardState | None:
        """``card`` made from what this process has read lately, without reading (``None``: something is not at
        hand; ``prepare`` reads it, once for a whole class). ``told``: a revision the room is known to have reached,
        so that a room read at it or later serves however long ago it was read (``RoomReads.room_at_hand``)."""
        room = self.reads.room_at_hand(code, told)
        if room is None:
            return None
        current = room.current
        mine = {} if current is None else self.reads.answers_at_hand(code, current.id, student)
        kept, scores = self._scores.peek((room.code, room.revision))
        if mine is None or not kept:
            return None
        left = None if current is None else seconds_left(current, self.store.database.clock())
        return CardState(room, current, mine, left, self.student_score(scores, student))

    def prepare(self, code: str) -> None:
        """Read what every student's card in room ``code`` needs now (the room, the activity's answers, the
        scores), so that ``card_at_hand`` can make each card without a read."""
        room = self.reads.room(code)
        if room.current is not None:
            self.reads.read_answers(code, room.current.id)
        self.kept_scores(room)

    def shared_card(self, state: CardState, lang: str, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The card (JSON-ready) every student without an answer gets in ``state``'s room, revision and language,
        made once per process by ``make``."""
        return self.cards.get(state.key(lang), make)

    def score(self, room: Room, student: str) -> Score | None:
        """The student's score in a room whose lesson keeps scores (``None`` in any other room)."""
        return self.student_score(self.kept_scores(room), student)

    def kept_scores(self, room: Room) -> dict[str, Score] | None:
        """``room_scores`` at the room's revision, read once per process and revision."""
        return self._scores.get((room.code, room.revision), lambda: self.room_scores(room))

    @staticmethod
    def student_score(scores: dict[str, Score] | None, student: str) -> Score | None:
        if scores is None:
            return None
        return scores.get(student, Score(0, None, 0, False))  # joined since the room's revision changed

    def room_scores(self, room: Room) -> dict[str, Score] | None:
        """Every student's score in a room whose lesson keeps scores, by student id (``None`` for any other room):
        from the standings, the current activity counted once it is revealed."""
        progress = self.store.lessons.progress(room.code)
        if not keeps_scores(progress):
            return None
        standings = results.standings(self.store.answers.results(room.code, scored_now=True))
        final = lesson_over(room, progress)
        count = len(standings)
        return {
            s.id: Score(
                standings[s.number].points if s.number in standings else 0,
                standings[s.number].place if s.number in standings else None,
                count,
                final,
            )
            for s in self.store.students.roster(room.code)
        }

    # --- an answer --------------------------------------------------------------------------------------

    def submit(self, code: str, student: str, submission: Submission) -> Outcome:
        """Check a submission once and store what it can: blank parts left out, each value checked by its kind
        (a Practice set's exercises each on its own, so the readable ones are stored and each unreadable one is
        refused by itself; any other kind's answer whole), then stored if the activity is still the current one,
        open and in time, and the student not too fast."""
        values = [(part, value) for part, value in submission.values if value not in (None, "")]
        try:
            current = self.reads.room(code).current
            if current is None or current.id != submission.activity:
                raise InputError("room.not_current")
            activity = current.activity()
            if not values:
                raise activity.nothing_sent()
            entries, refused = check(activity, values)
            mine = None
            if entries:
                mine = self.answering.submit(
                    Sending(code, student, current.id, tuple((e.part, e.value) for e in entries))
                )
                self.reads.answer_stored(code, current.id, student)
        except (InputError, StoreUnavailable) as err:
            return Outcome(error=err)
        return Outcome(tuple(entries), tuple(refused), mine=mine, activity=current.id)


def check(activity: Activity, values: Sequence[tuple[int, Any]]) -> tuple[list[Entry], list[tuple[int, InputError]]]:
    """Each value checked once by the activity's kind, and read once (``read_answer``: the typed value and how a
    typed number was read, from one reading): the entries, and the parts refused on their own (a Practice set's);
    any other kind's first refusal is raised (the whole answer is refused)."""
    entries: list[Entry] = []
    refused: list[tuple[int, InputError]] = []
    for part, value in values:
        try:
            checked, note = activity.read_answer(value, part)
            part_of(part, activity.parts())  # after the kind's check, which names its own parts (a set's exercise)
            entries.append(Entry(part, checked, note))
        except InputError as err:
            if not activity.keeps_readable_parts():
                raise
            refused.append((part, err))
    return entries, refused
