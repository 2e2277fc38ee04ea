"""Every command of the live classroom, a teacher's and a phone's, through ``ClassroomRuntime`` with no Streamlit
and no browser, on SQLite: what each does to the room as stored, that each teacher command tells the process once
which room changed (its phones' shared reads follow), and that a refusal is the store's own error, told nothing."""

import inspect
from functools import partial

import pytest
import sqlalchemy as sa
from storage_support import T0, Clock, student_id

from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.runtime import ClassroomRuntime
from ndcg_core.classroom.service import ClassroomService, Submission
from ndcg_core.classroom.storage import Classroom, Database, make_engine
from ndcg_core.errors import InputError, StoreUnavailable
from support import error_of

PREDICT = Predict(preset_list("five"))
VOTE = compare_activity("seed003", "ndcg")  # a vote: "Vote again" is its peer instruction's second round
LESSON = Lesson("Two steps", (Step(PREDICT), Step(VOTE)), scores=True)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(tmp_path, clock):
    made = Classroom(f"sqlite:///{tmp_path / 'classroom.sqlite3'}", clock=clock)
    yield made
    made.close()


@pytest.fixture
def told():
    """The rooms a runtime said changed, in order."""
    return []


@pytest.fixture
def runtime(store, told):
    return ClassroomRuntime(store, changed=told.append)


@pytest.fixture
def lesson_room(runtime, told):
    """A room running ``LESSON`` with Ana and Bo in it, nothing opened yet: (code, key, (ana, bo))."""
    room, key = runtime.start_lesson(LESSON)
    ana, bo = student_id(), student_id()
    runtime.join(room.code, ana, "Ana")
    runtime.join(room.code, bo, "Bo")
    told.clear()
    return room.code, key, (ana, bo)


def phase(runtime, code):
    return runtime.room(code).current.phase


def test_a_lesson_runs_from_its_start_to_its_end_through_the_runtime(runtime, store, told, lesson_room):
    code, key, (ana, bo) = lesson_room
    assert runtime.progress(code).step == -1 and runtime.room(code).current is None

    first = runtime.go_to_step(code, key, 0)  # Next: the first step opens
    assert (first.kind, first.phase) == ("predict", "open")
    outcome = runtime.answer(code, ana, Submission(first.id, ((0, PREDICT.truth()),)))
    assert outcome.ok and store.answers.of_student(first.id, ana) == {0: PREDICT.truth()}

    runtime.lock(code, key)
    assert phase(runtime, code) == "locked"
    late = runtime.answer(code, bo, Submission(first.id, ((0, "0.5"),)))
    assert late.error is not None and late.error.code == "room.locked"
    runtime.unlock(code, key)
    assert phase(runtime, code) == "open"
    runtime.reveal(code, key)
    assert phase(runtime, code) == "revealed"

    vote = runtime.go_to_step(code, key, 1)
    assert (vote.kind, vote.phase, runtime.progress(code).step) == ("compare", "open", 1)
    runtime.lock(code, key)
    again = runtime.vote_again(code, key, after=runtime.room(code).revision)
    assert (again.kind, again.round, again.phase) == ("compare", 2, "open")
    back = runtime.go_to_step(code, key, 0)  # Back: the first step as it was, revealed
    assert (back.id, back.phase) == (first.id, "revealed")
    forward = runtime.go_to_step(code, key, 1)  # Next again: the vote's latest round
    assert forward.id == again.id

    runtime.show_names(code, key, True)
    assert runtime.room(code).show_names
    runtime.end(code, key)
    assert runtime.room(code).ended
    assert told == [code] * 11  # one notice per teacher command above, each naming the room


def test_the_door_is_kept_through_the_runtime(runtime, store, clock, told, lesson_room):
    code, key, (ana, bo) = lesson_room
    runtime.set_seats(code, key, 4)
    assert runtime.door(code).seats == 4
    runtime.close_joining(code, key, True)
    assert runtime.door(code).closed
    with pytest.raises(InputError) as closed:
        runtime.join(code, student_id(), "Cy")
    assert closed.value.code == "room.closed"
    runtime.close_joining(code, key, False)

    first = runtime.go_to_step(code, key, 0)
    runtime.answer(code, ana, Submission(first.id, ((0, PREDICT.truth()),)))
    clock.now = T0 + 30 * 60  # half an hour later, a burst of joins
    burst = [student_id() for _ in range(2)]
    for student in burst:
        runtime.join(code, student)
    with pytest.raises(InputError) as full:
        runtime.join(code, student_id())
    assert full.value.code == "room.full"
    assert runtime.kick_recent(code, key, 5) == 2  # the last five minutes' joins
    assert {s.id for s in runtime.roster(code)} == {ana, bo}
    assert runtime.kick_silent(code, key) == 1  # Bo never answered
    assert [s.id for s in runtime.roster(code)] == [ana]
    assert told == [code] * 6


