"""The join form on an iPhone 13 (touch) in Debian's Chromium, in Chinese: no English from Streamlit over the boxes
("Press Enter to apply"), the nickname's limit said under its box before anything is typed, and a nickname past the
limit kept whole in the box and refused with a message in Chinese when Join is tapped (never cut silently)."""

import os
import re

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser

LONG = "Alexandra-Konstantinopolous"  # 27 characters


def test_the_chinese_join_form_says_the_limit_and_refuses_a_long_nickname_in_chinese(browser, playwright, app_url):
    store = Classroom(database_url(os.environ))
    room, _ = store.rooms.create()
    context = browser.new_context(**playwright.devices["iPhone 13"])
    page = context.new_page()
    page.goto(f"{app_url}/Classroom?room={room.code}&lang=zh")
    box = page.get_by_role("textbox", name="昵称（可不填）")
    expect(box).to_be_visible(timeout=30_000)
    expect(page.get_by_text(f"最多 {rules.MAX_NICKNAME} 个字符")).to_be_visible()  # said before anything is typed
    box.tap()
    page.keyboard.type(LONG)
    expect(box).to_have_value(LONG)  # not cut at the limit
    # Nothing in English on the form while typing: Streamlit's instructions under a box would say "Press Enter".
    expect(page.get_by_test_id("InputInstructions").filter(has_text=re.compile("[A-Za-z]"))).to_have_count(0)
    expect(page.get_by_text("Press Enter")).to_have_count(0)
    page.get_by_role("button", name="加入").tap()
    expect(page.get_by_text(f"昵称有 {len(LONG)} 个字符；最多 {rules.MAX_NICKNAME} 个")).to_be_visible()
    expect(box).to_have_value(LONG)  # kept, to shorten
    assert store.students.roster(room.code) == []
    context.close()
    store.close()
