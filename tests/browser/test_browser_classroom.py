"""Classroom features in Debian's Chromium: a shared link restores the state in a new browser, and, in that browser,
the Chinese interface renders and a tampered link is refused for the defaults."""

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from ndcg_core import ndcg_at_k
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.spec import ListSpec

pytestmark = pytest.mark.browser

FIVE = dict(zip(PRESETS.build("five").labels, PRESETS.build("five").grades, strict=False))

# The labels the address bar's ``s`` parameter holds equal ``order`` (base64url JSON: ``ListSpec.to_link``).
LINK_HOLDS = """order => { const s = new URLSearchParams(location.search).get('s');
  if (!s) return false;
  const state = JSON.parse(new TextDecoder().decode(
    Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), c => c.charCodeAt(0))));
  return JSON.stringify(state.l) === JSON.stringify(order); }"""


def ndcg_text(order, k=5):
    return f"{ndcg_at_k([FIVE[x] for x in order], k):.4f}"


def test_a_shared_link_restores_order_and_ndcg_in_a_new_browser_and_the_chinese_interface_refuses_a_tampered_one(
    browser, desktop_page, app_url
):
    page = desktop_page  # the worker's shared desktop page: the link is made there
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{app_url}/Playground")
    labels = page.locator("li.row .label")
    value = page.get_by_test_id("stMetricValue").first
    expect(labels).to_have_text(list(FIVE), timeout=30000)
    expect(value).to_have_text(ndcg_text(list(FIVE)))
    # Each click changes the order and the NDCG; the next click waits for the server to have drawn the last one.
    steps = [
        ("Move doc E up", ["doc A", "doc B", "doc C", "doc E", "doc D"]),
        ("Worst order", ["doc D", "doc E", "doc B", "doc C", "doc A"]),  # the ideal A C B E D reversed
        ("Move doc B up", ["doc D", "doc B", "doc E", "doc C", "doc A"]),
    ]
    for button, order in steps:
        page.get_by_role("button", name=button, exact=True).click()
        expect(labels).to_have_text(order)
        expect(value).to_have_text(ndcg_text(order))
    assert value.inner_text() != ndcg_text(list(FIVE))
    page.wait_for_function(LINK_HOLDS, arg=order)  # the address bar is written after the list is drawn
    shared = page.url
    state = ListSpec.from_link(parse_qs(urlsplit(shared).query)["s"][0])
    assert [(it.label, it.grade) for it in state.items] == [(x, FIVE[x]) for x in order]
    assert state.k == 5
    page.goto("about:blank")  # its session closed before the new browser opens the link

    second = browser.new_context(viewport={"width": 1366, "height": 1000})  # no cookies, no session
    page = second.new_page()
    page.goto(shared)
    expect(page.locator("li.row .label")).to_have_text(order, timeout=30000)
    expect(page.get_by_test_id("stMetricValue").first).to_have_text(ndcg_text(order))
    expect(page.get_by_test_id("stMetricLabel").first).to_have_text("NDCG@5")

    # The same browser, in Chinese, given a tampered link: said so, and the defaults instead.
    page.goto(f"{app_url}/Playground?lang=zh&s=not-a-real-state")
    expect(page.get_by_role("heading", name="练习场")).to_be_visible(timeout=30000)
    expect(page.get_by_text("无法读取这个链接")).to_be_visible()
    expect(page.locator("li.row .label")).to_have_text(list(FIVE))  # the defaults, not the link's
    expect(page.get_by_test_id("stMetricValue").first).to_have_text(ndcg_text(list(FIVE)))
    page.get_by_role("button", name="理想排序", exact=True).click()
    ideal = ["doc A", "doc C", "doc B", "doc E", "doc D"]  # grades 3, 3, 2, 1, 0; ties keep their order
    expect(page.locator("li.row .label")).to_have_text(ideal)
    expect(page.get_by_test_id("stMetricValue").first).to_have_text("1.0000")
    assert ndcg_text(ideal) == "1.0000"
    second.close()
