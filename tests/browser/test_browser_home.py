"""The home page in Debian's Chromium: it loads, and typing grades updates NDCG."""

import pytest
from playwright.sync_api import expect

from ndcg_core import dcg, idcg, ndcg_at_k

pytestmark = pytest.mark.browser


@pytest.fixture
def page(desktop_page):
    """The worker's shared desktop page (conftest's ``desktop_page``), not a fresh context: each test opens its
    address and sets its size."""
    return desktop_page


def metric(page, name):
    """The value of the metric whose label is exactly ``name`` (``DCG@3``, not ``NDCG@3``)."""
    label = page.get_by_test_id("stMetricLabel").get_by_text(name, exact=True)
    return page.get_by_test_id("stMetric").filter(has=label).get_by_test_id("stMetricValue")


def test_typing_a_list_in_chromium_shows_ndcg_core_value(page, app_url):
    page.goto(app_url)
    expect(page.get_by_role("heading", name="NDCG Lab")).to_be_visible(timeout=30000)
    default = [3, 2, 3, 0, 1, 2]
    expect(metric(page, "NDCG@6")).to_have_text(f"{ndcg_at_k(default, 6):.4f}")
    box = page.get_by_role("textbox", name="Relevance grades of a ranked list, best position first")
    box.fill("0, 2, 3")
    box.press("Enter")
    expect(metric(page, "NDCG@3")).to_have_count(0)  # k is still 6 until it is typed
    expect(metric(page, "DCG@6")).to_have_text(f"{dcg([0, 2, 3], 6):.4f}")
    k = page.get_by_role("spinbutton", name="k (positions counted)")
    k.fill("3")
    k.press("Enter")
    expect(metric(page, "NDCG@3")).to_have_text(f"{ndcg_at_k([0, 2, 3], 3):.4f}")
    expect(metric(page, "IDCG@3")).to_have_text(f"{idcg([0, 2, 3], 3):.4f}")  # the ideal 3, 2, 0 of this list
    assert f"{ndcg_at_k([0, 2, 3], 3):.4f}" != f"{ndcg_at_k(default, 3):.4f}"
