"""The classroom's repositories and the short links for this server process: one engine per database, shared by
every session."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from contextlib import suppress
from functools import lru_cache
from typing import Any

import streamlit as st

from ndcg_core.classroom import clients
from ndcg_core.classroom.notices import Hub, Listener, Notice, Watcher, conninfo_of, sqlite_path
from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.runtime import ClassroomRuntime
from ndcg_core.classroom.service import ClassroomService
from ndcg_core.classroom.storage import ENV_DATA_DIR, ENV_URL, Classroom, DatabaseSettings, Room, database_url
from ndcg_core.errors import StoreUnavailable
from ndcg_core.links import LinkLimits, ShortLinks


@st.cache_resource(show_spinner=False)
def _classroom_for(url: str) -> Classroom:
    # A StoreUnavailable here (the database down at start) is not cached: the next call tries again.
    classroom = Classroom(
        url,
        limits=Limits.from_environment(),
        settings=DatabaseSettings.from_environment(),
        passphrase=clients.teacher_passphrase(),
    )
    if not url.startswith("postgresql"):
        # SQLite: the process tells itself of a teacher's action at its commit; answers and joins, its own and other
        # processes', reach the hub through the file's watcher, so that each is told once.
        hub = _hub_for(url)
        watched = sqlite_path(url) is not None
        classroom.database.sinks.append(
            lambda notice: hub.tell(notice) if notice.revision is not None or not watched else None
        )
    with suppress(StoreUnavailable):  # a read-only or full database still shows its rooms; a new room purges
        classroom.rooms.purge()
    return classroom


@st.cache_resource(show_spinner=False)
def _quick_classroom_for(url: str) -> Classroom:
    return _classroom_for(url).without_retries()


@st.cache_resource(show_spinner=False)
def _service_for(url: str) -> ClassroomService:
    # Its caches (shared cards, scores) are this process's, like the classroom and the room reads it goes through.
    return ClassroomService(_classroom_for(url), _revisions())


@st.cache_resource(show_spinner=False)
def _runtime_for(url: str) -> ClassroomRuntime:
    # A teacher's command forgets this process's shared read of the room: its phones here follow at their next look.
    return ClassroomRuntime(_classroom_for(url), _service_for(url), changed=room_changed)


@st.cache_resource(show_spinner=False)
def _links_for(url: str) -> ShortLinks:
    classroom = _classroom_for(url)
    links = ShortLinks(
        classroom.database, keep_days=classroom.limits.short_link_days, limits=LinkLimits.from_environment()
    )
    with suppress(StoreUnavailable):
        links.purge()
    return links


@lru_cache(maxsize=8)
def _url(database: str, data_dir: str) -> str:
    return database_url({ENV_URL: database, ENV_DATA_DIR: data_dir} if data_dir else {ENV_URL: database})


def _here() -> str:
    return _url(os.environ.get(ENV_URL, ""), os.environ.get(ENV_DATA_DIR, ""))


def db() -> Classroom:
    """The classroom for ``NDCG_LAB_DATABASE_URL`` (or the SQLite file in ``NDCG_LAB_DATA_DIR``): ``db().rooms``,
    ``.students``, ``.answers``, ``.lessons``."""
    return _classroom_for(_here())


def quick_db() -> Classroom:
    """``db()`` trying each call once (``Classroom.without_retries``), for the phones' polls."""
    return _quick_classroom_for(_here())


def runtime() -> ClassroomRuntime:
    """The classroom's runtime over ``db()`` and ``service()`` (``ndcg_core.classroom.runtime``): the views' one
    way in for every command and read of a room; a teacher's command tells this process's phones (``room_changed``)."""
    return _runtime_for(_here())


def database_answers() -> bool:
    """Whether the database answers now (asked once, ``quick_db``): a page drawn as an outage's notice looks."""
    try:
        quick_db().schema_version()
    except StoreUnavailable:
        return False
    return True


def short_links() -> ShortLinks:
    """The short links (``?go=CODE``), in the same database as the classroom, over its engine."""
    return _links_for(_here())


