"""The Playground's four figure charts, one component drawn as SVG in Debian's Chromium: the example's bars are as
tall as the formula's terms and gains say, its NDCG@k points lie where NDCG@1..5 put them, each chart is read out by
its title and its reading, and pointing links the charts and the list both ways; after a change the old terms stay
marked and the bars end at the new ones."""

from math import log2

import pytest
from playwright.sync_api import expect

from support import wait_for_idle

pytestmark = pytest.mark.browser

FIVE = [3, 2, 3, 0, 1]  # the default example, k = 5
WORST = sorted(FIVE)


@pytest.fixture
def page(desktop_page):
    return desktop_page


def open_playground(page, app_url):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{app_url}/Playground")
    expect(page.locator("ol > li.row")).to_have_count(5, timeout=30000)
    expect(page.locator(".ndcg-figures figure.chart")).to_have_count(4)
    wait_for_idle(page)


def chart(page, kind):
    return page.locator(f'.ndcg-figures figure[data-kind="{kind}"]')


def heights(page, kind, selector):
    return chart(page, kind).locator(selector).evaluate_all("nodes => nodes.map(n => n.getBBox().height)")


def terms(grades):
    return [g / log2(p + 1) for p, g in enumerate(grades, start=1)]


def ndcg_at(grades, k):
    return sum(terms(grades)[:k]) / sum(terms(sorted(grades, reverse=True))[:k])


def assert_in_proportion(drawn, expected):
    """``drawn`` (pixels) is ``expected`` (figures) at one scale: each bar over the tallest."""
    tallest = max(range(len(expected)), key=expected.__getitem__)
    scale = drawn[tallest] / expected[tallest]
    assert drawn == pytest.approx([v * scale for v in expected], abs=0.5), (drawn, expected)


def test_the_bars_and_points_are_the_formula_s_figures_and_each_chart_is_read_out(page, app_url):
    open_playground(page, app_url)
    for kind, title, reading in (
        ("order", "This order beside the ideal order", "Each tile is a position"),
        ("contribution", "Gain, discount and DCG contribution per position", "Pale bars: the gain"),
        ("every_k", "NDCG at every cutoff k", "the diamond marks the chosen k"),
        ("cumulative", "Cumulative DCG against the ideal", "NDCG@5 is their ratio at the red line"),
    ):
        figure = chart(page, kind)
        expect(figure.locator("figcaption .title")).to_have_text(title)
        expect(figure.locator("figcaption .reading")).to_contain_text(reading)
        assert reading in figure.locator("svg").get_attribute("aria-label")
    assert_in_proportion(heights(page, "contribution", "rect.term"), terms(FIVE))
    assert_in_proportion(heights(page, "contribution", "rect.gain"), FIVE)  # the linear gain: a grade's own value
    expect(chart(page, "order").locator("text.grade")).to_have_text([str(g) for g in FIVE + sorted(FIVE)[::-1]])
    # NDCG@k's points: their heights above the first one's, against NDCG@k's fall from NDCG@1 = 1.
    ys = chart(page, "every_k").locator("circle.point").evaluate_all("cs => cs.map(c => c.cy.baseVal.value)")
    ndcg = [ndcg_at(FIVE, k) for k in range(1, 6)]
    drops = [y - ys[0] for y in ys[1:]]
    assert_in_proportion(drops, [ndcg[0] - v for v in ndcg[1:]])


def test_pointing_at_a_row_marks_every_chart_and_a_bar_points_at_its_row(page, app_url):
    open_playground(page, app_url)
    assert page.locator(".ndcg-figures .pos.pointed").count() == 0
    page.locator("ol > li.row").nth(2).hover()
    pointed = page.locator(".ndcg-figures .pos.pointed")
    expect(pointed.first).to_be_attached()
    assert set(pointed.evaluate_all("gs => gs.map(g => g.dataset.position)")) == {"3"}
    for kind in ("order", "contribution", "every_k", "cumulative"):
        expect(chart(page, kind).locator(".pos.pointed").first).to_be_attached()
    # The other way: the second bar pointed at marks its row in the list and the table.
    page.mouse.move(5, 5)
    chart(page, "contribution").locator('g.pos[data-position="2"] rect.term').hover()
    expect(page.locator("ol > li.row.pointed")).to_have_attribute("data-position", "2")
    expect(page.locator(".ndcg-table tbody tr.pointed")).to_have_attribute("data-position", "2")


def test_a_change_keeps_the_old_terms_marked_and_ends_at_the_new_ones(page, app_url):
    open_playground(page, app_url)
    assert chart(page, "contribution").locator(".was-mark").count() == 0
    page.get_by_role("button", name="Worst order").click()
    expect(page.locator(".ndcg-figures rect.term.changed").first).to_be_attached()
    wait_for_idle(page)
    page.wait_for_timeout(600)  # the 300 ms animation over
    changed = [a != b for a, b in zip(terms(FIVE), terms(WORST), strict=True)]
    expect(chart(page, "contribution").locator(".was-mark")).to_have_count(sum(changed))
    assert_in_proportion(heights(page, "contribution", "rect.term"), terms(WORST))
    old = chart(page, "contribution").locator(".was-mark").evaluate_all("ls => ls.map(l => l.y1.baseVal.value)")
    assert len(set(old)) == len(old)  # each at its own old height
