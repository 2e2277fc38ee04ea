"""An activity's answers status, the one every screen words (``ndcg_core.classroom.service.answers_status``): its
phase, except "time_up" once an open activity's time limit has run out, by the rule the store checks an answer's
time by (``rules.seconds_left``); a phone's card reads it from the same rule, with the store's clock."""

import pytest

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.service import ClassroomService, answers_status, seconds_left
from ndcg_core.classroom.storage import PHASES, Classroom

T0 = 1_800_000_000.0
LIMIT = 30
SPEC = activity_list(("a", "b", "c"), (0, 3, 1), 3)


@pytest.mark.parametrize(
    ("phase", "left", "status"),
    [
        ("open", None, "open"),  # no time limit
        ("open", 0.001, "open"),
        ("open", 0.0, "time_up"),  # the countdown shows 0:00: no answer is taken from here on
        ("open", -0.5, "time_up"),
        ("locked", None, "locked"),
        ("locked", 10.0, "locked"),  # the teacher's lock, whatever the clock says
        ("revealed", -5.0, "revealed"),
    ],
)
def test_the_status_is_the_phase_but_an_open_activity_out_of_time_is_time_up(phase, left, status):
    assert answers_status(phase, left) == status


def test_every_phase_has_a_status():
    assert {answers_status(phase, None) for phase in PHASES} == set(PHASES)


class Clock:
    def __init__(self):
        self.now = T0

    def __call__(self):
        return self.now


def test_a_timed_activity_is_open_then_time_up_then_locked_by_the_stores_clock(tmp_path):
    clock = Clock()
    store = Classroom(f"sqlite:///{tmp_path / 'classroom.sqlite3'}", clock=clock)
    made, key = store.rooms.create()
    me = rules.new_student_id()
    store.students.join(made.code, me)
    store.lessons.use(made.code, key, Lesson("Timed", (Step(Predict(SPEC), time_limit=LIMIT),)))
    row = store.lessons.step(made.code, key, 0)
    service = ClassroomService(store)

    def seen():
        """The status a phone's card has and the one the teacher's screens compute from the activity as read."""
        current = store.rooms.get(made.code).current
        return service.card(made.code, me).status, answers_status(current.phase, seconds_left(current, clock.now))

    assert seen() == ("open", "open")
    clock.now = row.opened_at + LIMIT - 0.25
    assert seen() == ("open", "open")
    clock.now = row.opened_at + LIMIT  # the limit reached: the phase in the store still says open
    assert store.rooms.get(made.code).current.phase == "open"
    assert seen() == ("time_up", "time_up") and service.card(made.code, me).time_up
    store.rooms.set_phase(made.code, key, "locked")
    assert seen() == ("locked", "locked") and not service.card(made.code, me).time_up
    store.close()
