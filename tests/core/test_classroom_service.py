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
from ndcg_core.classroom.service import ClassroomService, Entry, Recent, Score, StoreReads, Submission
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


class KeptReads(StoreReads):
    """``RoomReads`` that keep what they read, as a process sharing its phones' reads does (``ui.database``), and
    log every call: a room is at hand once read (when ``told`` a revision, only if read at it or later), an
    activity's answers once the class's were read, until an answer to it is stored."""

    def __init__(self, store):
        super().__init__(store)
        self.rooms = {}
        self.answers = {}
        self.log = []

    def room(self, code):
        self.log.append(("room", code))
        self.rooms[code] = super().room(code)
        return self.rooms[code]

    def answers_of(self, code, activity_id, student):
        self.log.append(("answers_of", code, activity_id, student))
        return super().answers_of(code, activity_id, student)

    def read_answers(self, code, activity_id):
        self.log.append(("read_answers", code, activity_id))
        self.answers[code, activity_id] = self.store.answers.by_student(activity_id)

    def answer_stored(self, code, activity_id, student=None):
        self.log.append(("answer_stored", code, activity_id, student))
        self.answers.pop((code, activity_id), None)

    def room_at_hand(self, code, told=None):
        room = self.rooms.get(code)
        return None if room is None or (told is not None and room.revision < told) else room

    def answers_at_hand(self, code, activity_id, student):
        kept = self.answers.get((code, activity_id))
        return None if kept is None else kept.get(student, {})


@pytest.fixture
def kept(room):
    """The room's store with a service over ``KeptReads``: (service, store, code, key, student id, reads)."""
    _, store, code, key, me = room
    reads = KeptReads(store)
    return ClassroomService(store, reads), store, code, key, me, reads


def counting(monkeypatch, kind):
    """Count the readings of a typed value by ``kind``: ``read_answer`` (the value and its note from one parse) and
    ``check`` (each still reads)."""
    calls = []
    read, check = kind.read_answer, kind.check

    def counted_read(self, raw, part=0):
        calls.append((part, raw))
        return read(self, raw, part)

    def counted_check(self, raw, part=0):
        calls.append((part, raw))
        return check(self, raw, part)

    monkeypatch.setattr(kind, "read_answer", counted_read)
    monkeypatch.setattr(kind, "check", counted_check)
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


def test_a_practice_set_says_how_each_exercise_read_its_own_number(room):
    """The note comes from the exercise the value answers: a comma number is noted for a number exercise even when
    the set's first exercise is a choice."""
    service, store, code, key, me = room
    row = store.rooms.open_activity(code, key, Practice(2026, (3, 1)))
    choice, number = row.activity().exercises()
    assert isinstance(choice.answer, str) and isinstance(number.answer, float)
    typed = f"{number.answer:.2f}".replace(".", ",")
    outcome = service.submit(code, me, Submission(row.id, ((0, choice.answer), (1, typed))))
    assert outcome.ok and [e.note for e in outcome.stored][0] is None
    assert outcome.stored[1].note is not None and outcome.stored[1].note.code == "answer.comma_read"


# --- how the service reads a room ----------------------------------------------------------------------------


def test_the_card_and_an_answer_go_through_the_reads_the_service_was_given(kept):
    service, store, code, key, me, reads = kept
    row = store.rooms.open_activity(code, key, Predict(SPEC))
    assert service.submit(code, me, Submission(row.id, ((0, "0.5"),))).ok
    assert reads.log == [("room", code), ("answer_stored", code, row.id, me)]  # told whose answer to which activity
    reads.log.clear()
    card = service.card(code, me)
    assert reads.log == [("room", code), ("answers_of", code, row.id, me)]
    assert card.current == store.rooms.get(code).current and card.current.id == row.id and card.mine == {0: 0.5}
    reads.log.clear()
    assert service.card(code, me, room=card.room) == card
    assert reads.log == [("answers_of", code, row.id, me)]  # the room as already read is not read again


