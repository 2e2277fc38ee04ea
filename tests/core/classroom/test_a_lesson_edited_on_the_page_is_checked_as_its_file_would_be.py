"""A lesson whose activities the teacher adds, removes or reorders on the page (``lessons.with_steps``) is checked
as a file's would be: at least one activity and at most ``MAX_ACTIVITIES`` (both limits inclusive), refused with
the same codes and fields; everything but its activities stays as it was."""

from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lesson_fields import Wording
from ndcg_core.classroom.lessons import MAX_ACTIVITIES, Lesson, Step, with_steps
from support import error_of

FIRST = Step(Predict(activity_list(("a", "b"), (3, 0), 2)), Wording(en="First?"))
OTHER = Step(Predict(activity_list(("c", "d", "e"), (0, 1, 2), 3)), time_limit=30, points=50)
LESSON = Lesson("A lesson", (FIRST,), scores=True, scale=Scale(1, 3))


def test_the_same_lesson_with_other_activities_keeps_its_title_scores_and_scale():
    changed = with_steps(LESSON, [OTHER, FIRST])
    assert changed == Lesson("A lesson", (OTHER, FIRST), scores=True, scale=Scale(1, 3))
    assert type(changed.steps) is tuple
    assert LESSON.steps == (FIRST,)  # the lesson given is left as it was


def test_as_many_activities_as_a_file_may_have_and_no_more():
    assert with_steps(LESSON, [OTHER] * MAX_ACTIVITIES).steps == (OTHER,) * MAX_ACTIVITIES
    error = error_of(with_steps, LESSON, [OTHER] * (MAX_ACTIVITIES + 1))
    assert (error.code, error.fields) == ("lesson.too_many", {"count": MAX_ACTIVITIES + 1, "limit": MAX_ACTIVITIES})
    assert str(error) == f"the lesson has {MAX_ACTIVITIES + 1} activities; at most {MAX_ACTIVITIES} fit"


def test_a_lesson_left_with_no_activity_is_refused():
    error = error_of(with_steps, LESSON, [])
    assert (error.code, error.fields) == ("lesson.no_activities", {})
    assert with_steps(LESSON, [OTHER]).steps == (OTHER,)
