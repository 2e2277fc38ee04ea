"""What a class's answers come to over a room: one row per student present and question, marked through the
activity's kind (``ndcg_core.classroom.kinds``), totals per student, the leaderboard, and each activity's outcome
for the end-of-class summary."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .kinds import Activity, own_answers
from .kinds.base import POINTS, Answer, Solution
from .kinds.tally import CLOSE, Group, grouped, mistakes_only
from .numbering import Numbered


@dataclass(frozen=True)
class Member:
    """A student as the results name them: their number in the room and optional nickname."""

    student: int
    nickname: str | None


@dataclass(frozen=True)
class Taken:
    """An activity as the class took it: its number and round, the activity, every answer to it, the students
    in the room while it ran (those who joined before the next activity opened), whether the teacher revealed it
    (only a revealed activity scores points), what the whole activity is worth (``worth``; ``None``: ``POINTS``)
    and its lesson's number of activities (``of``, as ``numbering.Numbered`` has it)."""

    number: int
    round: int
    activity: Activity
    answers: tuple[Answer, ...]
    present: tuple[Member, ...]
    revealed: bool = True
    worth: int | None = None
    of: int | None = None


@dataclass(frozen=True)
class StudentResult:
    """One student's answer to one question (a part: an exercise of a Practice, else 0), or its absence.

    ``value`` is the answer as given (``None``: no answer): an estimate (a float), an order (indices into the
    list), a vote (``a``, ``b``, ``same``) or an exercise's answer as typed or chosen (``up``, ``1.26``).
    ``right`` is ``None`` without an answer, and for a Judge grade (judging has no right grade); ``ndcg`` is the
    NDCG@k a Rank-it-best order reaches (else ``None``); ``points`` what the answer scores when the lesson keeps
    scores (``None``: no answer, a Judge grade, or an activity not revealed yet). ``median`` is, for a Judge result,
    the class's median grade of that result (``None``: nobody graded it, or another kind). ``close`` is whether the
    answer fell in the "close" group (within 0.05, not right to its decimals: a Predict estimate); ``None`` for no
    answer and for the kinds that group no answers. ``read`` is the answer as a number, as it was read ("0,68" is
    0.68; ``None``: no answer, or one that is no number).
    """

    student: int
    nickname: str | None
    part: int
    value: Any
    right: bool | None
    ndcg: float | None
    answered_at: float | None
    points: int | None = None
    median: float | None = None
    close: bool | None = None
    read: float | None = None

    @property
    def answered(self) -> bool:
        return self.value is not None

    @property
    def right_exactly(self) -> bool | None:
        """Right to its decimals, as the projector's "Right" group counts it (a close answer, counted right, is
        not); ``None`` as for ``right``."""
        return None if self.right is None else self.right and not self.close

    @property
    def from_median(self) -> float | None:
        """A Judge grade minus the class's median grade of that result (``None``: no grade, or another kind)."""
        if self.median is None or self.value is None:
            return None
        return float(self.value) - self.median


@dataclass(frozen=True)
class ActivityResults:
    """An activity's results: its number, round, the activity itself, the right answer of each part (predict: the
    true NDCG; rank: the highest NDCG@k; compare: the verdict under the activity's metric; practice: each
    exercise's answer), and one row per student present and part, in the students' order."""

    number: int
    round: int
    activity: Activity
    solutions: tuple[Solution, ...]
    rows: tuple[StudentResult, ...]
    of: int | None = None

    @property
    def kind(self) -> str:
        return self.activity.kind

    @property
    def numbered(self) -> Numbered:
        return Numbered(self.number, self.round, self.of)


@dataclass(frozen=True)
class StudentTotal:
    """One student over the whole room: questions they were present for, how many they answered and got right (as
    the projector's "Right" group counts: ``StudentResult.right_exactly``), the mean NDCG@k their Rank-it-best
    orders reached (``None`` without one), their points and how many answers were close (counted right elsewhere,
    shown apart as the projector shows them)."""

    student: int
    nickname: str | None
    questions: int
    answered: int
    right: int
    mean_ndcg: float | None
    points: int = 0
    close: int = 0


