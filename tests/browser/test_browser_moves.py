"""Every move before making it, in Debian's Chromium: the drop preview while dragging, the keyboard preview on a
focused row, and the swap map whose click performs a swap. Each number seen is checked against ndcg_core's
NDCG of the list that move would make. One page takes the three in turn (opening one costs more than a move).

The drag then explains itself where the eye is, at 1366x768: under the headline, in the first screen, each item
whose DCG term changed with its term before and after (figures from the formula), the changed rows marked in the
list and their old terms kept in the table (was test_browser_a_drag_explains_itself, a page and a drag of its own).
"""

import re
from math import log2

import pytest
from playwright.sync_api import expect

from ndcg_core import dcg, ndcg_at_k
from ndcg_core.lists.presets import PRESETS
from support import wait_for_idle

pytestmark = pytest.mark.browser


@pytest.fixture
def page(desktop_page):
    """The worker's shared desktop page (conftest's ``desktop_page``), not a fresh context: each test opens its
    address and sets its size."""
    return desktop_page


FIVE = dict(zip(PRESETS.build("five").labels, PRESETS.build("five").grades, strict=False))
K = 5


def open_playground(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 768})  # the first screen the drag's explanation must be in
    page.goto(f"{app_url}/Playground")
    expect(page.locator("ol > li.row")).to_have_count(5, timeout=30000)
    wait_for_idle(page)


def labels(page):
    return page.locator("ol > li.row:not(.sortable-fallback) .label").all_inner_texts()


def expected_preview(order, source, target):
    """The preview's text for moving the item at ``source`` to ``target``, from ndcg_core."""
    moved = list(order)
    moved.insert(target, moved.pop(source))
    now = ndcg_at_k([FIVE[x] for x in order], K)
    after = ndcg_at_k([FIVE[x] for x in moved], K)
    change = after - now
    sign = "+" if round(change, 4) > 0 else "\u2212" if round(change, 4) < 0 else "\u00b1"
    return f"NDCG {after:.4f} ({sign}{abs(change):.4f})"


def test_a_drag_a_focused_row_and_the_swap_map_each_preview_or_make_their_move(page, app_url, tmp_path):
    """One page, three ways of moving in turn, each from the order the last one left: a dragged row previews the
    NDCG of each drop before it is made, and once made explains itself in the first screen; a focused row previews
    its next keyboard moves; a click on the swap map swaps the two items."""
    open_playground(page, app_url)
    order = labels(page)
    rows = page.locator("ol > li.row")
    boxes = [rows.nth(i).bounding_box() for i in range(5)]
    x = boxes[3]["x"] + 60
    page.mouse.move(x, boxes[3]["y"] + boxes[3]["height"] / 2)
    page.mouse.down()
    slots = page.locator("ol > li.row:not(.sortable-fallback)")
    moving = page.locator("li.row.sortable-fallback")  # SortableJS's copy of the row under the pointer
    for position in (2, 1, 0):  # row 4 carried up over rows 3, 2 and 1
        page.mouse.move(x, boxes[position]["y"] + boxes[position]["height"] * 0.3, steps=5)
        # The slot follows the pointer on SortableJS's own timer: wait for it, then read what the row says.
        expect(slots.nth(position)).to_have_class(re.compile(r"\bghost\b"))
        expect(moving).to_have_attribute("data-preview", expected_preview(order, 3, position))
        expect(slots.nth(position)).to_have_attribute("data-preview", expected_preview(order, 3, position))
    page.mouse.up()
    dropped = order[3:4] + order[:3] + order[4:]
    expect(page.locator("ol > li.row .label")).to_have_text(dropped)
    the_drop_explains_itself_in_the_first_screen(page, order, dropped, tmp_path)
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text(
        f"{ndcg_at_k([FIVE[x] for x in dropped], K):.4f}"
    )
    wait_for_idle(page)

    # The keyboard, from the order the drop made.
    order = labels(page)
    row = page.locator("ol > li.row").nth(2)
    row.focus()
    expect(row).to_have_attribute(
        "data-preview", f"Alt+\u2191 {expected_preview(order, 2, 1)}  Alt+\u2193 {expected_preview(order, 2, 3)}"
    )
    page.keyboard.press("Alt+ArrowUp")  # the move the preview announced, then the next step's preview
    moved = [order[0], order[2], order[1], *order[3:]]
    expect(page.locator("ol > li.row .label")).to_have_text(moved)
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text(
        f"{ndcg_at_k([FIVE[x] for x in moved], K):.4f}"
    )
    expect(page.locator("ol > li.row").nth(1)).to_have_attribute(
        "data-preview",
        f"Alt+\u2191 {expected_preview(moved, 1, 0)}  Alt+\u2193 {expected_preview(moved, 1, 2)}",
    )
    wait_for_idle(page)
    page.locator("ol > li.row").nth(1).blur()  # the swap map's click, not a focused row, makes the next move

    # The swap map, from the order the keyboard made.
    before = labels(page)
    title = page.get_by_text("Swap map: what every swap would do")
    title.scroll_into_view_if_needed()
    chart = page.locator(".ndcg-swap svg")  # the swap map's component
    expect(chart).to_be_visible()
    box = chart.locator("g.cells").bounding_box()
    # Inside the plot, in its last column and one of its upper rows (never the diagonal, where nothing swaps):
    # whichever pair is there is swapped.
    page.mouse.click(box["x"] + box["width"] * 0.9, box["y"] + box["height"] * 0.25)
    caption = page.get_by_text(re.compile(r"after swapping"))
    expect(caption).to_be_visible()
    found = re.search(r"swapping (.+) \(position (\d)\) and (.+) \(position (\d)\)", caption.inner_text())
    i, j = int(found.group(2)) - 1, int(found.group(4)) - 1
    swapped = list(before)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    expect(page.locator("ol > li.row .label")).to_have_text(swapped)
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text(
        f"{ndcg_at_k([FIVE[x] for x in swapped], K):.4f}"
    )


