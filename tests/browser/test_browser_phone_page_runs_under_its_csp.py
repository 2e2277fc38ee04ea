"""The phones' own pages under their Content Security Policy (issue 46) in Debian's Chromium: a student joins on the
join page, the phone page draws the card from its stream and sends an estimate, and the browser reports no
violation of the policy on either page."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser

SHOTS = Path("/work/wt/shots/routes")


@pytest.fixture
def store():
    """The store the test session's app uses (tests/conftest.py sets its data folder for both)."""
    opened = Classroom(database_url(os.environ))
    yield opened
    opened.close()


def test_a_phone_joins_and_answers_with_no_violation_of_its_policy(browser, playwright, app_url, store):
    room, key = store.rooms.create()
    store.rooms.open_activity(room.code, key, Predict(preset_list("five")))
    context = browser.new_context(**playwright.devices["iPhone 13"])
    page = context.new_page()
    complaints = []
    page.on("console", lambda m: complaints.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: complaints.append(str(e)))
    reply = page.goto(f"{app_url}/join/{room.code}?lang=en")
    assert "script-src 'nonce-" in reply.headers["content-security-policy"]
    page.get_by_role("textbox").fill("Ana")
    page.get_by_role("button", name="Join").tap()
    page.wait_for_url(re.compile(rf"/phone/{room.code}\?me=[\w-]+&lang=en$"), timeout=20_000)
    box = page.locator("input.number")
    expect(box).to_be_visible(timeout=20_000)  # the card, drawn by the page's own script
    box.fill("0.62")
    page.get_by_role("button", name="Send").tap()
    expect(page.locator(".status")).to_contain_text("Saved", timeout=20_000)
    expect(page.get_by_text("Your estimate: 0.62")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-under-csp.png"))
    assert complaints == []
    context.close()
