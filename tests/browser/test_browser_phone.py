"""The app on a phone (iPhone 13: 390 px wide, touch) in Debian's Chromium: a swipe over the list scrolls the
page and only the handle drags, the NDCG stays in view while the list is reordered, touch targets are 44 px
with room between them, a removal can be undone, hints speak of touch, and no page scrolls sideways."""

import re

import pytest
from playwright.sync_api import expect

from ndcg_core import ndcg_at_k
from ndcg_core.lists.presets import PRESETS
from support import wait_for_idle

pytestmark = pytest.mark.browser

FIVE = dict(zip(PRESETS.build("five").labels, PRESETS.build("five").grades, strict=False))


@pytest.fixture
def phone(phone_page):
    """The worker's shared iPhone 13 page (conftest's ``phone_page``), not a fresh context: each test opens its
    address."""
    return phone_page


def open_playground(page, app_url):
    page.goto(f"{app_url}/Playground")
    expect(page.locator("li.row .label")).to_have_text(list(FIVE), timeout=30000)
    expect(page.locator(".summary-value")).to_have_text(f"{ndcg_at_k(list(FIVE.values()), 5):.4f}")
    wait_for_idle(page)
    return page


def order(page):
    return page.locator("li.row .label").all_inner_texts()


def expect_order(page, labels, k=5):
    """The list shows ``labels`` and the summary above it ndcg_core's NDCG@k for them."""
    expect(page.locator("li.row .label")).to_have_text(labels)
    expect(page.locator(".summary-value")).to_have_text(f"{ndcg_at_k([FIVE[x] for x in labels], k):.4f}")


def scroll_top(page):
    return page.evaluate("document.querySelector('[data-testid=stMain]').scrollTop")


def swipe(page, x, y, dy, steps=15, before_lift=None):
    """A finger on the screen at (x, y), moved by dy pixels and lifted, as the touchscreen reports it.

    ``before_lift`` waits, finger still down, for what the gesture should have done on the page (a drag's slot
    where the finger is) before the finger is lifted; each CDP call returns once Chromium has taken the event.
    """
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + dy * i / steps}]})
    if before_lift is not None:
        before_lift()
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def centre(box):
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_swipe_over_a_row_scrolls_the_page_and_only_the_handle_drags(phone, app_url):
    page = open_playground(phone, app_url)
    row = page.locator("li.row").nth(3)
    row.scroll_into_view_if_needed()
    before = scroll_top(page)
    x, y = centre(row.locator(".label").bounding_box())
    swipe(page, x, y, -300)  # a vertical swipe over row 4's label
    # The page scrolled instead, and no drag began: SortableJS marks a dragged row "chosen" from its first move
    # and reorders the list before the finger is lifted, so a drag would show here already.
    page.wait_for_function("before => document.querySelector('[data-testid=stMain]').scrollTop > before", arg=before)
    expect(page.locator("li.row.chosen, li.row.ghost, li.row.sortable-fallback")).to_have_count(0)
    assert order(page) == list(FIVE)
    page.locator("li.row").nth(2).scroll_into_view_if_needed()
    x, y = centre(page.locator("li.row").nth(3).locator(".handle").bounding_box())
    target = page.locator("li.row").nth(2).bounding_box()["y"] + 10
    slot = page.locator("ol > li.row:not(.sortable-fallback)").nth(2)
    # The same gesture on the handle drags row 4 above row 3: its slot is at position 3 before the finger lifts.
    swipe(page, x, y, target - y, steps=20, before_lift=lambda: expect(slot).to_have_class(re.compile(r"\bghost\b")))
    # A move sent by the first swipe would have come first and made another order.
    expect_order(page, ["doc A", "doc B", "doc D", "doc C", "doc E"])


def test_the_ndcg_stays_in_view_while_the_list_is_reordered(phone, app_url):
    page = open_playground(phone, app_url)
    last = page.locator("li.row").nth(4)
    last.scroll_into_view_if_needed()
    assert page.locator("li.row").first.bounding_box()["y"] < 60  # the list's top is out of view
    summary = page.locator(".summary")
    box = summary.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
    # Nothing (the app's header) covers it: the topmost element at its centre is the summary itself.
    assert summary.evaluate("(e, p) => e.contains(e.getRootNode().elementFromPoint(p[0], p[1]))", list(centre(box)))
    expect(summary).to_contain_text(f"NDCG@5{ndcg_at_k(list(FIVE.values()), 5):.4f}")
    last.get_by_role("button", name="Move doc E up").tap()
    expect_order(page, ["doc A", "doc B", "doc C", "doc E", "doc D"])
    assert summary.bounding_box()["y"] >= 0
    expect(summary).to_be_in_viewport()


TARGETS = """root => [...root.querySelectorAll('li.row')].map(row =>
  [...row.querySelectorAll('.handle, select, button')].map(e => { const b = e.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom]; }))"""


def test_touch_targets_are_44_px_apart_removal_can_be_undone_and_hints_speak_of_touch(phone, app_url):
    page = open_playground(phone, app_url)
    hint = page.locator(".ndcg-sortable .hint").inner_text()
    assert "Alt+" not in hint and "⠿" in hint
    assert "Alt+" not in page.get_by_test_id("stMain").locator("[data-testid=stCaptionContainer]").first.inner_text()
    rows = page.locator(".ndcg-sortable").evaluate(TARGETS)
    for boxes in rows:
        for left, top, right, bottom in boxes:
            assert right - left >= 44 and bottom - top >= 44, boxes
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:  # at least 8 px between any two targets of a row
                gap = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
                assert gap >= 8, (a, b)
    page.get_by_role("button", name="Remove doc C").tap()
    expect_order(page, ["doc A", "doc B", "doc D", "doc E"], k=4)  # k follows the shorter list
    page.get_by_role("button", name="Undo: put doc C back").tap()
    expect(page.locator("li.row .label")).to_have_text(list(FIVE))
    expect(page.get_by_role("button", name="Undo: put doc C back")).to_have_count(0)


WIDER = """() => { const w = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll(
      '[data-testid=stMain] [data-testid=stVegaLiteChart] *, [data-testid=stMain] .stElementContainer')]
    .filter(e => e.getBoundingClientRect().right > w + 1).map(e => e.tagName + '.' + e.className);
  return [document.documentElement.scrollWidth, wide.slice(0, 5)]; }"""


PAGES = ["Playground", "Evaluate", "Learn", "Conventions", "Metrics", "Practice"]


def test_no_page_scrolls_sideways(phone, app_url):
    """Home, then each page picked in the sidebar in the same session (a page switch costs less than a page
    opened afresh, and is how a phone goes from page to page)."""
    page = phone
    page.goto(f"{app_url}/")
    heading = page.get_by_test_id("stMain").locator("h1").first
    expect(heading).to_be_visible(timeout=30000)
    for path in ["", *PAGES]:
        if path:
            before = heading.inner_text()
            page.get_by_test_id("stExpandSidebarButton").tap()
            page.get_by_test_id("stSidebar").get_by_role("link", name=path, exact=True).tap()
            expect(page).to_have_url(re.compile(rf"/{path}(\?|$)"))
            expect(heading).not_to_have_text(before, timeout=30000)  # the new page's, not the last one's
        wait_for_idle(page)
        if path == "Metrics":
            expect(page.get_by_test_id("stVegaLiteChart").locator("svg")).to_have_count(1)
        width, wide = page.evaluate(WIDER)
        assert width <= 390 and wide == [], (path or "Home", width, wide)
