"""The classroom as a phone uses it (``ndcg_core.classroom.service``), with no Streamlit and no UI: a student's card
as a typed value, an answer checked once by its kind and stored (each Practice exercise on its own, a read number
said), the time limit one rule for the card and the store, and the caches a process keeps. On SQLite only: the
service adds no SQL of its own (the store's tests run both databases)."""

import pytest

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.base import POINTS
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.practice import Practice
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import Rank
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.service import ClassroomService, Entry, Score, Submission
from ndcg_core.classroom.storage import Classroom
from ndcg_core.errors import InputError

T0 = 1_800_000_000.0
SPEC = activity_list(("a", "b", "c"), (0, 3, 1), 3)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def room(tmp_path, clock):
    """A store with a room and one student: (service, store, code, key, student id)."""
    store = Classroom(f"sqlite:///{tmp_path / 'classroom.sqlite3'}", clock=clock)
    made, key = store.rooms.create()
    me = rules.new_student_id()
    store.students.join(made.code, me)
    yield ClassroomService(store), store, made.code, key, me
    store.close()


def counting(monkeypatch, kind):
    """Count the calls of ``kind.check`` (each still checks)."""
    calls = []
    check = kind.check

    def counted(self, raw, part=0):
        calls.append((part, raw))
        return check(self, raw, part)

    monkeypatch.setattr(kind, "check", counted)
    return calls


def practice_values(row):
    """Three exercises' answers as a phone sends them: the first and third right, the second unreadable."""
    first, _, third = row.activity().exercises()
    return (
        (0, f"{first.answer:.2f}".replace(".", ",")),
        (1, "abc"),
        (2, third.answer if isinstance(third.answer, str) else f"{third.answer:.3f}"),
    )


# --- an answer ---------------------------------------------------------------------------------------------


def test_each_value_is_checked_once_on_its_way_from_the_phone_to_the_store(room, monkeypatch):
    service, store, code, key, me = room
    row = store.rooms.open_activity(code, key, Practice(2026, (1, 2, 3)))
    calls = counting(monkeypatch, Practice)
    service.submit(code, me, Submission(row.id, practice_values(row)))
    assert sorted(part for part, _ in calls) == [0, 1, 2]


def test_a_practice_set_stores_its_readable_answers_and_refuses_each_unreadable_one_by_itself(room):
    service, store, code, key, me = room
    row = store.rooms.open_activity(code, key, Practice(2026, (1, 2, 3)))
    first, _, third = row.activity().exercises()
    outcome = service.submit(code, me, Submission(row.id, practice_values(row)))
    assert not outcome.ok and outcome.error is None
    assert [(part, err.code) for part, err in outcome.refused] == [(1, "answer.not_number")]
    assert [e.part for e in outcome.stored] == [0, 2]
    # The typed values stored, as the store reads them back and the card gets them.
    assert store.answers.of_student(row.id, me) == {e.part: e.value for e in outcome.stored}
    assert service.card(code, me).mine == {e.part: e.value for e in outcome.stored}
    assert outcome.stored[0].note is not None and outcome.stored[0].note.code == "answer.comma_read"


def test_an_answer_s_outcome_carries_the_student_s_answers_once_stored_and_its_card_needs_no_read(room, monkeypatch):
    """A second submission to a Practice set: its outcome has every part stored so far, the earlier ones too, and
    the reply's card made from it is the card a read gives, without reading the student's answers."""
    service, store, code, key, me = room
    row = store.rooms.open_activity(code, key, Practice(2026, (1, 2, 3)))
    first = service.submit(code, me, Submission(row.id, practice_values(row)))
    second = service.submit(code, me, Submission(row.id, ((1, "0.5"),)))
    assert (first.activity, second.activity) == (row.id, row.id)
    assert first.mine == {e.part: e.value for e in first.stored}
    assert second.mine == {**first.mine, 1: second.stored[0].value} == store.answers.of_student(row.id, me)
    read = service.card(code, me)
    monkeypatch.setattr(type(service.reads), "answers_of", lambda *a: pytest.fail("the student's answers were read"))
    assert service.card(code, me, answered=second) == read
    refused = service.submit(code, me, Submission(row.id, ((0, "lots"),)))
    assert refused.mine is None  # nothing stored: the card reads what is


def test_a_decimal_comma_estimate_is_stored_as_a_point_with_a_note_saying_so(room):
    service, store, code, key, me = room
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    outcome = service.submit(code, me, Submission(row.id, ((0, "0,62"),)))
    assert outcome.ok and outcome.stored == (Entry(0, 0.62, outcome.stored[0].note),)
    assert outcome.stored[0].note.code == "answer.comma_read"
    assert store.answers.of_student(row.id, me) == {0: 0.62}


