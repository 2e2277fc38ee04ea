"""The lesson in Debian's Chromium, from step 1 to step 6, answering each check."""

import pytest
from playwright.sync_api import expect

from ndcg_core import dcg, ndcg_at_k
from support import wait_for_idle

pytestmark = pytest.mark.browser

FIVE = [3, 2, 3, 0, 1]


def test_walk_the_lesson_from_step_1_to_6(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 1400})
    page.goto(f"{app_url}/Learn")
    answers = {
        1: "Neither: they tie",
        2: f"{sum(FIVE)}",
        3: "0.5",
        4: f"{dcg(FIVE, 3):.3f}",
        5: f"{ndcg_at_k(FIVE, 5):.3f}",
        6: "NDCG@1",
    }
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


CUT_LINK = """e => { const t = [...e.querySelectorAll('*')]
  .filter(n => n.childElementCount === 0 && n.textContent.trim());
  return t.some(n => n.scrollWidth > n.clientWidth + 1); }"""


@pytest.mark.parametrize("device", ["iPhone 13", "projector"])
def test_the_lesson_ends_with_a_finish_and_a_whole_link_onward(browser, playwright, app_url, device):
    options = playwright.devices[device] if device != "projector" else {"viewport": {"width": 1280, "height": 720}}
    context = browser.new_context(**options)
    page = context.new_page()
    page.goto(f"{app_url}/Learn?step=6" + ("&present=1" if device == "projector" else ""))
    expect(page.get_by_role("heading", name="6. NDCG@k")).to_be_visible(timeout=30000)
    wait_for_idle(page)
    page.get_by_text("NDCG@1", exact=True).click()
    page.get_by_role("button", name="Check my answer").click()
    expect(page.get_by_test_id("stAlert").filter(has_text="finished all 6 steps")).to_be_visible()
    link = page.get_by_role("link", name="Next: try it in the Playground")
    expect(link).to_be_visible()
    assert not link.evaluate(CUT_LINK)
    main = page.get_by_test_id("stMain").locator("[data-testid=stMainBlockContainer]").bounding_box()
    assert link.bounding_box()["width"] >= 0.9 * (main["width"] - 2 * 16) - 40  # full width of the page's column
    context.close()
