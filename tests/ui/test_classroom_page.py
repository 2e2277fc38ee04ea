"""The Classroom page through Streamlit's AppTest, on a temporary SQLite file and on PostgreSQL: a teacher starts a
room and runs each activity, students join by the link and answer, bad answers are messages in the student's
language, a student's session never controls the room, and a database outage is a notice that loses nothing."""

import json

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from ndcg_core import ndcg_at_k
from ndcg_core.classroom.kinds.lists import result_list
from ndcg_core.classroom.kinds.practice import ExerciseAnswer
from ndcg_core.classroom.storage import Classroom, Database
from support import ROOT, plain, seed_state, wait_until
from ui.state import ClassroomState

PAGE = "pages/7_Classroom.py"


@pytest.fixture
def data_dir(classroom_db):
    """Every test of this module on SQLite and on PostgreSQL: the database's URL."""
    return classroom_db


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
    next(w for w in at.text_input if w.key.startswith("_w_cr_answer_")).input(value)
    next(b for b in at.button if b.key.startswith("btn_cr_send_")).click().run()
    assert not at.exception


def open_activity(teacher, kind, **choices):
    teacher.radio(key="_w_cr_kind").set_value(kind).run()
    for key, value in choices.items():
        widgets = (*teacher.radio, *teacher.selectbox, *teacher.number_input, *teacher.checkbox)
        widget = next(w for w in widgets if w.key == key)
        widget.set_value(value).run()
    button(teacher, "btn_cr_open").click().run()
    assert not teacher.exception, teacher.exception


def codes_in(node, inside=None, found=None):
    """Every code block of the page as (text, whether it is inside a popover)."""
    found = [] if found is None else found
    kind = getattr(node, "type", None)
    if kind == "code":
        found.append((node.value, bool(inside)))
    for child in getattr(node, "children", {}).values():
        codes_in(child, inside or kind == "popover", found)
    return found


