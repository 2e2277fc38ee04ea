"""A live classroom's rules: room codes, the teacher's key and its hash, student ids, nicknames, short-link
codes and the limits that keep a room usable. No storage and no Streamlit here."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..error_codes import PlaceCode
from ..errors import InputError, Place, shown
from ..validate import encodable

# Six characters from 31 that cannot be mistaken for each other on a projector: no 0/O, no 1/I/L.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
MAX_NICKNAME = 24
KEY_BYTES = 32  # the teacher's key: 256 random bits, so a plain SHA-256 of it is safe to store
STUDENT_ID_BYTES = 12
_STUDENT_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_CODE_SEPARATORS = re.compile(r"[\s\-_.·]+")


@dataclass(frozen=True)
class Limits:
    """What keeps a room usable; each can be set by an environment variable (``NDCG_LAB_<NAME>``)."""

    room_hours: float = 12.0  # a room expires this long after it starts, and is then purged
    # A room nobody has joined expires this long after it started or after its teacher's last action, so that
    # rooms started and left empty stop counting toward ``max_open_rooms``; the first student's join gives it its
    # ``room_hours``.
    empty_room_minutes: float = 30.0
    max_students: int = 500  # per room (the teacher can set a room smaller)
    max_open_rooms: int = 100
    rooms_per_client_hour: int = 10  # rooms one client (address) may start in an hour
    # New students from one client (address): this many at once, then this many a second. A class of 300 behind
    # one campus address gets in within 100 + 200 / 4 = 50 s at the fastest; a script filling a room is slowed to
    # that pace, which leaves the teacher time to close joining and remove what it put in.
    join_burst: int = 100
    joins_per_second: float = 4.0
    answer_burst: int = 10  # a student may send this many answers at once...
    answers_per_second: float = 2.0  # ...and then this many a second
    free_join_failures: int = 10  # wrong codes from one place before its wrong codes are slowed
    join_window_seconds: float = 600.0  # wrong codes older than this are forgotten
    # Wrong codes from one place in the window after which its new joins wait too, right codes included: a right
    # code is otherwise never slowed (a class behind one address gets in whatever its typos), so this bounds how
    # many codes one place can try (300 each 10 minutes: with 100 rooms open among 31^6 codes, one room found in
    # about 200 days).
    max_join_failures: int = 300
    max_join_wait_seconds: float = 60.0
    short_link_days: float = 365.0

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The limits, with any ``NDCG_LAB_ROOM_HOURS``-style variable applied (a bad one is an ``InputError``)."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for field in fields(cls):
            name = f"NDCG_LAB_{field.name.upper()}"
            if name in environ:
                kind = int if field.type in ("int", int) else float
                try:
                    value = kind(environ[name])
                except ValueError:
                    raise InputError("room.setting", name=name, value=shown(environ[name])) from None
                if not value > 0:
                    raise InputError("room.setting", name=name, value=shown(environ[name]))
                values[field.name] = value
        return cls(**values)


def new_code() -> str:
    """A random room (or short-link) code, e.g. ``K7P3QX``."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: object, place: PlaceCode = "room.code") -> str:
    """A code as typed: spaces, dashes and case are forgiven; anything else not in the alphabet is an error."""
    raw = "" if text is None else str(text)
    code = _CODE_SEPARATORS.sub("", raw).upper()
    if not code:
        raise InputError("room.code_blank", place=Place(place))
    if len(code) != CODE_LENGTH:
        raise InputError("room.code_length", place=Place(place), value=shown(raw[:20]), length=CODE_LENGTH)
    bad = sorted({c for c in code if c not in ALPHABET})
    if bad:
        raise InputError("room.code_letters", place=Place(place), value=shown(raw[:20]), letters=", ".join(bad))
    return code


def new_key() -> str:
    """The teacher's control key: a long random secret, shown once."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    """What is stored of a key: its SHA-256, hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_matches(key: object, stored_hash: str) -> bool:
    """Whether ``key`` is the one whose hash is stored (compared in constant time)."""
    if not isinstance(key, str) or not key or len(key) > 200:
        return False
    try:
        candidate = key_hash(key)
    except UnicodeEncodeError:
        return False
    return hmac.compare_digest(candidate, stored_hash)


def new_student_id() -> str:
    """A browser's identity in a room: random, kept in its link and its storage."""
    return secrets.token_urlsafe(STUDENT_ID_BYTES)


def read_student_id(value: object) -> str:
    """A student id from a link or the browser; anything else is an ``InputError``."""
    if not isinstance(value, str) or not _STUDENT_ID.match(value):
        raise InputError("room.bad_student", value=shown(str(value)[:20]))
    return value


# Letters that draw nothing (Hangul fillers, the blank Braille pattern): with format characters (Unicode category
# Cf: bidirectional controls, zero-width spaces and joiners, the byte-order mark...) they could make a name look
# blank, reversed or like someone else's.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def read_nickname(text: object) -> str | None:
    """An optional nickname: trimmed, at most 24 characters, kept as text (``None`` when blank). Control and format
    characters (categories Cc and Cf) and letters that draw nothing are refused, and so is a name that would show
    nothing but marks."""
    raw = "" if text is None else str(text)
    name = " ".join(raw.split())  # no newlines or tabs: a nickname is one line
    if not name:
        return None
    encodable(name, Place("room.nickname"))
    if len(name) > MAX_NICKNAME:
        raise InputError("room.nickname_long", count=len(name), limit=MAX_NICKNAME)
    if any(unicodedata.category(c) in ("Cc", "Cf") or c in _BLANK_LETTERS for c in name):
        raise InputError("room.nickname_control", value=shown(name))
    if all(unicodedata.category(c) in ("Mn", "Me", "Zs") for c in name):
        raise InputError("room.nickname_invisible", value=shown(name))
    return name


def join_wait(failures: int, seconds_since_last: float, limits: Limits) -> float:
    """Seconds still to wait before the next join attempt, after ``failures`` wrong codes in the window.

    Up to ``free_join_failures`` cost nothing; each one beyond doubles the wait (2 s, 4 s, ...), up to the maximum.
    """
    extra = failures - limits.free_join_failures
    if extra <= 0:
        return 0.0
    wait = min(2.0**extra, limits.max_join_wait_seconds)
    return max(0.0, wait - seconds_since_last)


def join_tokens(tokens: float, seconds_since: float, limits: Limits) -> float:
    """A client's join tokens now: ``tokens`` as last stored, refilled at ``joins_per_second`` for the seconds
    since, up to ``join_burst``."""
    return min(float(limits.join_burst), tokens + max(0.0, seconds_since) * limits.joins_per_second)


def join_token_wait(tokens: float, limits: Limits) -> float:
    """Seconds until a client with ``tokens`` (below one) has a whole join token again."""
    return max(0.0, (1.0 - tokens) / limits.joins_per_second)


def empty_room_expiry(created_at: float, now: float, limits: Limits) -> float:
    """When a room nobody has joined expires, started at ``created_at`` and last acted on at ``now``: the empty
    room's minutes from then, never beyond the room's hours."""
    return min(now + limits.empty_room_minutes * 60, created_at + limits.room_hours * 3600)


def seconds_left(opened_at: float, time_limit: float | None, now: float) -> float | None:
    """Seconds until answers close by a time limit of ``time_limit`` seconds from ``opened_at`` (below zero once it
    has passed; ``None``: no limit): the one rule that both a phone's countdown and the store's in-time check read."""
    return None if time_limit is None else opened_at + time_limit - now


def csv_safe(text: str) -> str:
    """A nickname as a spreadsheet cell: a leading = + - @ would make it a formula, so it gets a quote first."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
