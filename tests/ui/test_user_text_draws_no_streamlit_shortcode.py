"""What a person typed (a nickname, a label) shows as typed in Streamlit's Markdown: Streamlit draws its shortcodes
(``:material/home:`` an icon, ``:streamlit:`` its logo, ``:smile:`` an emoji, ``:red[...]`` coloured text) even from
backslash-escaped colons, so ``md_escape`` puts an invisible word joiner after every colon that something follows:
no colon it writes starts a shortcode, and the text read back is the text typed. (What Chromium draws of a nickname
on the projector: tests/browser/test_browser_projector_reveal_fits.py.)"""

import re

from hypothesis import given
from hypothesis import strategies as st

from support import plain
from ui.format import WORD_JOINER, md_escape

# A colon Streamlit's Markdown could read as a shortcode's start: one a name's character follows (its shortcodes
# are :name:, :material/name:, :color[text]).
SHORTCODE_START = re.compile(r":[^\s\u2060]")
SHORTCODES = [":material/home: Ana", ":streamlit: Bo", ":smile: Chen", ":red[Dee]", ":blue-background[E]", ":+1:"]


def test_the_shortcodes_a_nickname_can_hold_are_written_inert():
    for name in SHORTCODES:
        escaped = md_escape(name)
        assert not SHORTCODE_START.search(escaped.replace("\\", "")), escaped
        assert ":material/" not in escaped  # the text Streamlit's Markdown looks for before it parses anything
        assert plain(escaped).replace(WORD_JOINER, "") == name


@given(st.text(max_size=60))
def test_no_colon_md_escape_writes_starts_a_shortcode_and_the_text_reads_back(text):
    escaped = md_escape(text)
    assert not SHORTCODE_START.search(escaped.replace("\\", "")), escaped
    assert plain(escaped).replace(WORD_JOINER, "") == text.replace(WORD_JOINER, "")
