"""Building a lesson on the Classroom page (AppTest, SQLite and PostgreSQL): add activities from a preset and from
a table typed in, reorder and remove them, a bad value is the core's message naming the field and loses nothing
typed, save under a code that opens the same lesson, and the download is the lesson's file."""

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from test_classroom_page import button, session, texts

from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step, Wording, lesson_to_toml, read_lesson
from ndcg_core.classroom.storage import Classroom


@pytest.fixture
def data_dir(classroom_db):
    return classroom_db


def widget(at, key):
    widgets = (*at.radio, *at.selectbox, *at.number_input, *at.checkbox, *at.text_input)
    return next(w for w in widgets if w.key == key)


def add(at, kind, **choices):
    widget(at, "_w_le_kind").set_value(kind).run()
    for key, value in choices.items():
        widget(at, key).set_value(value).run()
    button(at, "btn_le_add").click().run()
    assert not at.exception, at.exception


def kinds(at):
    return [type(s.activity).__name__ for s in at.session_state["classroom"].draft]


def test_build_reorder_remove_save_load_and_download_a_lesson(data_dir, monkeypatch):
    offered = {}  # file name -> bytes, as the page hands each download to Streamlit's media storage
    keep = MemoryMediaFileStorage.load_and_get_id

    def load(self, path_or_data, mimetype, kind, filename=None):
        offered[filename] = path_or_data
        return keep(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", load)
    at = session()
    widget(at, "_w_le_title").input("Week 3").run()
    add(at, "predict", _w_le_source="preset", _w_le_preset="five", _w_le_en="How good is it?", _w_le_zh="有多好？")
    add(at, "judge", _w_le_from="table", _w_le_query="chengdu food", _w_le_table_k=2, _w_le_time_limit=45)
    add(at, "compare", _w_le_pair="seed003", _w_le_metric="mrr")
    assert kinds(at) == ["Predict", "Judge", "Compare"]
    assert "Activities: 3" in texts(at) and "45 s to answer" in texts(at)
    judge = at.session_state["classroom"].draft[1]
    assert judge.activity.spec.query == "chengdu food" and judge.activity.spec.grades == (3, 2, 0)
    button(at, "btn_le_up_2").click().run()  # Compare up, before Judge
    assert kinds(at) == ["Predict", "Compare", "Judge"]
    button(at, "btn_le_down_0").click().run()
    assert kinds(at) == ["Compare", "Predict", "Judge"]
    button(at, "btn_le_del_0").click().run()
    assert kinds(at) == ["Predict", "Judge"]
    expected = Lesson(
        "Week 3",
        (Step(Predict(preset_list("five")), Wording("How good is it?", "有多好？")), judge),
    )
    assert read_lesson(lesson_to_toml(expected)) == expected
    assert offered["week-3.toml"] in (lesson_to_toml(expected), lesson_to_toml(expected).encode())
    button(at, "btn_le_save").click().run()
    code = at.session_state["classroom"].draft_code
    assert code and f"lesson={code}" in " ".join(c.value for c in at.code)
    store = Classroom(data_dir)
    assert store.lessons.load(code) == read_lesson(lesson_to_toml(expected))
    store.close()
    other = session(lesson=code)  # the link opens it in the editor, a new browser
    widget(other, "_w_le_open_source").set_value("code").run()
    button(other, "btn_le_open").click().run()
    assert kinds(other) == ["Predict", "Judge"] and widget(other, "_w_le_title").value == "Week 3"


def test_a_bad_value_is_the_core_s_message_naming_the_field_and_keeps_what_was_typed(data_dir):
    at = session()
    add(at, "predict", _w_le_source="preset", _w_le_preset="five", _w_le_en="Mine", _w_le_time_limit=2)
    assert "Activity 1 (predict), field time_limit is 2: it must be 5 to 3600" in texts(at)  # the core's words
    assert kinds(at) == [] and widget(at, "_w_le_en").value == "Mine"
    assert widget(at, "_w_le_time_limit").value == 2
    zh = session("zh")
    add(zh, "predict", _w_le_source="preset", _w_le_preset="five", _w_le_time_limit=2)
    assert "第 1 个活动（predict）的字段 time_limit 是 2：必须在 5 到 3600 之间" in texts(zh)


def test_an_evaluate_query_becomes_an_activity_with_the_judged_documents_it_missed(data_dir):
    at = session()
    add(at, "predict", _w_le_from="evaluate", _w_le_evaluate_query="q1", _w_le_table_k=3)
    [step] = at.session_state["classroom"].draft
    # The Evaluate page's example, query q1: d2 (grade 0) at rank 1, d1 (3) at 2, d3 (2) at 3; d4 (3) judged, missed.
    spec = step.activity.spec
    assert (spec.labels, spec.grades, spec.pool, spec.query) == (("d2", "d1", "d3"), (0, 3, 2), (3,), "q1")