def test_any_other_kinds_unreadable_answer_is_refused_whole_and_nothing_is_stored(room):
    service, store, code, key, me = room
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    outcome = service.submit(code, me, Submission(row.id, ((0, "lots"),)))
    assert isinstance(outcome.error, InputError) and not outcome.stored and not outcome.refused
    assert store.answers.of_student(row.id, me) == {}


@pytest.mark.parametrize(
    ("activity", "code"),
    [(Predict(SPEC), "answer.blank"), (Rank(SPEC, ""), "answer.no_choice")],
)
def test_a_blank_answer_is_refused_in_its_kinds_words(room, activity, code):
    service, store, code_, key, me = room
    row = store.rooms.open_activity(code_, key, activity)
    outcome = service.submit(code_, me, Submission(row.id, ((0, ""), (1, None))))
    assert outcome.error is not None and outcome.error.code == code


def test_an_answer_to_an_activity_no_longer_current_is_refused(room):
    service, store, code, key, me = room
    old = store.rooms.open_activity(code, key, Predict(SPEC))
    store.rooms.open_activity(code, key, Predict(SPEC))
    outcome = service.submit(code, me, Submission(old.id, ((0, "0.5"),)))
    assert outcome.error is not None and outcome.error.code == "room.not_current"


# --- the time limit ------------------------------------------------------------------------------------------


def timed_room(service, store, code, key, limit=30):
    store.lessons.use(code, key, Lesson("Timed", (Step(Predict(SPEC), time_limit=limit),)))
    return store.lessons.step(code, key, 0)


def test_the_card_and_the_store_read_the_time_limit_by_the_stores_clock(room, clock):
    service, store, code, key, me = room
    row = timed_room(service, store, code, key)
    assert service.card(code, me).left == 30 and not service.card(code, me).time_up
    clock.now += 30.5  # the card says the time is up; an answer sent as it reached zero is still taken
    card = service.card(code, me)
    assert card.left == -0.5 and card.time_up
    assert service.submit(code, me, Submission(row.id, ((0, "0.5"),))).ok
    clock.now += 1
    assert service.submit(code, me, Submission(row.id, ((0, "0.6"),))).error.code == "room.time_up"


@pytest.mark.parametrize(("left", "time_up", "taken"), [(-5.0, True, False), (100.0, False, True)])
def test_the_time_limit_is_one_rule_for_the_card_and_the_store(room, clock, monkeypatch, left, time_up, taken):
    service, store, code, key, me = room
    row = timed_room(service, store, code, key)
    clock.now += 10.0 if time_up else 60.0  # the opposite of what the rule is made to say below
    monkeypatch.setattr(rules, "seconds_left", lambda opened_at, limit, now: left)
    card = service.card(code, me)
    assert card.left == left and card.time_up is time_up
    assert service.submit(code, me, Submission(row.id, ((0, "0.5"),))).ok is taken


# --- what a process keeps ------------------------------------------------------------------------------------


def test_a_shared_card_is_made_once_per_room_revision_language_and_time_up(room, clock):
    service, store, code, key, me = room
    timed_room(service, store, code, key)
    made = []

    def make(name):
        return lambda: made.append(name) or {"name": name}

    state = service.card(code, me)
    assert state.shared and service.shared_card(state, "en", make("en")) == {"name": "en"}
    assert service.shared_card(service.card(code, me), "en", make("again")) == {"name": "en"}
    service.shared_card(state, "zh", make("zh"))
    clock.now += 31  # the time is up: the card locks
    service.shared_card(service.card(code, me), "en", make("locked"))
    store.rooms.set_phase(code, key, "locked")  # a new revision
    service.shared_card(service.card(code, me), "en", make("new revision"))
    assert made == ["en", "zh", "locked", "new revision"]


def test_a_card_with_the_students_own_answer_is_not_shared(room):
    service, store, code, key, me = room
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    service.submit(code, me, Submission(row.id, ((0, "0.5"),)))
    assert not service.card(code, me).shared


def test_scores_come_with_the_card_only_in_a_lesson_that_keeps_them(room):
    service, store, code, key, me = room
    assert service.card(code, me).score is None
    store.lessons.use(code, key, Lesson("Scored", (Step(Rank(SPEC, "")),), scores=True))
    row = store.lessons.step(code, key, 0)
    assert service.card(code, me).score == Score(0, None, 0, False)
    service.submit(code, me, Submission(row.id, ((0, [1, 2, 0]),)))
    store.rooms.set_phase(code, key, "revealed")
    assert service.card(code, me).score == Score(POINTS, 1, 1, True)  # the right order; the last step revealed
