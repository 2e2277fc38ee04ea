"""A class's answers that arrive together are stored together (``storage/group_commit.py``, ``Answers.submit_many``):
whichever thread comes first writes everything queued meanwhile in one transaction, and every caller gets its own
result or refusal, as if it had been stored alone. On SQLite and on PostgreSQL."""

import threading

import pytest
from storage_support import predict, sid, student_id, table

from ndcg_core import InputError
from ndcg_core.classroom.service import ClassroomService, Submission
from ndcg_core.classroom.storage.answers import Answers, Sending
from ndcg_core.classroom.storage.group_commit import GroupCommit
from support import wait_until


def queued(commit, count):
    """Whether ``count`` callers wait in ``commit``'s queue (besides the batch being written), within 10 s."""
    return wait_until(lambda: len(commit._queue) == count)


class Gated:
    """A writer whose batches wait at a gate until the test opens it, and which records each batch."""

    def __init__(self, fail=None):
        self.gate = threading.Event()
        self.batches = []
        self.fail = fail

    def __call__(self, items):
        self.gate.wait(10)
        self.batches.append(list(items))
        if self.fail is not None and self.fail(items):
            raise RuntimeError(f"lost {items}")
        return [ValueError(item) if item[1] == "bad" else f"stored {item[1]}" for item in items]


def start(commit, item, results):
    def send():
        try:
            results[item] = commit.submit(item)
        except Exception as err:  # noqa: BLE001 - the test looks at what each caller got
            results[item] = err

    thread = threading.Thread(target=send)
    thread.start()
    return thread


def test_a_lone_answer_is_written_at_once_in_a_batch_of_its_own():
    writer = Gated()
    writer.gate.set()
    commit = GroupCommit(writer, key=lambda item: item[0])
    got = {}
    for item in (("ana", "0.5"), ("bo", "0.7")):  # one after the other: the first lead gave the lead up
        # In a thread of its own, so that a caller left waiting fails the test instead of hanging it.
        alone = threading.Thread(target=lambda item=item: got.update({item: commit.submit(item)}), daemon=True)
        alone.start()
        alone.join(10)
        assert item in got
    assert got == {("ana", "0.5"): "stored 0.5", ("bo", "0.7"): "stored 0.7"}
    assert writer.batches == [[("ana", "0.5")], [("bo", "0.7")]]


def test_answers_queued_while_one_is_written_go_in_the_next_batch_each_back_to_its_own_caller():
    writer = Gated()
    commit = GroupCommit(writer, key=lambda item: item[0])
    results = {}
    threads = [start(commit, ("ana", "first"), results)]
    assert wait_until(lambda: commit._leading)
    for item in [("bo", "0.1"), ("ana", "0.2"), ("cy", "bad"), ("dee", "0.4"), ("bo", "0.5")]:
        threads.append(start(commit, item, results))
        assert queued(commit, len(threads) - 1)  # queued in this order, behind the batch being written
    writer.gate.set()
    for thread in threads:
        thread.join(10)
    # The same student's second answer waits for the next batch: never two of one student in one transaction.
    assert writer.batches == [
        [("ana", "first")],
        [("bo", "0.1"), ("ana", "0.2"), ("cy", "bad"), ("dee", "0.4")],
        [("bo", "0.5")],
    ]
    assert {item: str(got) for item, got in results.items()} == {
        ("ana", "first"): "stored first",
        ("bo", "0.1"): "stored 0.1",
        ("ana", "0.2"): "stored 0.2",
        ("cy", "bad"): "('cy', 'bad')",  # its own refusal, raised in its own thread only
        ("dee", "0.4"): "stored 0.4",
        ("bo", "0.5"): "stored 0.5",
    }
    assert isinstance(results[("cy", "bad")], ValueError) and not commit._leading and commit._queue == []


