"""Short links (/?go=CODE): any Playground, Learn or Practice state saved in the database under six characters,
opened from the home page or the page itself, in a new session; an unknown code is a notice."""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom.storage import Classroom
from support import ROOT, press_order


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    return tmp_path


def page(path="app.py", **params):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if path != "app.py":
        at.switch_page(path)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def made_code(at, page_key):
    assert not [b for b in at.button if b.key == f"btn_short_{page_key}"]  # drawn only once the box is opened
    at.session_state[f"share_open_{page_key}"] = True
    at.run()
    next(b for b in at.button if b.key == f"btn_short_{page_key}").click().run()
    assert not at.exception
    [url] = [c.value for c in at.code if "?go=" in c.value]
    return url.rsplit("=", 1)[1]


def test_a_playground_state_travels_by_short_link_to_a_new_session(data_dir):
    first = page("pages/1_Playground.py")
    press_order(first, "worst")
    order = [it.label for it in first.session_state["playground"].spec.items]
    code = made_code(first, "playground")
    assert len(code) == 6
    second = page(go=code)  # the home page hands it to the Playground
    assert not second.exception
    assert [it.label for it in second.session_state["playground"].spec.items] == order
    assert "go" not in second.query_params


def test_learn_and_practice_short_links_open_the_same_step_and_exercise(data_dir):
    learn = page("pages/3_Learn.py", step="4", lang="zh")
    code = made_code(learn, "learn")
    again = page(go=code)
    assert again.session_state["learn"].step == 4 and again.session_state["app"].lang == "zh"
    practice = page("pages/6_Practice.py", seed="77", n="3")
    code = made_code(practice, "practice")
    opened = page("pages/6_Practice.py", go=code)  # read on the page itself too
    assert (opened.session_state["practice"].seed, opened.session_state["practice"].number) == (77, 2)


def test_an_unknown_or_malformed_short_code_is_a_notice(data_dir):
    Classroom(f"sqlite:///{data_dir / 'classroom.sqlite3'}").close()
    for bad, words in (("ZZZZZZ", "no short link ZZZZZZ"), ("K0O1", "could not be opened")):
        at = page(go=bad)
        assert not at.exception
        assert any(words in w.value for w in at.warning), [w.value for w in at.warning]
