"""A Practice answer typed with a decimal comma, on an iPhone 13 in Debian's Chromium: "4,5" is read as 4.5 and
saved, and when the teacher locks answers the phone says they are locked, not that the answer was never sent (the
store keeps the answer as typed, and the phone takes the same text for the same answer)."""

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom.kinds.practice import practice_activity
from ndcg_core.classroom.storage import Classroom, database_url
from support import join_on_its_page

pytestmark = pytest.mark.browser


def test_a_comma_answer_saved_is_not_called_unsent_when_answers_lock(browser, playwright, app_url):
    store = Classroom(database_url())
    room, key = store.rooms.create()
    page = join_on_its_page(browser.new_context(**playwright.devices["iPhone 13"]), app_url, room.code, "Ana")
    store.rooms.open_activity(room.code, key, practice_activity(2026, 2))
    box = page.get_by_role("textbox", name="Your answer").first
    expect(box).to_be_visible(timeout=30_000)
    box.fill("4,5")
    page.get_by_role("button", name="Send my answers").tap()
    expect(page.get_by_text("Read 4,5 as 4.5. Saved.")).to_be_visible()
    store.rooms.set_phase(room.code, key, "locked")
    status = page.locator(".ndcg-card .status")
    expect(status).to_have_text("Answers are locked. Wait for the reveal.", timeout=30_000)
    expect(page.get_by_text("not sent")).to_have_count(0)
    page.screenshot(path="/work/wt/shots/review/comma_answer_locked.png", full_page=True)
    page.context.close()
    store.close()
