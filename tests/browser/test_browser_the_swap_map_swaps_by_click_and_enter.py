"""The Playground's swap map, one component drawn as SVG in Debian's Chromium: a cell says the change the formula
gives for its swap, the position pointed at in the list has its row and column outlined on the map, and Enter on a
focused cell (reached with the arrow keys from the best swap's) or a click on a cell swaps those two items: the list
and the headline show the NDCG of the swapped list."""

import pytest
from playwright.sync_api import expect

from ndcg_core import ndcg_at_k
from ndcg_core.lists.presets import PRESETS
from support import wait_for_idle

pytestmark = pytest.mark.browser

FIVE = dict(zip(PRESETS.build("five").labels, PRESETS.build("five").grades, strict=False))  # k = 5


@pytest.fixture
def page(desktop_page):
    return desktop_page


def cell(page, i, j):
    return page.locator(f'.ndcg-swap rect.cell[data-i="{i}"][data-j="{j}"]')


def labels(page):
    return page.locator("ol > li.row .label").all_inner_texts()


def swapped(order, i, j):
    out = list(order)
    out[i], out[j] = out[j], out[i]
    return out


def expect_list(page, order):
    expect(page.locator("ol > li.row .label")).to_have_text(order)
    expect(page.get_by_test_id("stMetricValue").first).to_have_text(f"{ndcg_at_k([FIVE[x] for x in order], 5):.4f}")


def test_a_cell_says_its_change_pointing_outlines_its_row_and_column_and_enter_or_a_click_swaps(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/Playground")
    expect(page.locator("ol > li.row")).to_have_count(5, timeout=30000)
    expect(page.locator(".ndcg-swap rect.cell")).to_have_count(25)
    wait_for_idle(page)
    order = labels(page)
    grades = [FIVE[x] for x in order]
    now = ndcg_at_k(grades, 5)

    # The best swap's cell is the one in the tab order, and says the change of NDCG@5 that swap makes.
    best = page.locator('.ndcg-swap rect.cell[tabindex="0"]')
    i, j = int(best.get_attribute("data-i")), int(best.get_attribute("data-j"))
    pairs = [(a, b) for a in range(5) for b in range(5)]
    changes = {(a, b): ndcg_at_k(swapped(grades, a, b), 5) - now for a, b in pairs}
    assert changes[(i, j)] == max(changes.values())
    assert f"{changes[(i, j)]:+.4f}" in best.get_attribute("aria-label")
    assert f"(swapping {order[i]} and {order[j]})" in page.locator(".ndcg-swap .reading").inner_text()

    # A row pointed at in the list: its position's row and column outlined on the map, where its cells are.
    page.locator("ol > li.row").nth(2).hover()
    bands = page.locator(".ndcg-swap .pointed-band.on")
    expect(bands).to_have_count(2)
    row, column = (bands.nth(n).bounding_box() for n in range(2))
    assert row["y"] == pytest.approx(cell(page, 2, 0).bounding_box()["y"], abs=2)
    assert column["x"] == pytest.approx(cell(page, 0, 2).bounding_box()["x"], abs=2)
    page.mouse.move(0, 0)
    expect(bands).to_have_count(0)

    # The keyboard: from the best swap's cell, one row down and one column right, then Enter.
    best.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    target = (min(i + 1, 4), min(j + 1, 4))
    expect(cell(page, *target)).to_be_focused()
    page.keyboard.press("Enter")
    order = swapped(order, *target)
    expect_list(page, order)
    wait_for_idle(page)

    # A click on a cell (tapping it on a phone is the same event).
    cell(page, 0, 4).click()
    expect_list(page, swapped(order, 0, 4))