@dataclass(frozen=True)
class Standing:
    """A line of the leaderboard: the place (students with the same points share it: 1, 2, 2, 4), the student's
    number and nickname, and their points."""

    place: int
    student: int
    nickname: str | None
    points: int


@dataclass(frozen=True)
class RoomResults:
    activities: tuple[ActivityResults, ...]
    totals: tuple[StudentTotal, ...]


@dataclass(frozen=True)
class PartOutcome:
    """One question of an activity: how many answered it and how many were right."""

    answered: int
    right: int

    @property
    def share_right(self) -> float | None:
        return self.right / self.answered if self.answered else None


@dataclass(frozen=True)
class ActivityOutcome:
    """What one activity came to, for the end-of-class summary: the students present (``joined``), how many
    answered at least one question, and per question (one, or one per Practice exercise) answered and right."""

    number: int
    kind: str
    round: int
    joined: int
    answered: int
    parts: tuple[PartOutcome, ...]
    marked: bool = True  # False: its answers are neither right nor wrong (Judge)
    mistakes: tuple[Group, ...] = ()  # the answers that matched a known mistake, by mistake (Predict, Choose)
    of: int | None = None  # its lesson's number of activities (``numbering.Numbered``)

    @property
    def numbered(self) -> Numbered:
        return Numbered(self.number, self.round, self.of)

    @property
    def answers(self) -> int:
        """Answers given over every question."""
        return sum(p.answered for p in self.parts)

    @property
    def right(self) -> int:
        """Right answers over every question."""
        return sum(p.right for p in self.parts)

    @property
    def share_right(self) -> float | None:
        """Right answers as a share of the answers given (``None`` when nobody answered, or answers are not
        marked)."""
        return self.right / self.answers if self.answers and self.marked else None

    @property
    def participation(self) -> float | None:
        """Students who answered as a share of those present (``None`` when nobody was there)."""
        return self.answered / self.joined if self.joined else None


def parts_of(activity: Activity) -> int:
    """How many questions an activity asks: one per exercise of a Practice, one per result to Judge, else one."""
    return activity.parts()


def solutions(activity: Activity) -> tuple[Solution, ...]:
    """The right answer of each part (see ``ActivityResults``)."""
    return activity.solutions()


def answer_group(activity: Activity, value: Any) -> str | None:
    """The group an answer falls in (its kind's ``group``: an estimate's verdict, a choice's option's mistake);
    ``None`` for no answer and for the kinds that name no mistakes."""
    return None if value is None else activity.group(value)


def common_mistakes(outcomes: Iterable[ActivityOutcome], top: int = 3) -> tuple[Group, ...]:
    """The class's most common mistakes over every activity, at most ``top`` (as ``grouped`` orders them)."""
    total: Counter[str] = Counter()
    for o in outcomes:
        total.update({g.code: g.count for g in o.mistakes})
    return mistakes_only(grouped(total.elements()))[:top]


def marks_answers(activity: Activity) -> bool:
    """Whether the activity's answers are right or wrong: a Judge grade is neither (judging has no right grade)."""
    return activity.marks_answers()


def part_worth(worth: int, parts: int, part: int) -> int:
    """The most question ``part`` of an activity of ``parts`` questions scores when the whole activity is worth
    ``worth``: the worth shared out in whole points, the first questions taking one more where it does not divide
    (100 over 3: 34, 33, 33), so a whole activity is worth the same however many questions it asks."""
    share, rest = divmod(worth, parts)
    return share + (1 if part < rest else 0)


def scaled_points(points: int | None, worth: int, parts: int, part: int) -> int | None:
    """An answer's points (0 to ``POINTS`` for its question, as its kind marks it) as a share of its question's
    part of the activity's ``worth`` (``part_worth``), in whole points."""
    if points is None:
        return None
    return round(points * part_worth(worth, parts, part) / POINTS)


def answer_close(activity: Activity, value: Any) -> bool | None:
    """Whether an answer fell in the "close" group (``None``: no answer, or a kind that groups no answers)."""
    group = answer_group(activity, value)
    return None if group is None else group == CLOSE


