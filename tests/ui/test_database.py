"""``ui.database``: the per-process caches of a room's revision and of the room at that revision."""

import pytest

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.lists import random_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.storage import Classroom, database_url
from ndcg_core.classroom.storage.answers import Answers
from ndcg_core.classroom.storage.rooms import Rooms
from ndcg_core.errors import InputError

STUDENT = rules.new_student_id()


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    return tmp_path


def test_a_phone_sees_the_room_as_it_is_after_each_teacher_action(data_dir, monkeypatch):
    from ui import database

    clock = [1000.0]
    monkeypatch.setattr(database.time, "monotonic", lambda: clock[0])
    store = Classroom(database_url())
    room, key = store.rooms.create()
    assert database.room_now(room.code).current is None
    first = store.rooms.open_activity(room.code, key, Predict(random_list(1)))
    assert database.room_now(room.code).current is None  # within REVISION_TTL: the revision read is reused
    clock[0] += database.REVISION_TTL + 0.01
    assert database.room_now(room.code).current == first  # the new revision, read once
    store.rooms.set_phase(room.code, key, "locked")
    database.room_changed(room.code)  # the teacher's page on this process: no wait at all
    assert database.room_now(room.code).current.phase == "locked"
    store.rooms.end(room.code, key)
    database.room_changed(room.code)
    assert database.room_now(room.code).ended
    store.close()


def test_a_room_read_at_one_revision_is_shared_until_the_next(data_dir, monkeypatch):
    from ui import database

    store = Classroom(database_url())
    room, key = store.rooms.create()
    reads = []
    real = Rooms.get
    monkeypatch.setattr(Rooms, "get", lambda self, code: reads.append(code) or real(self, code))
    for _ in range(5):
        database.room_now(room.code)
    assert len(reads) == 1
    store.rooms.open_activity(room.code, key, Predict(random_list(1)))
    database.room_changed(room.code)
    database.room_now(room.code)
    assert len(reads) == 2
    store.close()


