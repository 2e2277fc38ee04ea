"""Lessons (``ndcg_core.classroom.storage.lessons``), on SQLite and on PostgreSQL: a saved lesson's code, a room
running a lesson step by step and back, its results, its time limits; a lesson a room takes is read once and kept
as its steps' rows (Next and the live panels' progress never parse it again), and a room of a version-1 database,
whose lesson was kept as TOML text, runs on after the migrations to version 3 (the migration from version 2:
``tests/core/classroom/test_a_step_s_wording_time_limit_and_points_are_columns.py``)."""

import tomllib

import sqlalchemy as sa
from storage_support import as_version_2, fields, student_id

from ndcg_core.classroom.kinds.compare import PAIRS, Compare
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import Rank
from ndcg_core.classroom.lessons import Lesson, Step, Wording, lesson_to_toml
from ndcg_core.classroom.storage import SCHEMA_VERSION, Classroom
from ndcg_core.errors import Place
from support import error_of


def _lesson(title="A lesson", limit=None):
    spec = activity_list(("a", "b", "c"), (0, 3, 1), 3)
    return Lesson(
        title,
        (
            Step(Predict(spec), Wording("Guess it.", "猜一猜。"), limit),
            Step(Rank(spec, "")),
            Step(Compare(PAIRS["seed003"], "mrr")),
        ),
    )


def test_a_saved_lesson_keeps_its_code_and_comes_back_whole(make, clock):
    store = make()
    code = store.lessons.save(_lesson())
    assert store.lessons.save(_lesson()) == code != store.lessons.save(_lesson("Another"))
    assert store.lessons.load(code.lower()) == _lesson()
    clock.now += 400 * 86400  # saved lessons outlive rooms and short links
    store.rooms.purge()
    assert store.lessons.load(code) == _lesson()
    assert fields(error_of(store.lessons.load, "K7P3QX")) == ("lesson.unknown", {"code": "K7P3QX"})
    assert error_of(store.lessons.load, "K7").code == "room.code_length"
    assert error_of(store.lessons.load, "K7").fields["place"] == Place("lesson.code")


def test_a_room_runs_a_lesson_step_by_step_and_back(make):
    store = make()
    room, key = store.rooms.create()
    assert store.lessons.progress(room.code) is None
    assert error_of(store.lessons.step, room.code, key, 0).code == "room.no_lesson"
    store.lessons.use(room.code, key, _lesson())
    progress = store.lessons.progress(room.code)
    assert (progress.step, progress.opened, progress.count) == (-1, 0, 3)
    first = store.lessons.step(room.code, key, 0)
    assert first.kind == "predict" and first.question.get("zh") == "猜一猜。" and first.time_limit is None
    second = store.lessons.step(room.code, key, 1)
    assert second.kind == "rank" and second.number == 2 and second.question.get("en") == ""
    me = student_id()
    store.students.join(room.code, me)
    store.answers.submit(room.code, me, second.id, [(0, [1, 2, 0])])
    back = store.lessons.step(room.code, key, 0)  # Back: the same activity, not a new one
    assert back.id == first.id and store.rooms.get(room.code).current.id == first.id
    again = store.lessons.step(room.code, key, 1)  # Next again: the rank with its answer
    assert again.id == second.id and store.answers.of_student(second.id, me) == {0: [1, 2, 0]}
    assert store.rooms.get(room.code).activities == 2
    progress = store.lessons.progress(room.code)
    assert (progress.step, progress.opened) == (1, 2)
    for bad in (3, -1, True, "1"):
        assert fields(error_of(store.lessons.step, room.code, key, bad)) == (
            "room.lesson_step",
            {"value": repr(bad), "count": 3},
        )
    assert error_of(store.lessons.step, room.code, "forged", 2).code == "room.bad_key"


def test_going_to_the_step_shown_changes_nothing(make):
    store = make()
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, _lesson())
    first = store.lessons.step(room.code, key, 0)
    revision = store.rooms.revision(room.code)
    assert store.lessons.step(room.code, key, 0) == first  # a second click, or a retry after a lost commit
    assert store.rooms.revision(room.code) == revision and store.rooms.get(room.code).activities == 1


def test_a_lessons_results_are_the_rooms_results(make):
    store = make()
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, _lesson())
    me = student_id()
    store.students.join(room.code, me)
    for step in range(3):
        row = store.lessons.step(room.code, key, step)
        store.answers.submit(room.code, me, row.id, [(0, {0: "0.5", 1: [1, 2, 0], 2: "same"}[step])])
    results = store.answers.results(room.code)
    assert [r.kind for r in results.activities] == ["predict", "rank", "compare"]
    assert [r.rows[0].right for r in results.activities] == [False, True, True]


def test_answers_close_when_the_time_limit_runs_out(make, clock):
    store = make()
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, _lesson(limit=30))
    me = student_id()
    store.students.join(room.code, me)
    row = store.lessons.step(room.code, key, 0)
    assert row.time_limit == 30 and row.closes_at == row.opened_at + 30
    clock.now += 30.5  # within the grace for an answer sent as the countdown reaches zero
    store.answers.submit(room.code, me, row.id, [(0, "0.5")])
    clock.now += 0.5  # the grace's last instant (30 + 1 s): still taken
    store.answers.submit(room.code, me, row.id, [(0, "0.6")])
    clock.now += 0.5
    assert error_of(store.answers.submit, room.code, me, row.id, [(0, "0.7")]).code == "room.time_up"
    assert store.answers.of_student(row.id, me) == {0: 0.6}


