"""The Classroom page through Streamlit's AppTest, on a temporary SQLite file: a teacher starts a room and
runs each activity, students join by the link and answer, bad answers are messages in the student's
language, and a student's session never controls the room."""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import ndcg_at_k
from ndcg_core.classroom.store import Store
from support import ROOT, plain, seed_state
from ui.state import ClassroomState

PAGE = "pages/7_Classroom.py"


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    return tmp_path


def session(lang="en", kept=None, **params):
    """A page run with the link ``params``; ``kept`` is what the browser's memory reported for the room (AppTest
    runs no component script), for example ``{"me": None, "key": None}``: nothing kept."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(PAGE)
    seed_state(at, lang=lang)
    if kept is not None:
        room = params["room"]
        at.session_state["classroom"] = ClassroomState(room=room, memory={"room": room, **kept})
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def texts(at):
    shown = (*at.markdown, *at.caption, *at.info, *at.success, *at.warning, *at.error, *at.subheader, *at.title)
    return " ".join(plain(e.value).replace("**", "") for e in shown)


def button(at, key):
    return next(b for b in at.button if b.key == key)


def start_room(data_dir):
    teacher = session()
    button(teacher, "btn_cr_start").click().run()
    assert not teacher.exception
    code = teacher.session_state["classroom"].room
    return teacher, code


def join(code, nickname="", lang="en"):
    student = session(lang, kept={"me": None, "key": None}, room=code)
    assert not student.exception
    student.text_input(key="_w_cr_nickname").input(nickname)
    button(student, "btn_cr_join_here").click().run()
    assert not student.exception
    return student


def answer_text(at, value):
    """Type into the current activity's answer box and send it."""
    next(w for w in at.text_input if w.key.startswith("_w_cr_estimate_")).input(value)
    next(b for b in at.button if b.key.startswith("btn_cr_send_")).click().run()
    assert not at.exception


def open_activity(teacher, kind, **choices):
    teacher.radio(key="_w_cr_kind").set_value(kind).run()
    for key, value in choices.items():
        widget = next(w for w in (*teacher.radio, *teacher.selectbox, *teacher.number_input) if w.key == key)
        widget.set_value(value).run()
    button(teacher, "btn_cr_open").click().run()
    assert not teacher.exception, teacher.exception


def test_a_teacher_starts_a_room_and_sees_its_code_qr_and_a_keep_link_once(data_dir):
    teacher, code = start_room(data_dir)
    assert f"Room {code}" in texts(teacher)
    assert len(teacher.get("imgs")) >= 1 or teacher.get("image")
    keep = [c.value for c in teacher.code if "key=" in c.value]
    assert len(keep) == 1 and f"room={code}" in keep[0]
    assert teacher.query_params.get("room") == code and "key" not in teacher.query_params
    button(teacher, "btn_cr_kept").click().run()
    assert not [c.value for c in teacher.code if "key=" in c.value]


def test_predict_the_ndcg_from_join_to_reveal(data_dir):
    teacher, code = start_room(data_dir)
    open_activity(teacher, "predict", _w_cr_source="preset", _w_cr_preset="five")
    ana = join(code, "Ana")
    assert "Predict the NDCG" in texts(ana)
    for bad, message in (("abc", "'abc' is not a number"), ("1,5", "has a comma"), ("1.5", "outside 0 to 1")):
        answer_text(ana, bad)
        assert message in texts(ana), texts(ana)
    answer_text(ana, "0.95")
    assert "Saved" in texts(ana)
    teacher.run()
    answered = next(m for m in teacher.metric if m.label == "Answered")
    assert answered.value == "1 / 1"
    truth = ndcg_at_k([3, 2, 3, 0, 1], 5)
    assert f"{truth:.4f}" not in texts(teacher)  # hidden until the reveal
    button(teacher, "btn_cr_reveal").click().run()
    assert f"The true NDCG is {truth:.4f}. 1 of 1 estimates were within 0.05." in texts(teacher)
    ana.run()
    assert f"The true NDCG is {truth:.4f}; you were 0.022 away: within 0.05" in texts(ana)
    assert "until the teacher locks" not in texts(ana)  # the saved note is not true any more


def test_a_student_chooses_chinese_on_the_phone_and_sees_messages_in_it(data_dir):
    teacher, code = start_room(data_dir)
    open_activity(teacher, "predict", _w_cr_source="random")
    li = join(code, "李雷", lang="zh")
    assert "猜 NDCG" in texts(li)
    answer_text(li, "2")
    assert "不在 0 到 1 之间" in texts(li)
    assert "Predict" in texts(teacher.run())  # the projector keeps its own language


def test_rank_compare_and_practice_through_the_page(data_dir):
    teacher, code = start_room(data_dir)
    bo = join(code, "Bo")
    open_activity(teacher, "rank", _w_cr_source="preset", _w_cr_preset="five", _w_cr_twist="small_k")
    bo.run()
    assert "Rank it best" in texts(bo)
    next(b for b in bo.button if b.key.startswith("btn_cr_send_")).click().run()
    assert "Saved" in texts(bo)
    button(teacher, "btn_cr_reveal").click().run()
    store = Store(f"sqlite:///{data_dir / 'classroom.sqlite3'}")
    rank = store.room(code).current.activity()
    start = rank.spec.ndcg()
    assert "0 of 1 found the highest NDCG@k, 1.0000" in texts(teacher)
    assert f"Your order reaches NDCG@k = {start:.4f}" in texts(bo.run())

    open_activity(teacher, "compare", _w_cr_pair="seed003", _w_cr_metric="mrr")
    bo.run()
    next(r for r in bo.radio if r.key.startswith("_w_cr_vote_")).set_value("a").run()
    next(b for b in bo.button if b.key.startswith("btn_cr_send_")).click().run()
    button(teacher.run(), "btn_cr_reveal").click().run()
    assert "0 of 1 votes agree with MRR, which says: The same." in texts(teacher)
    assert "Under MRR the answer is: The same." in texts(bo.run())

    open_activity(teacher, "practice", _w_cr_practice_seed=2026, _w_cr_practice_count=3)
    bo.run()
    practice = store.room(code).current.activity()
    first = practice.exercises()[0]
    next(w for w in bo.text_input if w.key.endswith("_0")).input(f"{first.answer:.3f}")
    next(b for b in bo.button if b.key.startswith("btn_cr_send_")).click().run()
    assert "Saved" in texts(bo)
    [stored] = store.answers(store.room(code).current.id)
    assert stored.value == {"answer": f"{first.answer:.3f}", "right": True}
    button(teacher.run(), "btn_cr_reveal").click().run()
    assert "Right. The term is grade / log2(position + 1)" in texts(bo.run())
    store.close()


def test_a_student_session_never_gets_controls_and_a_forged_key_is_refused(data_dir):
    teacher, code = start_room(data_dir)
    open_activity(teacher, "compare", _w_cr_pair="seed003", _w_cr_metric="ndcg")
    eve = join(code, "<b>Eve</b>")
    keys = {b.key for b in eve.button}
    assert not keys & {"btn_cr_lock", "btn_cr_reveal", "btn_cr_end", "btn_cr_open"}
    forged = session(room=code, key="not-the-key-" + "x" * 30)
    assert "does not control the room" in texts(forged)
    assert not {b.key for b in forged.button} & {"btn_cr_lock", "btn_cr_reveal", "btn_cr_end", "btn_cr_open"}
    assert "<b>Eve</b>" in texts(eve) or "\\<b\\>Eve\\</b\\>" in " ".join(m.value for m in eve.caption)
