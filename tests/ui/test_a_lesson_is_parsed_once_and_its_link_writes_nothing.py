"""A lesson on the Classroom page's landing is read once per choice (a saved code, ``?lesson=CODE``; a shipped file;
an upload) and the editor checks its draft once per change: the page run again reads no database, writes nothing and
parses no TOML, and starting a room with the chosen lesson parses it no more. Opening a lesson's link writes nothing
to the database.

The seams counted: ``Database.read`` and ``Database.write`` (every transaction of the store goes through one) and
``tomllib.loads`` (what reading a lesson's TOML comes down to)."""

import tomllib

import pytest
from test_classroom_page import button, session, texts

from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step, Wording
from ndcg_core.classroom.storage import Classroom, Database

RUNS = 4


@pytest.fixture
def saved(classroom_db):
    store = Classroom(classroom_db)
    lesson = Lesson("Parsed once", (Step(Predict(preset_list("five")), Wording("How good?", "多好？"), 30),))
    code = store.lessons.save(lesson)
    store.close()
    return code


@pytest.fixture
def counted(monkeypatch):
    """What the page does from now on: ``reads``, ``writes`` (transactions) and ``parses`` (TOML texts read)."""
    seen = {"reads": 0, "writes": 0, "parses": 0}

    def counting(name, real):
        def call(*args, **kwargs):
            seen[name] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(Database, "read", counting("reads", Database.read))
    monkeypatch.setattr(Database, "write", counting("writes", Database.write))
    monkeypatch.setattr(tomllib, "loads", counting("parses", tomllib.loads))

    def since(before=None):
        now = dict(seen)
        return now if before is None else {name: now[name] - before[name] for name in now}

    return since


def run_again(at, times=RUNS):
    for _ in range(times):
        at.run()
        assert not at.exception, at.exception


def test_a_lesson_opened_by_its_code_is_read_once_and_the_page_run_again_reads_writes_and_parses_nothing(
    saved, counted
):
    teacher = session(lesson=saved)  # both the landing's chooser and the editor's point at the code
    assert texts(teacher).count("Parsed once") >= 2, texts(teacher)
    button(teacher, "btn_le_open").click().run()  # the editor holds the lesson: its draft is checked once
    assert [s.time_limit for s in teacher.session_state["classroom"].draft] == [30]
    before = counted()
    run_again(teacher)
    assert counted(before) == {"reads": 0, "writes": 0, "parses": 0}
    assert texts(teacher).count("Parsed once") >= 2
    before = counted()
    button(teacher, "btn_cr_lesson_start").click().run()  # the lesson chosen, as it was read: no parse
    assert not teacher.exception and counted(before)["parses"] == 0
    assert "Parsed once" in texts(teacher) and teacher.session_state["classroom"].key is not None


def test_a_shipped_lesson_is_parsed_once_per_choice(classroom_db, counted):
    teacher = session()
    names = teacher.selectbox(key="_w_cr_lesson_shipped").options
    assert len(names) == 2
    before = counted()
    run_again(teacher)
    assert counted(before)["parses"] == 0
    other = next(name for name in names if name != teacher.selectbox(key="_w_cr_lesson_shipped").value)
    before = counted()
    teacher.selectbox(key="_w_cr_lesson_shipped").set_value(other).run()
    assert counted(before)["parses"] == 1  # the other file, once
    before = counted()
    run_again(teacher)
    assert counted(before)["parses"] == 0


def test_the_editor_checks_its_draft_once_per_change(classroom_db, counted):
    teacher = session()
    teacher.text_input(key="_w_le_title").input("Week 3").run()
    button(teacher, "btn_le_add").click().run()  # the add form's first kind, from its preset list
    assert not teacher.exception and len(teacher.session_state["classroom"].draft) == 1
    before = counted()
    run_again(teacher)
    assert counted(before)["parses"] == 0
    before = counted()
    teacher.text_input(key="_w_le_title").input("Week 4").run()
    assert counted(before)["parses"] == 1 and "Week 4" in texts(teacher)  # the changed draft, checked once


def test_opening_a_saved_lesson_writes_nothing(saved, classroom_db, monkeypatch):
    store = Classroom(classroom_db)

    def no_write(self):
        raise AssertionError("a write to open a lesson")

    monkeypatch.setattr(Database, "write", no_write)
    assert store.lessons.load(saved).title == "Parsed once"
    assert "Parsed once" in store.lessons.text(saved)
    store.close()
