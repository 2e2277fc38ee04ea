"""Every run's ``new_session`` message carries the theme (six sections); ``serve.py`` makes Streamlit work each section
out once and copy it after (``ui.server_tuning.reuse_theme_messages``): the same message, a sixth of the work."""

import pytest
from streamlit import config
from streamlit.proto.NewSession_pb2 import CustomThemeConfig
from streamlit.runtime import app_session

from ui.server_tuning import reuse_theme_messages

SECTIONS = ("theme", "theme.light", "theme.dark", "theme.sidebar")


@pytest.fixture
def counted(monkeypatch):
    """Streamlit's own function, counting its calls, in place for the test (and put back after it)."""
    original = app_session._populate_theme_msg
    calls = []

    def populate(msg, section="theme"):
        calls.append(section)
        original(msg, section)

    monkeypatch.setattr(app_session, "_populate_theme_msg", populate)
    before = config.get_option("theme.primaryColor")
    config.set_option("theme.primaryColor", "#0b63ce")  # a theme to copy, whatever the test's configuration
    yield original, calls
    config.set_option("theme.primaryColor", before)


def test_each_section_is_worked_out_once_and_copied_the_same(counted):
    original, calls = counted
    expected = {}
    for section in SECTIONS:
        expected[section] = CustomThemeConfig()
        original(expected[section], section)
    assert expected["theme"].primary_color == "#0b63ce"  # the test has a theme to copy
    reuse_theme_messages()
    for _ in range(3):
        for section in SECTIONS:
            msg = CustomThemeConfig()
            app_session._populate_theme_msg(msg, section)
            assert msg == expected[section]
    assert sorted(calls) == sorted(SECTIONS)  # once each, however many runs


def test_it_is_put_in_place_once(counted):
    reuse_theme_messages()
    first = app_session._populate_theme_msg
    reuse_theme_messages()
    assert app_session._populate_theme_msg is first
