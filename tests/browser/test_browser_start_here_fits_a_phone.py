"""On an iPhone 13 (390 x 844), Home's "Start here" links and Practice's first question are whole: every element
ends inside the screen and no text is cut short."""

import re

import pytest
from playwright.sync_api import expect

from support import wait_for_idle

pytestmark = pytest.mark.browser

# True when some text in the element runs past its box (cut off or ended with an ellipsis).
CUT = """e => [...e.querySelectorAll('*'), e]
  .filter(n => n.childElementCount === 0 && n.textContent.trim())
  .some(n => n.scrollWidth > n.clientWidth + 1)"""

START_HERE = {
    "en": ["1. Learn", "2. Playground", "3. Practice"],
    "zh": ["1. 学习", "2. 练习场", "3. 练习"],
}
WHAT = {"en": "Nine short steps on one list", "zh": "围绕同一个列表的九个小步骤"}


def expect_whole(page, element):
    """``element`` is on screen from its left edge to its right edge, and none of its text is cut."""
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"], element.inner_text()
    assert not element.evaluate(CUT), element.inner_text()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_s_start_here_links_and_practice_s_first_question_are_whole_on_a_phone(phone_page, app_url, lang):
    """The worker's shared phone page (conftest's) per language: Home's links, then the Practice its third link
    opens (in the same session, as a learner goes; a page switch costs less than a page opened afresh)."""
    page = phone_page
    page.goto(f"{app_url}/?lang={lang}")
    for label in START_HERE[lang]:
        link = page.get_by_role("link", name=label)
        expect(link).to_be_visible(timeout=30000)
        expect_whole(page, link)
    what = page.get_by_test_id("stCaptionContainer").filter(has_text=WHAT[lang])
    expect(what).to_have_count(1)
    expect_whole(page, what)

    page.get_by_role("link", name=START_HERE[lang][2]).tap()
    expect(page).to_have_url(re.compile(r"/Practice"))
    heading = page.get_by_role("heading", level=3).filter(has_text="1")
    expect(heading.first).to_be_visible(timeout=30000)
    wait_for_idle(page)
    main = page.get_by_test_id("stMainBlockContainer")
    parts = main.locator(
        "[data-testid=stHeading], [data-testid=stMarkdown], [data-testid=stCaptionContainer], "
        "[data-testid=stTextInput], [data-testid=stRadio], [data-testid=stButton]"
    )
    assert parts.count() > 5
    for i in range(parts.count()):
        expect_whole(page, parts.nth(i))
