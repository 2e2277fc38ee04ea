"""The control page on a 1280x720 laptop (a lecturer's trial, issue 45), in Debian's Chromium: with an activity open,
the answered count and the class's chart are on the first screen beside the buttons, Lock and Reveal whole, without
scrolling (they were below the buttons, the links and the join notes, off the first screen)."""

import pytest
from playwright.sync_api import expect
from test_browser_live_room import start_room
from test_browser_projector_reveal_fits import within

pytestmark = pytest.mark.browser


def test_the_answered_count_and_the_chart_are_beside_the_buttons_on_the_first_screen(browser, app_url):
    context, teacher, _, _ = start_room(browser, app_url)  # at 1280x720
    teacher.get_by_text("An example", exact=True).click()
    teacher.get_by_role("button", name="Open for the class").click()
    count = teacher.get_by_test_id("stMetric").filter(has_text="Answered")
    expect(count).to_contain_text("0 / 0", timeout=30_000)
    chart = teacher.get_by_test_id("stVegaLiteChart").first
    expect(chart.locator("svg text").first).to_be_attached()
    teacher.get_by_test_id("stMain").evaluate("main => main.scrollTo(0, 0)")  # the page as it opens
    lock = teacher.get_by_role("button", name="Lock answers")
    reveal = teacher.get_by_role("button", name="Reveal")
    for part in (lock, reveal, count, chart):
        within(teacher, part, 720)
    # Beside the buttons, not under them: the count and the chart start right of the Reveal button.
    right_of_buttons = max(b["x"] + b["width"] for b in (lock.bounding_box(), reveal.bounding_box()))
    assert count.bounding_box()["x"] >= right_of_buttons, (count.bounding_box(), right_of_buttons)
    assert chart.bounding_box()["x"] >= right_of_buttons, (chart.bounding_box(), right_of_buttons)
    context.close()