def service() -> ClassroomService:
    """The classroom service over ``db()`` (``ndcg_core.classroom.service``): a student's card and their answers,
    with this process's shared reads of rooms and its caches of cards and scores."""
    return _service_for(_here())


@lru_cache(maxsize=4)
def _trusted(text: str) -> tuple[clients.Network, ...]:
    return clients.trusted_proxies({clients.ENV_TRUSTED_PROXIES: text})


def client_address(peer: Any, forwarded_for: Any) -> str:
    """The client's address from a request's peer and its ``X-Forwarded-For`` (read only from the proxies
    ``NDCG_LAB_TRUSTED_PROXIES`` names: without one that sets it, any client could write its own), for the limits
    kept per client; a bad setting is an ``InputError`` naming it."""
    trusted = _trusted(os.environ.get(clients.ENV_TRUSTED_PROXIES, ""))
    peer = peer if isinstance(peer, str) else None
    return clients.client_address(peer, forwarded_for if isinstance(forwarded_for, str) else None, trusted)


def client_source() -> str:
    """Where this page's session comes from, for the limits kept per client (rooms started, joins, wrong codes):
    the client's address (or "local")."""
    return client_address(st.context.ip_address, st.context.headers.get("X-Forwarded-For"))


def passphrase_asked() -> bool:
    """Whether this server asks a lecturer's passphrase before starting a room (``NDCG_LAB_TEACHER_PASSPHRASE``)."""
    return db().rooms.passphrase is not None


REVISION_TTL = 0.15  # seconds a room's revision is reused by this process: its phones' polls share one read
# Seconds a class's answers to an activity, read at once, are used for the cards of the students who have not
# answered since (each answer's notice says whose): a bound in case a notice was missed.
ANSWERS_TTL = 1.0


