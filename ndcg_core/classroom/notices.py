"""How a room's change reaches every server process at once, through the database and not a bus of our own.

Every write that changes a room sends a short notice in its own transaction (``Database.tell``): on PostgreSQL
``NOTIFY ndcg_lab_rooms, '<code>:<revision>'`` (a teacher's action: an activity opened, locked, revealed, a lesson's
step, names shown, the room ended), ``'<code>:answer:<activity>:<student>'`` (an answer stored, and whose) or
``'<code>:joined'`` (a student joined); PostgreSQL delivers it at commit, to every listening connection. On
SQLite, which has no such channel, the write hands the notice to its own process after the commit, and a
``Watcher`` in each process looks every ``WATCH_SECONDS`` whether another process (a second server,
``ndcg-lab lesson``, a script) changed the file.

Each process keeps one ``Hub``: what it has heard of each room, as counters read from memory (a projector's live
part asks it whether to read the database at all), and an asyncio fan-out (one event per room) that wakes every
phone's stream waiting on that room (``Hub.wait``). A ``Listener`` is the process's one dedicated PostgreSQL
connection doing ``LISTEN`` in a thread; when its connection is lost (the server restarted), the hub is marked not
live, the listener connects again, and then tells every stream and every live part to read the room again
(``Hub.reset``), so a notice missed meanwhile costs nothing.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import secrets
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

CHANNEL = "ndcg_lab_rooms"
STUDENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a student id as a notice may carry it (rules.new_student_id's)
ANSWER = "answer"
JOINED = "joined"
RECONNECT_FIRST = 0.2  # seconds before the listener's first try to connect again; each next one waits twice as long
RECONNECT_MOST = 2.0  # ...up to this
MAX_ROOMS = 10_000  # rooms a hub keeps counts of before it starts afresh (a server running for months)
ANSWER_LOG = 4096  # answer notices a hub keeps per room, whose and to what: a live part reads only those since its last
WAKE_SECONDS = 1.0  # how often the listener's thread looks whether it was asked to stop
# This process among the app's processes, for the marks it hands out (``Mark.text``): counts start at 0 in each.
PROCESS = secrets.token_hex(4)
WATCH_SECONDS = 0.25  # how often a SQLite process looks whether another process wrote (one PRAGMA when none did)
# The students a watcher names in one look at one room's answers; more are told as one notice that says not whose.
MOST_NAMED = 500

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Notice:
    """What changed in room ``code``: its revision moved to ``revision`` (a teacher's action), an answer to
    ``activity`` was stored, or a student ``joined`` (each by ``student``, when the notice knows whose)."""

    code: str
    revision: int | None = None
    activity: int | None = None
    joined: bool = False
    student: str | None = None
    # Told by a SQLite file's watcher: whose, but as of its last look, not of the commit. A phone's card may trust
    # it (its class read is kept for the others); a live part reading only the named students would miss answers
    # stored since that look, where reading the class's shows them a run sooner (``Hub.answered``). Never sent.
    looked: bool = False

    @property
    def payload(self) -> str:
        """The notice as sent on the channel."""
        if self.activity is not None:
            whose = f":{self.student}" if self.student else ""
            return f"{self.code}:{ANSWER}:{self.activity}{whose}"
        if self.joined:
            return f"{self.code}:{JOINED}" + (f":{self.student}" if self.student else "")
        return f"{self.code}:{self.revision}"

    @classmethod
    def read(cls, payload: str) -> Notice | None:
        """A notice from its payload (``None`` for anything else: a notice of a newer version, say)."""
        parts = payload.split(":")
        if len(parts) == 2 and parts[1].isdigit():
            return cls(parts[0], revision=int(parts[1]))
        if len(parts) in (2, 3) and parts[1] == JOINED:
            student = parts[2] if len(parts) == 3 else None
            if student is not None and not STUDENT_ID.fullmatch(student):
                return None
            return cls(parts[0], joined=True, student=student)
        if len(parts) in (3, 4) and parts[1] == ANSWER and parts[2].isdigit():
            student = parts[3] if len(parts) == 4 else None
            if student is not None and not STUDENT_ID.fullmatch(student):
                return None
            return cls(parts[0], activity=int(parts[2]), student=student)
        return None


@dataclass(frozen=True)
class Mark:
    """What a process has heard of one room, to compare with what it heard before: the hub's resets (``epoch``),
    the room's changes, its answers and its joins, each a count, and its latest revision heard (``None``: none)."""

    epoch: int
    changes: int
    answers: int
    joins: int
    revision: int | None

    def text(self) -> str:
        """The mark as a teacher's page carries it (``ui/phones/routes.py``, the watch route), with this process's
        token: a mark is only comparable with one heard by the same process."""
        return f"{PROCESS}.{self.epoch}.{self.changes}.{self.answers}.{self.joins}"


class Hub:
    """The notices one process has heard, by room, and the streams and live parts waiting on them.

    Thread-safe: notices come from the listener's thread (PostgreSQL) or from whichever thread wrote (SQLite);
    streams wait in the server's event loop. ``live`` is whether notices are arriving: while it is not (the
    listener's connection is lost), nobody may trust that silence means no change.
    """

    def __init__(self, live: bool = True) -> None:
        self._lock = threading.Lock()
        self._epoch = 0
        self._live = live
        self._closed = False
        self._rooms: dict[str, list[int]] = {}  # code -> [changes, answers, joins, revision (-1: none)]
        # code -> the room's latest answer notices, (activity, student or None), the last one its answers count's.
        self._answered: dict[str, deque[tuple[int, str | None]]] = {}
        # (code, event loop) -> the event its streams wait on, set (and dropped) at the room's next notice.
        self._events: dict[tuple[str, asyncio.AbstractEventLoop], asyncio.Event] = {}
        # The same for what waits on any notice of a room, answers and joins included (a teacher's page).
        self._any: dict[tuple[str, asyncio.AbstractEventLoop], asyncio.Event] = {}
        self._hooks: list[Callable[[Notice], None]] = []

    @property
    def live(self) -> bool:
        return self._live

    @property
    def closed(self) -> bool:
        """Whether the process is stopping: every stream ends."""
        return self._closed

    def close(self) -> None:
        """The process is stopping: wake every stream, to end."""
        with self._lock:
            self._closed = True
            woken = [(loop, event) for (_, loop), event in [*self._events.items(), *self._any.items()]]
            self._events.clear()
            self._any.clear()
        self._wake(woken)

    def on_notice(self, hook: Callable[[Notice], None]) -> None:
        """Call ``hook`` with each notice, before any stream wakes (a process's revision cache forgets the room)."""
        self._hooks.append(hook)

    def tell(self, notice: Notice) -> None:
        """A room changed: count it and wake whatever waits on the room."""
        for hook in self._hooks:
            hook(notice)
        woken = []
        with self._lock:
            if notice.code not in self._rooms and len(self._rooms) >= MAX_ROOMS:
                self._rooms.clear()  # rooms long gone: every mark changes with the epoch, so all read again
                self._answered.clear()
                self._epoch += 1
                woken = [(loop, event) for (_, loop), event in [*self._events.items(), *self._any.items()]]
                self._events.clear()
                self._any.clear()
            counts = self._rooms.setdefault(notice.code, [0, 0, 0, -1])
            if notice.activity is not None:
                counts[1] += 1
                log = self._answered.get(notice.code)
                if log is None:
                    log = self._answered[notice.code] = deque(maxlen=ANSWER_LOG)
                log.append((notice.activity, None if notice.looked else notice.student))
            elif notice.joined:
                counts[2] += 1
            else:
                counts[0] += 1
                if notice.revision is not None:
                    counts[3] = max(counts[3], notice.revision)
            if notice.revision is not None:  # the phones' cards change with the room's revision only
                woken += [(loop, event) for (code, loop), event in self._events.items() if code == notice.code]
                for key in [key for key in self._events if key[0] == notice.code]:
                    del self._events[key]
            woken += [(loop, event) for (code, loop), event in self._any.items() if code == notice.code]
            for key in [key for key in self._any if key[0] == notice.code]:
                del self._any[key]
        self._wake(woken)

    def reset(self, live: bool = True) -> None:
        """Everything may have changed (the listener connected again, or lost its connection: ``live``): every
        stream and live part reads its room again."""
        with self._lock:
            self._epoch += 1
            self._live = live
            woken = [*self._events.items(), *self._any.items()]
            self._events.clear()
            self._any.clear()
        self._wake([(loop, event) for (_, loop), event in woken])

    def mark(self, code: str) -> Mark:
        """What this process has heard of room ``code`` so far (a memory read)."""
        with self._lock:
            changes, answers, joins, revision = self._rooms.get(code, (0, 0, 0, -1))
            return Mark(self._epoch, changes, answers, joins, None if revision < 0 else revision)

    def answered(self, code: str, since: Mark, upto: Mark) -> list[tuple[int, str]] | None:
        """The answers heard of room ``code`` after mark ``since`` up to mark ``upto`` (a later one), as (activity,
        student) pairs in the order heard: a live part that read the answers at ``since`` reads only these students'.
        ``None`` when the hub cannot name them all: it was reset or started afresh in between, it is not live, it
        keeps no answer notices that far back (``ANSWER_LOG``), or a notice did not say whose as of its commit (a
        SQLite file's watcher says whose as of its look: ``Notice.looked``)."""
        with self._lock:
            if not self._live or not since.epoch == upto.epoch == self._epoch:
                return None
            log = self._answered.get(code, deque())
            counts = self._rooms.get(code)
            total = 0 if counts is None else counts[1]  # the answers heard of the room
            first = total - len(log)
            if not first <= since.answers <= upto.answers <= total:
                return None
            heard = list(itertools.islice(log, since.answers - first, upto.answers - first))
        named = [(activity, student) for activity, student in heard if student is not None]
        return named if len(named) == len(heard) else None

    async def wait(self, code: str, since: Mark, timeout: float, anything: bool = False) -> bool:
        """Wait, in the running event loop, until room ``code`` changes (a teacher's action, not an answer or a
        join; with ``anything``, any notice of the room) or the hub is reset after ``since``; ``False`` if
        ``timeout`` seconds passed first. Every stream of a room waits on one event: a notice costs one wake-up per
        room and loop, then each stream's own turn."""
        loop = asyncio.get_running_loop()
        with self._lock:
            now = self._rooms.get(code, (0, 0, 0))  # a room never heard: no change, answer or join (compared below)
            heard = (since.changes, since.answers, since.joins) if anything else (since.changes,)
            if self._closed or self._epoch != since.epoch or tuple(now[: len(heard)]) != heard:
                return True
            events = self._any if anything else self._events
            event = events.get((code, loop))
            if event is None:
                event = events[code, loop] = asyncio.Event()
        try:
            # Not wait_for, which makes a task per wait: a class's keep-alives are a thousand of these a quarter
            # minute, and this costs a waiting stream less than half as much CPU (27 against 60-76 us measured).
            async with asyncio.timeout(timeout):
                await event.wait()
        except TimeoutError:
            return False
        return True

    def changed(self, code: str, since: Mark | None) -> bool:
        """Whether anything was heard of room ``code`` after ``since`` (``None``: never looked): a live part's test
        before it reads the database. Always ``True`` while the hub is not live."""
        return since is None or not self._live or self.mark(code) != since

    @staticmethod
    def _wake(woken: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]]) -> None:
        for loop, event in woken:
            # A loop that has closed (a test's, or a server stopping) has nobody waiting on it.
            with suppress(RuntimeError):
                loop.call_soon_threadsafe(event.set)


