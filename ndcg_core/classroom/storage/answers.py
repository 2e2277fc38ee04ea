"""Answers: a student's answer to the current activity (checked by its kind, within the time limit, paid for from a
token bucket), the answers to an activity, one student's, and the room's results marked. An answer equal to the one
stored is stored once and spends no token: a resend after a lost connection is never refused as too fast."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ...errors import InputError
from .. import rules
from ..kinds import answer_from_json, answer_to_json, from_payload
from ..kinds.base import Answer
from ..notices import Notice
from ..results import ActivityOutcome, Member, RoomResults, Taken, outcome, room_results
from ..rules import Limits
from .engine import Database, activities, answers, resilient, rooms, students
from .rooms import Rooms

TIME_GRACE_SECONDS = 1.0  # an answer sent as the countdown reaches zero is still taken (network and clocks)


def in_order(book: Mapping[str, Sequence[Answer]]) -> list[Answer]:
    """A book's answers (``Answers.book``) as one list, by student number and part."""
    return sorted((answer for given in book.values() for answer in given), key=lambda a: (a.student, a.part))


@dataclass(frozen=True)
class Sending:
    """One student's answer on its way to the store (``Answers.submit_many``): the room, the student, the
    activity, and each part's value as the activity's kind checked it."""

    code: str
    student: str
    activity: int
    values: tuple[tuple[int, Any], ...]


@dataclass(frozen=True)
class AnswerStatements:
    """The statements answers run, built once per repository with their values as parameters (an answer is the
    classroom's most frequent write: a class of 1,000 sends hundreds a second, and building each statement again
    cost more than running it); those of a student take a list of students, for a batch's answers at once."""

    room: sa.Select[Any]
    activity: sa.Select[Any]
    stored: sa.Select[Any]
    spend: sa.Update
    student: sa.Select[Any]
    upsert: Any


def answer_statements(db: Database, limits: Limits) -> AnswerStatements:
    """``AnswerStatements`` for ``db``'s dialect and the token bucket of ``limits``."""
    now = sa.bindparam("now", type_=sa.Float)
    refilled = students.c.tokens + (now - students.c.tokens_at) * limits.answers_per_second
    capped = sa.case((refilled > limits.answer_burst, float(limits.answer_burst)), else_=refilled)
    insert = db.insert(answers)
    return AnswerStatements(
        room=sa.select(rooms.c.ended_at, rooms.c.expires_at, rooms.c.current_activity).where(
            rooms.c.code == sa.bindparam("code")
        ),
        activity=sa.select(activities).where(activities.c.id == sa.bindparam("activity")).with_for_update(read=True),
        stored=sa.select(answers.c.student_id, answers.c.part, answers.c.value).where(
            answers.c.activity_id == sa.bindparam("activity"),
            answers.c.student_id.in_(sa.bindparam("students", expanding=True)),
        ),
        spend=sa.update(students)
        .where(
            students.c.room == sa.bindparam("code"),
            students.c.id.in_(sa.bindparam("students", expanding=True)),
            capped >= 1,
        )
        .values(tokens=capped - 1, tokens_at=now)
        .returning(students.c.id),
        student=sa.select(students.c.id).where(
            students.c.room == sa.bindparam("code"), students.c.id.in_(sa.bindparam("students", expanding=True))
        ),
        upsert=insert.on_conflict_do_update(
            index_elements=["activity_id", "student_id", "part"],
            set_={"value": insert.excluded.value, "updated_at": insert.excluded.updated_at},
        ),
    )


