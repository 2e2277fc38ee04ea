"""Running a lesson on the Classroom page (AppTest, SQLite and PostgreSQL): a room starts from a shipped lesson or
a saved code, the control page shows "Activity n of m" with Next and Back, the lesson's own wording appears in the
reader's language, a time limit run out closes the phone's answers and keeps what was typed, and a lesson that
keeps scores ends with a leaderboard (hidden while nicknames are) and points in the CSV."""

import csv
import io
import subprocess
import sys
import time

import pytest
from test_classroom_page import button, join, session
from test_classroom_page import texts as page_texts

from ndcg_core.classroom.kinds.base import POINTS
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict, closeness_points
from ndcg_core.classroom.lessons import Lesson, Step, Wording, read_lesson_file
from ndcg_core.classroom.storage import Classroom
from support import ROOT
from ui import classroom_results, database
from ui.i18n import Translator
from ui.views.classroom import lesson_run

SHIPPED = ROOT / "lessons" / "ndcg-in-20-minutes.en.toml"


def texts(at):
    """The page's text as read (without the invisible word joiners that keep "NDCG@3" from becoming a link)."""
    return page_texts(at).replace("\u2060", "")


@pytest.fixture
def data_dir(classroom_db):
    return classroom_db


def lesson_room(code_param=None):
    """A teacher's page that started a room from the shipped English lesson, or from the saved lesson ``code``."""
    teacher = session(**({"lesson": code_param} if code_param else {}))
    button(teacher, "btn_cr_lesson_start").click().run()
    assert not teacher.exception, teacher.exception
    return teacher, teacher.session_state["classroom"].room


def test_next_and_back_step_through_the_shipped_lesson(data_dir):
    lesson = read_lesson_file(SHIPPED)
    teacher, code = lesson_room()
    assert f"{len(lesson.steps)} activities" in texts(teacher)
    assert button(teacher, "btn_cr_lesson_back").disabled
    button(teacher, "btn_cr_lesson_next").click().run()
    assert f"Activity 1 of {len(lesson.steps)}" in texts(teacher)
    own = lesson.steps[0].question.get("en")
    assert own and own in texts(teacher)  # the lesson's own wording, not the standard question
    ana = join(code, "Ana")
    assert own in texts(ana)
    button(teacher, "btn_cr_lesson_next").click().run()
    button(teacher, "btn_cr_lesson_next").click().run()
    assert f"Activity 3 of {len(lesson.steps)}" in texts(teacher)
    button(teacher, "btn_cr_lesson_back").click().run()
    assert f"Activity 2 of {len(lesson.steps)}" in texts(teacher)
    store = Classroom(data_dir)
    assert store.lessons.progress(code).step == 1 and store.lessons.progress(code).opened == 3
    store.close()
    li = join(code, "李", lang="zh")
    assert "第 2 个活动" not in texts(li)  # the phone shows the activity, not the lesson's progress
    for _ in range(len(lesson.steps) - 2):
        button(teacher, "btn_cr_lesson_next").click().run()
    assert f"Activity {len(lesson.steps)} of {len(lesson.steps)}" in texts(teacher)
    assert button(teacher, "btn_cr_lesson_next").disabled


def test_a_saved_code_in_the_link_starts_its_lesson_and_a_chinese_phone_reads_its_wording(data_dir):
    store = Classroom(data_dir)
    step = Step(Predict(preset_list("five")), Wording("How good is this list?", "这个列表有多好？"))
    code_of_lesson = store.lessons.save(Lesson("Mine", (step,)))
    store.close()
    teacher, code = lesson_room(code_of_lesson)
    assert "Lesson “Mine”: 1 activities." in texts(teacher)
    button(teacher, "btn_cr_lesson_next").click().run()
    li = join(code, "李", lang="zh")
    assert "这个列表有多好？" in texts(li) and "How good" not in texts(li)


def test_time_up_closes_the_phone_s_answers_and_keeps_what_was_typed(data_dir, monkeypatch):
    store = Classroom(data_dir)
    step = Step(Predict(preset_list("five")), time_limit=30)
    saved = store.lessons.save(Lesson("Timed", (step,)))
    teacher, code = lesson_room(saved)
    button(teacher, "btn_cr_lesson_next").click().run()
    assert len(countdowns(teacher)) == 1  # the activity's clock, running
    ana = join(code, "Ana")
    box = next(w for w in ana.text_input if w.key.startswith("_w_cr_answer_"))
    assert not box.disabled
    box.input("0.9").run()
    later = time.time() + 31  # the time limit has run out
    monkeypatch.setattr(lesson_run, "now", lambda: later)  # the teacher's page
    monkeypatch.setattr(database.db().database, "clock", lambda: later)  # the phone's card, by the store's own clock
    store.close()
    ana.run()
    box = next(w for w in ana.text_input if w.key.startswith("_w_cr_answer_"))
    assert box.disabled and box.value == "0.9"
    # One status line: why answers closed and what was not sent, in one sentence (not "Time is up" and "Locked").
    assert "Time is up: your estimate 0.9 was not sent." in texts(ana)
    assert "Locked" not in texts(ana) and "answers are closed" not in texts(ana)
    assert next(m for m in teacher.run().metric if m.label == "Answers").value == "Time is up"
    # Once run out, the status alone says so: no countdown is left that could stand, while the page draws the next
    # activity, beside its "open".
    assert countdowns(teacher) == []


