"""What every kind of classroom activity is (``ActivityKind``, generic over its checked answer, its class summary
and its marked detail), the values every kind shares (a stored ``Answer``, a marked ``Result``, the judging
``Scale``, what a question is asked on: ``Material``) and ``KindBase``, the hooks' usual answers a kind inherits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, runtime_checkable

from ...errors import InputError, Note, shown
from ...lists.spec import ListSpec
from ...teaching.exercises import Conventions
from ..lesson_fields import Field, Reader

POINTS = 100  # what one activity is worth when a lesson keeps scores, unless the lesson says (its ``points``)
MAX_SCALE_STEPS = 10  # a judging scale holds at most 11 grades: a phone shows them as one row of buttons
EPS = 1e-9

# JSON as the store keeps it (a payload, an answer): what ``json.loads`` gives back.
Json = Any
Payload = dict[str, Any]
Solution = float | int | str  # a part's right answer: a number, an order's best NDCG, a vote, a grade, a letter


@dataclass(frozen=True)
class Scale:
    """The grades judges may give: every whole number from ``low`` to ``high`` (0 to 4 unless a lesson says)."""

    low: int = 0
    high: int = 4

    def __post_init__(self) -> None:
        if not 0 <= self.low < self.high <= self.low + MAX_SCALE_STEPS:
            raise InputError("activity.scale", low=self.low, high=self.high, steps=MAX_SCALE_STEPS)

    @property
    def grades(self) -> tuple[int, ...]:
        return tuple(range(self.low, self.high + 1))


@dataclass(frozen=True)
class Answer:
    """One stored answer: who (a student's number in the room, and nickname), which part, and the value (its kind's
    checked answer, decoded by the kind's ``answer_from_json``)."""

    student: int
    nickname: str | None
    part: int
    value: Any
    at: float = 0.0


D = TypeVar("D")


@dataclass(frozen=True)
class Result(Generic[D]):
    """One answer marked: right or not (``None``: an answer no grade is right or wrong for, a Judge grade), the
    NDCG involved (if any), the answer as text, the kind's details (a ``PredictDetail``, ``RankDetail``,
    ``CompareDetail``, ``PracticeDetail``, ``JudgeDetail`` or ``ChooseDetail``), and the points it scores when a
    lesson keeps scores, out of ``POINTS`` for its question (``None``: the activity scores none; the results take
    its share of what the activity is worth: ``results.scaled_points``)."""

    right: bool | None
    ndcg: float | None
    answer: str
    detail: D
    points: int | None = None


@dataclass(frozen=True)
class Material:
    """What one question of an activity is asked on, beside its conventions (for the results CSV): the query, the
    grades in ranked order, the grades of judged results the list missed, the exercise's number (a Practice set's,
    from 1), the list's Järvelin-Kekäläinen base (``None``: no list) and the position a question asks about (one
    DCG term's; ``None``: none)."""

    query: str = ""
    grades: tuple[float, ...] = ()
    missed: tuple[float, ...] = ()
    exercise: int | None = None
    base: float | None = None
    position: int | None = None


AnswerT = TypeVar("AnswerT")
SummaryT = TypeVar("SummaryT", covariant=True)
DetailT = TypeVar("DetailT")


# Not mutated: mutmut's copies of a method would become members of the protocol, which no kind has.
@runtime_checkable
class ActivityKind(Protocol[AnswerT, SummaryT, DetailT]):  # pragma: no mutate block
    """What every kind of classroom activity is, generic over its checked answer (``AnswerT``: a number, an order,
    a vote, a grade, a marked exercise), its class summary (``SummaryT``) and its marked detail (``DetailT``).

    A frozen dataclass with its settings and its ``kind`` name; a payload codec (``payload`` / ``from_payload``:
    what the store keeps, so any replica rebuilds it); its lesson codec (its fields in a lesson file,
    ``lesson_fields``, after the fields every activity has; ``from_lesson`` reads them through a ``Reader`` and
    ``lesson_data`` writes them, given the lesson's judging scale); the answer check of a part (``check``: a typed
    value, or an ``InputError``; ``nothing_sent``: the problem of an answer with nothing in it; ``note``: how a
    typed number was read; ``read_answer``: both from one reading, as an answer is checked) and that value's JSON
    codec (``answer_to_json`` / ``answer_from_json``); the class's summary; one answer marked (``result``), the
    group it falls in (``group``), whether answers are marked at all (``marks_answers``), what a results row shows
    of it (``given``) and the number it was read as (``read``), the NDCG@k it reaches (``reached``) and the class's
    median of its part (``medians``); the number of questions it asks (``parts``), whether a set's readable answers
    are kept when others are not (``keeps_readable_parts``), their right answers, the conventions and the material
    each is asked on, the one ranked list it is over (``ranked_list``), whether it is made from any ranked list
    (``made_from_a_list``: the lesson editor turns one such kind into another, ``from_list``), and its line in the
    ``check`` command's outline (``outline``).

    Adding a kind is one module in this package with a class that has these (``KindBase`` gives the usual
    answers), ending with its ``KIND = KindEntry(...)`` (``KINDS`` finds it), its words module in ``ui/kinds/``, its
    views module in ``ui/views/classroom/kinds/`` and its texts (a test checks every registered kind has them all)."""

    made_from_a_list: ClassVar[bool]

    @property
    def kind(self) -> str: ...

    def payload(self) -> Payload: ...

    @classmethod
    def from_list(cls, spec: ListSpec) -> Self: ...

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self: ...

    @classmethod
    def lesson_fields(cls) -> tuple[Field, ...]: ...

    @classmethod
    def from_lesson(cls, r: Reader, scale: Scale) -> Self: ...

    def lesson_data(self, scale: Scale) -> Payload: ...

    def outline(self) -> str: ...

    def check(self, raw: object, part: int = 0) -> AnswerT: ...

    def nothing_sent(self) -> InputError: ...

    def note(self, raw: object, part: int = 0) -> Note | None: ...

    def read_answer(self, raw: object, part: int = 0) -> tuple[AnswerT, Note | None]: ...

    @classmethod
    def answer_to_json(cls, value: AnswerT) -> Json: ...

    @classmethod
    def answer_from_json(cls, data: Json) -> AnswerT: ...

    def summary(self, answers: Sequence[Answer]) -> SummaryT: ...

    def result(self, value: AnswerT, part: int = 0) -> Result[DetailT]: ...

    def group(self, value: AnswerT) -> str | None: ...

    def marks_answers(self) -> bool: ...

    def given(self, value: AnswerT) -> object: ...

    def read(self, value: AnswerT, part: int = 0) -> float | None: ...

    def reached(self, value: AnswerT) -> float | None: ...

    def medians(self, answers: Sequence[Answer]) -> tuple[float | None, ...] | None: ...

    def parts(self) -> int: ...

    def keeps_readable_parts(self) -> bool: ...

    def solutions(self) -> tuple[Solution, ...]: ...

    def conventions(self, part: int = 0) -> Conventions: ...

    def material(self, part: int = 0) -> Material: ...

    def ranked_list(self) -> ListSpec | None: ...


def part_of(part: object, parts: int) -> int:
    """``part`` when it is one of an activity's ``parts`` (0 to ``parts`` - 1); an ``InputError`` (``answer.part``)
    for any other: an answer to a part a question does not have would count the same student once more."""
    if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < parts:
        raise InputError("answer.part", value=shown(part), count=parts)
    return part


class KindBase(Generic[AnswerT]):
    """The usual answers of ``ActivityKind``'s hooks, for a kind to inherit and override: an answer that is plain
    JSON already (a number, an order, a vote, a grade: its codec is the identity), marked right or wrong, in no
    group, shown as given, reaching no NDCG of its own; one question; no typed-number note; an empty answer is
    "choose an answer first"; not made from a ranked list."""

    made_from_a_list: ClassVar[bool] = False

    @classmethod
    def from_list(cls, spec: ListSpec) -> Self:
        """The kind's activity on the ranked list ``spec``, with its usual settings (a kind whose
        ``made_from_a_list`` is true overrides this)."""
        raise TypeError(f"{cls.__name__} is not made from a ranked list")

    @classmethod
    def answer_to_json(cls, value: AnswerT) -> Json:
        return value

    @classmethod
    def answer_from_json(cls, data: Json) -> AnswerT:
        value: AnswerT = data
        return value

    def nothing_sent(self) -> InputError:
        return InputError("answer.no_choice")

    def note(self, raw: object, part: int = 0) -> Note | None:
        """How a typed number was read, when the student should be told ("read 0,62 as 0.62"); ``None`` here."""
        return None

    def read_answer(self, raw: object, part: int = 0) -> tuple[AnswerT, Note | None]:
        """``check``'s typed value and ``note``'s note, as an answer is checked: a kind that reads a typed number
        gives both from one reading of it (Predict, Practice); here the kind's ``check`` and its ``note``."""
        value: AnswerT = self.check(raw, part)  # type: ignore[attr-defined]  # every kind has its check
        return value, self.note(raw, part)

    def group(self, value: AnswerT) -> str | None:
        """The group an answer falls in (right, close, a mistake's code, other); ``None``: the kind names none."""
        return None

    def marks_answers(self) -> bool:
        """Whether the kind's answers are right or wrong (a Judge grade is neither)."""
        return True

    def given(self, value: AnswerT) -> object:
        """The answer as a results row keeps it (an estimate, an order, a vote, a grade, an exercise's text)."""
        return value

    def read(self, value: AnswerT, part: int = 0) -> float | None:
        """The answer as a number, as it was read (an estimate, a grade); ``None`` for one that is no number."""
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        return None

    def reached(self, value: AnswerT) -> float | None:
        """The NDCG@k the answer itself reaches (a Rank-it-best order's); ``None`` for other kinds."""
        return None

    def medians(self, answers: Sequence[Answer]) -> tuple[float | None, ...] | None:
        """Per part, the class's median answer a row is set beside (a Judge result's median grade); ``None``."""
        return None

    def parts(self) -> int:
        return 1

    def own_part(self, part: object) -> int:
        """``part`` when the activity asks it (``part_of``)."""
        return part_of(part, self.parts())

    def keeps_readable_parts(self) -> bool:
        """Whether, of a set of answers sent at once, the readable ones are kept and the others named (a Practice
        set's); otherwise the whole set is refused with the first problem."""
        return False

    def ranked_list(self) -> ListSpec | None:
        """The one ranked list the activity is over (Predict, Rank it best, Judge, Which is right?); ``None``."""
        return None


@dataclass(frozen=True)
class KindEntry:
    """How a kind's module registers its kind: ``KIND = KindEntry(Name, "label", order=N)`` at its end. ``cls`` is
    the kind's class, ``label`` its name in English (the app's texts come from the catalogues), and ``order`` its
    place where kinds are offered (the lesson editor's list, the lesson format's schema and docs): smallest first."""

    cls: type[ActivityKind[Any, Any, Any]]
    label: str
    order: int