class Listener:
    """A process's one PostgreSQL connection doing ``LISTEN ndcg_lab_rooms`` in a daemon thread, handing every
    notice to ``hub``; its connection lost, it marks the hub not live, connects again (backoff up to
    ``RECONNECT_MOST`` seconds), then resets the hub: every stream reads its room again."""

    def __init__(self, conninfo: str, hub: Hub, connect_timeout: int = 5) -> None:
        self.conninfo = conninfo
        self.hub = hub
        self.connect_timeout = connect_timeout
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ndcg-lab-listener", daemon=True)

    def start(self) -> Listener:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2 * WAKE_SECONDS + self.connect_timeout)

    def wait_connected(self, timeout: float) -> bool:
        """Whether the listener is listening (waiting up to ``timeout`` seconds): for tests and start-up."""
        return self._connected.wait(timeout)

    def _run(self) -> None:
        import psycopg

        wait = RECONNECT_FIRST
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=self.connect_timeout) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._connected.set()
                    self.hub.reset(live=True)  # notices sent while nobody listened: everyone reads again
                    wait = RECONNECT_FIRST
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=WAKE_SECONDS):
                            notice = Notice.read(note.payload)
                            if notice is not None:
                                self.hub.tell(notice)
            except psycopg.Error as err:
                if self._connected.is_set():
                    log.warning("lost the database's notices (%s); connecting again", err)
                self._connected.clear()
                self.hub.reset(live=False)
                self._stop.wait(wait)
                wait = min(wait * 2, RECONNECT_MOST)
        self._connected.clear()


