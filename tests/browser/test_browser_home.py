"""The home page in Debian's Chromium: it loads, and typing grades updates NDCG."""

import re

import pytest
from playwright.sync_api import expect

from ndcg_core import ndcg_at_k

pytestmark = pytest.mark.browser


def test_typing_a_list_in_chromium_shows_ndcg_core_value(page, app_url, tmp_path):
    page.goto(app_url)
    expect(page.get_by_role("heading", name="NDCG Lab")).to_be_visible(timeout=30000)
    box = page.get_by_role("textbox", name="Relevance grades of a ranked list, best position first")
    box.fill("0, 2, 3")
    box.press("Enter")
    k = page.get_by_role("spinbutton", name="k (positions counted)")
    k.fill("3")
    k.press("Enter")
    expected = f"{ndcg_at_k([0, 2, 3], 3):.4f}"
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="NDCG@3")
    expect(metric).to_contain_text(expected, timeout=15000)
    shot = tmp_path / "home.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert re.search(r"0\.\d{4}", metric.inner_text())