def test_a_card_at_hand_is_none_until_prepare_reads_what_it_needs_and_then_it_is_the_card(kept, clock):
    """``card_at_hand`` never reads: ``None`` while the room, the activity's answers or the scores are not at
    hand; after ``prepare`` it is exactly ``card`` for each student, answered or not."""
    service, store, code, key, me, reads = kept
    other = rules.new_student_id()
    store.students.join(code, other)
    steps = (Step(Rank(SPEC, "")), Step(Predict(SPEC), time_limit=30))
    store.lessons.use(code, key, Lesson("Scored", steps, scores=True))
    ranked = store.lessons.step(code, key, 0)
    service.submit(code, me, Submission(ranked.id, ((0, [1, 2, 0]),)))
    store.rooms.set_phase(code, key, "revealed")
    row = store.lessons.step(code, key, 1)
    service.submit(code, me, Submission(row.id, ((0, "0.5"),)))
    reads.log.clear()
    assert service.card_at_hand(code, me) is None and reads.log == []
    service.prepare(code)
    assert reads.log == [("room", code), ("read_answers", code, row.id)]
    clock.now += 5
    for student in (me, other):
        at_hand = service.card_at_hand(code, student)
        assert at_hand is not None and at_hand.current.id == row.id and at_hand.left == 25
        assert at_hand == service.card(code, student)
    mine, others = service.card_at_hand(code, me), service.card_at_hand(code, other)
    assert (mine.mine, mine.score) == ({0: 0.5}, Score(POINTS, 1, 1, False))
    assert (others.mine, others.score) == ({}, Score(0, None, 1, False))
    # Each part missing in turn: the scores (a service that has counted none), the answers, the room.
    assert ClassroomService(store, reads).card_at_hand(code, me) is None
    assert service.submit(code, other, Submission(row.id, ((0, "0.3"),))).ok
    assert service.card_at_hand(code, me) is None
    assert service.card_at_hand("ZZZZZ", me) is None


def test_a_card_at_hand_passes_on_the_revision_the_room_is_known_to_have_reached(kept):
    service, store, code, key, me, reads = kept
    service.prepare(code)
    revision = store.rooms.get(code).revision
    assert service.card_at_hand(code, me, told=revision) == service.card(code, me)
    assert service.card_at_hand(code, me, told=revision + 1) is None  # read before it: not served


def test_prepare_reads_a_room_without_an_activity_for_cards_at_hand_too(kept):
    service, store, code, key, me, reads = kept
    service.prepare(code)
    assert reads.log == [("room", code)]
    card = service.card_at_hand(code, me)
    assert card is not None and (card.current, card.mine, card.left, card.score) == (None, {}, None, None)


# --- what a process keeps ------------------------------------------------------------------------------------


def test_recent_keeps_the_most_recently_stored_values_and_drops_the_oldest_first():
    recent = Recent(2)
    made = []

    def make(value):
        return lambda: made.append(value) or value

    for key in "abc":
        assert recent.get(key, make(key.upper())) == key.upper()
    assert [recent.peek(key) for key in "abc"] == [(False, None), (True, "B"), (True, "C")]
    assert recent.get("b", make("again")) == "B" and made == ["A", "B", "C"]
    assert recent.peek("d") == (False, None) and recent.peek("d") == (False, None)  # peeking keeps nothing
    assert recent.get("d", make("D")) == "D" and recent.peek("b") == (False, None)


def test_the_current_activity_scores_only_once_it_is_revealed(room):
    """A right answer to the open step earns nothing yet (its points would tell the student how close it is)."""
    service, store, code, key, me = room
    store.lessons.use(code, key, Lesson("Scored", (Step(Rank(SPEC, "")), Step(Predict(SPEC))), scores=True))
    row = store.lessons.step(code, key, 0)
    assert service.submit(code, me, Submission(row.id, ((0, [1, 2, 0]),))).ok
    assert ClassroomService(store).card(code, me).score == Score(0, None, 0, False)
    store.rooms.set_phase(code, key, "revealed")
    assert ClassroomService(store).card(code, me).score == Score(POINTS, 1, 1, False)


def test_a_student_who_joined_since_the_scores_were_counted_has_none_yet(room):
    service, store, code, key, me = room
    store.lessons.use(code, key, Lesson("Scored", (Step(Rank(SPEC, "")), Step(Predict(SPEC))), scores=True))
    row = store.lessons.step(code, key, 0)
    service.submit(code, me, Submission(row.id, ((0, [1, 2, 0]),)))
    store.rooms.set_phase(code, key, "revealed")
    assert service.card(code, me).score == Score(POINTS, 1, 1, False)  # counted at this revision, and kept
    newcomer = rules.new_student_id()
    store.students.join(code, newcomer)
    assert service.card(code, newcomer).score == Score(0, None, 0, False)
