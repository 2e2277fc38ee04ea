"""The Playground's list draws its own buttons, in Debian's Chromium: a row's ▲ and ▼, by mouse and by keyboard,
move an item by one place and count as one move each (the caption names one move, from its place to the next, and
the change is that one move's), as a drag does; the one-click orderings under the list (Ideal order, Worst order,
Shuffle, Reset, once four ``st.button``s) are real buttons of the same component, pressed by mouse or keyboard,
the focus kept on the pressed button through the server's redraw."""

import pytest
from playwright.sync_api import expect

from ndcg_core import ndcg_at_k
from ndcg_core.lists.presets import PRESETS
from support import wait_for_idle

pytestmark = pytest.mark.browser

FIVE = dict(zip(PRESETS.build("five").labels, PRESETS.build("five").grades, strict=False))
K = 5


def ndcg_of(order):
    return ndcg_at_k([FIVE[label] for label in order], K)


def expect_one_move(page, before, after, label, src, dst):
    """The list shows ``after``; the headline is ndcg_core's NDCG for it with the change from ``before``; the
    caption names the one move of ``label`` from ``src`` to ``dst``."""
    expect(page.locator("li.row .label")).to_have_text(after)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="NDCG@").first
    expect(metric.get_by_test_id("stMetricValue")).to_have_text(f"{ndcg_of(after):.4f}")
    change = f"{ndcg_of(after) - ndcg_of(before):+.4f}".replace("-", "")  # the delta's arrow says the sign
    expect(metric.get_by_test_id("stMetricDelta")).to_contain_text(change)
    said = page.get_by_test_id("stMarkdown").filter(has_text=f"after moving {label} from {src} to {dst}")
    expect(said).to_have_count(1)
    wait_for_idle(page)


def test_the_rows_buttons_move_one_place_per_press_and_the_orderings_are_buttons_of_the_list(desktop_page, app_url):
    page = desktop_page
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/Playground")
    start = list(FIVE)  # doc A to doc E
    expect(page.locator("li.row .label")).to_have_text(start, timeout=30000)
    wait_for_idle(page)

    # The mouse: ▲ on doc C, the third, takes it to the second place, one move.
    page.get_by_role("button", name="Move doc C up").click()
    one = ["doc A", "doc C", "doc B", "doc D", "doc E"]
    expect_one_move(page, start, one, "doc C", 2 + 1, 2)

    # The keyboard: Enter on doc C's ▼, then Space on it again; the focus stays on that button through each redraw.
    down = page.get_by_role("button", name="Move doc C down")
    down.focus()
    page.keyboard.press("Enter")
    expect_one_move(page, one, start, "doc C", 2, 3)
    expect(page.get_by_role("button", name="Move doc C down")).to_be_focused()
    page.keyboard.press("Space")
    two = ["doc A", "doc B", "doc D", "doc C", "doc E"]
    expect_one_move(page, start, two, "doc C", 3, 4)
    expect(page.get_by_role("button", name="Move doc C down")).to_be_focused()

    # The orderings: real buttons inside the list's component, no st.button left on the page for them.
    orders = page.get_by_role("group", name="Order the whole list").get_by_role("button")
    expect(orders).to_have_text(["Ideal order", "Worst order", "Shuffle", "Reset"])
    expect(page.get_by_test_id("stButton").filter(has_text="Worst order")).to_have_count(0)
    worst = sorted(start, key=lambda label: (FIVE[label], -start.index(label)))  # ascending, ties in reverse
    page.get_by_role("button", name="Worst order").focus()
    page.keyboard.press("Enter")
    expect(page.locator("li.row .label")).to_have_text(worst)
    expect(page.get_by_role("button", name="Worst order")).to_be_focused()
    page.get_by_role("button", name="Reset").click()
    expect(page.locator("li.row .label")).to_have_text(start)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="NDCG@").first
    expect(metric.get_by_test_id("stMetricValue")).to_have_text(f"{ndcg_of(start):.4f}")