def test_a_teacher_starts_a_room_and_the_control_link_is_only_in_its_popover(data_dir, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_PUBLIC_URL", "https://ndcg.example.edu")  # AppTest's page has no address
    teacher, code = start_room(data_dir)
    assert f"Room {code}: controls" in texts(teacher)
    assert f"https://ndcg.example.edu/Classroom?room={code}" in texts(teacher)
    assert teacher.query_params.get("room") == code and "key" not in teacher.query_params
    codes = codes_in(teacher._tree)
    keyed = [(text, inside) for text, inside in codes if "key=" in text]
    # The link that controls the room exists only behind "Open the controls on another device".
    assert len(keyed) == 1 and keyed[0][1] and f"room={code}" in keyed[0][0]
    assert teacher.session_state["classroom"].key in keyed[0][0]
    assert "key=" not in texts(teacher)


def test_the_projector_view_has_no_controls_and_a_student_browser_gets_the_student_page(data_dir, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_PUBLIC_URL", "https://ndcg.example.edu")  # AppTest's page has no address
    teacher, code = start_room(data_dir)
    open_activity(teacher, "predict", _w_cr_source="preset", _w_cr_preset="five")
    screen = session(room=code, view="screen")
    screen.session_state["classroom"].key = teacher.session_state["classroom"].key  # as the browser's memory does
    screen.run()
    assert not screen.exception
    assert [b.key for b in screen.button] == ["btn_cr_big_qr"]  # no lock, reveal, setup or end
    assert not screen.expander and not [c for c, _ in codes_in(screen._tree) if "key=" in c]
    assert "Activity 1: Predict the NDCG" in texts(screen)
    assert next(m for m in screen.metric if m.label == "Answered").value == "0 / 0"
    stranger = session(room=code, view="screen", kept={"me": None, "key": None})  # another browser: a student's page
    assert [b.key for b in stranger.button] == ["btn_cr_join_here"]


def test_predict_the_ndcg_from_join_to_reveal(data_dir):
    teacher, code = start_room(data_dir)
    open_activity(teacher, "predict", _w_cr_source="preset", _w_cr_preset="five")
    ana = join(code, "Ana")
    assert "Predict the NDCG" in texts(ana)
    for bad, message in (
        ("abc", "'abc' is not a number"),
        # Outside 0 to 1 and no mistake's number on "five" (1.5 is one: the ideal sorted worst first gives 1.51).
        ("1,2", "'1,2' is outside 0 to 1"),
        ("1,234", "'1,234' has a comma: write decimals with a point"),
        ("1.2", "outside 0 to 1"),
    ):
        answer_text(ana, bad)
        assert message in texts(ana), texts(ana)
    answer_text(ana, "0,95")
    assert any(plain(m.value).startswith("Read 0,95 as 0.95.\n\nSaved") for m in ana.success), texts(ana)

    # The teacher's page reads the room again once this process has heard the join and the answer (the store's
    # notices, on a thread of their own): run again until it has, as the page's stream would.
    def answered():
        return next(m for m in teacher.run().metric if m.label == "Answered").value

    assert wait_until(lambda: answered() == "1 / 1", seconds=20), answered()
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
    answer_text(li, "-1")  # outside 0 to 1, and no mistake gives a negative number
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
    store = Classroom(data_dir)
    rank = store.rooms.get(code).current.activity()
    start = rank.spec.ndcg()
    assert "0 of 1 found the highest NDCG@3, 1.0000" in texts(teacher)
    assert f"Your order reaches NDCG@3 = {start:.4f}" in texts(bo.run())

    open_activity(teacher, "compare", _w_cr_pair="seed003", _w_cr_metric="mrr")
    bo.run()
    next(r for r in bo.segmented_control if r.key.startswith("_w_cr_answer_")).set_value("a").run()
    next(b for b in bo.button if b.key.startswith("btn_cr_send_")).click().run()
    button(teacher.run(), "btn_cr_reveal").click().run()
    assert "0 of 1 votes agree with MRR, which says: The same." in texts(teacher)
    assert "Under MRR the answer is: The same." in texts(bo.run())

    open_activity(teacher, "practice", _w_cr_practice_seed=2026, _w_cr_practice_count=3)
    bo.run()
    practice = store.rooms.get(code).current.activity()
    first = practice.exercises()[0]
    next(w for w in bo.text_input if w.key.endswith("_0")).input(f"{first.answer:.3f}")
    next(b for b in bo.button if b.key.startswith("btn_cr_send_")).click().run()
    assert "Saved" in texts(bo)
    [stored] = store.answers.for_activity(store.rooms.get(code).current.id)
    assert stored.value == ExerciseAnswer(f"{first.answer:.3f}", True)
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


def test_after_the_reveal_the_teacher_runs_it_again_as_round_two_and_the_end_shows_the_summary(data_dir):
    teacher, code = start_room(data_dir)
    open_activity(teacher, "compare", _w_cr_pair="seed003", _w_cr_metric="ndcg")
    bo = join(code, "Bo")
    next(r for r in bo.segmented_control if r.key.startswith("_w_cr_answer_")).set_value("b").run()
    next(b for b in bo.button if b.key.startswith("btn_cr_send_")).click().run()
    keys = {b.key for b in teacher.run().button}
    assert "btn_cr_lock" in keys and not keys & {"btn_cr_unlock", "btn_cr_again"}
    button(teacher, "btn_cr_reveal").click().run()
    keys = {b.key for b in teacher.button}
    assert "btn_cr_again" in keys and "btn_cr_unlock" not in keys  # a reveal is final: no taking answers again
    assert next(b for b in teacher.button if b.key == "btn_cr_again").label == "Run it again (new round)"
    button(teacher, "btn_cr_again").click().run()
    assert not teacher.exception
    # Round 2 is a round of activity 1: the same number on the control page, the phone and the summary.
    assert "Activity 1: Which is better? · Round 2" in texts(teacher)
    assert "Activity 1: Which is better? · Round 2" in texts(bo.run())
    next(r for r in bo.segmented_control if r.key.startswith("_w_cr_answer_")).set_value("a").run()
    next(b for b in bo.button if b.key.startswith("btn_cr_send_")).click().run()
    assert "Saved" in texts(bo)
    teacher.run()
    next(b for b in teacher.button if b.key == "btn_cr_end").click().run()
    assert "How the class did" in texts(teacher)
    [table] = [d.value for d in teacher.dataframe if "Share right" in d.value.columns]
    assert table.values.tolist() == [
        ["Activity 1: Which is better?", "1 of 1", "0 of 1", "0%", ""],
        ["Activity 1: Which is better? · Round 2", "1 of 1", "1 of 1", "100%", ""],
    ]
    # The projector view shows the class the same summary, as a plain table at projector size.
    screen = session(room=code, view="screen")
    screen.session_state["classroom"].key = teacher.session_state["classroom"].key
    screen.run()
    assert "How the class did" in texts(screen) and not screen.dataframe
    [shown] = screen.table
    assert shown.value.index.tolist() == ["Activity 1: Which is better?", "Activity 1: Which is better? · Round 2"]


# --- activities that teach: hidden grades, stated conventions, one clear status line ---------------------------

FOOD = ("成都火锅大全", "重庆火锅", "成都小吃街", "成都美食地图", "北京烤鸭")


def sortable_data(at):
    """What the phone's sortable list sends to the browser (the component's JSON)."""
    [element] = [e for e in at.get("bidi_component") if e.proto.component_name == "ndcg_lab.sortable_list"]
    data = json.loads(element.proto.json)
    while isinstance(data, str):
        data = json.loads(data)
    return data


def markdown_tables(at):
    return [m.value for m in at.markdown if m.value.startswith("| ")]


def send(at):
    next(b for b in at.button if b.key.startswith("btn_cr_send_")).click().run()
    assert not at.exception, at.exception


def test_rank_it_best_hides_the_grades_on_the_phone_until_the_reveal(data_dir):
    teacher, code = start_room(data_dir)
    bo = join(code, "Bo")
    open_activity(teacher, "rank", _w_cr_source="results", _w_cr_results="chengdu_food", _w_cr_twist="pool")
    data = sortable_data(bo.run())
    # The browser gets the titles only: no grade, no grade colour, and the list says so.
    assert data["show_grades"] is False
    assert [it["label"] for it in data["items"]] == list(FOOD)
    assert all(set(it) == {"id", "label"} for it in data["items"])
    phone = texts(bo)
    assert "Query: 成都美食推荐" in phone and "Judge from the titles" in phone
    assert (
        "Conventions: linear (gain = grade) gain, discount 1/log2(position + 1), k = 5, ideal order from every "
        "judged result, including those the list missed." in phone
    )
    # The pool twist's caption says how many judged results the list missed, not their grades.
    assert "The list missed 2 judged results." in phone and "graded" not in phone
    projector = texts(teacher.run())
    assert "graded" not in projector and "Grades in order" not in projector
    send(bo)  # the list as dealt
    button(teacher, "btn_cr_lock").click().run()
    bo.run()
    [table] = markdown_tables(bo)  # positions and titles only
    assert "| 1 | 成都火锅大全 |" in table
    assert "Grade" not in markdown_tables(bo)[0] and "Grades are hidden until the reveal." in texts(bo)
    button(teacher, "btn_cr_reveal").click().run()
    bo.run()
    spec = result_list("chengdu_food")
    pool = [4, 1, 3, 4, 0, 4, 3]  # the pool twist adds judged results graded 4 and 3
    dealt = (4 + 1 / log2(3) + 3 / 2 + 4 / log2(5)) / (4 + 4 / log2(3) + 4 / 2 + 3 / log2(5) + 3 / log2(6))
    assert ndcg_at_k(spec.grades, 5, pool=pool) == pytest.approx(dealt)
    phone = texts(bo)
    assert "Your order, with the judged grades:" in phone
    assert "| 1 | 成都火锅大全 | 4 |" in markdown_tables(bo)[0] and "| 2 | 重庆火锅 | 1 |" in markdown_tables(bo)[0]
    assert f"Your order reaches NDCG@5 = {dealt:.4f}" in phone
    assert "A best order: 成都火锅大全 (4) > 成都美食地图 (4) > 成都小吃街 (3) > 重庆火锅 (1) > 北京烤鸭 (0)" in phone
    assert "The results the list missed are graded 4, 3." in phone


def test_show_the_grades_is_a_drill_the_teacher_chooses(data_dir):
    teacher, code = start_room(data_dir)
    bo = join(code, "Bo")
    open_activity(
        teacher,
        "rank",
        _w_cr_source="results",
        _w_cr_results="sourdough",
        _w_cr_twist="exponential",
        _w_cr_show_grades=True,
    )
    data = sortable_data(bo.run())
    assert data["show_grades"] is True
    assert [it["grade"] for it in data["items"]] == [3, 1, 2, 1, 0, 3, 0, 2]
    assert "Reorder the list to get the highest NDCG@5. Twist: exponential gain" in texts(bo)
    assert "Conventions: exponential (gain = 2^grade − 1) gain" in texts(bo)


def log2(x):
    import math

    return math.log2(x)


def test_every_question_states_its_conventions_in_the_reader_s_language(data_dir):
    teacher, code = start_room(data_dir)
    ana, li = join(code, "Ana"), join(code, "李雷", lang="zh")
    open_activity(teacher, "predict", _w_cr_source="results", _w_cr_results="chengdu_trip")
    ana.run(), li.run()
    assert (
        "Conventions: linear (gain = grade) gain, discount 1/log2(position + 1), k = 5, ideal order from the "
        "list's own grades." in texts(ana)
    )
    assert "约定：线性（增益 = 等级）增益，折扣 1/log2(位置 + 1)，k = 5，理想排序取自列表自身的等级。" in texts(li)
    assert "Query: 成都3天游" in texts(teacher.run())  # and on the projector
    assert "Conventions: linear (gain = grade) gain" in texts(teacher)

    open_activity(teacher, "compare", _w_cr_pair="seed003", _w_cr_metric="mrr")
    ana.run(), li.run()
    assert "Conventions: 1 / the position of the first relevant result (grade 1 or more)" in texts(ana)
    assert "约定：第一个相关结果（等级 ≥ 1）所在位置的倒数" in texts(li)
    open_activity(teacher, "compare", _w_cr_pair="seed003", _w_cr_metric="ndcg")
    assert "ideal order from every judged result, including those the list missed" in texts(ana.run())

    open_activity(teacher, "practice", _w_cr_practice_seed=2026, _w_cr_practice_count=3)
    ana.run(), li.run()
    # Exercise 1 is a DCG term: its gain and discount are stated, so the exponential gain is not a fair reading.
    assert "Conventions: linear (gain = grade) gain, discount 1/log2(position + 1)." in texts(ana)
    assert "Conventions: linear (gain = grade) gain, discount 1/log2(position + 1), k = " in texts(ana)
    assert "约定：线性（增益 = 等级）增益，折扣 1/log2(位置 + 1)。" in texts(li)
    # The control page and the projector show each exercise as the phones ask it, with its conventions.
    assert "Exercise 1: one DCG term" in texts(teacher.run())
    assert "Conventions: linear (gain = grade) gain, discount 1/log2(position + 1)." in texts(teacher)


def test_practice_names_the_exercise_of_a_bad_answer_and_saves_the_others(data_dir):
    teacher, code = start_room(data_dir)
    bo = join(code, "Bo")
    open_activity(teacher, "practice", _w_cr_practice_seed=2026, _w_cr_practice_count=3)
    bo.run()
    practice = Classroom(data_dir)
    activity = practice.rooms.get(code).current
    first, _, third = activity.activity().exercises()
    boxes = {w.key[-1]: w for w in bo.text_input if w.key.startswith("_w_cr_answer_")}
    boxes["0"].input(f"{first.answer:.3f}")
    boxes["1"].input("abc")
    boxes["2"].input(f"{third.answer:.3f}")
    send(bo)
    phone = texts(bo)
    assert (
        "Exercise 2: 'abc' is not a number: type digits, for example 0.75\n\nYour other answers were saved; "
        "correct this one and send again." in phone  # a paragraph each, not run together
    )
    assert sorted(a.part for a in practice.answers.for_activity(activity.id)) == [0, 2]
    assert next(w for w in bo.text_input if w.key.endswith("_1")).value == "abc"  # kept in its box
    assert "Saved." not in phone
    button(teacher.run(), "btn_cr_lock").click().run()
    phone = texts(bo.run())  # exercises 1 and 3 were saved as typed; exercise 2's "abc" was not
    assert "Locked: what you typed for exercise 2 was not sent." in phone and "Exercise 2: 'abc'" not in phone
    practice.close()


def test_one_status_line_and_an_unsent_estimate_is_named_at_the_lock(data_dir):
    teacher, code = start_room(data_dir)
    open_activity(teacher, "predict", _w_cr_source="preset", _w_cr_preset="five")
    ana, bo, cy = join(code, "Ana"), join(code, "Bo"), join(code, "Cy")
    answer_text(ana, "0.95")
    assert "Saved. You can change it until the teacher locks answers." in texts(ana)
    assert "You can change your answer until" not in texts(ana)  # one status line, not two
    next(w for w in ana.text_input if w.key.startswith("_w_cr_answer_")).input("0.8").run()  # typed, not sent
    next(w for w in bo.text_input if w.key.startswith("_w_cr_answer_")).input("0,7").run()  # typed, never sent
    button(teacher, "btn_cr_lock").click().run()
    phone = texts(ana.run())
    assert "Locked: your estimate 0.8 was not sent. What you sent before counts." in phone
    assert "Saved" not in phone and "Answers are locked" not in phone
    assert "Your estimate: 0.95" in phone

    phone = texts(bo.run())
    assert "Locked: your estimate 0,7 was not sent." in phone and "What you sent before" not in phone
    cy.run()  # nothing typed: the plain locked line
    assert "Answers are locked. Wait for the reveal." in texts(cy) and "Locked:" not in texts(cy)


def test_a_database_outage_is_a_notice_and_the_page_comes_back_with_what_was_typed(data_dir, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DB_RETRY_SECONDS", "0.2")  # the page's store, made by this test's first run
    teacher, code = start_room(data_dir)
    open_activity(teacher, "predict", _w_cr_source="preset", _w_cr_preset="five")
    ana = join(code, "Ana")
    answer_text(ana, "0.95")  # acknowledged
    assert "Saved" in texts(ana)

    def down(self):
        raise sa.exc.OperationalError("SELECT 1", {}, ConnectionError("server closed the connection"), True)

    with monkeypatch.context() as outage:  # every connection of the page's store is lost
        outage.setattr(Database, "read", down)
        outage.setattr(Database, "write", down)
        box = next(w for w in ana.text_input if w.key.startswith("_w_cr_answer_"))
        box.input("0.4")
        next(b for b in ana.button if b.key.startswith("btn_cr_send_")).click().run()
        notice = "The classroom's database is not answering"
        assert not ana.exception and notice in texts(ana), texts(ana)
        typed = ana.session_state["classroom"].typed  # a whole run cut short: the box is kept until it is drawn
        assert [v for k, v in typed.items() if k.startswith("_w_cr_answer_")] == ["0.4"]
        teacher.run()
        assert not teacher.exception and notice in texts(teacher)
        assert not session(room=code, kept={"me": None, "key": None}).exception  # a new page too
        ana.run()  # a second run in the outage: still kept
        assert not ana.exception and notice in texts(ana)
        assert "this page tries again by itself" in texts(ana)
    ana.run()  # the database is back: the page is whole again, the box still holds what was typed
    assert "this page tries again by itself" not in texts(ana) and "Your estimate: 0.95" in texts(ana)
    assert "this was not saved; try again in a moment" in texts(ana)  # the failed send's own line stays
    assert next(w for w in ana.text_input if w.key.startswith("_w_cr_answer_")).value == "0.4"
    next(b for b in ana.button if b.key.startswith("btn_cr_send_")).click().run()
    assert "Saved" in texts(ana)

    def answered():  # once this process has heard the answer (the store's notices, on a thread of their own)
        return next(m for m in teacher.run().metric if m.label == "Answered").value

    assert wait_until(lambda: answered() == "1 / 1", seconds=20), answered()
    store = Classroom(data_dir)
    [stored] = store.answers.for_activity(store.rooms.get(code).current.id)
    assert stored.value == 0.4
    store.close()
