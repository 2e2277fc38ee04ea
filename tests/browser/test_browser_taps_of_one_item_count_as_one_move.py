"""Practice's "reach NDCG 0.95" on an iPhone 13: ▲ tapped twice on one item, carrying it two places up, counts one
move, as the one drag that puts it there does (each tap counted one, and a phone's learner was told they had used
more moves than the fewest)."""

import pytest
from playwright.sync_api import expect

from ndcg_core import ndcg_at_k
from ndcg_core.teaching.exercises import exercise
from support import wait_for_idle

pytestmark = pytest.mark.browser

SEED = 2026
REACH = next(n for n in range(1, 50) if exercise(SEED, n - 1).kind == "reach")


def expect_order(page, grades, order):
    """The list shows ``order`` and the server has redrawn it: its summary is ndcg_core's NDCG@k for that order."""
    k = exercise(SEED, REACH - 1).data["k"]
    expect(page.locator("li.row .label")).to_have_text([f"doc {c}" for c in order])
    value = ndcg_at_k([grades["ABCDEF".index(c)] for c in order], k)
    expect(page.locator(".summary-value")).to_have_text(f"{value:.4f}")
    wait_for_idle(page)


def test_two_taps_of_up_on_one_item_are_one_move(phone_page, app_url):
    """On the worker's shared iPhone 13 page (conftest's)."""
    grades = exercise(SEED, REACH - 1).data["grades"]
    assert len(grades) == 6
    page = phone_page
    page.goto(f"{app_url}/Practice?seed={SEED}&n={REACH}")
    expect(page.locator("li.row")).to_have_count(6, timeout=30000)
    wait_for_idle(page)
    moves = page.get_by_test_id("stCaptionContainer").filter(has_text="Moves so far")
    expect(moves).to_have_text("Moves so far: 0")
    rows = page.locator("li.row")
    # doc F, the last, up one place and then up one more: the server redraws after each tap.
    rows.nth(5).get_by_role("button", name="Move doc F up").tap()
    expect_order(page, grades, "ABCDFE")
    rows.nth(4).get_by_role("button", name="Move doc F up").tap()
    expect_order(page, grades, "ABCFDE")
    expect(moves).to_have_text("Moves so far: 1")
    # Another item moved next is another move.
    rows.nth(0).get_by_role("button", name="Move doc A down").tap()
    expect_order(page, grades, "BACFDE")
    expect(moves).to_have_text("Moves so far: 2")
