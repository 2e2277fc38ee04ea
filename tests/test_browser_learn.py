"""The lesson in Debian's Chromium, from step 1 to step 6, answering each check."""

import pytest
from conftest import wait_for_idle
from playwright.sync_api import expect

from ndcg_core import dcg, ndcg_at_k

pytestmark = pytest.mark.browser

FIVE = [3, 2, 3, 0, 1]


def test_walk_the_lesson_from_step_1_to_6(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 1400})
    page.goto(f"{app_url}/Learn")
    answers = {1: "Neither: they tie", 2: f"{sum(FIVE)}", 3: "0.5", 4: f"{dcg(FIVE, 3):.3f}",
               5: f"{ndcg_at_k(FIVE, 5):.3f}", 6: "NDCG@1"}
    for step in range(1, 7):
        expect(page.get_by_role("heading", name=f"{step}.")).to_be_visible(timeout=30000)
        wait_for_idle(page)  # the previous step's answer box is gone
        if step in (1, 6):
            page.get_by_text(answers[step], exact=True).click()
        else:
            box = page.get_by_role("textbox", name="Your answer")
            box.fill(answers[step])
            box.press("Enter")
            wait_for_idle(page)
        page.get_by_role("button", name="Check my answer").click()
        expect(page.get_by_test_id("stAlert").filter(has_text="Right.")).to_be_visible()
        if step < 6:
            page.get_by_role("button", name="Next step").click()
    expect(page.get_by_text("Next: try it in the Playground")).to_be_visible()
