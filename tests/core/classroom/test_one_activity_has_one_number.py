"""One activity, one number (issue 45): a round run again ("Vote again") is a round of its activity and keeps its
number; a lesson's step is activity n of the lesson's m; an activity of the teacher's own takes a number no step
has. ``numbering.numbered`` decides it, and the store gives every activity it reads (the current one, the list, the
results and the summary) that number, on SQLite and PostgreSQL."""

import json

from storage_support import student_id

from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.practice import practice_activity
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.numbering import Numbered, Opened, numbered


def opened(*rows):
    return [Opened(i, kind, json.dumps(payload), step) for i, (kind, payload, step) in enumerate(rows, start=1)]


def test_a_round_run_again_keeps_its_activity_s_number():
    a, b = {"list": "a"}, {"list": "b"}
    rooms = opened(("predict", a, None), ("predict", a, None), ("compare", b, None), ("predict", a, None))
    assert numbered(rooms) == {1: Numbered(1, 1), 2: Numbered(1, 2), 3: Numbered(2, 1), 4: Numbered(1, 3)}


def test_a_lesson_s_steps_are_n_of_m_and_the_teacher_s_own_activity_takes_a_number_no_step_has():
    one, two, three, own = {"s": 1}, {"s": 2}, {"s": 3}, {"s": "own"}
    rows = opened(
        ("predict", one, 0),
        ("predict", two, 1),
        ("predict", two, None),  # "Vote again" on step 2
        ("compare", own, None),  # off the plan: after the lesson's 5, whatever was opened so far
        ("rank", three, 2),
        ("compare", own, None),  # the teacher's own, run again
    )
    assert numbered(rows, steps=5) == {
        1: Numbered(1, 1, 5),
        2: Numbered(2, 1, 5),
        3: Numbered(2, 2, 5),
        4: Numbered(5 + 1, 1, None),
        5: Numbered(3, 1, 5),
        6: Numbered(5 + 1, 2, None),
    }


def five_activities():
    return Lesson(
        "Five",
        (
            Step(Predict(preset_list("five"))),
            Step(Predict(preset_list("chengdu_trip"))),
            Step(compare_activity("seed003", "ndcg")),
            Step(practice_activity(2026, 3)),
            Step(compare_activity("seed003", "mrr")),
        ),
    )


def test_vote_again_in_a_five_activity_lesson_is_activity_2_of_5_round_2_everywhere(make):
    store = make()
    room, key = store.rooms.create()
    code = room.code
    store.lessons.use(code, key, five_activities())
    me = student_id()
    store.students.join(code, me, "Ana")
    store.lessons.step(code, key, 0)
    second = store.lessons.step(code, key, 1)
    store.answers.submit(code, me, second.id, [(0, 0.5)])
    store.rooms.set_phase(code, key, "locked")
    again = store.rooms.run_again(code, key)
    assert (second.numbered, again.numbered) == (Numbered(2, 1, 5), Numbered(2, 2, 5))
    assert store.rooms.get(code).current.numbered == Numbered(2, 2, 5)  # the control page's, projector's, phone's
    assert store.rooms.earlier_round(code, again).id == second.id
    store.answers.submit(code, me, again.id, [(0, 0.6)])
    for step in (2, 3, 4):  # the rest of the lesson, through to its fifth activity
        store.lessons.step(code, key, step)
    rows = [a.numbered for a in store.rooms.activity_list(code)]
    assert rows == [Numbered(1, 1, 5), Numbered(2, 1, 5), Numbered(2, 2, 5), *(Numbered(n, 1, 5) for n in (3, 4, 5))]
    results = store.answers.results(code).activities
    assert [r.numbered for r in results] == rows  # the CSV's numbers
    assert [o.numbered for o in store.answers.class_summary(code)] == rows  # the summary's
    assert max(r.number for r in results) == 5  # never "Activity 6" in a five-activity lesson
