"""At each look the watcher reads every open room (``notices.Watcher``): a room with no activity open, one whose
activity has no answer yet, one whose answers did not change and one new to the watcher are each left for the next
look without stopping the look at the rooms after them; a room's students' latest answers are kept across a look
that found other news, so a later answer is still told with whose; an activity opened and answered between two
looks names whoever answered; and exactly ``MOST_NAMED`` answers are still named one by one."""

import logging
import sqlite3
import time
from pathlib import Path

from storage_support import predict

from ndcg_core.classroom import notices, rules
from ndcg_core.classroom.notices import Hub, Notice, Watcher
from ndcg_core.classroom.storage import Classroom


class Clock:
    """Real time, moved on by hand: a room's place in the watcher's read follows when it expires."""

    def __init__(self):
        self.now = time.time()

    def __call__(self):
        return self.now


def hearing(path):
    hub = Hub()
    heard: list[Notice] = []
    hub.on_notice(heard.append)
    return Watcher(str(path), hub), heard


def answered(store, code, key, student):
    store.students.join(code, student, source="t")
    opened = store.rooms.open_activity(code, key, predict())
    store.answers.submit(code, student, opened.id, [(0, "0.5")])
    return opened


def test_no_room_the_watcher_leaves_for_its_next_look_stops_it_before_the_rooms_after(tmp_path):
    path, clock = tmp_path / "c.sqlite3", Clock()
    store = Classroom(f"sqlite:///{path}", clock=clock)
    start = clock.now
    store.rooms.create()  # no activity open
    waiting, key = store.rooms.create()
    store.rooms.open_activity(waiting.code, key, predict())  # no answer yet
    same, key = store.rooms.create()
    answered(store, same.code, key, rules.new_student_id())  # answered before the first look, not since
    clock.now = start + 60
    last, last_key = store.rooms.create()
    bo = rules.new_student_id()
    opened = answered(store, last.code, last_key, bo)
    watcher, heard = hearing(path)
    watcher.look()
    clock.now = start
    new, key = store.rooms.create()  # made after the first look: new to the watcher at the second
    answered(store, new.code, key, rules.new_student_id())
    clock.now = start + 120  # past the rate limit of answers
    store.answers.submit(last.code, bo, opened.id, [(0, "0.25")])
    with sqlite3.connect(path) as conn:  # the premise: the room with news is read last
        assert [row[0] for row in conn.execute(Watcher.ROOMS, (time.time(),))][-1] == last.code
    watcher.look()
    assert [n for n in heard if n.code == last.code] == [Notice(last.code, activity=opened.id, student=bo, looked=True)]
    assert [n for n in heard if n.code != last.code] == [Notice(new.code, revision=1)]
    watcher.close()
    store.close()


def test_a_room_s_latest_answers_are_kept_across_a_look_that_found_only_a_join(tmp_path):
    path = tmp_path / "c.sqlite3"
    store = Classroom(f"sqlite:///{path}")
    room, key = store.rooms.create()
    ana = rules.new_student_id()
    opened = answered(store, room.code, key, ana)
    watcher, heard = hearing(path)
    watcher.look()
    store.students.join(room.code, rules.new_student_id(), source="t")
    watcher.look()
    assert heard == [Notice(room.code, joined=True)]
    store.answers.submit(room.code, ana, opened.id, [(0, "0.75")])
    watcher.look()
    assert heard[1:] == [Notice(room.code, activity=opened.id, student=ana, looked=True)]
    watcher.close()
    store.close()


def test_a_look_that_found_no_news_keeps_every_student_s_latest_answer(tmp_path):
    path = tmp_path / "c.sqlite3"
    store = Classroom(f"sqlite:///{path}")
    room, key = store.rooms.create()
    ana, bo = rules.new_student_id(), rules.new_student_id()
    opened = answered(store, room.code, key, ana)
    store.students.join(room.code, bo, source="t")
    store.answers.submit(room.code, bo, opened.id, [(0, "0.25")])
    watcher, heard = hearing(path)
    watcher.look()
    store.students.join(room.code, rules.new_student_id(), source="t")
    watcher.look()  # a join, no answer: what each student last answered is kept all the same
    store.answers.submit(room.code, ana, opened.id, [(0, "0.75")])
    watcher.look()
    assert heard == [  # Bo's answer is no news
        Notice(room.code, joined=True),
        Notice(room.code, activity=opened.id, student=ana, looked=True),
    ]
    watcher.close()
    store.close()


def test_an_activity_opened_and_answered_between_two_looks_names_whoever_answered(tmp_path):
    path = tmp_path / "c.sqlite3"
    store = Classroom(f"sqlite:///{path}")
    room, key = store.rooms.create()
    watcher, heard = hearing(path)
    watcher.look()  # no activity open yet
    ana = rules.new_student_id()
    opened = answered(store, room.code, key, ana)
    watcher.look()
    assert heard == [
        Notice(room.code, revision=1),
        Notice(room.code, joined=True),
        Notice(room.code, activity=opened.id, student=ana, looked=True),
    ]
    watcher.close()
    store.close()


def test_as_many_answers_as_the_watcher_names_are_each_named(tmp_path, monkeypatch):
    monkeypatch.setattr(notices, "MOST_NAMED", 2)
    path = tmp_path / "c.sqlite3"
    store = Classroom(f"sqlite:///{path}")
    room, key = store.rooms.create()
    students = [rules.new_student_id() for _ in range(2)]
    for student in students:
        store.students.join(room.code, student, source="t")
    opened = store.rooms.open_activity(room.code, key, predict())
    watcher, heard = hearing(path)
    watcher.look()
    for student in students:
        store.answers.submit(room.code, student, opened.id, [(0, "0.5")])
    watcher.look()
    assert sorted(heard, key=str) == sorted(
        (Notice(room.code, activity=opened.id, student=s, looked=True) for s in students), key=str
    )
    watcher.close()
    store.close()


def test_a_look_that_fails_logs_the_file_and_sqlite_s_reason(tmp_path, caplog):
    path = tmp_path / "later.sqlite3"
    try:
        sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=rw", uri=True)
    except sqlite3.Error as error:
        reason = str(error)
    caplog.set_level(logging.DEBUG, logger=notices.log.name)
    watcher, _ = hearing(path)
    watcher.look()
    assert [r.getMessage() for r in caplog.records if r.name == notices.log.name] == [
        f"could not look at {path} ({reason})"
    ]
