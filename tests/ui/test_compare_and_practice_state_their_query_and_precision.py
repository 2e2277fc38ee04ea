"""Which is better? states the query its two rankings answer, and Practice together the precision it checks, on the
phones and on the projector, which also shows each exercise's list for the class to discuss (AppTest, SQLite and
PostgreSQL)."""

import pytest
from test_classroom_page import button, join, open_activity, session, start_room, texts

from ndcg_core.classroom.kinds.compare import PAIRS, Compare
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.storage import Classroom
from ndcg_core.errors import number_text
from ndcg_core.teaching.exercises import TOLERANCE


@pytest.fixture
def data_dir(classroom_db):
    return classroom_db


def projector(teacher, code):
    screen = session(room=code, view="screen")
    screen.session_state["classroom"].key = teacher.session_state["classroom"].key  # as the browser's memory does
    screen.run()
    assert not screen.exception, screen.exception
    return screen


def test_compare_shows_its_query_on_the_phone_and_the_projector(data_dir):
    query = "成都旅游攻略"  # the seed's search both systems answer, as a lesson names it
    store = Classroom(data_dir)
    saved = store.lessons.save(Lesson("A pair", (Step(Compare(PAIRS["seed003"], "ndcg", "", query)),)))
    store.close()
    teacher = session(lesson=saved)
    button(teacher, "btn_cr_lesson_start").click().run()
    code = teacher.session_state["classroom"].room
    bo = join(code, "Bo")
    button(teacher, "btn_cr_lesson_next").click().run()
    assert not teacher.exception, teacher.exception
    assert f"Query: {query}" in texts(teacher)
    assert f"Query: {query}" in texts(bo.run())
    assert f"Query: {query}" in texts(projector(teacher, code))


def test_practice_states_its_precision_and_the_projector_shows_each_exercises_list(data_dir):
    teacher, code = start_room(data_dir)
    bo = join(code, "Bo")
    open_activity(teacher, "practice", _w_cr_practice_seed=2026, _w_cr_practice_count=3)
    within = f"within {number_text(TOLERANCE)} of the answer"
    assert within in texts(bo.run())
    screen = projector(teacher, code)
    assert within in texts(screen)
    store = Classroom(data_dir)
    exercises = store.rooms.get(code).current.activity().exercises()
    store.close()
    for number, ex in enumerate(exercises, start=1):
        assert f"Exercise {number}: " in texts(screen)
        assert ", ".join(str(g) for g in ex.data["grades"]) in texts(screen)
