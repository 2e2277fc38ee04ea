"""The lesson in Debian's Chromium, from step 1 to step 9, answering each check (step 6's table naming a slip's
cell on the way), and its end in presenter view at a projector's 1280x720 (the walk's page switched to it, not a
page of its own); its end on a phone, and step 4 on a phone (on the worker's shared desktop and phone pages,
conftest's)."""

import re
from math import log2

import pytest
from playwright.sync_api import expect

from ndcg_core import cg, dcg, idcg
from support import wait_for_idle

pytestmark = pytest.mark.browser


@pytest.fixture
def page(desktop_page):
    """The worker's shared desktop page (conftest's ``desktop_page``), not a fresh context: each test opens its
    address and sets its size."""
    return desktop_page


FIVE = [3, 2, 3, 0, 1]


def test_walk_the_lesson_from_step_1_to_9(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 1400})
    page.goto(f"{app_url}/Learn")
    answers = {
        1: "doc C (grade 3)",
        2: f"{sum(FIVE)}",
        3: "0.5",
        4: f"{dcg(FIVE, 3):.3f}",
        5: f"{idcg(FIVE, 5):.3f}",  # step 5 asks for the ideal's DCG; NDCG@5 comes after
        9: "7",
    }
    # The feedback of each step says its own number, so a previous step's "Right." cannot pass for it.
    right = {
        1: "Right. doc C is graded 3 and doc B 2",
        2: f"Right. CG@5 is the plain sum of the top five grades: {cg(FIVE, 5):.4f}.",
        3: "Right. 1/log2(3 + 1) = 1/log2(4) = 1/2 = 0.5000.",
        4: f"Right. Add grade/log2(i + 1) for positions 1 to 3: {dcg(FIVE, 3):.4f}.",
        5: f"positions 1 to 5: IDCG@5 = {idcg(FIVE, 5):.4f}.",
        6: "Here is every cell worked out",
        7: "Right way and about the right size.",
        8: "Right way and about the right size.",
        9: "Right. 2^3 − 1 = 8 − 1 = 7.",
    }
    guesses = {7: ("down", "more than 0.15"), 8: ("up", "less than 0.01")}
    for step in range(1, 10):
        expect(page.get_by_role("heading", name=re.compile(rf"^{step}\. "))).to_be_visible(timeout=30000)
        wait_for_idle(page)  # the step's run has begun (its heading is drawn): wait for the last one's box to go
        feedback = page.get_by_test_id("stAlert").filter(has_text=right[step])
        expect(feedback).to_have_count(0)  # not before the answer
        if step == 6:
            the_table_names_a_slip_s_cell(page)
            page.get_by_role("button", name="Show the answers").click()
        elif step in guesses:
            for choice in guesses[step]:
                page.get_by_text(choice, exact=True).click()
                wait_for_idle(page)
            page.get_by_role("button", name="Show me").click()
        elif step == 1:
            page.get_by_text(answers[step], exact=True).click()
        else:
            box = page.get_by_role("textbox", name="Your answer")
            box.fill(answers[step])
            box.press("Enter")
        if step in answers:
            page.get_by_role("button", name="Check my answer").click()
        expect(feedback).to_be_visible()
        if step < 9:
            page.get_by_role("button", name="Next step").click()
    expect(page.get_by_text("Next: try it in the Playground")).to_be_visible()
    expect(page.get_by_role("heading", name="Read on")).to_be_visible()

    # The end on a projector: presenter view at 1280x720, the step's answer kept.
    page.set_viewport_size({"width": 1280, "height": 720})
    page.get_by_text("Presenter view").click()
    expect(page).to_have_url(re.compile(r"present=1"))
    wait_for_idle(page)
    the_end_says_finished_with_a_whole_link_onward(page)


def the_end_says_finished_with_a_whole_link_onward(page):
    """Step 9 answered: its feedback, the lesson finished, and the link onward whole across the page's column."""
    link = page.get_by_role("link", name="Next: try it in the Playground")
    expect(page.get_by_test_id("stAlert").filter(has_text="Right. 2^3 − 1 = 8 − 1 = 7.")).to_be_visible()
    expect(page.get_by_test_id("stAlert").filter(has_text="finished all 9 steps")).to_be_visible()
    expect(link).to_be_visible()
    assert not link.evaluate(CUT_LINK)
    main = page.get_by_test_id("stMain").locator("[data-testid=stMainBlockContainer]").bounding_box()
    assert link.bounding_box()["width"] >= 0.9 * (main["width"] - 2 * 16) - 40  # full width of the page's column


def the_table_names_a_slip_s_cell(page):
    """Step 6's table (was test_browser_learn_s_table_names_a_slip_s_cell, a page of its own): a right cell says so
    under itself, and a slip typed in another cell is located there with the right number, while the cells around
    it stay as typed."""
    right, slip = (
        page.get_by_role("textbox", name="Position 1's term"),
        page.get_by_role("textbox", name="Position 2's term"),
    )
    right.fill("3")
    right.press("Enter")
    wait_for_idle(page)
    slip.fill("1.62")  # 2/log2(3) = 1.26 with its digits swapped
    slip.press("Enter")
    said = f"Position 2's term is {2 / log2(3):.2f}, not 1.62."
    expect(page.get_by_test_id("stCaptionContainer").filter(has_text=said)).to_be_visible()
    expect(page.get_by_test_id("stCaptionContainer").filter(has_text="✓ Right")).to_have_count(1)
    # The message sits under its own cell: below the box typed in, in the same column.
    box, message = slip.bounding_box(), page.get_by_test_id("stCaptionContainer").filter(has_text=said).bounding_box()
    assert message["y"] >= box["y"] + box["height"] - 1
    assert box["x"] - 20 <= message["x"] <= box["x"] + box["width"]
    expect(right).to_have_value("3")
    expect(slip).to_have_value("1.62")
    wait_for_idle(page)


CUT_LINK = """e => { const t = [...e.querySelectorAll('*')]
  .filter(n => n.childElementCount === 0 && n.textContent.trim());
  return t.some(n => n.scrollWidth > n.clientWidth + 1); }"""


def test_the_lesson_ends_with_a_finish_and_a_whole_link_onward_on_a_phone(phone_page, app_url):
    page = phone_page
    page.goto(f"{app_url}/Learn?step=9")
    expect(page.get_by_role("heading", name="9. Three other conventions")).to_be_visible(timeout=30000)
    wait_for_idle(page)
    link = page.get_by_role("link", name="Next: try it in the Playground")
    expect(link).to_have_count(0)  # the way on comes with the answer
    box = page.get_by_role("textbox", name="Your answer")
    box.fill("7")
    box.press("Enter")
    page.get_by_role("button", name="Check my answer").click()
    the_end_says_finished_with_a_whole_link_onward(page)


def test_step_4_writes_out_every_term_within_a_phones_width(phone_page, app_url):
    page = phone_page
    page.goto(f"{app_url}/Learn?step=4")
    expect(page.get_by_role("heading", name="4. DCG")).to_be_visible(timeout=30000)
    wait_for_idle(page)
    table = page.get_by_test_id("stTable")
    expect(table.get_by_text("doc E")).to_be_visible()
    width = page.viewport_size["width"]
    assert table.bounding_box()["x"] + table.bounding_box()["width"] <= width
    cells = table.locator("th, td")
    assert cells.count() == 3 * 6
    for i in range(cells.count()):
        box = cells.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, cells.nth(i).inner_text()
    assert not table.evaluate(CUT_LINK)  # no text runs past its cell
