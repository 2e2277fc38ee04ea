"""On an iPhone 13 (390 px) and a 360 px Android phone (Galaxy S8's 360 x 740), both with touch in Debian's
Chromium: a formula is whole on the screen (it wraps, never runs past the edge) and Learn's step 5 leaves no gap
under DCG@5, no table's toolbar lies over the text before it, the Playground's table reaches its Ideal and NDCG
columns by a scroll inside it with its Position column fixed, and the sidebar closes once a page is picked in it.

Both sizes on the worker's shared iPhone 13 page (conftest's ``phone_page``), each page opened once: checked at the
iPhone's 390 px, then with the viewport set to the Galaxy's 360 x 740 and checked again (what cuts is the width,
and the layout follows it; a new context per phone cost more than its page, and opening each page again per size
more than its checks). The sidebar's picks: from Home at 390 px, from Learn and the Playground at 360 px."""

import json
import time

import pytest
from playwright.sync_api import expect

from ndcg_core.teaching.exercises import exercise
from support import ROOT, wait_for_idle

pytestmark = pytest.mark.browser

PHONES = {"iPhone 13": None, "Galaxy S8": {"width": 360, "height": 740}}
GALAXY = PHONES["Galaxy S8"]
SEED = 2026
# The first exercise of the seed that asks about a table (the "gap" exercise: queries and their grades).
GAP = next(n for n in range(1, 50) if exercise(SEED, n - 1).kind == "gap")


def at_each_size(page):
    """The page at the iPhone's size, then at the Galaxy's (the shared page's teardown sets it back), for the
    checks to run at each; the size's name."""
    yield "iPhone 13"
    page.set_viewport_size(GALAXY)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    yield "Galaxy S8"


def open_page(page, url):
    page.goto(url)
    expect(page.get_by_test_id("stMain").locator("h1")).to_be_visible(timeout=30000)
    wait_for_idle(page)
    return page


def settled(page, script, good, seconds=10.0):
    """``script``'s result once ``good`` holds for it, or the last one seen after ``seconds`` (for the message)."""
    deadline = time.monotonic() + seconds
    seen = page.evaluate(script)
    while not good(seen) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        seen = page.evaluate(script)
    return seen


# Each display formula: its box's right edge, the width of what it holds, and the width it shows.
FORMULAS = """() => [...document.querySelectorAll('[data-testid=stMain] .katex-display')].map(e => {
  const box = e.getBoundingClientRect(), html = e.querySelector('.katex-html').getBoundingClientRect();
  return {right: box.right, scroll: e.scrollWidth, client: e.clientWidth, htmlRight: html.right,
          text: e.querySelector('.katex-mathml annotation')?.textContent}; })"""


def test_the_ndcg_formula_wraps_whole_on_the_screen_and_dcg_at_5_has_its_caption_under_it(phone_page, app_url):
    page = open_page(phone_page, f"{app_url}/Learn?step=5")
    for phone in at_each_size(page):
        dcg_at_5_is_followed_by_its_caption_with_no_gap(page)
        expect(page.locator(".katex-display").first).to_be_visible()
        width = page.viewport_size["width"]
        # Measured once KaTeX's fonts are in and the page's style has settled (a first layout may be in fallback
        # type).
        page.evaluate("document.fonts.ready.then(() => true)")
        formulas = settled(page, FORMULAS, lambda seen: all(f["scroll"] <= f["client"] + 1 for f in seen))
        assert any("IDCG@}k = 0" in f["text"] or "IDCG@}k=0" in f["text"].replace(" ", "") for f in formulas), (
            phone,
            formulas,
        )
        for formula in formulas:
            # Nothing of it past the screen's edge, and nothing hidden in its box ("when IDCG@k = 0" was cut).
            assert formula["right"] <= width and formula["htmlRight"] <= width, (phone, formula)
            assert formula["scroll"] <= formula["client"] + 1, (phone, formula)
        # The words after the formula's comma are on the screen, not scrolled out of sight.
        when = page.locator(".katex-display .katex-html").filter(has_text="when").first
        when.scroll_into_view_if_needed()
        box = when.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, phone


def dcg_at_5_is_followed_by_its_caption_with_no_gap(page):
    """Learn's step 5 shows DCG@5 and its caption right under it: no empty columns stacked into a gap between them
    before the check is answered (Streamlit stacks columns below 640 px)."""
    metric = page.get_by_test_id("stMetric").filter(has_text="DCG@5")
    caption = page.get_by_test_id("stCaptionContainer").filter(has_text="The ideal order")
    expect(metric).to_have_count(1)
    expect(caption).to_be_visible()
    metric.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/ndcg-lab-learn-step-5-{page.viewport_size['width']}px.png")
    above, below = metric.bounding_box(), caption.bounding_box()
    assert above is not None and below is not None
    gap = below["y"] - (above["y"] + above["height"])
    # One gap between two elements of the page (1rem); two empty columns stacked under the metric made it about 3.
    assert 0 <= gap <= 24, gap


