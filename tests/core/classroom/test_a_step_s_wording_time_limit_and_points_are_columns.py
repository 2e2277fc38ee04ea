"""A lesson step's own wording, time limit and points are columns of their own (issue 49), in the step's row
(``lesson_run_steps``) and in the row of the activity it opens (``activities``), on SQLite and on PostgreSQL: the
activity's payload is the activity's alone. A version-2 database, which kept them inside the activity's payload under
a ``"lesson"`` key, is migrated once by the first process of version 3, and a room in the middle of its lesson runs
on: its rounds, its time limit, its points and its place in the plan as they were. Answers stored under the
activity's lock read its time limit from its column, decoding no payload."""

import json

import sqlalchemy as sa
from storage_support import OWN_COLUMNS, as_version_2, student_id, table

from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import Rank
from ndcg_core.classroom.lessons import Lesson, Step, Wording
from ndcg_core.classroom.storage import SCHEMA_VERSION, Classroom
from ndcg_core.classroom.storage.answers import Sending
from ndcg_core.errors import InputError
from support import error_of

SPEC = activity_list(("a", "b", "c"), (0, 3, 1), 3)
LESSON = Lesson(
    "Columns",
    (
        Step(Predict(SPEC), Wording("Guess it.", "猜一猜。"), 30, 300),
        Step(Rank(SPEC, ""), points=50),
        Step(Predict(SPEC)),
    ),
    scores=True,
)


def ordered(store, name):
    """A table's rows in order (activities by id, a lesson's steps by step): PostgreSQL returns updated rows last."""
    return sorted(table(store, name), key=lambda row: row.get("id", row.get("step")))


def own(row):
    return tuple(row[name] for name in OWN_COLUMNS)


def test_a_step_s_settings_are_columns_of_its_row_and_of_the_activity_it_opens(make):
    store = make()
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, LESSON)
    steps = ordered(store, "lesson_run_steps")
    assert [own(s) for s in steps] == [("Guess it.", "猜一猜。", 30, 300), ("", "", None, 50), ("", "", None, None)]
    assert [json.loads(s["payload"]) for s in steps] == [s.activity.payload() for s in LESSON.steps]
    first = store.lessons.step(room.code, key, 0)
    store.rooms.open_activity(room.code, key, Predict(SPEC))  # the teacher's own: the same list, no settings
    rows = ordered(store, "activities")
    assert [own(r) for r in rows] == [("Guess it.", "猜一猜。", 30, 300), ("", "", None, None)]
    assert [json.loads(r["payload"]) for r in rows] == [Predict(SPEC).payload()] * 2  # the activity's alone
    assert (first.question, first.time_limit, first.points) == (Wording("Guess it.", "猜一猜。"), 30, 300)
    # The same list without the step's settings is another activity, not a round of the step's.
    assert [(a.number, a.round) for a in store.rooms.activity_list(room.code)] == [(1, 1), (4, 1)]


def test_a_round_run_again_keeps_its_step_s_settings(make, clock):
    store = make()
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, LESSON)
    store.lessons.step(room.code, key, 0)
    store.rooms.set_phase(room.code, key, "revealed")
    clock.now += 100
    again = store.rooms.run_again(room.code, key)
    assert (again.number, again.round, again.question.en, again.time_limit, again.points) == (
        1,
        2,
        "Guess it.",
        30,
        300,
    )
    assert again.closes_at == clock.now + 30
    assert store.lessons.progress(room.code).shows(again)


def test_a_room_mid_lesson_in_a_version_2_database_runs_on_after_the_migration(url, clock):
    before = Classroom(url, clock=clock)
    room, key = before.rooms.create()
    before.lessons.use(room.code, key, LESSON)
    me = student_id()
    before.students.join(room.code, me)
    first = before.lessons.step(room.code, key, 0)
    before.answers.submit(room.code, me, first.id, [(0, f"{Predict(SPEC).truth():.6f}")])  # exact: all its worth
    before.rooms.set_phase(room.code, key, "revealed")
    again = before.rooms.run_again(room.code, key)  # round 2 of step 1, open, its clock running
    as_version_2(before)
    with before.engine.connect() as conn:
        payloads = [
            json.loads(p) for p in conn.execute(sa.text("SELECT payload FROM activities ORDER BY id")).scalars()
        ]
    kept = {"points": 300, "question": {"en": "Guess it.", "zh": "猜一猜。"}, "time_limit": 30}
    assert [p["lesson"] for p in payloads] == [kept, kept]
    before.close()

    after = Classroom(url, clock=clock)  # the first process of version 3: it migrates
    try:
        assert after.schema_version() == SCHEMA_VERSION == 3
        rows = ordered(after, "activities")
        assert [own(r) for r in rows] == [("Guess it.", "猜一猜。", 30, 300)] * 2
        assert [json.loads(r["payload"]) for r in rows] == [Predict(SPEC).payload()] * 2
        assert [own(s) for s in ordered(after, "lesson_run_steps")] == [
            ("Guess it.", "猜一猜。", 30, 300),
            ("", "", None, 50),
            ("", "", None, None),
        ]
        current = after.rooms.get(room.code).current
        assert (current.id, current.number, current.round, current.time_limit) == (again.id, 1, 2, 30)
        assert after.lessons.progress(room.code).shows(current)  # still the plan's step, in its second round
        assert after.answers.results(room.code).activities[0].rows[0].points == 300  # the step's worth, not POINTS
        clock.now += 31 + 30
        assert error_of(after.answers.submit, room.code, me, again.id, [(0, "0.5")]).code == "room.time_up"
        second = after.lessons.step(room.code, key, 1)  # Next opens the step the old version never opened
        assert (second.number, second.points, second.time_limit) == (2, 50, None)
        assert after.lessons.step(room.code, key, 0) == current  # Back shows step 1 as it was left
        Classroom(url, clock=clock).close()  # a second process finds nothing left to migrate
        assert after.schema_version() == 3 and [own(r) for r in ordered(after, "activities")][:2] == [own(rows[0])] * 2
    finally:
        after.close()


