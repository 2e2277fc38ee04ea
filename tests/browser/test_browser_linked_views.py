"""The Playground's views are linked, in Debian's Chromium: a row pointed at in the list is marked in the term table,
the formula (written out with that position's own numbers) and the charts, with no rerun; a change animates, and
under prefers-reduced-motion nothing does.

One page takes the three in turn (opening one costs more than what is checked on it): the pointing leaves the list
as it was; the reduced motion is asked for after the animated change, as a reader's setting changed while the page
is open (the page asks for it at each change)."""

import io
from math import log2

import pytest
from PIL import Image
from playwright.sync_api import expect

from support import wait_for_idle

pytestmark = pytest.mark.browser


@pytest.fixture
def page(desktop_page):
    """The worker's shared desktop page (conftest's ``desktop_page``), not a fresh context: each test opens its
    address and sets its size."""
    return desktop_page


LINK_BLUE = (0x0B, 0x63, 0xCE)


def open_playground(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/Playground")
    expect(page.locator("ol > li.row")).to_have_count(5, timeout=30000)
    expect(page.locator(".ndcg-formula .term")).to_have_count(5)
    wait_for_idle(page)


def blue_columns(chart):
    """The x of every pixel of the linked views' blue in a chart's picture, as fractions of its width."""
    picture = Image.open(io.BytesIO(chart.screenshot())).convert("RGB")
    width, height = picture.size
    pixels = picture.load()
    return [
        x / width
        for x in range(width)
        for y in range(0, height, 2)
        if all(abs(a - b) <= 24 for a, b in zip(pixels[x, y], LINK_BLUE, strict=True))
    ]


def animations_after_a_reorder(page, button, first):
    """Sort by ``button`` (its first item then ``first``); the number of animations the list's rows ran, and of
    the charts' animations it started."""
    tweens = page.evaluate("() => window.__ndcgLabTweens || 0")
    page.get_by_role("button", name=button, exact=True).click()
    expect(page.locator("ol > li.row .label").first).to_have_text(first)
    running = 0
    for _ in range(15):  # the slide and the flash last 300 to 600 ms from the redraw
        running = max(
            running, page.locator("ol > li.row").evaluate_all("rows => rows.flatMap(r => r.getAnimations()).length")
        )
        page.wait_for_timeout(50)
    wait_for_idle(page)
    return running, page.evaluate("() => window.__ndcgLabTweens || 0") - tweens


def test_pointing_links_the_views_a_change_animates_and_reduced_motion_stops_it(page, app_url):
    """One page for both ways of pointing: hovering a row marks its position in the table, the formula and the
    charts with no rerun; then a term of the formula points at its row in the list. Then a change animates the
    rows and the charts, and under prefers-reduced-motion the next one does not."""
    open_playground(page, app_url)
    order = page.locator('.ndcg-figures figure[data-kind="order"] svg')  # the order beside the ideal order
    order.scroll_into_view_if_needed()
    assert not blue_columns(order), "a tile is marked before anything is pointed at"
    runs = page.evaluate("() => document.querySelector('[data-testid=stApp]').dataset.testScriptState")
    page.locator("ol > li.row").nth(2).hover()
    expect(page.locator("ol > li.row.pointed")).to_have_attribute("data-position", "3")
    expect(page.locator(".ndcg-table tbody tr.pointed")).to_have_attribute("data-position", "3")
    expect(page.locator(".ndcg-formula .term.pointed")).to_have_attribute("data-position", "3")
    # The formula written out with position 3's own numbers: the example's C, a 3, over log2(4).
    expect(page.locator(".ndcg-formula .detail")).to_have_text(
        f"Position 3, doc C: grade 3, gain 3: 3 / log2(4) = 3 × {1 / log2(4):.4f} = {3 / log2(4):.4f}"
    )
    page.wait_for_timeout(300)  # the chart's redraw of the signal
    marked = blue_columns(order)
    assert marked, "no tile of the order chart is marked"
    # Five tiles after the axis labels: the third's outline lies in the middle of the chart.
    assert 0.4 < sum(marked) / len(marked) < 0.75, sum(marked) / len(marked)
    assert page.evaluate("() => document.querySelector('[data-testid=stApp]').dataset.testScriptState") == runs
    page.mouse.move(5, 5)  # pointing away clears every mark
    expect(page.locator(".ndcg-formula .term.pointed")).to_have_count(0)
    page.wait_for_timeout(300)
    assert not blue_columns(order)

    # The other way, on the same page: a term of the formula points at its row in the list.
    page.locator(".ndcg-formula .term").nth(0).focus()
    expect(page.locator("ol > li.row.pointed .label")).to_have_text("doc A")
    expect(page.locator(".ndcg-table tbody tr.pointed")).to_have_attribute("data-position", "1")
    page.locator(".ndcg-formula .term").nth(0).blur()

    # A change animates the rows and the charts.
    rows, tweens = animations_after_a_reorder(page, "Worst order", "doc D")
    assert rows > 0 and tweens >= 1

    # Under prefers-reduced-motion the next change animates nothing.
    page.emulate_media(reduced_motion="reduce")  # the shared page's teardown sets it back
    rows, tweens = animations_after_a_reorder(page, "Ideal order", "doc C")  # the 3s tie: C was above A
    assert rows == 0 and tweens == 0
    # The change is still marked: only the motion is gone.
    expect(page.locator("ol > li.row.changed").first).to_be_visible()