def test_a_class_woken_at_once_reads_the_new_revision_and_the_room_once(data_dir, monkeypatch):
    """40 threads (the phones' thread pool) miss the cache together after a change: one read each, not forty."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from ui import database

    store = Classroom(database_url())
    room, key = store.rooms.create()
    store.rooms.open_activity(room.code, key, Predict(random_list(1)))
    database.room_changed(room.code)
    now = store.rooms.get(room.code).revision
    revisions, rooms = [], []
    real_revision, real_get = Rooms.revision, Rooms.get
    start = threading.Barrier(40)

    def slow(reads, real):
        def read(self, code):
            reads.append(code)
            time.sleep(0.05)  # a read that takes a while: the other threads arrive meanwhile
            return real(self, code)

        return read

    # A slow machine must not let the revision read go stale before every thread has looked (one read per TTL).
    monkeypatch.setattr(database, "REVISION_TTL", 60.0)
    monkeypatch.setattr(Rooms, "revision", slow(revisions, real_revision))
    monkeypatch.setattr(Rooms, "get", slow(rooms, real_get))

    def phone(_):
        start.wait()
        return database.room_now(room.code)

    with ThreadPoolExecutor(40) as pool:
        seen = list(pool.map(phone, range(40)))
    assert {r.revision for r in seen} == {now}
    assert (len(revisions), len(rooms)) == (1, 1)
    store.close()


def test_a_room_that_is_gone_is_an_input_error(data_dir):
    from ui import database

    with pytest.raises(InputError) as err:
        database.room_now("ABCDEF")
    assert err.value.code == "room.unknown"


def test_a_class_seeing_an_activity_reads_its_answers_once_per_moment(data_dir, monkeypatch):
    from ui import database

    clock = [2000.0]
    monkeypatch.setattr(database.time, "monotonic", lambda: clock[0])
    store = Classroom(database_url())
    room, key = store.rooms.create()
    ann = store.students.join(room.code, STUDENT, "Ann").id
    activity = store.rooms.open_activity(room.code, key, Predict(random_list(1)))
    reads, own = [], []
    real, real_own = Answers.by_student, Answers.of_student
    monkeypatch.setattr(Answers, "by_student", lambda self, a: reads.append(a) or real(self, a))
    monkeypatch.setattr(Answers, "of_student", lambda self, a, s: own.append(s) or real_own(self, a, s))
    for _ in range(30):  # a class of 30 woken at once
        database.read_answers(room.code, activity.id)
    assert [database.answers_of(room.code, activity.id, f"someone-{i}") for i in range(30)] == [{}] * 30
    assert (reads, own) == ([activity.id], [])
    store.answers.submit(room.code, ann, activity.id, [(0, "0.5")])  # through another process: this one is not told
    database.read_answers(room.code, activity.id)
    assert database.answers_of(room.code, activity.id, ann) == {}  # the read is reused within ANSWERS_TTL
    clock[0] += database.ANSWERS_TTL + 0.01
    assert database.answers_of(room.code, activity.id, ann) == {0: 0.5}  # not at hand: Ann's own, read alone
    assert (reads, own) == ([activity.id], [ann])
    database.read_answers(room.code, activity.id)
    assert database.answers_of(room.code, activity.id, ann) == {0: 0.5}
    assert database.answers_of(room.code, activity.id, "someone-else") == {}
    assert (reads, own) == ([activity.id, activity.id], [ann])
    store.close()


def test_an_answer_heard_of_is_read_at_the_next_card(data_dir, monkeypatch):
    from ui import database

    clock = [3000.0]
    monkeypatch.setattr(database.time, "monotonic", lambda: clock[0])
    store = Classroom(database_url())
    room, key = store.rooms.create()
    ann = store.students.join(room.code, STUDENT, "Ann").id
    activity = store.rooms.open_activity(room.code, key, Predict(random_list(2)))
    database.read_answers(room.code, activity.id)
    assert database.answers_of(room.code, activity.id, ann) == {}
    store.answers.submit(room.code, ann, activity.id, [(0, "0.25")])
    database.answer_stored(room.code, activity.id)  # stored through this process, or a notice from another
    assert database.answers_of(room.code, activity.id, ann) == {0: 0.25}
    database.read_answers(room.code, activity.id)
    assert database.answers_of(room.code, activity.id, ann) == {0: 0.25}
    store.close()


def test_a_read_overtaken_by_an_answer_is_not_kept(data_dir, monkeypatch):
    """An answer heard of while the class's answers were being read may be missing from that read: it is not kept,
    rather than show the student no answer for a moment."""
    from ui import database

    store = Classroom(database_url())
    room, key = store.rooms.create()
    ann = store.students.join(room.code, STUDENT, "Ann").id
    activity = store.rooms.open_activity(room.code, key, Predict(random_list(2)))
    real = Answers.by_student

    def overtaken(self, activity_id):
        read = real(self, activity_id)  # the read's snapshot: before Ann's answer
        store.answers.submit(room.code, ann, activity.id, [(0, "0.75")])
        database.answer_stored(room.code, activity.id)
        return read

    monkeypatch.setattr(Answers, "by_student", overtaken)
    database.read_answers(room.code, activity.id)
    assert database.answers_of(room.code, activity.id, ann) == {0: 0.75}
    store.close()


def test_an_answer_heard_of_with_whose_leaves_the_class_read_for_everyone_else(data_dir, monkeypatch):
    """A class answering during an opening: each answer's notice says whose, so only that student's answers are
    read again; the class's one read still serves every other card (not one read of the whole class per answer)."""
    from ui import database

    clock = [4000.0]
    monkeypatch.setattr(database.time, "monotonic", lambda: clock[0])
    store = Classroom(database_url())
    room, key = store.rooms.create()
    ann = store.students.join(room.code, STUDENT, "Ann").id
    bo = store.students.join(room.code, rules.new_student_id(), "Bo").id
    activity = store.rooms.open_activity(room.code, key, Predict(random_list(2)))
    reads, own = [], []
    real, real_own = Answers.by_student, Answers.of_student
    monkeypatch.setattr(Answers, "by_student", lambda self, a: reads.append(a) or real(self, a))
    monkeypatch.setattr(Answers, "of_student", lambda self, a, s: own.append(s) or real_own(self, a, s))
    database.read_answers(room.code, activity.id)
    clock[0] += 0.01
    store.answers.submit(room.code, ann, activity.id, [(0, "0.25")])
    database.answer_stored(room.code, activity.id, ann)  # the notice of Ann's answer
    database.read_answers(room.code, activity.id)  # the next class woken: the read is still at hand
    assert database.answers_of(room.code, activity.id, ann) == {0: 0.25}  # Ann's own, read alone
    assert database.answers_of(room.code, activity.id, bo) == {}  # from the class's read
    assert (reads, own) == ([activity.id], [ann])
    clock[0] += database.ANSWERS_TTL
    database.read_answers(room.code, activity.id)  # the read is old: read again, Ann's answer in it
    assert database.answers_of(room.code, activity.id, ann) == {0: 0.25}
    assert (reads, own) == ([activity.id, activity.id], [ann])
    store.close()
