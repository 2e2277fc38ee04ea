"""Classroom features in Debian's Chromium: a shared link restores the state in a new browser,
and the Chinese interface renders."""

import pytest
from playwright.sync_api import expect

from ndcg_core import ndcg_at_k
from support import wait_for_idle

pytestmark = pytest.mark.browser


def test_a_shared_link_restores_order_and_ndcg_in_a_new_browser(browser, app_url):
    first = browser.new_context(viewport={"width": 1366, "height": 1000})
    page = first.new_page()
    page.goto(f"{app_url}/Playground")
    expect(page.locator("li.row")).to_have_count(5, timeout=30000)
    for button in ("Move doc E up", "Worst order", "Move doc A up"):
        page.get_by_role("button", name=button).click()
        wait_for_idle(page)
    order = page.locator("li.row .label").all_inner_texts()
    value = page.get_by_test_id("stMetricValue").first.inner_text()
    shared = page.url
    assert "s=" in shared
    first.close()

    second = browser.new_context(viewport={"width": 1366, "height": 1000})  # no cookies, no session
    page = second.new_page()
    page.goto(shared)
    expect(page.locator("li.row")).to_have_count(5, timeout=30000)
    expect(page.get_by_test_id("stMetricValue").first).to_have_text(value)
    assert page.locator("li.row .label").all_inner_texts() == order
    grades = {"doc A": 3, "doc B": 2, "doc C": 3, "doc D": 0, "doc E": 1}
    assert value == f"{ndcg_at_k([grades[x] for x in order], 5):.4f}"
    second.close()


def test_the_chinese_interface_and_a_tampered_link(page, app_url, tmp_path):
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{app_url}/Playground?lang=zh&s=not-a-real-state")
    expect(page.get_by_role("heading", name="练习场")).to_be_visible(timeout=30000)
    expect(page.get_by_text("无法读取这个链接")).to_be_visible()
    expect(page.get_by_test_id("stMetricValue").first).to_have_text("0.9724")
    page.get_by_role("button", name="理想排序").click()
    expect(page.get_by_test_id("stMetricValue").first).to_have_text("1.0000")
    page.screenshot(path=str(tmp_path / "zh.png"))