class _Revisions:
    """Each room's revision as read lately, so a class's watchers polling within the same moment share one read.

    A cache, not state: a stale entry is at most ``REVISION_TTL`` old and any process reads the same database. A
    room is kept with the revision it was read at and used only while that is still the revision.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # One read at a time per room: a class's phones woken by one notice all miss the cache at once, and would
        # each read the same row (single flight: the others wait for that read and share it).
        self._reading: dict[str, threading.Lock] = {}
        self._seen: dict[str, tuple[float, int | None]] = {}
        self._rooms: dict[str, Room] = {}  # by code: a room changes only with its revision (every teacher action)
        self._members: set[tuple[str, str]] = set()  # (room, student id) pairs seen in the database: joins last
        # (room, activity id) -> when its answers were read, and them by student id: a class's cards read them once.
        self._answers: dict[tuple[str, int], tuple[float, dict[str, dict[int, Any]]]] = {}
        # (room, activity id) -> answers heard of since this process started; a read that one overtook is not kept.
        self._answer_news: dict[tuple[str, int], int] = {}
        # (room, activity id) -> student id -> when an answer of theirs was last heard of: their answers in a class
        # read begun before then are not taken (theirs alone is read), the other students' still are.
        self._answered_at: dict[tuple[str, int], dict[str, float]] = {}

    def fresh(self, code: str) -> tuple[bool, int | None]:
        """Whether a read of ``code`` within ``REVISION_TTL`` is at hand, and what it gave; never reads."""
        with self._lock:
            hit = self._seen.get(code)
        if hit is not None and time.monotonic() - hit[0] < REVISION_TTL:
            return True, hit[1]
        return False, None

    def reading(self, code: str) -> threading.Lock:
        """The lock that lets one thread at a time read room ``code`` for this process."""
        with self._lock:
            if len(self._reading) > 1000:
                self._reading.clear()
            return self._reading.setdefault(code, threading.Lock())

    def get(self, code: str, quick: bool = False) -> int | None:
        known, revision = self.fresh(code)
        if known:
            return revision
        with self.reading(code):
            known, revision = self.fresh(code)  # read by another thread while this one waited
            if known:
                return revision
            now = time.monotonic()
            revision = (quick_db() if quick else db()).rooms.revision(code)
            with self._lock:
                if len(self._seen) > 1000:
                    self._seen.clear()
                self._seen[code] = (now, revision)
        return revision

    def forget(self, code: str) -> None:
        with self._lock:
            self._seen.pop(code, None)
            self._rooms.pop(code, None)

    def heard(self, notice: Notice) -> None:
        """A notice from the hub: a room's new revision is read at the next look, not up to ``REVISION_TTL``
        later; an answer stored anywhere is known at once; a student who joined or answered anywhere is a member
        here too (``known_member``), so a class moving here from a process that stopped is let in without a read."""
        if notice.student is not None:
            self.learned(notice.code, notice.student)
        if notice.activity is not None:
            self.answer_stored(notice.code, notice.activity, notice.student)
        elif not notice.joined:
            with self._lock:
                self._seen.pop(notice.code, None)

    def known_member(self, code: str, student_id: str) -> bool:
        with self._lock:
            return (code, student_id) in self._members

    def joined(self, code: str, student_ids: set[str]) -> set[str]:
        """Which of ``student_ids`` have joined room ``code``: one read for all of them (tried once), each found
        kept as ``is_member``'s."""
        found = quick_db().students.joined_of(code, student_ids)
        with self._lock:
            if len(self._members) > 100_000:
                self._members.clear()
            self._members.update((code, student) for student in found)
        return found

    def learned(self, code: str, student_id: str) -> None:
        """``student_id`` has just joined room ``code`` through this process."""
        with self._lock:
            if len(self._members) > 100_000:
                self._members.clear()
            self._members.add((code, student_id))

    def is_member(self, code: str, student_id: str) -> bool:
        """Whether ``student_id`` has joined room ``code`` (read once per pair; a join is never undone; tried once,
        for the phones' polls)."""
        if self.known_member(code, student_id):
            return True
        if quick_db().students.get(code, student_id) is None:
            return False
        with self._lock:
            if len(self._members) > 100_000:
                self._members.clear()
            self._members.add((code, student_id))
        return True

    def last(self, code: str) -> Room | None:
        """The room as this process last read it, if it did; never reads."""
        with self._lock:
            return self._rooms.get(code)

    def answers_at_hand(self, code: str, activity_id: int, student: str) -> dict[int, Any] | None:
        """The student's answers to the activity as the class's read within ``ANSWERS_TTL`` has them, unless an
        answer of theirs (or of anyone's, said without whose) was heard of since it began (``None``: not at hand);
        never reads."""
        with self._lock:
            hit = self._answers.get((code, activity_id))
            theirs = self._answered_at.get((code, activity_id), {}).get(student)
        if hit is None or time.monotonic() - hit[0] >= ANSWERS_TTL or (theirs is not None and theirs >= hit[0]):
            return None
        return hit[1].get(student, {})

    def answers_of(self, code: str, activity_id: int, student: str) -> dict[int, Any]:
        """The student's answers to the activity: from the class's read (``read_answers``) while it is at hand, else
        this student's alone (a student's card after their own answer, a phone on its own)."""
        mine = self.answers_at_hand(code, activity_id, student)
        return mine if mine is not None else db().answers.of_student(activity_id, student)

    def read_answers(self, code: str, activity_id: int) -> None:
        """Read every student's answers to the activity, for ``answers_at_hand`` (a whole class's phones redraw at
        once): once per ``ANSWERS_TTL`` by this process, and again as soon as an answer is heard of without whose
        (the students whose answers were heard of since are read one by one, ``answers_of``)."""
        if self.answers_at_hand(code, activity_id, "") is not None:
            return
        with self.reading(f"{code}/{activity_id}"):
            if self.answers_at_hand(code, activity_id, "") is not None:
                return  # read by another thread while this one waited
            with self._lock:
                news = self._answer_news.get((code, activity_id), 0)
            now = time.monotonic()
            every = db().answers.by_student(activity_id)
            with self._lock:
                if len(self._answers) > 1000:
                    self._answers.clear()
                if self._answer_news.get((code, activity_id), 0) == news:  # else one stored meanwhile may be missing
                    self._answers[code, activity_id] = (now, every)

    def answer_stored(self, code: str, activity_id: int, student: str | None = None) -> None:
        """An answer to the activity was stored (by ``student``, when it is known whose): that student's answers
        are read again; without ``student``, the whole class's."""
        with self._lock:
            if student is not None:
                if len(self._answered_at) > 1000:
                    self._answered_at.clear()
                    self._answers.clear()  # no read without the marks that say which of its students are stale
                self._answered_at.setdefault((code, activity_id), {})[student] = time.monotonic()
                return
            self._answers.pop((code, activity_id), None)
            if len(self._answer_news) > 10_000:
                self._answer_news.clear()
            self._answer_news[code, activity_id] = self._answer_news.get((code, activity_id), 0) + 1

    def room_at_hand(self, code: str, told: int | None = None) -> Room | None:
        """The room at its current revision, if both were read lately (the revision within ``REVISION_TTL``); or,
        given ``told`` (a revision the room is known to have reached: a notice said so), the room as last read if
        that read is at least as new, however long ago; never reads."""
        with self._lock:
            hit = self._rooms.get(code)
        if hit is None:
            return None
        if told is not None and hit.revision >= told:
            return hit  # a room changes only with its revision: what was read at it stays true of it
        known, revision = self.fresh(code)
        return hit if known and hit.revision == revision else None

    def room(self, code: str) -> Room:
        """The room as stored at its current revision: read once per revision by this process (a class's phones
        all redraw at once when the teacher opens an activity), then shared."""
        revision = self.get(code)
        with self._lock:
            hit = self._rooms.get(code)
        if hit is not None and revision is not None and hit.revision == revision:
            return hit
        with self.reading(code):
            with self._lock:
                hit = self._rooms.get(code)
            if hit is not None and revision is not None and hit.revision == revision:
                return hit  # read by another thread while this one waited
            room = db().rooms.get(code)  # an InputError if the room is gone
            with self._lock:
                if len(self._rooms) > 1000:
                    self._rooms.clear()
                self._rooms[code] = room
        return room