class Answers:
    """Every read and write of the students' answers, and the results made of them."""

    def __init__(self, db: Database, limits: Limits, rooms: Rooms) -> None:
        self.db = db
        self.rooms = rooms
        self._answer_statements = answer_statements(db, limits)

    @resilient
    def submit(
        self,
        code: str,
        student_id: str,
        activity_id: int,
        values: Sequence[tuple[int, Any]],
        *,
        already_checked: bool = False,
    ) -> dict[int, Any]:
        """Store a student's answer(s) to the current activity: one per part, replacing any earlier one; the
        student's answers to it afterwards, by part, as its kind's typed values.

        ``values`` are (part, raw answer) pairs, each checked by the activity (an ``InputError`` in the student's
        language on the page); ``already_checked``: (part, typed value) pairs its ``check`` returned (the classroom
        service checks each value once, ``ndcg_core.classroom.service``). Refused when the room has ended, the
        activity is not the current one or is locked or its time is up, the student has not joined, or answers come
        faster than the rate limit. Answers equal to those stored are stored once and spend no token: a resend after
        a lost connection (whose first try may have committed) is never refused as too fast.
        """
        now = self.db.clock()
        with self.db.write() as conn:
            kind, payload = self._open_activity(conn, code, activity_id, now)
            if already_checked:
                typed = tuple(values)
            else:
                activity = from_payload(kind, json.loads(payload))
                typed = tuple((part, activity.check(value, part)) for part, value in values)
            [stored] = self._store(conn, kind, [Sending(code, student_id, activity_id, typed)], now)
        if isinstance(stored, InputError):
            raise stored
        return stored

    @resilient
    def submit_many(self, sendings: Sequence[Sending]) -> list[dict[int, Any] | InputError]:
        """Store many students' answers, each already checked by its kind, in one transaction: for each, in order,
        what ``submit`` gives it (their answers afterwards) or the ``InputError`` it raises. The answers to one
        activity share one read of the room and the activity, one of the answers stored, one update of the
        tokens and one write (``GroupCommit`` gathers them from a class's concurrent answers). No two may be of
        the same student and activity."""
        now = self.db.clock()
        outcomes: list[dict[int, Any] | InputError] = [{} for _ in sendings]
        groups: dict[tuple[str, int], list[int]] = {}
        for index, sending in enumerate(sendings):
            groups.setdefault((sending.code, sending.activity), []).append(index)
        with self.db.write() as conn:
            for (code, activity_id), indexes in groups.items():
                try:
                    kind, _ = self._open_activity(conn, code, activity_id, now)
                except InputError as err:
                    for index in indexes:
                        outcomes[index] = err
                    continue
                stored = self._store(conn, kind, [sendings[index] for index in indexes], now)
                for index, outcome in zip(indexes, stored, strict=True):
                    outcomes[index] = outcome
        return outcomes

    def _open_activity(self, conn: Connection, code: str, activity_id: int, now: float) -> tuple[str, str]:
        """The kind and payload (its JSON text, decoded only by whoever needs the activity: answers checked already
        need none of it) of the room's current activity, read with a share lock (the teacher's lock or next activity
        waits for the answers being stored); an ``InputError`` unless the room is there and not ended,
        ``activity_id`` is its current activity, open, and its time (with the grace) not up."""
        sql = self._answer_statements
        room = conn.execute(sql.room, {"code": code}).first()
        if room is None or room.expires_at <= now:
            raise InputError("room.unknown", code=code)
        if room.ended_at is not None:
            raise InputError("room.ended")
        if room.current_activity != activity_id:
            raise InputError("room.not_current")
        row = conn.execute(sql.activity, {"activity": activity_id}).mappings().one()
        if row["phase"] != "open":
            raise InputError("room.locked")
        left = rules.seconds_left(row["opened_at"], row["time_limit"], now)
        if left is not None and left < -TIME_GRACE_SECONDS:
            raise InputError("room.time_up")
        return str(row["kind"]), str(row["payload"])

    def _store(
        self, conn: Connection, kind: str, sendings: Sequence[Sending], now: float
    ) -> list[dict[int, Any] | InputError]:
        """Store answers to one open activity (of one room, one sending per student), in ``conn``'s transaction:
        each student's answers afterwards, or why theirs was refused (too fast, not joined). One read of what they
        have stored, one update of the tokens of those whose answer changes, one write, a notice each."""
        sql = self._answer_statements
        code, activity_id = sendings[0].code, sendings[0].activity
        students = [sending.student for sending in sendings]
        stored: dict[str, dict[int, str]] = {student: {} for student in students}
        for student, part, value in conn.execute(sql.stored, {"activity": activity_id, "students": students}):
            stored[student][part] = value
        outcomes: list[dict[int, Any] | InputError] = []
        changed: dict[str, list[tuple[int, str]]] = {}
        for sending in sendings:
            before = stored[sending.student]
            checked = [(part, json.dumps(answer_to_json(kind, value))) for part, value in sending.values]
            sent = dict(sending.values)
            # A part sent now is the value just checked: only the student's other parts are decoded from the store.
            mine = {
                part: sent[part] if part in sent else answer_from_json(kind, json.loads(value))
                for part, value in before.items()
            }
            mine.update(sent)
            outcomes.append(mine)
            if checked and not all(before.get(part) == value for part, value in checked):
                changed[sending.student] = checked  # one stored already as sent is stored once, and spends no token
        if not changed:
            return outcomes
        spent = {row[0] for row in conn.execute(sql.spend, {"code": code, "students": list(changed), "now": now})}
        if len(spent) < len(changed):
            known = {row[0] for row in conn.execute(sql.student, {"code": code, "students": list(changed)})}
            for index, student in enumerate(students):
                if student in changed and student not in spent:
                    outcomes[index] = InputError("room.too_fast" if student in known else "room.not_joined")
        rows = [
            {
                "activity_id": activity_id,
                "student_id": student,
                "part": part,
                "room": code,
                "value": value,
                "created_at": now,
                "updated_at": now,
            }
            for student, checked in changed.items()
            if student in spent
            for part, value in checked
        ]
        if rows:
            conn.execute(sql.upsert, rows)
            # The projector's live part reads again; each process's cards know whose answer changed.
            self.db.tell_all(
                conn, [Notice(code, activity=activity_id, student=student) for student in changed if student in spent]
            )
        return outcomes

    @resilient
    def for_activity(self, activity_id: int) -> list[Answer]:
        """Every answer to an activity, with each student's number and nickname, as its kind's typed values, by
        student number and part."""
        return in_order(self.book(activity_id))

    @resilient
    def book(self, activity_id: int, only: Collection[str] | None = None) -> dict[str, tuple[Answer, ...]]:
        """Every answer to an activity by student id (each student's in part order), as ``for_activity`` gives
        them; with ``only`` (student ids), only those students' (each one named gets an entry, empty if they have
        none): a live part that has the rest reads only the answers it heard of since."""
        query = (
            sa.select(
                answers.c.student_id,
                students.c.number,
                students.c.nickname,
                answers.c.part,
                answers.c.value,
                answers.c.updated_at,
                activities.c.kind,
            )
            .join(
                students,
                sa.and_(students.c.room == answers.c.room, students.c.id == answers.c.student_id),
            )
            .join(activities, activities.c.id == answers.c.activity_id)
            .where(answers.c.activity_id == activity_id)
            .order_by(answers.c.student_id, answers.c.part)
        )
        found: dict[str, list[Answer]] = {}
        if only is not None:
            query = query.where(answers.c.student_id.in_(sorted(only)))
            found = {student: [] for student in only}
        with self.db.read() as conn:
            rows = conn.execute(query).all()
        for r in rows:
            found.setdefault(r.student_id, []).append(
                Answer(r.number, r.nickname, r.part, answer_from_json(r.kind, json.loads(r.value)), r.updated_at)
            )
        return {student: tuple(given) for student, given in found.items()}

    @resilient
    def of_student(self, activity_id: int, student_id: str) -> dict[int, Any]:
        """One student's answers to an activity, by part, as its kind's typed values."""
        with self.db.read() as conn:
            rows = conn.execute(
                sa.select(answers.c.part, answers.c.value, activities.c.kind)
                .join(activities, activities.c.id == answers.c.activity_id)
                .where(answers.c.activity_id == activity_id, answers.c.student_id == student_id)
            ).all()
        return {r.part: answer_from_json(r.kind, json.loads(r.value)) for r in rows}

    @resilient
    def by_student(self, activity_id: int) -> dict[str, dict[int, Any]]:
        """Every student's answers to an activity, by student id and part, as its kind's typed values (what a
        class's cards need, read once instead of once per student)."""
        with self.db.read() as conn:
            rows = conn.execute(
                sa.select(answers.c.student_id, answers.c.part, answers.c.value, activities.c.kind)
                .join(activities, activities.c.id == answers.c.activity_id)
                .where(answers.c.activity_id == activity_id)
            ).all()
        found: dict[str, dict[int, Any]] = {}
        for r in rows:
            found.setdefault(r.student_id, {})[r.part] = answer_from_json(r.kind, json.loads(r.value))
        return found

    @resilient
    def results(self, code: str, *, scored_now: bool = False) -> RoomResults:
        """Every activity of a room marked, one row per student present and question (an unanswered one too),
        and each student's totals. A student counts as present for an activity if they joined before the next
        activity opened. Only a revealed activity scores points (its points would tell a student how close an
        answer is before the class sees the truth: the current one, or one the teacher went Back from).
        ``scored_now``: as a student's score counts, without any activity not revealed."""
        listed = self.rooms.activity_list(code)
        with self.db.read() as conn:
            joined = conn.execute(
                sa.select(students.c.number, students.c.nickname, students.c.joined_at)
                .where(students.c.room == code)
                .order_by(students.c.number)
            ).all()
        taken = []
        for i, row in enumerate(listed):
            closed_at = listed[i + 1].opened_at if i + 1 < len(listed) else float("inf")
            present = tuple(Member(s.number, s.nickname) for s in joined if s.joined_at <= closed_at)
            revealed = row.phase == "revealed"
            if scored_now and not revealed:
                continue
            answered = tuple(self.for_activity(row.id))
            taken.append(Taken(row.number, row.round, row.activity(), answered, present, revealed, row.points, row.of))
        return room_results(taken)

    @resilient
    def class_summary(self, code: str) -> list[ActivityOutcome]:
        """Per activity (number, kind, round): the students present, how many answered, and per question how many
        answered and were right; for the end-of-class summary."""
        return [outcome(result) for result in self.results(code).activities]
