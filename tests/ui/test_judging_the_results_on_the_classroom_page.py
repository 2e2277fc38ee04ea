"""Judge the results through the Classroom page (AppTest, SQLite and PostgreSQL): each phone grades every result
on the scale and sends them at once, what was chosen stays chosen, the control page shows the grades per result,
the agreement (Krippendorff's alpha) read in plain words, and at the reveal NDCG@k under the class's median grades
beside the teacher's; every registered kind has all its views."""

import statistics

import krippendorff
import numpy as np
import pytest
from test_classroom_page import button, join, open_activity, session, start_room, texts

from ndcg_core import ndcg_at_k
from ndcg_core.classroom.kinds import KINDS
from ndcg_core.classroom.storage import Classroom
from ui.kinds import WORDS
from ui.views.classroom.kinds import VIEWS

FIVE = [3, 2, 3, 0, 1]  # the preset "five", in list order: the teacher's grades


@pytest.fixture
def data_dir(classroom_db):
    return classroom_db


def grade(at, grades):
    """Pick a grade for each result (``None``: leave it), then Send."""
    pickers = [w for w in at.segmented_control if w.key.startswith("_w_cr_answer_")]
    assert len(pickers) == len(grades)
    for picker, value in zip(pickers, grades, strict=True):
        if value is not None:
            picker.set_value(value)
    at.run()
    next(b for b in at.button if b.key.startswith("btn_cr_send_")).click().run()
    assert not at.exception, at.exception


def test_every_registered_kind_has_a_projector_a_phone_a_form_view_and_its_csv_wording():
    assert list(VIEWS) == list(WORDS) == KINDS.names()
    for name in KINDS.names():
        views, words = VIEWS[name], WORDS[name]
        for part in (views.present, views.form, views.build, words.card):
            assert callable(part), (name, part)
        for part in (words.csv_details, words.csv_answer, words.csv_solution):
            assert callable(part), (name, part)


def test_the_class_judges_the_results_and_sees_its_agreement_and_ndcg_under_its_grades(data_dir):
    teacher, code = start_room(data_dir)
    open_activity(teacher, "judge", _w_cr_source="preset", _w_cr_preset="five")
    ana, bo = join(code, "Ana"), join(code, "Bo")
    assert "Judge the results" in texts(ana) and "from 0 (not relevant) to 4" in texts(ana)
    grade(ana, FIVE)
    assert "Saved" in texts(ana)
    mine = [2, 1, 3, 1, 1]
    grade(bo, [*mine[:4], None])  # one result left out, then graded after
    grade(bo, [None, None, None, None, mine[4]])
    assert [w.value for w in bo.segmented_control if w.key.startswith("_w_cr_answer_")] == mine  # kept as chosen
    again = session(room=code, me=bo.session_state["classroom"].student, kept={"me": None, "key": None})  # a reload
    assert [w.value for w in again.segmented_control if w.key.startswith("_w_cr_answer_")] == mine  # as sent
    teacher.run()
    assert next(m for m in teacher.metric if m.label == "Answered").value == "2 / 2"
    data = np.array([FIVE, mine], dtype=float)
    alpha = krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal", value_domain=range(5))
    assert next(m for m in teacher.metric if m.label.startswith("Agreement")).value == f"{alpha:.2f}"
    # Krippendorff's thresholds: 0.8 or more, rely on the grades; 0.667 to 0.8, tentative; below, discard.
    reading = "agree well:" if alpha >= 0.8 else "agree only roughly:" if alpha >= 0.667 else "The judges disagree:"
    assert reading in texts(teacher) and "0.667" in texts(teacher)
    medians = [statistics.median(pair) for pair in zip(FIVE, mine, strict=True)]
    store = Classroom(data_dir)
    k = store.rooms.get(code).current.activity().spec.k
    store.close()
    class_ndcg, teacher_ndcg = ndcg_at_k(medians, k), ndcg_at_k(FIVE, k)
    assert not [m for m in teacher.metric if "NDCG" in m.label]  # until the reveal
    button(teacher, "btn_cr_reveal").click().run()
    shown = {m.label: m.value for m in teacher.metric}
    assert shown[f"NDCG@{k}, class's medians"] == f"{class_ndcg:.4f}"
    assert shown[f"NDCG@{k}, teacher's grades"] == f"{teacher_ndcg:.4f}"
    assert "Teacher's grade: 2 · yours: 1" in texts(bo.run())
    # Judging has no right grade: Ana's grades, all the teacher's, are shown as information, not as a success.
    ana.run()
    assert "Teacher's grade: 3 · yours: 3" in [i.value for i in ana.info]
    assert not [s.value for s in ana.success if "Teacher's grade" in s.value]


def test_grades_chosen_but_not_sent_are_named_at_the_lock(data_dir):
    teacher, code = start_room(data_dir)
    open_activity(teacher, "judge", _w_cr_source="preset", _w_cr_preset="five")
    ana = join(code, "Ana")
    pickers = [w for w in ana.segmented_control if w.key.startswith("_w_cr_answer_")]
    pickers[1].set_value(4).run()
    button(teacher.run(), "btn_cr_lock").click().run()
    ana.run()
    assert "your grades of result 2 were not sent" in texts(ana)
    assert [w.value for w in ana.segmented_control if w.key.startswith("_w_cr_answer_")][1] == 4