def countdowns(page) -> list[str]:
    """The keys of the countdowns on ``page`` (components v2 elements, unknown to AppTest by type)."""
    return [e.key for e in page.get("bidi_component") if (e.key or "").startswith("cr_countdown_")]


def scored_lesson():
    return Lesson(
        "Scored",
        (
            Step(Predict(preset_list("five"))),
            Step(compare_activity("seed003", "ndcg")),
        ),
        scores=True,
    )


def test_a_lesson_that_keeps_scores_ends_with_a_leaderboard_and_points_in_the_csv(data_dir):
    store = Classroom(data_dir)
    saved = store.lessons.save(scored_lesson())
    teacher, code = lesson_room(saved)
    button(teacher, "btn_cr_lesson_next").click().run()
    ana, bo = join(code, "Ana"), join(code)
    truth = Predict(preset_list("five")).truth()
    for student, guess in ((ana, truth), (bo, truth - 0.2)):
        next(w for w in student.text_input if w.key.startswith("_w_cr_answer_")).input(f"{guess:.4f}")
        next(b for b in student.button if b.key.startswith("btn_cr_send_")).click().run()
    button(teacher.run(), "btn_cr_reveal").click().run()  # points come only from a reveal
    button(teacher.run(), "btn_cr_lesson_next").click().run()
    for student in (ana, bo):
        student.run()
        next(r for r in student.segmented_control if r.key.startswith("_w_cr_answer_")).set_value("a").run()
        next(b for b in student.button if b.key.startswith("btn_cr_send_")).click().run()
    assert "Leaderboard" not in texts(teacher.run())  # not before the end
    button(teacher, "btn_cr_reveal").click().run()
    assert "Leaderboard" not in texts(teacher)  # nicknames are hidden: no leaderboard
    hidden = "The leaderboard is hidden because nicknames are hidden."
    assert hidden in texts(teacher)  # and the control page says why, with the switch right there
    button(teacher, "btn_cr_board_names").click().run()
    assert teacher.toggle(key="_w_cr_names").value is True and hidden not in texts(teacher)
    board = next(d.value for d in teacher.dataframe if "Student" in d.value.columns)
    expected = {"Ana": POINTS + POINTS, "student 2": closeness_points(truth - 0.2, truth) + POINTS}
    assert dict(zip(board["Student"], board["Points"], strict=True)) == expected
    assert list(board["Place"]) == [1, 2]
    teacher.toggle(key="_w_cr_names").set_value(False).run()
    assert "Leaderboard" not in texts(teacher) and hidden in texts(teacher)  # hidden with the nicknames
    button(teacher, "btn_cr_end").click().run()  # an ended room: the note and the switch are still there, once
    assert texts(teacher).count(hidden) == 1
    button(teacher, "btn_cr_board_names").click().run()
    assert next(d.value for d in teacher.dataframe if "Student" in d.value.columns) is not None
    results = store.answers.results(code)
    table = classroom_results.results_csv(Translator("en"), results, points=True).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(table)))
    totals = {r["Student"]: r["Points"] for r in rows if r["Activity"] == "Total"}
    assert totals == {name: str(points) for name, points in expected.items()}
    store.close()


def test_the_lesson_chosen_on_the_landing_previews_the_check_commands_outline(data_dir):
    teacher = session()
    printed = subprocess.run(
        [sys.executable, "-m", "ndcg_core.classroom", "check", str(SHIPPED)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.strip()
    assert "grades 3, 0, 2; NDCG@3 (linear gain, log2 discount" in printed  # each activity with its list
    assert printed in [c.value for c in teacher.code]


def test_in_a_lesson_next_is_the_one_way_on_until_the_teacher_leaves_the_plan_and_comes_back(data_dir):
    lesson = read_lesson_file(SHIPPED)
    teacher, code = lesson_room()
    button(teacher, "btn_cr_lesson_next").click().run()
    button(teacher, "btn_cr_lesson_next").click().run()
    assert f"Activity 2 of {len(lesson.steps)}" in texts(teacher)
    assert "btn_cr_open" not in [b.key for b in teacher.button]  # no ad-hoc activity beside Next
    assert "Open the next activity" not in [e.label for e in teacher.expander]
    button(teacher, "btn_cr_plan_leave").click().run()
    assert "You left the lesson plan" in texts(teacher)
    assert not {"btn_cr_lesson_next", "btn_cr_lesson_back"} & {b.key for b in teacher.button}
    teacher.radio(key="_w_cr_kind").set_value("compare").run()
    button(teacher, "btn_cr_open").click().run()
    assert not teacher.exception, teacher.exception
    store = Classroom(data_dir)
    assert store.rooms.get(code).current.kind == "compare" and store.lessons.progress(code).step == 1
    # Another session of the teacher (a reload, another server) knows from the store that the plan was left.
    again = session(room=code)
    again.session_state["classroom"].key = teacher.session_state["classroom"].key
    assert "You left the lesson plan" in texts(again.run())
    button(teacher, "btn_cr_plan_back").click().run()
    assert f"Activity 2 of {len(lesson.steps)}" in texts(teacher) and "You left the lesson plan" not in texts(teacher)
    assert "btn_cr_open" not in [b.key for b in teacher.button]
    shown = store.rooms.get(code).current
    assert shown.payload == store.rooms.activity_list(code)[1].payload  # step 2 shown again, as it was
    button(teacher, "btn_cr_lesson_next").click().run()
    assert f"Activity 3 of {len(lesson.steps)}" in texts(teacher)
    store.close()
