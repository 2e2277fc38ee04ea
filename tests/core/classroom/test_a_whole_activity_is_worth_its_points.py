"""Points per activity (issue 45): a whole activity is worth ``POINTS`` unless its lesson says (``points``), however
many questions it asks, so a three-exercise Practice is not worth three Predicts; its questions share it in whole
points. A bad ``points`` is an ``InputError`` with a code and the field's place (its words in both languages:
``tests/ui/test_a_bad_points_value_is_said_in_the_reader_s_language.py``)."""

import pytest
from storage_support import student_id

from ndcg_core.classroom.kinds.base import POINTS, Answer
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.practice import ExerciseAnswer, practice_activity
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step, lesson_to_toml, outline, read_lesson
from ndcg_core.classroom.results import Taken, part_worth, room_results
from ndcg_core.errors import InputError

PRACTICE = practice_activity(2026, 3)
PREDICT = Predict(preset_list("five"))


def all_right(activity):
    """One student's answers, every one right: each exercise's own answer, or the true NDCG."""
    if activity is PREDICT:
        return (Answer(1, "Ana", 0, PREDICT.truth()),)
    return tuple(
        Answer(1, "Ana", part, ExerciseAnswer(str(ex.answer), True)) for part, ex in enumerate(PRACTICE.exercises())
    )


@pytest.mark.parametrize("worth", [0, 1, 2, 99, POINTS, 101, 250, 1000])
@pytest.mark.parametrize("parts", range(1, 11))
def test_an_activity_s_questions_share_its_worth_in_whole_points(worth, parts):
    shares = [part_worth(worth, parts, part) for part in range(parts)]
    assert sum(shares) == worth
    assert max(shares) - min(shares) <= 1


def test_by_default_a_three_exercise_practice_is_worth_one_predict():
    results = room_results(
        [Taken(1, 1, PREDICT, all_right(PREDICT), ()), Taken(2, 1, PRACTICE, all_right(PRACTICE), ())]
    )
    predict, practice = results.activities
    assert sum(r.points for r in predict.rows) == sum(r.points for r in practice.rows) == POINTS
    assert [r.points for r in practice.rows] == [34, 33, 33]  # 100 over 3, the first taking the odd point
    assert results.totals[0].points == 2 * POINTS


def test_a_lesson_sets_what_an_activity_is_worth_and_it_is_kept_through_the_file_and_the_room(make):
    text = lesson_to_toml(Lesson("Worth", (Step(PREDICT), Step(PRACTICE, points=300)), scores=True))
    assert "points = 300" in text
    lesson = read_lesson(text)
    assert [s.points for s in lesson.steps] == [None, 300]
    assert "worth 300 points" in outline(lesson)
    store = make()
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, lesson)
    me = student_id()
    store.students.join(room.code, me, "Ana")
    store.lessons.step(room.code, key, 0)
    practice = store.lessons.step(room.code, key, 1)
    assert practice.points == 300 and practice.activity() == PRACTICE
    answers = [(part, str(ex.answer)) for part, ex in enumerate(PRACTICE.exercises())]
    store.answers.submit(room.code, me, practice.id, answers)
    store.rooms.set_phase(room.code, key, "revealed")
    [_, scored] = store.answers.results(room.code).activities
    assert [r.points for r in scored.rows] == [100, 100, 100]  # 300 over three questions
    assert store.answers.results(room.code).totals[0].points == 300


LESSON = """\
format = 1
title = "t"
scores = true

[[activity]]
kind = "practice"
seed = 2026
exercises = 3
points = {points}
"""


@pytest.mark.parametrize(
    ("points", "code"), [("-1", "lesson.out_of_range"), ("1001", "lesson.out_of_range"), ("'lots'", "lesson.not_whole")]
)
def test_a_bad_points_value_is_refused_with_its_code_and_place(points, code):
    with pytest.raises(InputError) as caught:
        read_lesson(LESSON.format(points=points))
    assert caught.value.code == code
    assert caught.value.fields["place"].fields == {"number": 1, "kind": "practice", "field": "points"}
