"""What the phone's card routes answer (``ui.routes``): a student's card, and an answer sent from it.

A card for a student with no answer to the current activity is the same for the whole class: it is built once per
room, revision, language and time-up state by this process and shared (a class's phones all fetch it when the
teacher opens an activity). A card with the student's own answers (and so their result at the reveal) is built for
that student.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from ndcg_core.classroom import results
from ndcg_core.classroom.store import ActivityRow, Room
from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import answer_stored, anyone_answered, room_now, store
from ui.errors import InputError as UiInputError
from ui.errors import shown
from ui.i18n import LANGUAGES, Translator
from ui.views.classroom.card import Body, PhoneCard, Text, phone_card, plain
from ui.views.classroom.common import activity_heading
from ui.views.classroom.kinds import VIEWS
from ui.views.classroom.lesson_run import keeps_scores, lesson_over, seconds_left

MAX_PART = 10_000  # a part number beyond any activity's: the kind names a wrong one below this
CARDS_KEPT = 256  # shared cards kept per process: a few per room (one per language and revision)
Pairs = list[tuple[int, Any]]


class _SharedCards:
    """The shared cards (no answer of the student's own in them) as JSON-ready dicts, most recent last."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cards: OrderedDict[tuple[str, int, str, bool], dict[str, Any]] = OrderedDict()

    def get(self, key: tuple[str, int, str, bool]) -> dict[str, Any] | None:
        with self._lock:
            return self._cards.get(key)

    def put(self, key: tuple[str, int, str, bool], card: dict[str, Any]) -> None:
        with self._lock:
            self._cards[key] = card
            while len(self._cards) > CARDS_KEPT:
                self._cards.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _shared() -> _SharedCards:
    return _SharedCards()


@dataclass(frozen=True)
class Score:
    """A student's points so far and place among the students who answered (``place`` ``None``: none yet)."""

    points: int
    place: int | None
    count: int
    final: bool  # the lesson is over: these are the final points


class _Scores:
    """Each room's scores by student id, worked out once per room and revision (``None``: no scores kept), most
    recent last: a class's phones all ask for their cards when the teacher reveals."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rooms: OrderedDict[tuple[str, int], dict[str, Score] | None] = OrderedDict()

    def get(self, room: Room) -> dict[str, Score] | None:
        key = (room.code, room.revision)
        with self._lock:
            if key in self._rooms:
                return self._rooms[key]
        scores = room_scores(room)
        with self._lock:
            self._rooms[key] = scores
            while len(self._rooms) > CARDS_KEPT:
                self._rooms.popitem(last=False)
        return scores


@st.cache_resource(show_spinner=False)
def _scores() -> _Scores:
    return _Scores()


def room_scores(room: Room) -> dict[str, Score] | None:
    """Every student's score in a room whose lesson keeps scores, by student id (``None`` for any other room):
    from ndcg_core's standings, the current activity counted once it is revealed."""
    progress = store().lesson_progress(room.code)
    if not keeps_scores(progress):
        return None
    standings = results.standings(store().results(room.code, scored_now=True))
    final = lesson_over(room, progress)
    count = len(standings)
    return {
        s.id: Score(
            standings[s.number].points if s.number in standings else 0,
            standings[s.number].place if s.number in standings else None,
            count,
            final,
        )
        for s in store().roster(room.code)
    }


def score_block(t: Translator, score: Score) -> Text:
    """The student's own points and place, as the card's first line."""
    if score.place is None:
        return Text(t("classroom.my_score_none", points=score.points), small=True)
    key = "classroom.my_score_final" if score.final else "classroom.my_score"
    return Text(t(key, points=score.points, place=score.place, count=score.count), small=not score.final)


def with_score(card: dict[str, Any], room: Room, student: str, lang: str) -> dict[str, Any]:
    """The card with the student's score before its blocks, when the room's lesson keeps scores."""
    scores = _scores().get(room)
    if scores is None:
        return card
    score = scores.get(student, Score(0, None, 0, False))  # joined since the room's revision changed
    return {**card, "blocks": [score_block(Translator(lang), score).to_json(), *card["blocks"]]}


def language(value: Any) -> str:
    """The phone's language from a request (English unless it is one the app has)."""
    return value if isinstance(value, str) and value in LANGUAGES else next(iter(LANGUAGES))


def card_json(code: str, student: str, lang: str) -> dict[str, Any]:
    """The student's card now, as JSON-ready data (an ``InputError`` if the room is gone; ``StoreUnavailable``
    when the database cannot answer)."""
    room = room_now(code)
    current = room.current
    mine: Mapping[int, Any] = {}
    if current is not None and anyone_answered(code, current.id):
        mine = store().my_answers(current.id, student)
    left = seconds_left(current) if current is not None else None
    time_up = left is not None and left <= 0
    key = (code, room.revision, lang, time_up)
    if not mine:
        shared = _shared().get(key)
        if shared is None:
            shared = build(Translator(lang), room, current, mine, left).to_json()
            _shared().put(key, shared)
        return with_score({**shared, "left": left if shared["phase"] == "open" else None}, room, student, lang)
    return with_score(build(Translator(lang), room, current, mine, left).to_json(), room, student, lang)


def build(
    t: Translator, room: Room, current: ActivityRow | None, mine: Mapping[int, Any], left: float | None
) -> PhoneCard:
    """The card of ``room`` for a student with answers ``mine`` (a locked card once the time limit has run out)."""
    if current is None:
        return phone_card(t, room, None, mine, None, "", None)
    time_up = left is not None and left <= 0
    if time_up:
        current = replace(current, phase="locked")
    body: Body = VIEWS[current.kind].card(t, current.activity(), current, mine)
    return phone_card(t, room, current, mine, left, activity_heading(t, current), body, time_up)


@dataclass(frozen=True)
class Reply:
    """What an answer sent from a card got: saved or not, the sentence saying so (Markdown), and the card after it."""

    ok: bool
    message: str
    card: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": plain(self.message), "card": self.card}


def read_values(raw: Any) -> Pairs:
    """The (part, value) pairs of an answer as the browser sent them (``[[0, "0.75"], ...]``); an ``InputError``
    for anything else."""
    if not isinstance(raw, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int and 0 <= pair[0] < MAX_PART for pair in raw
    ):
        raise UiInputError("answer.malformed", value=shown(raw))
    return [(pair[0], pair[1]) for pair in raw]


def answer(code: str, student: str, lang: str, activity_id: Any, raw: Any) -> Reply:
    """Store an answer as a card sent it (JSON): checked for its form here, then as ``deliver`` does."""
    t = Translator(lang)
    try:
        if type(activity_id) is not int:
            raise UiInputError("answer.malformed", value=shown(activity_id))
        values = read_values(raw)
    except InputError as err:
        return Reply(False, t.explain(err), None)
    reply = deliver(t, code, student, activity_id, values)
    card = None
    with suppress(InputError, StoreUnavailable):  # the answer is stored; the phone's next look brings its card
        card = card_json(code, student, lang)
    return replace(reply, card=card)


def deliver(t: Translator, code: str, student: str, activity_id: int, values: Pairs) -> Reply:
    """Store a student's answer to activity ``activity_id`` (its parts' values, blank ones left out): checked by its
    kind (each Practice exercise on its own, so the readable ones are saved and each unreadable one is named), then
    by the store (the current activity, open, in time, not too fast). The reply's message is Markdown."""
    values = [(part, value) for part, value in values if value not in (None, "")]
    try:
        current = room_now(code).current
        if current is None or current.id != activity_id:
            raise InputError("room.not_current")
        if not values:
            nothing(current)
        values, notes = checked(t, current, values)
        if values:
            store().answer(code, student, activity_id, values)
            answer_stored(code, activity_id)
    except (InputError, StoreUnavailable) as err:
        return Reply(False, t.explain(err))
    read = read_notes(t, current, values)
    if notes:
        after = t("classroom.others_saved" if values else "classroom.nothing_saved")
        return Reply(False, " ".join([*notes, "".join(read) + after]))
    return Reply(True, "".join(read) + t("classroom.saved"))


def read_notes(t: Translator, current: ActivityRow, values: Pairs) -> list[str]:
    """A sentence for each stored value the core read one particular way ("'0,62' read as 0.62. "), so the student
    knows what was saved; each ends as the language ends a sentence, ready to go before the next one."""
    activity = current.activity()
    notes = (activity.note(value, part) for part, value in values)
    return [t("common.read_note", note=t.explain(note)) for note in notes if note is not None]


def nothing(current: ActivityRow) -> None:
    """Raise the message for an answer with nothing in it: a single answer's own ("type a number"), else "choose
    an answer first"."""
    raise current.activity().nothing_sent()


def checked(t: Translator, current: ActivityRow, values: Pairs) -> tuple[Pairs, list[str]]:
    """The values a Practice set can read, and a note naming each exercise whose answer it cannot; other kinds'
    values go to the store whole (it refuses the answer with the problem's message)."""
    activity = current.activity()
    if not activity.keeps_readable_parts():
        return values, []
    readable, notes = [], []
    for part, value in values:
        try:
            activity.check(value, part)
        except InputError as err:
            notes.append(t("classroom.exercise_note", number=part + 1, text=t.explain(err)))
        else:
            readable.append((part, value))
    return readable, notes


def unavailable(lang: str) -> Reply:
    """The reply when the database could not even say whether the student is in the room."""
    t = Translator(lang)
    return Reply(False, t.explain(StoreUnavailable("store.unavailable")))
