"""A drag on the Playground explains itself where the eye is, in Debian's Chromium at 1366x768: under the headline,
in the first screen, each item whose DCG term changed with its term before and after (figures from the formula)."""

import re
from math import log2

import pytest
from playwright.sync_api import expect

from ndcg_core import dcg
from ndcg_core.lists.presets import PRESETS
from support import wait_for_idle

pytestmark = pytest.mark.browser


@pytest.fixture
def page(desktop_page):
    """The worker's shared desktop page (conftest's ``desktop_page``), not a fresh context: each test opens its
    address and sets its size."""
    return desktop_page


FIVE = dict(zip(PRESETS.build("five").labels, PRESETS.build("five").grades, strict=False))


def test_a_drag_shows_each_changed_term_before_and_after_in_the_first_screen(page, app_url, tmp_path):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/Playground")
    rows = page.locator("ol > li.row")
    expect(rows).to_have_count(5, timeout=30000)
    wait_for_idle(page)
    order = rows.locator(".label").all_inner_texts()
    boxes = [rows.nth(i).bounding_box() for i in range(5)]
    x = boxes[3]["x"] + 60
    page.mouse.move(x, boxes[3]["y"] + boxes[3]["height"] / 2)
    page.mouse.down()
    for position in (2, 1, 0):  # the fourth row carried to the top
        page.mouse.move(x, boxes[position]["y"] + boxes[position]["height"] * 0.3, steps=5)
        slot = page.locator("ol > li.row:not(.sortable-fallback)").nth(position)
        expect(slot).to_have_class(re.compile(r"\bghost\b"))
    page.mouse.up()
    moved = order[3:4] + order[:3] + order[4:]
    expect(page.locator("ol > li.row .label")).to_have_text(moved)
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
    # The rows whose term changed are marked in the list, in the first screen, and keep their old term in the table.
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
