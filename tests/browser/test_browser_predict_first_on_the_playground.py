"""Predict first on the Playground, in Debian's Chromium: with the switch on, a move waits (the list goes back to
its order) until the learner has guessed; the reveal makes it and says whether the guess was right. The example's
doc C (a 3) up from 3 to 2 raises NDCG@5 by (3 - 2)(1/log2(3) - 1/2) / IDCG, a little."""

import re
from math import log2

import pytest
from playwright.sync_api import expect

from support import wait_for_idle

pytestmark = pytest.mark.browser


@pytest.fixture
def page(desktop_page):
    """The worker's shared desktop page (conftest's ``desktop_page``), not a fresh context: each test opens its
    address and sets its size."""
    return desktop_page


IDCG = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)


def test_a_move_waits_for_the_guess_then_shows_it_beside_the_truth(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/Playground")
    rows = page.locator("ol > li.row")
    expect(rows).to_have_count(5, timeout=30000)
    wait_for_idle(page)
    page.get_by_text("Predict first").click()
    wait_for_idle(page)
    rows.nth(2).locator("button.up").click()
    expect(page.get_by_text("Before moving doc C from 3 to 2: what will it do to NDCG@5?")).to_be_visible()
    expect(page.locator("ol > li.row .label")).to_have_text(["doc A", "doc B", "doc C", "doc D", "doc E"])
    page.get_by_text("Up", exact=True).click()
    wait_for_idle(page)
    page.get_by_text("a little (under 0.05)").click()
    wait_for_idle(page)
    page.get_by_role("button", name="Make the move and show me").click()
    change = (1 / log2(3) - 1 / 2) / IDCG
    expect(page.get_by_text(re.compile(rf"^Right: you guessed up, a little .* \(\+{change:.4f}\)\.$"))).to_be_visible()
    expect(page.locator("ol > li.row .label")).to_have_text(["doc A", "doc C", "doc B", "doc D", "doc E"])