def test_a_version_2_activity_of_the_teacher_s_own_keeps_its_payload(url, clock):
    before = Classroom(url, clock=clock)
    room, key = before.rooms.create()
    mine = Predict(activity_list(("lesson", "b"), (0, 1), 2))  # an item named like the old key: data, not settings
    before.rooms.open_activity(room.code, key, mine)
    as_version_2(before)
    before.close()
    after = Classroom(url, clock=clock)
    try:
        [row] = ordered(after, "activities")
        assert own(row) == ("", "", None, None) and json.loads(row["payload"]) == mine.payload()
        assert after.rooms.get(room.code).current.activity() == mine
    finally:
        after.close()


def test_each_room_s_step_settings_and_a_wording_in_one_language_migrate_as_they_were(url, clock):
    """Two rooms with their own lessons (the same step numbers, other points and wordings, one of English only and
    one of Chinese only: version 2 kept only the languages written) each keep their own after the migration."""
    before = Classroom(url, clock=clock)
    plans = {
        "A": Lesson("A", (Step(Predict(SPEC), Wording("Guess it.", ""), None, 40), Step(Rank(SPEC, ""), points=50))),
        "B": Lesson("B", (Step(Predict(SPEC), Wording("", "猜一猜。"), 20, 60), Step(Rank(SPEC, ""), points=70))),
    }
    codes = {}
    for name, lesson in plans.items():
        room, key = before.rooms.create()
        before.lessons.use(room.code, key, Lesson(lesson.title, lesson.steps, scores=True))
        before.lessons.step(room.code, key, 0)
        codes[room.code] = name
    as_version_2(before)
    before.close()
    after = Classroom(url, clock=clock)
    try:
        opened = {codes[row["room"]]: own(row) for row in table(after, "activities")}
        assert opened == {"A": ("Guess it.", "", None, 40), "B": ("", "猜一猜。", 20, 60)}
        planned = {(codes[row["room"]], row["step"]): own(row) for row in table(after, "lesson_run_steps")}
        assert planned == {
            ("A", 0): ("Guess it.", "", None, 40),
            ("A", 1): ("", "", None, 50),
            ("B", 0): ("", "猜一猜。", 20, 60),
            ("B", 1): ("", "", None, 70),
        }
    finally:
        after.close()


def columns(store):
    """The columns of the tables version 3 changed, as the database declares them: name, type, null, default (on
    SQLite the type as written, which SQLAlchemy's reading would turn into its affinity)."""
    with store.engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            described = {
                name: [(c[1], c[2], not c[3], c[4]) for c in conn.exec_driver_sql(f"PRAGMA table_info({name})")]
                for name in ("activities", "lesson_run_steps")
            }
        else:
            seen = sa.inspect(conn)
            described = {
                name: [(c["name"], str(c["type"]), c["nullable"], c["default"]) for c in seen.get_columns(name)]
                for name in ("activities", "lesson_run_steps")
            }
    return {name: sorted(found) for name, found in described.items()}


def test_a_migrated_database_has_the_columns_a_new_one_has(url, clock):
    store = Classroom(url, clock=clock)
    new = columns(store)
    as_version_2(store)
    assert columns(store) != new  # the columns version 3 added are gone
    store.close()
    after = Classroom(url, clock=clock)
    try:
        assert columns(after) == new
    finally:
        after.close()


def test_answers_under_the_lock_read_the_time_limit_from_its_column_and_decode_no_payload(make, clock, monkeypatch):
    store = make()
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, LESSON)
    me = student_id()
    store.students.join(room.code, me)
    row = store.lessons.step(room.code, key, 0)
    typed = row.activity().check("0.5")
    decoded = []
    real = json.loads

    def loads(text, *args, **kwargs):
        decoded.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(json, "loads", loads)
    assert store.answers.submit_many([Sending(room.code, me, row.id, ((0, typed),))]) == [{0: typed}]
    clock.now += 30 + 31  # the step's 30 s and more than the grace
    [late] = store.answers.submit_many([Sending(room.code, me, row.id, ((0, typed),))])
    assert isinstance(late, InputError) and late.code == "room.time_up"
    assert decoded == []  # neither the activity's payload (for its time limit) nor the answer kept
