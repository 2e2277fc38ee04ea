"""Rank it best with hidden grades, in Debian's Chromium: a desktop teacher (1280 x 720) opens seed 003's
成都美食推荐 results, and a phone (iPhone 13 emulation, touch) shows the titles with no grade anywhere, is
reordered by tapping ▲, and after the reveal shows the judged grades, the best order and its own NDCG@k."""

import re

import pytest
from playwright.sync_api import expect
from test_browser_live_room import phone as join
from test_browser_live_room import start_room

from ndcg_core import ndcg_at_k
from ndcg_core.classroom.kinds.lists import result_list

pytestmark = pytest.mark.browser

FOOD = result_list("chengdu_food")
GRADE = dict(zip(FOOD.labels, FOOD.grades, strict=True))


def test_a_phone_ranks_real_results_without_grades_and_sees_them_at_the_reveal(browser, playwright, app_url):
    context, teacher, code, _ = start_room(browser, app_url)
    page = join(browser, playwright, app_url, code, "Ana")
    teacher.get_by_text("Rank it best", exact=True).click()
    # A real query's results is the first list source, seed 003's food search its first entry; grades hidden.
    expect(teacher.get_by_text("The phones show these results without grades until you reveal.")).to_be_visible()
    teacher.get_by_role("button", name="Open for the class").click()

    expect(page.get_by_text("Query: 成都美食推荐")).to_be_visible(timeout=30_000)
    rows = page.locator(".ndcg-card li.row")
    expect(page.locator(".ndcg-card li.row .text")).to_have_text(list(FOOD.labels))
    # No grade anywhere on the phone: no grade chip or box in the list; a row says its position and title only.
    expect(page.locator(".ndcg-card .chip, .ndcg-card select")).to_have_count(0)
    expect(rows).to_have_text([re.compile(rf"^\W*{i}\s*{re.escape(x)}\W*$") for i, x in enumerate(FOOD.labels, 1)])
    expect(page.get_by_text("Grades are hidden until the reveal.")).to_be_visible()
    for part in (page.locator("main"), page.locator(".ndcg-card")):
        assert "Grade" not in part.inner_text().replace("Grades are hidden until the reveal.", "")
    expect(page.get_by_text("Conventions: exponential (gain = 2^grade − 1) gain")).to_be_visible()
    # Every row fits the phone's width, its title wrapped rather than cut, and its buttons are 44 px or more.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    up = page.get_by_role("button", name="Move 成都美食地图 up")
    box = up.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    page.screenshot(path="/tmp/rank_hidden_phone.png", full_page=True)
    page.locator(".ndcg-card ol").screenshot(path="/tmp/rank_hidden_phone_list.png")

    # The best order by tapping: 成都美食地图 up twice, then 成都小吃街 up once.
    best = ["成都火锅大全", "成都美食地图", "成都小吃街", "重庆火锅", "北京烤鸭"]
    for label, after in (
        ("成都美食地图", ["成都火锅大全", "重庆火锅", "成都美食地图", "成都小吃街", "北京烤鸭"]),
        ("成都美食地图", ["成都火锅大全", "成都美食地图", "重庆火锅", "成都小吃街", "北京烤鸭"]),
        ("成都小吃街", best),
    ):
        page.get_by_role("button", name=f"Move {label} up").tap()
        expect(page.locator(".ndcg-card li.row .text")).to_have_text(after)
    page.get_by_role("button", name="Send my order").tap()
    expect(page.get_by_text("Saved. You can change it")).to_be_visible()
    expect(page.get_by_text("You can change your answer until")).to_have_count(0)

    # Locked: the order as a short list, no handle or button left; opened again: the controls are back, and the
    # status says what is true now (the sent order can be changed), not the earlier "Saved".
    teacher.get_by_role("button", name="Lock answers").click()
    expect(page.get_by_text("Answers are locked. Wait for the reveal.")).to_be_visible(timeout=30_000)
    expect(page.locator(".ndcg-card li.row .text")).to_have_text(best)
    expect(page.get_by_role("button", name=re.compile("^Move "))).to_have_count(0)
    expect(page.locator(".ndcg-card li.row .handle")).to_have_count(5)
    for handle in page.locator(".ndcg-card li.row .handle").all():
        expect(handle).to_be_hidden()
    page.screenshot(path="/tmp/rank_hidden_phone_locked.png", full_page=True)
    teacher.get_by_role("button", name="Take answers again").click()
    change = page.get_by_text("You can change your answer until the teacher locks answers.")
    expect(change).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Saved. You can change it")).to_have_count(0)
    expect(page.get_by_role("button", name=f"Move {best[1]} up")).to_be_enabled()

    teacher.get_by_role("button", name="Reveal").click()
    expect(teacher.get_by_text("1 of 1 found the highest NDCG@5, 1.0000")).to_be_visible(timeout=30_000)
    reached = ndcg_at_k([GRADE[x] for x in best], 5, gain="exponential")
    assert reached == pytest.approx(1.0)
    expect(page.get_by_text(f"Your order reaches NDCG@5 = {reached:.4f}")).to_be_visible(timeout=30_000)
    table = page.locator(".ndcg-card p").filter(has_text="Your order, with the judged grades:")
    expect(table).to_be_visible()
    cells = page.locator("table").first.locator("tbody tr")
    expect(cells).to_have_count(5)
    for i, label in enumerate(best):
        expect(cells.nth(i)).to_have_text(re.compile(rf"^\s*{i + 1}\s*{label}\s*{GRADE[label]:g}\s*$"))
    expect(page.get_by_text("A best order: 成都火锅大全 (4) > 成都美食地图 (4) > 成都小吃街 (3)")).to_be_visible()
    page.screenshot(path="/tmp/rank_hidden_phone_revealed.png", full_page=True)
    page.context.close()
    context.close()
