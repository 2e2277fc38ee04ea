"""A phone card drawn again while its student types, in Debian's Chromium: a desktop teacher and an iPhone 13
(touch). The teacher's "Show nicknames" changes the room's revision, so every phone fetches its card again; a student
halfway through typing an estimate keeps the box's focus and caret, and goes on typing where they were (the old
Streamlit phone kept its box across such a rerun). The card, the same as before, is not drawn again at all."""

import pytest
from playwright.sync_api import expect
from test_browser_live_room import open_activity, phone, start_room

pytestmark = pytest.mark.browser

ESTIMATE = "Your estimate of NDCG (0 to 1)"


def test_a_card_drawn_again_keeps_the_box_being_typed_in(browser, playwright, app_url):
    context, teacher, code, _ = start_room(browser, app_url)
    page = phone(browser, playwright, app_url, code, "Ana")
    teacher.get_by_text("An example", exact=True).click()
    open_activity(teacher)
    box = page.get_by_role("textbox", name=ESTIMATE)
    expect(box).to_be_visible(timeout=30_000)
    box.tap()
    page.keyboard.type("0.")
    expect(box).to_have_value("0.")
    box.evaluate("node => { node.dataset.before = 'yes'; }")  # a box drawn again has no such mark

    teacher.get_by_text("Show nicknames").click()
    # Every poll is a card request, so wait past two of them (0.75 s each), the revision cache (0.15 s) and the
    # teacher's page run: the phone has had the new revision's card by then.
    page.wait_for_timeout(2_000)
    expect(page.locator(".ndcg-card input[data-before]")).to_have_count(1)  # the same card: not drawn again
    expect(box).to_be_focused()
    page.keyboard.type("9")
    expect(box).to_have_value("0.9")
    page.get_by_role("button", name="Send").tap()
    expect(page.get_by_text("Saved. You can change it")).to_be_visible()
    expect(page.get_by_text("Your estimate: 0.90")).to_be_visible()
    page.context.close()
    context.close()