def activity_results(taken: Taken) -> ActivityResults:
    """One row per student present (and anyone who answered) and part, marked; no answer is a row too. A Judge
    row carries the class's median grade of its result. Points only once the activity is revealed, each
    question's share of the activity's worth (``scaled_points``)."""
    activity = taken.activity
    worth = POINTS if taken.worth is None else taken.worth
    answers = own_answers(activity, taken.answers)
    medians = activity.medians(answers)
    given = {(a.student, a.part): a for a in answers}
    nicknames = {m.student: m.nickname for m in taken.present}
    nicknames.update({a.student: a.nickname for a in answers if a.student not in nicknames})
    rows = []
    for number in sorted(nicknames):
        for part in range(parts_of(activity)):
            answer = given.get((number, part))
            if answer is None:
                rows.append(StudentResult(number, nicknames[number], part, None, None, None, None))
                continue
            result = activity.result(answer.value, part)
            value, ndcg = activity.given(answer.value), activity.reached(answer.value)
            median = None if medians is None else medians[part]
            points = scaled_points(result.points, worth, parts_of(activity), part) if taken.revealed else None
            close, read = answer_close(activity, answer.value), activity.read(answer.value, part)
            rows.append(
                StudentResult(
                    number, answer.nickname, part, value, result.right, ndcg, answer.at, points, median, close, read
                )
            )
    return ActivityResults(taken.number, taken.round, activity, solutions(activity), tuple(rows), taken.of)


def room_results(taken: Sequence[Taken]) -> RoomResults:
    """Every activity's results and each student's totals (students in number order)."""
    results = tuple(activity_results(t) for t in taken)
    rows: dict[int, list[StudentResult]] = {}
    for result in results:
        for row in result.rows:
            rows.setdefault(row.student, []).append(row)
    totals = []
    for number in sorted(rows):
        mine = rows[number]
        reached = [r.ndcg for r in mine if r.ndcg is not None]
        totals.append(
            StudentTotal(
                number,
                mine[-1].nickname,
                len(mine),
                sum(r.answered for r in mine),
                sum(r.right_exactly is True for r in mine),
                statistics.fmean(reached) if reached else None,
                sum(r.points or 0 for r in mine),
                sum(r.close is True for r in mine),
            )
        )
    return RoomResults(results, tuple(totals))


def leaderboard(results: RoomResults, top: int = 10) -> tuple[Standing, ...]:
    """The students with the most points, most first (ties by student number), down to the ``top``-th place
    (everyone sharing that place is listed); students who answered nothing are left out."""
    ranked = sorted((t for t in results.totals if t.answered), key=lambda t: (-t.points, t.student))
    standings: list[Standing] = []
    for i, total in enumerate(ranked):
        place = standings[-1].place if standings and standings[-1].points == total.points else i + 1
        if place > top:
            break
        standings.append(Standing(place, total.student, total.nickname, total.points))
    return tuple(standings)


def standings(results: RoomResults) -> dict[int, Standing]:
    """Every student's own line of the whole leaderboard (by student number): their place among all who answered
    something (as ``leaderboard`` places them) and their points; a student who answered nothing has none."""
    return {s.student: s for s in leaderboard(results, top=len(results.totals))}


def outcome(result: ActivityResults) -> ActivityOutcome:
    """One activity's participation and right answers, from its results."""
    parts = []
    for part in range(parts_of(result.activity)):
        rows = [r for r in result.rows if r.part == part]
        parts.append(PartOutcome(sum(r.answered for r in rows), sum(r.right is True for r in rows)))
    students = {r.student for r in result.rows}
    answered = {r.student for r in result.rows if r.answered}
    groups = (answer_group(result.activity, r.value) for r in result.rows)
    return ActivityOutcome(
        result.number,
        result.kind,
        result.round,
        len(students),
        len(answered),
        tuple(parts),
        marks_answers(result.activity),
        mistakes_only(grouped(g for g in groups if g is not None)),
        result.of,
    )
