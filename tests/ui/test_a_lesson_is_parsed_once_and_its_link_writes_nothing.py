"""A lesson chosen on the Classroom page's landing (here by its saved code, ``?lesson=CODE``) is parsed once however
often the page runs again, and opening a lesson's link writes nothing to the database."""

import pytest
from test_classroom_page import session, texts

from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step, Wording
from ndcg_core.classroom.storage import Classroom, Database
from ndcg_core.classroom.storage import lessons as stored_lessons
from ui.views.classroom import lesson_run


@pytest.fixture
def saved(classroom_db):
    store = Classroom(classroom_db)
    lesson = Lesson("Parsed once", (Step(Predict(preset_list("five")), Wording("How good?", "多好？")),))
    code = store.lessons.save(lesson)
    store.close()
    return code


def test_a_lesson_chosen_by_its_code_is_parsed_once_over_several_runs(saved, monkeypatch):
    parses = []

    def counted(real):
        def read(*args, **kwargs):
            parses.append(args[1:2])
            return real(*args, **kwargs)

        return read

    # Both places a page could parse it: the store's load and the landing's own parse.
    monkeypatch.setattr(stored_lessons, "read_lesson", counted(stored_lessons.read_lesson))
    monkeypatch.setattr(lesson_run, "read_lesson", counted(lesson_run.read_lesson))
    lesson_run._parsed.clear()
    teacher = session(lesson=saved)
    assert "Parsed once" in texts(teacher), texts(teacher)
    for _ in range(3):
        teacher.run()
        assert not teacher.exception
    assert len(parses) == 1, parses


def test_opening_a_saved_lesson_writes_nothing(saved, classroom_db, monkeypatch):
    store = Classroom(classroom_db)

    def no_write(self):
        raise AssertionError("a write to open a lesson")

    monkeypatch.setattr(Database, "write", no_write)
    assert store.lessons.load(saved).title == "Parsed once"
    assert "Parsed once" in store.lessons.text(saved)
    store.close()
