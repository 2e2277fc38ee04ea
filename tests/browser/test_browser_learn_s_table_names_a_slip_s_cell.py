"""Learn's step 6 in Debian's Chromium: a right cell says so under itself, and a slip typed in another cell is
located there with the right number, while the cells around it stay as typed."""

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


def test_learn_s_table_names_a_slip_s_cell(page, app_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{app_url}/Learn?step=6")
    expect(page.get_by_role("heading", name="6. A whole NDCG by hand")).to_be_visible(timeout=30000)
    wait_for_idle(page)
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