def test_a_batch_that_fails_fails_each_of_its_callers_and_the_next_batch_is_written():
    writer = Gated(fail=lambda items: ("bo", "0.1") in items)
    commit = GroupCommit(writer, key=lambda item: item[0], most=2)
    results = {}
    threads = [start(commit, ("ana", "first"), results)]
    assert wait_until(lambda: commit._leading)
    for item in [("bo", "0.1"), ("cy", "0.2"), ("dee", "0.3")]:
        threads.append(start(commit, item, results))
        assert queued(commit, len(threads) - 1)
    writer.gate.set()
    for thread in threads:
        thread.join(10)
    assert writer.batches == [[("ana", "first")], [("bo", "0.1"), ("cy", "0.2")], [("dee", "0.3")]]  # 2 at most
    assert results[("ana", "first")] == "stored first" and results[("dee", "0.3")] == "stored 0.3"
    for item in [("bo", "0.1"), ("cy", "0.2")]:
        assert isinstance(results[item], RuntimeError) and "lost" in str(results[item])


def test_a_writer_that_loses_an_outcome_is_an_error_for_every_caller_not_a_wrong_answer():
    commit = GroupCommit(lambda items: ["one"] * (len(items) - 1), key=lambda item: item)
    with pytest.raises(RuntimeError, match="a batch of 1 came back with 0 outcomes"):
        commit.submit("ana")


def test_a_batch_gives_each_answer_what_storing_it_alone_gives(make, clock):
    store = make(answer_burst=1, answers_per_second=0.01)
    room, key = store.rooms.create()
    for n in (1, 2, 3):
        store.students.join(room.code, sid(n))
    activity = store.rooms.open_activity(room.code, key, predict())
    store.answers.submit(room.code, sid(2), activity.id, [(0, "0.25")])  # sid(2) has spent its one token
    store.answers.submit(room.code, sid(3), activity.id, [(0, "0.75")])
    other, other_key = store.rooms.create()
    store.students.join(other.code, sid(1))
    locked = store.rooms.open_activity(other.code, other_key, predict())
    store.rooms.set_phase(other.code, other_key, "locked")
    outcomes = store.answers.submit_many(
        [
            Sending(room.code, sid(1), activity.id, ((0, 0.5),)),  # stored
            Sending(room.code, sid(2), activity.id, ((0, 0.3),)),  # no token left
            Sending(room.code, sid(3), activity.id, ((0, 0.75),)),  # stored already: no token needed
            Sending(room.code, sid(4), activity.id, ((0, 0.1),)),  # never joined
            Sending(other.code, sid(1), locked.id, ((0, 0.9),)),  # the other room's activity is locked
            Sending(room.code, sid(5), activity.id + 99, ((0, 0.1),)),  # not the current activity
        ]
    )
    codes = [o.code if isinstance(o, InputError) else o for o in outcomes]
    assert codes == [{0: 0.5}, "room.too_fast", {0: 0.75}, "room.not_joined", "room.locked", "room.not_current"]
    assert {(a.student, a.value) for a in store.answers.for_activity(activity.id)} == {(1, 0.5), (2, 0.25), (3, 0.75)}
    assert store.answers.for_activity(locked.id) == []
    tokens = {row["id"]: row["tokens"] for row in table(store, "students") if row["room"] == room.code}
    assert tokens == {sid(1): 0, sid(2): 0, sid(3): 0}  # sid(3)'s resend spent nothing


def test_a_class_answering_at_once_through_the_service_is_stored_in_fewer_transactions(make, monkeypatch):
    store = make(max_students=60, answer_burst=5)
    room, key = store.rooms.create()
    ids = [store.students.join(room.code, student_id()).id for _ in range(40)]
    row = store.rooms.open_activity(room.code, key, predict())
    writes = []
    real = Answers.submit_many
    monkeypatch.setattr(Answers, "submit_many", lambda self, batch: writes.append(len(batch)) or real(self, batch))
    service = ClassroomService(store)
    gate = threading.Barrier(len(ids))
    outcomes = {}

    def answer(n, me):
        gate.wait()
        outcomes[me] = service.submit(room.code, me, Submission(row.id, ((0, f"0.{n:02d}"),)))

    threads = [threading.Thread(target=answer, args=(n, me)) for n, me in enumerate(ids)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert all(outcomes[me].error is None and outcomes[me].mine == {0: n / 100} for n, me in enumerate(ids))
    assert sorted(a.value for a in store.answers.for_activity(row.id)) == [n / 100 for n in range(40)]
    assert sum(writes) == 40 and len(writes) < 40  # some answers shared a transaction