@st.cache_resource(show_spinner=False)
def _revisions() -> _Revisions:
    return _Revisions()


def room_revision(code: str, quick: bool = False) -> int | None:
    """The room's revision (``None`` if it is gone), read at most every ``REVISION_TTL`` seconds per room by this
    process; ``quick``: tried once (a ``StoreUnavailable`` at once when the database is down)."""
    return _revisions().get(code, quick)


def room_now(code: str) -> Room:
    """``Rooms.get`` for a student's phone, read once per revision of the room by this process (its student count
    may lag behind joins, which do not change the revision; the teacher's page reads ``db().rooms.get``)."""
    return _revisions().room(code)


def last_room(code: str) -> Room | None:
    """The room as this process last read it for a phone (``room_now``), without reading: what a phone keeps
    showing while the database is not answering."""
    return _revisions().last(code)


def is_member(code: str, student_id: str) -> bool:
    """Whether the student ``student_id`` has joined room ``code`` (asked of the database once per pair)."""
    return _revisions().is_member(code, student_id)


def learned_member(code: str, student_id: str) -> None:
    """The student ``student_id`` has just joined room ``code`` through this process: ``known_member`` from now on."""
    _revisions().learned(code, student_id)


def known_member(code: str, student_id: str) -> bool:
    """``is_member`` if this process has seen the pair before, without reading the database (``False`` otherwise)."""
    return _revisions().known_member(code, student_id)


def fresh_revision(code: str) -> tuple[bool, int | None]:
    """``room_revision`` if it is at hand without reading the database: (whether it was, the revision)."""
    return _revisions().fresh(code)


def answers_of(code: str, activity_id: int, student: str) -> dict[int, Any]:
    """The student's answers to the activity by part: from the class's read (``read_answers``) while it is at
    hand, else this student's alone."""
    return _revisions().answers_of(code, activity_id, student)