# Every element toolbar shown (a table's search, download, full screen) and any other element of the page its box
# meets: a touch screen shows the toolbar at all times, 44 px above its table.
COVERED = """() => {
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const bars = [...document.querySelectorAll('[data-testid=stMain] [data-testid=stElementToolbar]')]
    .filter(bar => getComputedStyle(bar).visibility !== 'hidden' && +getComputedStyle(bar).opacity > 0);
  const parts = [...document.querySelectorAll('[data-testid=stMain] [data-testid=stElementContainer]')];
  return [bars.length, bars.flatMap(bar => { const box = bar.getBoundingClientRect();
    return parts.filter(p => !p.contains(bar) && meets(box, p.getBoundingClientRect()))
      .map(p => p.innerText.slice(-60)); })]; }"""


def test_a_table_toolbar_covers_no_question_or_answer(phone_page, app_url):
    page = open_page(phone_page, f"{app_url}/Practice?seed={SEED}&n={GAP}")
    for phone in at_each_size(page):
        table = page.get_by_test_id("stDataFrame")
        expect(table).to_have_count(1)
        table.scroll_into_view_if_needed()
        expect(page.get_by_test_id("stRadio")).to_be_visible()
        shown, covered = page.evaluate(COVERED)
        assert shown >= 1, phone  # the toolbar is there on a phone (no hover): it must have room of its own
        assert covered == [], phone
        width = page.viewport_size["width"]
        box = table.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, phone


# The breakdown table's scrolling box and, for each header cell, its left and right edges.
TABLE = """e => ({box: [e.getBoundingClientRect().left, e.getBoundingClientRect().right],
  heads: [...e.querySelectorAll('thead th')].map(th => [th.textContent, th.getBoundingClientRect().left,
                                                        th.getBoundingClientRect().right])})"""


def test_the_playground_table_scrolls_to_ideal_and_ndcg_with_position_fixed_and_the_sidebar_closes_on_a_pick(
    phone_page, app_url
):
    """The Playground's table at each size, then (on the same page, at 360 px) its sidebar: a page picked in it
    closes it."""
    page = open_page(phone_page, f"{app_url}/Playground")
    for phone in at_each_size(page):
        the_table_scrolls_to_ideal_and_ndcg_with_position_fixed(page, phone)
    picks_a_page_and_the_sidebar_closes(page, "Playground", "Practice", "Practice")


def the_table_scrolls_to_ideal_and_ndcg_with_position_fixed(page, phone):
    table = page.locator(".ndcg-table")
    expect(table.locator("tbody tr")).to_have_count(5)
    table.evaluate("e => { e.scrollLeft = 0; }")
    table.scroll_into_view_if_needed()
    width = page.viewport_size["width"]
    seen = table.evaluate(TABLE)
    left, right = seen["box"]
    assert left >= 0 and right <= width, phone  # the table's own box is on the screen; the rest scrolls inside it
    table.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    page.wait_for_function("e => e.scrollLeft > 0", arg=table.element_handle())
    heads = {text: (a, b) for text, a, b in table.evaluate(TABLE)["heads"]}
    names = list(heads)
    assert names[0] == "Position"
    # Scrolled to its end: Position is still at the table's left edge, and the last columns (Ideal grade, ideal
    # DCG so far, NDCG so far) are inside the box, where the eye can read them.
    assert abs(heads["Position"][0] - left) <= 1, (phone, heads)
    for name in names[-3:]:
        assert any(word in name for word in ("Ideal", "ideal", "NDCG")), names
        assert left <= heads[name][0] and heads[name][1] <= right + 1, (phone, name, heads)
    # The Position cells of the rows stay in front of the cells scrolled under them.
    first = table.locator("tbody tr").first.locator("th")
    box = first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert first.evaluate("(e, p) => e.contains(e.getRootNode().elementFromPoint(p[0], p[1]))", [x, y]), phone


# The Playground's settings, which its sidebar holds, by their English labels.
SETTINGS = [
    json.loads((ROOT / "ui/locales/en.json").read_text(encoding="utf-8"))[f"playground.{name}"]
    for name in ("k", "gain", "discount")
]


def test_the_sidebar_closes_once_a_page_is_picked(phone_page, app_url):
    """From Home at 390 px, then from the Learn it opened at 360 px; from the Playground in the table's test, on its
    page."""
    page = open_page(phone_page, f"{app_url}/")
    picks_a_page_and_the_sidebar_closes(page, "", "Learn", "Learn")
    page.set_viewport_size(GALAXY)
    picks_a_page_and_the_sidebar_closes(page, "Learn", "Practice", "Practice")


def picks_a_page_and_the_sidebar_closes(page, start, pick, title):
    """Open the sidebar on ``page`` (showing ``start``), pick ``pick``: ``title``'s page shows and the sidebar
    closes."""
    sidebar = page.get_by_test_id("stSidebar")
    page.get_by_test_id("stExpandSidebarButton").tap()
    if start == "Playground":  # there, they are in the sidebar
        expect(sidebar.get_by_label(SETTINGS[1], exact=True)).to_have_count(1)
    link = sidebar.get_by_role("link", name=pick, exact=True)
    expect(link).to_be_in_viewport()
    link.tap()
    expect(page.get_by_test_id("stMain").locator("h1")).to_contain_text(title, timeout=30000)
    wait_for_idle(page)
    # Closed: the page picked is what the phone shows, and the sidebar is out of the screen.
    expect(link).not_to_be_in_viewport()
    expect(page.get_by_test_id("stExpandSidebarButton")).to_be_visible()
    # Learn's and Practice's settings are on the page: the sidebar holds no k, gain or discount.
    for label in SETTINGS:
        expect(sidebar.get_by_label(label, exact=True)).to_have_count(0)
