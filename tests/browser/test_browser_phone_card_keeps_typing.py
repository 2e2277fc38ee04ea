"""A phone card drawn again while its student types, in Debian's Chromium: an iPhone 13 (touch). The teacher's "Show
nicknames" (here from the store, as the teacher's page does it) changes the room's revision, so every phone fetches
its card again; a student halfway through typing an estimate keeps the box's focus and caret, and goes on typing where
they were (the old Streamlit phone kept its box across such a rerun). The card, the same as before, is not drawn
again at all. (The teacher's page's own "Show nicknames" reaching the phones is
``test_browser_replica_killed_mid_class``'s.)"""

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.storage import Classroom, database_url
from support import join_on_its_page

pytestmark = pytest.mark.browser

ESTIMATE = "Your estimate of NDCG (0 to 1)"


def test_a_card_drawn_again_keeps_the_box_being_typed_in(browser, playwright, app_url):
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, key = store.rooms.create()
    page = join_on_its_page(browser.new_context(**playwright.devices["iPhone 13"]), app_url, room.code, "Ana")
    store.rooms.open_activity(room.code, key, Predict(preset_list("five")))
    box = page.get_by_role("textbox", name=ESTIMATE)
    expect(box).to_be_visible(timeout=30_000)
    box.tap()
    page.keyboard.type("0.")
    expect(box).to_have_value("0.")
    box.evaluate("node => { node.dataset.before = 'yes'; }")  # a box drawn again has no such mark

    revision = store.rooms.revision(room.code)
    store.rooms.show_names(room.code, key, True)
    assert store.rooms.revision(room.code) != revision  # a new revision: the phone fetches its card again
    # Every poll is a card request, so wait past two of them (0.75 s each) and the revision cache (0.15 s): the
    # phone has had the new revision's card by then.
    page.wait_for_timeout(2_000)
    expect(page.locator(".ndcg-card input[data-before]")).to_have_count(1)  # the same card: not drawn again
    expect(box).to_be_focused()
    page.keyboard.type("9")
    expect(box).to_have_value("0.9")
    page.get_by_role("button", name="Send").tap()
    expect(page.get_by_text("Saved. You can change it")).to_be_visible()
    expect(page.get_by_text("Your estimate: 0.90")).to_be_visible()
    page.context.close()
    store.close()
