"""The home page through Streamlit's AppTest: its numbers are ndcg_core's, bad input is a message."""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import dcg, ndcg_at_k
from support import ROOT, plain


def run_home(**inputs):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30).run()
    for key, value in inputs.items():
        widget = at.text_input(key=key) if key == "home_grades" else at.number_input(key=key)
        widget.set_value(value).run()
    return at


def test_the_default_example_is_wikipedias_list_against_itself():
    at = run_home()
    assert not at.exception
    values = {m.label: m.value for m in at.metric}
    assert values["NDCG@6"] == f"{ndcg_at_k([3, 2, 3, 0, 1, 2], 6):.4f}" == "0.9608"
    assert values["DCG@6"] == f"{dcg([3, 2, 3, 0, 1, 2]):.4f}"


def test_typing_grades_and_k_updates_the_figures():
    at = run_home(home_grades="3 0 2", home_k=2)
    values = {m.label: m.value for m in at.metric}
    assert values["NDCG@2"] == f"{ndcg_at_k([3, 0, 2], 2):.4f}"
    assert values["DCG@2"] == "3.0000"


@pytest.mark.parametrize(
    "text, message",
    [("3, x, 2", "grade at position 2 is 'x': not a number"), ("3, -1", "grades cannot be negative"), ("nan", "nan")],
)
def test_bad_grades_show_a_message_not_a_traceback(text, message):
    at = run_home(home_grades=text)
    assert not at.exception
    assert message in plain(at.error[0].value).lower()
    assert not at.metric


def test_an_empty_list_asks_for_grades():
    at = run_home(home_grades="  ")
    assert not at.exception and "Type at least one grade" in at.info[0].value


@pytest.mark.parametrize("text", ["3，0，2", "3、0、2", " 3 0, 2 "])
def test_chinese_commas_and_spaces_separate_grades_too(text):
    at = run_home(home_grades=text, home_k=3)
    assert not at.exception and not at.error
    assert {m.label: m.value for m in at.metric}["DCG@3"] == f"{dcg([3, 0, 2]):.4f}" == "4.0000"