class Watcher:
    """A process's look at a SQLite file every ``WATCH_SECONDS``, in a daemon thread, for what other processes
    wrote: ``PRAGMA data_version`` tells, at the cost of no read, whether any other connection committed; only then
    are the open rooms' revisions, students and current answers (their count and latest change) read, and each room
    that moved is told to ``hub`` (a revision the hub has heard already, the process's own write, is not told
    twice; the app leaves the process's own answers and joins to the watcher, ``ui.database``). An answer is told
    with whose (each student whose answers changed since the last look, up to ``MOST_NAMED``), as PostgreSQL's
    notices say it: a process's read of the class's answers then stays good for every other student (a notice that
    says not whose throws it away, and a class answering during an opening read theirs one by one). Ended rooms are
    watched until they expire: ending one is a change of its revision that its projector must hear."""

    ROOMS = (
        "SELECT r.code, r.revision, r.student_count,"
        " (SELECT COUNT(*) || ':' || COALESCE(MAX(a.updated_at), 0) FROM answers a"
        " WHERE a.activity_id = r.current_activity), r.current_activity"
        " FROM rooms r WHERE r.expires_at > ?"
    )
    # Each student's latest change to their answers to an activity, compared with the last look's to find whose
    # changed (not "changed since a time": an answer's time is taken before its transaction waits for the file's
    # lock, so answers do not commit in the order of their times).
    LATEST = "SELECT student_id, MAX(updated_at) FROM answers WHERE activity_id = ? GROUP BY student_id"

    def __init__(self, path: str, hub: Hub, every: float = WATCH_SECONDS) -> None:
        self.path = path
        self.hub = hub
        self.every = every
        self._stop = threading.Event()
        self._looked = threading.Event()
        self._conn: sqlite3.Connection | None = None
        self._version: int | None = None
        # code -> (revision, students, its current activity's answers as "count:latest change", that activity)
        self._seen: dict[str, tuple[int, int, str, int | None]] = {}
        # code -> (its current activity, each student's latest change to their answers to it) as last read
        self._latest: dict[str, tuple[int, dict[str, float]]] = {}
        self._thread = threading.Thread(target=self._run, name="ndcg-lab-watcher", daemon=True)

    def start(self) -> Watcher:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2 * self.every + 1)

    def wait_looking(self, timeout: float) -> bool:
        """Whether the watcher has read the rooms once (waiting up to ``timeout`` seconds): for tests."""
        return self._looked.wait(timeout)

    def look(self) -> None:
        """One look at the file: tell the hub of each room another connection changed since the last look."""
        try:
            if self._conn is None:
                # Autocommit: no read transaction is left open between looks to hold back the file's writers; and
                # mode=rw: a file not made yet stays unmade (the app's first write makes it, with its schema).
                self._conn = sqlite3.connect(
                    f"{Path(self.path).resolve().as_uri()}?mode=rw",
                    uri=True,
                    isolation_level=None,
                    check_same_thread=False,
                    timeout=1.0,
                )
            version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            if version == self._version:
                return
            rows = self._conn.execute(self.ROOMS, (time.time(),)).fetchall()
            whose, latest = self._whose(self._conn, rows)
        except sqlite3.Error as err:  # the file not made yet, or busy: look again next time
            log.debug("could not look at %s (%s)", self.path, err)
            self.close()
            return
        if self._looked.is_set():
            self._tell(rows, self._seen, whose)
        self._latest = latest
        self._seen = {
            code: (revision, students, answers, activity) for code, revision, students, answers, activity in rows
        }
        self._version = version
        self._looked.set()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn = None

    def _run(self) -> None:
        while not self._stop.is_set():
            self.look()
            self._stop.wait(self.every)
        self.close()

    def _whose(
        self, conn: sqlite3.Connection, rows: list[tuple[str, int, int, str, int | None]]
    ) -> tuple[dict[str, list[str] | None], dict[str, tuple[int, dict[str, float]]]]:
        """For each room whose current answers changed since the last look, the students whose answers did
        (``None``: more than ``MOST_NAMED``); and each room's latest changes by student, to keep."""
        whose: dict[str, list[str] | None] = {}
        latest: dict[str, tuple[int, dict[str, float]]] = {}
        for code, _, _, answers, activity in rows:
            if activity is None:
                continue
            kept = self._latest.get(code)
            if answers.startswith("0:"):
                latest[code] = (activity, {})  # none yet: whoever answers next is new
                continue
            before = self._seen.get(code)
            if before is None:  # a room new to the watcher: its answers so far are no news
                latest[code] = (activity, dict(conn.execute(self.LATEST, (activity,)).fetchall()))
                continue
            # The last look kept every room's latest answers to its activity then: a new activity's are all new.
            earlier = kept[1] if kept is not None and kept[0] == activity else {}
            if not answers_changed(before[2:], (answers, activity)):
                latest[code] = (activity, earlier)
                continue
            now: dict[str, float] = dict(conn.execute(self.LATEST, (activity,)).fetchall())
            named = [s for s, at in now.items() if earlier.get(s) != at]
            whose[code] = named if len(named) <= MOST_NAMED else None
            latest[code] = (activity, now)
        return whose, latest

    def _tell(
        self,
        rows: list[tuple[str, int, int, str, int | None]],
        seen: dict[str, tuple[int, int, str, int | None]],
        whose: dict[str, list[str] | None],
    ) -> None:
        for code, revision, students, answers, activity in rows:
            before = seen.get(code)
            heard = self.hub.mark(code).revision
            if (before is None or before[0] != revision) and (heard is None or revision > heard):
                self.hub.tell(Notice(code, revision=revision))
            if before is not None and before[1] != students:
                self.hub.tell(Notice(code, joined=True))
            if before is not None and activity is not None and answers_changed(before[2:], (answers, activity)):
                named = whose.get(code)
                if named:
                    for student in named:
                        self.hub.tell(Notice(code, activity=activity, student=student, looked=True))
                else:  # too many to name, or none found (an answer removed with its student): told as changed
                    self.hub.tell(Notice(code, activity=activity))


def answers_changed(before: tuple[str, int | None], now: tuple[str, int]) -> bool:
    """Whether a room's current answers, as the watcher read them before and now (``"count:latest change"`` and the
    activity), say that an answer was stored. A new current activity with none yet is no answer: its opening is a
    change of the room's revision, told as one. Told as an answer too (from the second activity on, the count
    falling to 0), it threw away the process's one read of the class's answers while the class woke to the opening,
    and the phones that read was for read their own, one query each."""
    answers, activity = now
    if before[1] == activity:
        return before[0] != answers
    return not answers.startswith("0:")


def sqlite_path(url: str) -> str | None:
    """The file of a SQLAlchemy SQLite URL (``None`` for an in-memory database, which no other process sees)."""
    import sqlalchemy as sa

    database = sa.engine.make_url(url).database
    return database if database and database != ":memory:" else None


def conninfo_of(url: str) -> str:
    """libpq's connection string for a SQLAlchemy PostgreSQL URL (``postgresql+psycopg://...``)."""
    import sqlalchemy as sa

    return sa.engine.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
