"""One activity, one number, on every screen (issue 45, AppTest): after "Vote again" on a five-activity lesson's
second activity, the control page, the projector, a phone, the summary and the CSV all say activity 2 of 5, round
2 (they said "Activity 2 of 5", "Activity 3: ... · 2 of 5" and, in the CSV and the summary, counted to 6)."""

import csv
import io

import pytest
from test_classroom_page import button, join, session
from test_classroom_page import texts as page_texts

from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.practice import practice_activity
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.storage import Classroom
from ui import classroom_results
from ui.i18n import Translator

COUNT = 5
HEADING = f"Activity 2 of {COUNT}: Predict the NDCG · Round 2"
HEADING_ZH = f"活动 2（共 {COUNT} 个）：猜 NDCG · 第 2 轮"


def texts(at):
    return page_texts(at).replace("\u2060", "")


@pytest.fixture
def data_dir(classroom_db):
    return classroom_db


def five_activities():
    return Lesson(
        "Five",
        (
            Step(compare_activity("seed003", "ndcg")),
            Step(Predict(preset_list("five"))),
            Step(Predict(preset_list("chengdu_trip"))),
            Step(practice_activity(2026, 3)),
            Step(compare_activity("seed003", "mrr")),
        ),
    )


def test_vote_again_is_activity_2_of_5_round_2_on_the_control_page_projector_phone_summary_and_csv(data_dir):
    store = Classroom(data_dir)
    saved = store.lessons.save(five_activities())
    teacher = session(lesson=saved)
    button(teacher, "btn_cr_lesson_start").click().run()
    code = teacher.session_state["classroom"].room
    button(teacher, "btn_cr_lesson_next").click().run()
    button(teacher, "btn_cr_lesson_next").click().run()
    ana = join(code, "Ana")
    next(w for w in ana.text_input if w.key.startswith("_w_cr_answer_")).input("0.5")
    next(b for b in ana.button if b.key.startswith("btn_cr_send_")).click().run()
    button(teacher.run(), "btn_cr_lock").click().run()
    button(teacher, "btn_cr_vote_again").click().run()
    assert not teacher.exception, teacher.exception
    shown = texts(teacher)
    assert f"Activity 2 of {COUNT} · Round 2" in shown  # the lesson's bar
    assert HEADING in shown  # the live panel's heading
    assert "Activity 3" not in shown
    screen = session(room=code, view="screen")
    screen.session_state["classroom"].key = teacher.session_state["classroom"].key
    screen.run()
    assert HEADING in texts(screen) and "Activity 3" not in texts(screen)
    assert HEADING in texts(ana.run())
    assert HEADING_ZH in texts(join(code, "Bo", lang="zh"))
    button(teacher.run(), "btn_cr_end").click().run()
    [table] = [d.value for d in teacher.dataframe if "Share right" in d.value.columns]
    assert table["Activity"].tolist() == [
        f"Activity 1 of {COUNT}: Which is better?",
        f"Activity 2 of {COUNT}: Predict the NDCG",
        HEADING,
    ]
    results = store.answers.results(code)
    rows = list(
        csv.DictReader(io.StringIO(classroom_results.results_csv(Translator("en"), results).decode("utf-8-sig")))
    )
    # Ana joined during activity 2's first round, Bo during its second: the first activity had nobody present.
    numbered = [(r["Activity"], r["Round"], r["Student"]) for r in rows if r["Activity"] != "Total"]
    assert numbered == [("2", "1", "Ana"), ("2", "2", "Ana"), ("2", "2", "Bo")]
    store.close()
