"""An answer on its way in is read once (issue 49): the number a student typed is parsed once by its kind, which
gives its value and how it was read ("read 0,62 as 0.62") from that one reading, the store decodes no activity
payload for answers checked already, and a resend decodes none of the student's earlier answers to the parts it
replaces (the store returns the value just checked for them)."""

import json
from types import SimpleNamespace

import pytest
from storage_support import Clock, student_id

from ndcg_core import validate
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.practice import Practice
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.runtime import ClassroomRuntime
from ndcg_core.classroom.service import Submission
from ndcg_core.classroom.storage import Classroom
from ndcg_core.classroom.storage import answers as answers_module
from ndcg_core.teaching.exercises import KINDS as EXERCISE_KINDS
from ndcg_core.teaching.exercises import NUMERIC

PREDICT = Predict(preset_list("five"))
# Two number exercises (a set's exercise n is of kind n modulo the kinds: the first DCG and NDCG ones).
PRACTICE = Practice(2026, (EXERCISE_KINDS.index("dcg"), EXERCISE_KINDS.index("ndcg")))


@pytest.fixture
def runtime(tmp_path):
    store = Classroom(f"sqlite:///{tmp_path / 'classroom.sqlite3'}", clock=Clock())
    yield ClassroomRuntime(store)
    store.close()


@pytest.fixture
def readings(monkeypatch):
    """Every text ``validate.reading`` reads while the test runs (``validate.answer`` reads through it too)."""
    seen = []
    real = validate.reading

    def counted(text):
        seen.append(text)
        return real(text)

    monkeypatch.setattr(validate, "reading", counted)
    return seen


def student_in(runtime, activity):
    """A room with ``activity`` open and one student in it: (code, student, activity id)."""
    room, key = runtime.start_room()
    me = student_id()
    runtime.join(room.code, me, "Ana")
    row = runtime.open(room.code, key, activity)
    return room.code, me, row.id


def test_a_typed_estimate_is_read_once_and_its_note_comes_from_that_reading(runtime, readings):
    code, me, activity = student_in(runtime, PREDICT)
    outcome = runtime.answer(code, me, Submission(activity, ((0, "0,62"),)))
    assert outcome.ok and readings == ["0,62"]
    [entry] = outcome.stored
    assert (entry.value, entry.value.typed) == (0.62, "0,62")
    assert entry.note is not None and (entry.note.code, entry.note.fields["meant"]) == ("answer.comma_read", "0.62")


def test_a_changed_estimate_decodes_not_the_one_it_replaces(runtime, readings):
    code, me, activity = student_in(runtime, PREDICT)
    runtime.answer(code, me, Submission(activity, ((0, "0,62"),)))
    outcome = runtime.answer(code, me, Submission(activity, ((0, "0.7"),)))
    assert outcome.ok and readings == ["0,62", "0.7"]  # one reading each, the first not read again
    assert outcome.mine == {0: 0.7} and outcome.mine[0].typed == "0.7"


def test_a_practice_number_is_read_once_and_the_other_exercise_kept_is_decoded_once(runtime, readings):
    assert all(ex.kind in NUMERIC for ex in PRACTICE.exercises())
    code, me, activity = student_in(runtime, PRACTICE)
    first = runtime.answer(code, me, Submission(activity, ((0, "1,5"), (1, "0.5"))))
    assert first.ok and readings == ["1,5", "0.5"]
    assert [e.note is not None for e in first.stored] == [True, False]  # "read 1,5 as 1.5" said for the first
    readings.clear()
    again = runtime.answer(code, me, Submission(activity, ((1, "0,25"),)))
    # The new number read once; of the earlier answers only part 0's (kept, not resent) is decoded, by
    # ``Practice.answer_from_json``, which reads no number.
    assert again.ok and readings == ["0,25"]
    assert {part: value.answer for part, value in again.mine.items()} == {0: "1,5", 1: "0,25"}


def test_the_store_decodes_nothing_of_a_first_answer_checked_already(runtime, monkeypatch):
    code, me, activity = student_in(runtime, PREDICT)
    decoded = []
    counted = SimpleNamespace(dumps=json.dumps, loads=lambda text: decoded.append(text) or json.loads(text))
    monkeypatch.setattr(answers_module, "json", counted)  # the answers' repository's own JSON
    outcome = runtime.answer(code, me, Submission(activity, ((0, "0.5"),)))
    assert outcome.ok and outcome.mine == {0: 0.5}
    assert decoded == []  # neither the activity's payload under the lock nor an earlier answer: there is none


def test_a_row_s_activity_is_decoded_at_its_first_call_and_kept(tmp_path):
    """A room read once is shared by a process's cards and answers: its activity's payload is decoded once."""
    store = Classroom(f"sqlite:///{tmp_path / 'classroom.sqlite3'}", clock=Clock())
    try:
        room, key = store.rooms.create()
        row = store.rooms.open_activity(room.code, key, PREDICT)
        first = row.activity()
        assert first == PREDICT and row.activity() is first
    finally:
        store.close()
