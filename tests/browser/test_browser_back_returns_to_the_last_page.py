"""The browser's Back returns to the page before, as it was: Home, then Learn, then Practice picked in the sidebar;
Back shows Learn, Back again shows Home. Each page writes its state in the address (?step=, ?seed=, ?s= after each
move), and Streamlit pushed a history entry for each of those writes: Back stayed on the same page."""

import re

import pytest
from playwright.sync_api import expect

from support import wait_for_idle

pytestmark = pytest.mark.browser

TITLES = {"Home": "Home · NDCG Lab", "Learn": "Learn NDCG, step by step · NDCG Lab", "Practice": "Practice · NDCG Lab"}


@pytest.fixture(params=["desktop", "iPhone 13"])
def page(request):
    """The worker's shared desktop page at 1366x768 or its shared iPhone 13 page (conftest's). Its history holds
    other tests' addresses before this test's Home, which two steps Back from Practice do not reach."""
    if request.param == "desktop":
        shared = request.getfixturevalue("desktop_page")
        shared.set_viewport_size({"width": 1366, "height": 768})
        return shared
    return request.getfixturevalue("phone_page")


def pick(page, name):
    """Pick page ``name`` in the sidebar (opened first where it is closed, as on a phone) and wait for it."""
    expand = page.get_by_test_id("stExpandSidebarButton")
    if expand.is_visible():
        expand.click()
    page.get_by_test_id("stSidebar").get_by_role("link", name=name, exact=True).click()
    expect(page).to_have_title(TITLES[name], timeout=30000)
    wait_for_idle(page)


def test_back_returns_to_learn_then_home(page, app_url):
    page.goto(app_url)
    expect(page).to_have_title(TITLES["Home"], timeout=30000)
    wait_for_idle(page)
    pick(page, "Learn")
    pick(page, "Practice")
    expect(page).to_have_url(re.compile(r"/Practice\?seed=\d+&n=1"))
    page.go_back()
    expect(page).to_have_title(TITLES["Learn"])
    expect(page).to_have_url(re.compile(r"/Learn\?step=1&lang=en$"))
    expect(page.get_by_test_id("stMain").locator("h1")).to_have_text("Learn NDCG, step by step")
    wait_for_idle(page)
    page.go_back()
    expect(page).to_have_title(TITLES["Home"])
    # Home's own address, not Learn's parameters on Home's path.
    expect(page).to_have_url(f"{app_url}/")