def test_a_teacher_starts_a_room_and_saves_a_lesson_through_the_runtime(runtime, told):
    room, key = runtime.start_room()
    assert runtime.is_teacher(room.code, key) and not runtime.is_teacher(room.code, "forged")
    assert runtime.progress(room.code) is None
    runtime.use_lesson(room.code, key, LESSON)
    assert (runtime.progress(room.code).title, runtime.progress(room.code).count) == ("Two steps", len(LESSON.steps))
    code = runtime.save_lesson(LESSON)
    assert code == runtime.save_lesson(LESSON)  # the same lesson, the same code
    assert "Two steps" in runtime.lesson_text(code)
    opened_lesson = runtime.lesson(code.lower())  # read and parsed in the core, the code read forgivingly
    assert (opened_lesson.title, [s.activity.kind for s in opened_lesson.steps]) == (
        LESSON.title,
        [s.activity.kind for s in LESSON.steps],
    )
    opened = runtime.open(room.code, key, PREDICT, after=runtime.room(room.code).revision)
    assert runtime.room(room.code).current.id == opened.id
    assert told == [room.code, room.code]  # use_lesson and open; a start and a save change no room yet


def test_a_phone_joins_and_gets_its_card_through_the_runtime(runtime, lesson_room):
    code, key, (ana, _) = lesson_room
    cy = student_id()
    joined = runtime.join(code.lower(), cy, "Cy")  # a code typed in lower case reads
    assert (joined.room, runtime.student(code, cy).nickname) == (code, "Cy")
    first = runtime.go_to_step(code, key, 0)
    runtime.answer(code, ana, Submission(first.id, ((0, PREDICT.truth()),)))
    card = runtime.card(code, ana)
    assert (card.current.id, dict(card.mine)) == (first.id, {0: PREDICT.truth()})
    assert runtime.card(code, cy).mine == {}


# Every teacher command on a room, given the room's code and a key.
FORGED = "not-the-key"
TEACHER_COMMANDS = {
    "use_lesson": lambda r, code, key: r.use_lesson(code, key, LESSON),
    "open": lambda r, code, key: r.open(code, key, PREDICT),
    "lock": lambda r, code, key: r.lock(code, key),
    "unlock": lambda r, code, key: r.unlock(code, key),
    "reveal": lambda r, code, key: r.reveal(code, key),
    "run_again": lambda r, code, key: r.run_again(code, key),
    "vote_again": lambda r, code, key: r.vote_again(code, key),
    "go_to_step": lambda r, code, key: r.go_to_step(code, key, 0),
    "show_names": lambda r, code, key: r.show_names(code, key, True),
    "end": lambda r, code, key: r.end(code, key),
    "set_seats": lambda r, code, key: r.set_seats(code, key, 5),
    "close_joining": lambda r, code, key: r.close_joining(code, key, True),
    "kick_recent": lambda r, code, key: r.kick_recent(code, key, 5),
    "kick_silent": lambda r, code, key: r.kick_silent(code, key),
}


def test_the_table_names_every_teacher_command_of_the_runtime():
    # A command added to the runtime (a method taking the teacher's key) must be added to the table above. Under
    # mutmut (docs/evaluation.md, "Mutation score") the class also holds its copies of each method, left out here.
    takes_a_key = {
        name
        for name, method in inspect.getmembers(ClassroomRuntime, inspect.isfunction)
        if not name.startswith("_")
        and "__mutmut_" not in name
        and "key" in inspect.signature(method).parameters
        and name != "is_teacher"
    }
    assert takes_a_key == set(TEACHER_COMMANDS)


@pytest.mark.parametrize("command", sorted(TEACHER_COMMANDS))
def test_a_forged_key_is_refused_as_the_store_refuses_it_and_tells_nothing(runtime, told, lesson_room, command):
    code, _, _ = lesson_room
    revision = runtime.room(code).revision
    with pytest.raises(InputError) as refused:
        TEACHER_COMMANDS[command](runtime, code, FORGED)
    assert refused.value.code == "room.bad_key"
    assert told == [] and runtime.room(code).revision == revision


def read_only(store):
    """The store's database opened again, every connection read-only (a database that cannot take writes)."""
    engine = make_engine(str(store.engine.url))

    @sa.event.listens_for(engine, "connect")
    def query_only(dbapi_connection, _record):
        dbapi_connection.execute("PRAGMA query_only = ON")

    return Classroom(database=Database(engine=engine, clock=store.database.clock), limits=store.limits)


@pytest.mark.parametrize("command", sorted(TEACHER_COMMANDS))
def test_a_database_that_cannot_serve_is_a_store_unavailable_and_tells_nothing(store, lesson_room, command):
    code, key, _ = lesson_room
    told = []
    runtime = ClassroomRuntime(read_only(store), changed=told.append)
    with pytest.raises(StoreUnavailable) as refused:
        TEACHER_COMMANDS[command](runtime, code, key)
    assert refused.value.code == "store.read_only"
    assert told == []
    runtime.store.close()