def read_answers(code: str, activity_id: int) -> None:
    """Read every student's answers to the activity at once, for a class's cards: at most once per
    ``ANSWERS_TTL`` by this process, and again once an answer is heard of without whose (a student whose answer was
    heard of since has theirs read alone)."""
    _revisions().read_answers(code, activity_id)


def answer_stored(code: str, activity_id: int, student: str | None = None) -> None:
    """An answer to the activity of room ``code`` was just stored (by ``student``, when it is known whose): the
    next card of that student (of every student, without ``student``) reads the answers again."""
    _revisions().answer_stored(code, activity_id, student)


def room_changed(code: str) -> None:
    """The teacher changed the room through this process: its phones here learn it at their next poll, not up to
    ``REVISION_TTL`` later (other processes read the database's new revision within that time)."""
    _revisions().forget(code)


class Arrivals:
    """Phones of one room arriving together (a class reconnecting to this process after another one stopped)
    asking whether their students have joined: whoever arrives while a read is being prepared or made waits for
    the next one, which asks for all of them at once."""

    MOST = 1000  # students asked about in one read

    def __init__(self) -> None:
        # (event loop, room) -> the students asked about for the next read, and its result. Only touched from
        # that event loop's thread.
        self._next: dict[tuple[int, str], tuple[set[str], asyncio.Future[set[str]]]] = {}
        self._reads: set[asyncio.Task[None]] = set()  # kept until done: the loop holds only a weak reference

    async def joined(self, code: str, student: str) -> bool:
        """Whether ``student`` has joined room ``code`` (a ``StoreUnavailable`` when the database cannot say)."""
        loop = asyncio.get_running_loop()
        key = (id(loop), code)
        batch = self._next.get(key)
        if batch is None or len(batch[0]) >= self.MOST:
            batch = self._next[key] = (set(), loop.create_future())
            read = loop.create_task(self._read(key, code, *batch))
            self._reads.add(read)
            read.add_done_callback(self._reads.discard)
        batch[0].add(student)
        return student in await asyncio.shield(batch[1])

    async def _read(self, key: tuple[int, str], code: str, students: set[str], found: asyncio.Future[set[str]]) -> None:
        try:
            await asyncio.sleep(0)  # the others arriving in this turn of the loop join the batch
            if self._next.get(key, (None,))[0] is students:
                del self._next[key]
            joined = await asyncio.to_thread(_revisions().joined, code, set(students))
        except Exception as err:  # a StoreUnavailable (or anything else) is each waiting phone's to handle
            found.set_exception(err)
        except BaseException:  # cancelled (the server stopping): so are the phones waiting
            found.cancel()
            raise
        else:
            found.set_result(joined)


@st.cache_resource(show_spinner=False)
def arrivals() -> Arrivals:
    """This process's ``Arrivals``."""
    return Arrivals()


@st.cache_resource(show_spinner=False)
def in_flight() -> dict[tuple[int, str, str], asyncio.Future[Any]]:
    """The reads under way for this process's phones, by event loop, what is read and room: a class woken or
    arriving at once waits on one (``ui.phones.routes.shared_read``)."""
    return {}


@st.cache_resource(show_spinner=False)
def _hub_for(url: str) -> Hub:
    if not url.startswith("postgresql"):
        hub = Hub(live=True)  # fed by the classroom's writes (``_classroom_for``) and by other processes' (Watcher)
        path = sqlite_path(url)
        if path is not None:
            Watcher(path, hub).start()
    else:
        hub = Hub(live=False)  # until the listener listens, silence says nothing
        Listener(conninfo_of(url), hub, DatabaseSettings.from_environment().connect_timeout).start()
    hub.on_notice(lambda notice: _revisions().heard(notice))
    return hub


def notices() -> Hub:
    """This process's hub of room notices (``ndcg_core.classroom.notices``): on PostgreSQL fed by its one
    listening connection, on SQLite by its own writes and its watcher of the file. Made, with its listener or
    watcher, on first use."""
    return _hub_for(_here())