def test_next_and_progress_read_the_steps_rows_and_never_parse_the_lesson_again(make, monkeypatch):
    store = make()
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, _lesson(limit=30))

    def no_parsing(*args, **kwargs):
        raise AssertionError("the lesson was parsed again")

    monkeypatch.setattr(tomllib, "loads", no_parsing)  # what reading a lesson's TOML text comes down to
    progress = store.lessons.progress(room.code)
    assert (progress.title, progress.scores, progress.step, progress.count) == ("A lesson", False, -1, 3)
    first = store.lessons.step(room.code, key, 0)
    assert first.kind == "predict" and first.question == Wording("Guess it.", "猜一猜。") and first.time_limit == 30
    assert first.activity() == _lesson().steps[0].activity
    second = store.lessons.step(room.code, key, 1)
    assert second.activity() == _lesson().steps[1].activity and second.question == Wording()
    progress = store.lessons.progress(room.code)
    assert (progress.step, progress.opened) == (1, 2) and progress.shows(second) and not progress.shows(first)
    assert [(s.kind, s.time_limit) for s in progress.steps] == [("predict", 30), ("rank", None), ("compare", None)]


def as_version_1(classroom, room, lesson, step):
    """The database as version 1 of the schema kept it: the room's lesson as TOML text in ``room_lessons``, with
    the step shown (the activities its steps opened, in ``lesson_steps``, were kept the same way; their steps'
    wording and time limits inside their payloads, as version 2 kept them)."""
    as_version_2(classroom)
    with classroom.engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE lesson_run_steps"))
        conn.execute(sa.text("DROP TABLE lesson_runs"))
        conn.execute(
            sa.text(
                "CREATE TABLE room_lessons (room VARCHAR(6) PRIMARY KEY, text TEXT NOT NULL, step INTEGER NOT NULL)"
            )
        )
        conn.execute(
            sa.text("INSERT INTO room_lessons VALUES (:room, :text, :step)"),
            {"room": room, "text": lesson_to_toml(lesson), "step": step},
        )
        conn.execute(sa.text("UPDATE meta SET value = 1 WHERE name = 'schema_version'"))


def test_a_room_mid_lesson_in_a_version_1_database_runs_on_after_the_migration(url, clock):
    before = Classroom(url, clock=clock)
    room, key = before.rooms.create()
    lesson = _lesson(limit=30)
    before.lessons.use(room.code, key, lesson)
    first = before.lessons.step(room.code, key, 0)
    second = before.lessons.step(room.code, key, 1)
    before.lessons.step(room.code, key, 0)  # Back: step 0 shown, two steps opened
    as_version_1(before, room.code, lesson, 0)
    before.close()
    after = Classroom(url, clock=clock)  # the first process of the new version: it migrates
    try:
        assert after.schema_version() == SCHEMA_VERSION == 3
        assert not sa.inspect(after.engine).has_table("room_lessons")
        progress = after.lessons.progress(room.code)
        assert (progress.title, progress.step, progress.opened, progress.count) == ("A lesson", 0, 2, 3)
        assert progress.shows(after.rooms.get(room.code).current)  # the step's activity, opened before
        assert after.lessons.step(room.code, key, 1).id == second.id  # Next shows what step 1 opened
        third = after.lessons.step(room.code, key, 2)  # and opens the step never opened
        assert third.id not in (first.id, second.id) and third.activity() == lesson.steps[2].activity
        assert after.lessons.step(room.code, key, 0) == first  # step 0 as it was, with its wording and limit
        Classroom(url, clock=clock).close()  # a second process finds nothing left to migrate
        assert after.schema_version() == 3 and after.lessons.progress(room.code).step == 0
    finally:
        after.close()


def test_progress_shows_the_steps_activity_or_a_round_of_it_and_not_the_teachers_own(make):
    spec = activity_list(("a", "b", "c"), (0, 3, 1), 3)
    other = activity_list(("a", "b", "c"), (1, 3, 0), 3)
    store = make()
    room, key = store.rooms.create()
    store.rooms.open_activity(room.code, key, Rank(spec, ""))
    store.lessons.use(room.code, key, Lesson("Plain", (Step(Predict(spec)), Step(Predict(other), Wording("Guess.")))))
    progress = store.lessons.progress(room.code)
    assert progress.shows(store.rooms.get(room.code).current) and progress.shows(None)  # before the first step
    step = store.lessons.step(room.code, key, 0)
    progress = store.lessons.progress(room.code)
    assert progress.shows(step) and not progress.shows(None)
    assert not progress.shows(store.rooms.open_activity(room.code, key, Rank(spec, "")))  # another kind
    assert not progress.shows(store.rooms.open_activity(room.code, key, Predict(other)))  # another list
    # A step without wording or time limit of its own opens the very activity a teacher opens by hand.
    assert progress.shows(store.rooms.open_activity(room.code, key, Predict(spec)))


def test_a_step_worded_in_one_language_keeps_its_wording(make):
    spec = activity_list(("a", "b", "c"), (0, 3, 1), 3)
    store = make()
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, Lesson("One language", (Step(Predict(spec), Wording("Guess it.")),)))
    assert store.lessons.step(room.code, key, 0).question == Wording("Guess it.", "")


def test_a_version_1_database_without_lessons_is_migrated_by_its_version_alone(url, clock):
    before = Classroom(url, clock=clock)
    room, _ = before.rooms.create()
    with before.engine.begin() as conn:
        conn.execute(sa.text("UPDATE meta SET value = 1 WHERE name = 'schema_version'"))
    before.close()
    after = Classroom(url, clock=clock)
    try:
        assert after.schema_version() == SCHEMA_VERSION and after.rooms.get(room.code).code == room.code
    finally:
        after.close()