def test_the_runtime_reads_answers_results_and_rounds_as_the_room_stored_them(runtime, lesson_room):
    code, key, (ana, bo) = lesson_room
    first = runtime.go_to_step(code, key, 0)
    runtime.answer(code, ana, Submission(first.id, ((0, PREDICT.truth()),)))
    runtime.answer(code, bo, Submission(first.id, ((0, "0.5"),)))
    numbers = {s.id: s.number for s in runtime.roster(code)}
    book = runtime.answer_book(first.id)
    assert set(book) == {ana, bo} and [(a.student, a.value) for a in book[ana]] == [(numbers[ana], PREDICT.truth())]
    only_bo = runtime.answer_book(first.id, only={bo})  # only the students asked for
    assert set(only_bo) == {bo} and [a.student for a in only_bo[bo]] == [numbers[bo]]
    runtime.reveal(code, key)
    results = runtime.results(code)
    assert [(a.number, a.round) for a in results.activities] == [(1, 1)]
    assert {t.student: t.right for t in results.totals} == {numbers[ana]: 1, numbers[bo]: 0}
    (outcome,) = runtime.class_summary(code)
    assert (outcome.kind, outcome.joined, outcome.answered, outcome.parts[0].right) == ("predict", 2, 2, 1)

    vote = runtime.go_to_step(code, key, 1)
    assert runtime.earlier_round(code, vote) is None  # a first round
    again = runtime.vote_again(code, key, after=runtime.room(code).revision)
    assert runtime.earlier_round(code, again).id == vote.id


def test_a_card_made_from_a_room_already_read_reads_no_room(runtime, lesson_room):
    code, key, (ana, _) = lesson_room
    runtime.go_to_step(code, key, 0)
    read = runtime.room(code)
    runtime.lock(code, key)
    card = runtime.card(code, ana, read)  # the room as the phone's page read it, before the lock
    assert card.room is read and card.current.phase == "open"


def test_kicking_the_last_minutes_joins_counts_the_minutes_in_seconds(runtime, clock, lesson_room):
    code, key, _ = lesson_room
    early, late = student_id(), student_id()
    start = clock.now
    runtime.join(code, early)
    clock.now = start + 182
    runtime.join(code, late)
    clock.now = start + 302  # early joined 302 s ago, late 120 s ago
    assert runtime.kick_recent(code, key, 5) == 1  # within 5 * 60 = 300 s: late only
    assert late not in {s.id for s in runtime.roster(code)} and early in {s.id for s in runtime.roster(code)}


def test_a_second_click_on_vote_again_as_of_the_same_revision_runs_one_round(runtime, lesson_room):
    code, key, _ = lesson_room
    runtime.go_to_step(code, key, 1)
    runtime.lock(code, key)
    shown = runtime.room(code).revision  # the revision the teacher's page showed
    again = runtime.vote_again(code, key, after=shown)
    twice = runtime.vote_again(code, key, after=shown)
    assert (twice.id, twice.round) == (again.id, 2)


def test_the_runtime_hands_the_store_each_client_and_passphrase_as_given(tmp_path, clock):
    one_each = Limits(rooms_per_client_hour=1, join_burst=1, joins_per_second=0.001)
    store = Classroom(f"sqlite:///{tmp_path / 'limited.sqlite3'}", clock=clock, limits=one_each, passphrase="sesame")
    runtime = ClassroomRuntime(store)
    assert error_of(runtime.start_room).code == "room.passphrase"
    assert error_of(runtime.start_lesson, LESSON).code == "room.passphrase"
    room, key = runtime.start_room(passphrase="sesame")  # no client named: the local one, as the store counts it
    assert error_of(runtime.start_room, source="", passphrase="sesame").code == "room.started_many"
    runtime.start_lesson(LESSON, source="203.0.113.5", passphrase="sesame")
    for start in (runtime.start_room, partial(runtime.start_lesson, LESSON)):
        assert error_of(start, source="203.0.113.5", passphrase="sesame").code == "room.started_many"
    runtime.start_lesson(LESSON, passphrase="sesame", source="198.51.100.7")  # another client still can
    assert error_of(runtime.start_lesson, LESSON, passphrase="sesame").code == "room.started_many"  # the local one
    # New students are paced per client: one token each here.
    runtime.join(room.code, student_id())
    assert error_of(runtime.join, room.code, student_id(), source="").code == "room.join_busy"
    runtime.join(room.code, student_id(), source="203.0.113.5")
    assert error_of(runtime.join, room.code, student_id(), source="203.0.113.5").code == "room.join_busy"
    runtime.join(room.code, student_id(), source="198.51.100.7")
    assert runtime.is_teacher(room.code, key)
    store.close()


def test_a_second_click_on_open_as_of_the_same_revision_opens_once(runtime, lesson_room):
    code, key, _ = lesson_room
    shown = runtime.room(code).revision
    first = runtime.open(code, key, PREDICT, after=shown)
    again = runtime.open(code, key, PREDICT, after=shown)
    assert again.id == first.id and runtime.room(code).current.id == first.id


def test_a_runtime_keeps_the_phones_service_it_is_given(store):
    service = ClassroomService(store)
    assert ClassroomRuntime(store, service=service).service is service
    assert ClassroomRuntime(store).service.store is store
