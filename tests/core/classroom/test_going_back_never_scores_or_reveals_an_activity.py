"""Back and Next in a lesson that keeps scores, on SQLite and PostgreSQL (issue 45): going Back from an activity the
teacher has not revealed leaves it unrevealed and unscored (its points would tell each phone which vote was right);
points come only from a reveal; Next returns to the activity as the teacher left it (open, or locked), with its
answers, and to its latest round."""

from storage_support import student_id

from ndcg_core.classroom.kinds.base import POINTS
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.service import ClassroomService

PREDICT = Predict(preset_list("five"))
VOTE = compare_activity("seed003", "ndcg")  # under NDCG@5 the seed's pair says A
RIGHT_VOTE = VOTE.verdict("ndcg")


def scored_lesson():
    return Lesson("Scored", (Step(PREDICT), Step(VOTE), Step(Predict(preset_list("chengdu_trip")))), scores=True)


def room_with_a_vote(make):
    """A room at the lesson's second step, the vote, open and unrevealed: Ana estimated the first exactly (revealed)
    and voted right, Bo estimated nothing and voted right too."""
    store = make()
    room, key = store.rooms.create()
    code = room.code
    store.lessons.use(code, key, scored_lesson())
    ana, bo = student_id(), student_id()
    store.students.join(code, ana, "Ana")
    store.students.join(code, bo, "Bo")
    first = store.lessons.step(code, key, 0)
    store.answers.submit(code, ana, first.id, [(0, PREDICT.truth())])
    store.rooms.set_phase(code, key, "revealed")
    vote = store.lessons.step(code, key, 1)
    for student in (ana, bo):
        store.answers.submit(code, student, vote.id, [(0, RIGHT_VOTE)])
    return store, code, key, (ana, bo), (first, vote)


def points(store, code, students):
    service = ClassroomService(store)
    return [service.card(code, s).score.points for s in students]


def test_back_from_an_open_vote_scores_nothing_and_next_finds_it_open_with_its_answers(make):
    store, code, key, students, (first, vote) = room_with_a_vote(make)
    assert points(store, code, students) == [POINTS, 0]  # the open vote counts nothing yet
    back = store.lessons.step(code, key, 0)
    assert back.id == first.id
    # Before issue 45's fix, Back made the vote count: +POINTS on every phone, which told the class it was right.
    assert points(store, code, students) == [POINTS, 0]
    shown = {a.id: a.phase for a in store.rooms.activity_list(code)}
    assert shown[vote.id] == "open"  # not revealed by going Back
    [_, taken] = store.answers.results(code).activities
    assert [r.points for r in taken.rows] == [None, None] and [r.right for r in taken.rows] == [True, True]
    again = store.lessons.step(code, key, 1)
    assert (again.id, again.phase) == (vote.id, "open")  # as the teacher left it, answers still open
    assert store.answers.of_student(vote.id, students[1]) == {0: RIGHT_VOTE}
    store.rooms.set_phase(code, key, "revealed")  # the reveal, and only the reveal, brings the points
    assert points(store, code, students) == [2 * POINTS, POINTS]


def test_back_from_a_locked_vote_leaves_it_locked_and_unscored(make):
    store, code, key, students, (_, vote) = room_with_a_vote(make)
    store.rooms.set_phase(code, key, "locked")
    store.lessons.step(code, key, 0)
    assert points(store, code, students) == [POINTS, 0]
    again = store.lessons.step(code, key, 1)
    assert (again.id, again.phase) == (vote.id, "locked")
    assert store.rooms.get(code).current.phase == "locked"
    assert points(store, code, students) == [POINTS, 0]


def test_next_after_back_returns_to_the_latest_round_the_teacher_left(make):
    store, code, key, students, (_, vote) = room_with_a_vote(make)
    store.rooms.set_phase(code, key, "locked")
    round_two = store.rooms.run_again(code, key)  # "Vote again" after talking it over
    store.lessons.step(code, key, 2)
    back = store.lessons.step(code, key, 1)
    assert (back.id, back.round, back.phase) == (round_two.id, 2, "open")
    assert back.id != vote.id
    assert store.lessons.progress(code).shows(store.rooms.get(code).current)  # still on the lesson's plan
    assert points(store, code, students) == [POINTS, 0]  # neither round revealed: neither scores
