"""Any query of the Evaluate page (here from uploaded files, which the lesson editor cannot offer itself) added to
the lesson being built, from the per-query drill-down: the Classroom page's editor then has it as an activity with
the run's documents in rank order (the top ``MAX_LIST``), their grades, the evaluation's k and the judged documents
the list does not show as the ideal's pool; its kind changes there (AppTest)."""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.kinds.lists import MAX_LIST
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import Rank
from ndcg_core.classroom.lessons import Lesson, lesson_to_toml, read_lesson
from support import ROOT, plain, seed_state
from ui.views.evaluate import FileInput

# q1: run A retrieves d1 .. d15 in that order; judged: some in the top 12, d14 below it, dx and dz not retrieved.
RETRIEVED = [f"d{i}" for i in range(1, 16)]
JUDGED = {"d1": 1, "d3": 2, "d5": 0, "d8": 3, "d14": 3, "dx": 2, "dz": 0}
QRELS = "".join(f"q1 0 {d} {g}\n" for d, g in JUDGED.items()) + "q2 0 e1 2\nq3 0 e2 5\n"
RUN = "".join(f"q1 Q0 {d} {i} {100 - i} a\n" for i, d in enumerate(RETRIEVED, start=1))
RUN += "q2 Q0 e1 1 1 a\nq3 Q0 e2 1 1 a\n"
K = 5


@pytest.fixture
def data_dir(classroom_db):
    return classroom_db


def evaluate_page(lang="en"):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/2_Evaluate.py")
    uploads = {
        "qrels": FileInput("qrels.txt", "lesson:qrels", QRELS.encode()),
        "a": FileInput("run.txt", "lesson:run", RUN.encode()),
    }
    seed_state(at, lang=lang, ev_source="upload", ev_uploads=uploads, ev_cutoffs=str(K))
    at.run()
    assert not at.exception, at.exception
    return at


def add_query(at, qid):
    at.selectbox(key="ev_drill_query").set_value(qid).run()
    at.button(key="btn_ev_add_lesson").click().run()
    assert not at.exception, at.exception
    return " ".join(plain(s.value) for s in at.success)


def texts(at):
    shown = (*at.markdown, *at.caption, *at.info, *at.success, *at.warning, *at.error)
    return " ".join(plain(e.value) for e in shown)


@pytest.mark.parametrize("classroom_db", ["sqlite"], indirect=True)
def test_an_uploaded_query_added_from_the_drill_down_is_in_the_classroom_editor(data_dir):
    at = evaluate_page()
    said = add_query(at, "q1")
    assert "Added to the lesson draft: query q1, activity 1 (k = 5)." in said
    assert f"Run A retrieved {len(RETRIEVED)} documents: the activity shows the top {MAX_LIST}" in said
    said = add_query(at, "q2")  # one document: no "top 12" sentence
    assert "Added to the lesson draft: query q2, activity 2 (k = 1)." in said and "Run A retrieved" not in said

    at.switch_page("pages/7_Classroom.py").run()
    assert not at.exception, at.exception
    first, second = at.session_state["classroom"].draft
    shown = RETRIEVED[:MAX_LIST]
    spec = first.activity.spec
    assert isinstance(first.activity, Predict)
    assert spec.labels == tuple(shown)
    assert spec.grades == tuple(JUDGED.get(d, 0) for d in shown)
    assert spec.k == K and spec.query == "q1"
    # The ideal's pool: every other judged document with a grade above 0 (d14, ranked 14th, and dx, not retrieved).
    assert spec.pool == tuple(sorted((g for d, g in JUDGED.items() if d not in shown and g > 0), reverse=True))
    assert spec.pool == (3, 2)
    assert (second.activity.spec.labels, second.activity.spec.grades, second.activity.spec.k) == (("e1",), (2,), 1)
    shown_text = texts(at)
    assert f"1. Predict the NDCG · “q1” · {MAX_LIST} results, k = 5" in shown_text
    assert "2. Predict the NDCG · “q2” · 1 results, k = 1" in shown_text

    # Its kind is chosen in the editor; Judge keeps the pool in the draft, so Predict finds it again.
    at.selectbox(key="_w_le_step_kind_0").set_value("rank").run()
    assert isinstance(at.session_state["classroom"].draft[0].activity, Rank)
    at.selectbox(key="_w_le_step_kind_0").set_value("judge").run()
    assert isinstance(at.session_state["classroom"].draft[0].activity, Judge)
    assert "1. Judge the results · “q1”" in texts(at)
    at.selectbox(key="_w_le_step_kind_0").set_value("predict").run()
    assert not at.exception, at.exception
    back = at.session_state["classroom"].draft[0].activity
    assert isinstance(back, Predict) and back.spec == spec

    # The lesson's file keeps the missed documents' grades: the room gets the same list.
    lesson = read_lesson(lesson_to_toml(Lesson("-", tuple(at.session_state["classroom"].draft))))
    assert lesson.steps[0].activity.spec == spec


@pytest.mark.parametrize("classroom_db", ["sqlite"], indirect=True)
def test_a_grade_off_the_judging_scale_keeps_the_kind_and_says_why(data_dir):
    at = evaluate_page()
    add_query(at, "q3")  # e2 has grade 5: the judging scale is 0 to 4
    at.switch_page("pages/7_Classroom.py").run()
    at.selectbox(key="_w_le_step_kind_0").set_value("judge").run()
    assert not at.exception, at.exception
    assert isinstance(at.session_state["classroom"].draft[0].activity, Predict)
    assert at.selectbox(key="_w_le_step_kind_0").value == "predict"
    assert "The grade 5 at position 1 is outside the judging scale 0 to 4" in texts(at)


@pytest.mark.parametrize("classroom_db", ["sqlite"], indirect=True)
def test_the_confirmation_is_in_chinese_too(data_dir):
    at = evaluate_page(lang="zh")
    said = add_query(at, "q1")
    assert "已加入课程草稿：查询 q1，第 1 个活动（k = 5）" in said
    assert f"Run A 检索到 {len(RETRIEVED)} 个文档：活动显示前 {MAX_LIST} 个" in said