def the_drop_explains_itself_in_the_first_screen(page, order, moved, tmp_path):
    """After the drop of ``order`` into ``moved``: each changed term before and after, in the first screen; the
    changed rows marked in the list, in the first screen; each changed position's old term kept in the table."""
    block = page.get_by_text("over the same IDCG@5").locator("xpath=ancestor::*[@data-testid='stMarkdown'][1]")
    expect(block).to_be_visible()
    text = block.inner_text()
    grades_before = [FIVE[x] for x in order]
    for old, label in enumerate(order, start=1):
        new = moved.index(label) + 1
        before, after = grades_before[old - 1] / log2(old + 1), FIVE[label] / log2(new + 1)
        if old != new and FIVE[label] != 0:
            assert f"{label}, {old} → {new}" in text
            assert f"= {before:.4f} → " in text and f"= {after:.4f} ({after - before:+.4f})" in text
    dcg_old, dcg_new = dcg(grades_before, 5), dcg([FIVE[x] for x in moved], 5)
    assert f"DCG@5: {dcg_old:.4f} → {dcg_new:.4f}" in text
    page.screenshot(path=str(tmp_path / "move-explained.png"))
    box = block.bounding_box()
    assert box["y"] + box["height"] <= 768, "the explanation is below the first screen"
    changed = [
        label
        for old, label in enumerate(order, start=1)
        if grades_before[old - 1] / log2(old + 1) != FIVE[label] / log2(moved.index(label) + 2)
    ]
    expect(page.locator("ol > li.row.changed .label")).to_have_text(sorted(changed, key=moved.index))
    for row in page.locator("ol > li.row.changed").all():
        row_box = row.bounding_box()
        assert row_box["y"] + row_box["height"] <= 768
    for position, label in enumerate(moved, start=1):
        old_term = grades_before[position - 1] / log2(position + 1)
        cell = page.locator(f".ndcg-table tbody tr[data-position='{position}'] .was")
        if old_term != FIVE[label] / log2(position + 1):  # the term at this position changed
            expect(cell).to_have_text(re.compile(rf"= {old_term:.3f}$"))
        else:
            expect(cell).to_have_count(0)
