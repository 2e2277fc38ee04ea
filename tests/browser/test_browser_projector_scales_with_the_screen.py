"""The projector view in Debian's Chromium at 1280x720, 1920x1080 and 3840x2160 (a lecturer's trial, issue 45):
the same view fills each screen alike. Every text, the charts' included, is as large a share of the screen's height
as 20 px of a 720p screen's (at 1920x1080 it had stayed at 20-22 px); the waiting screen's QR code is at least a third
of the screen's height, to scan from the middle of a hall; the class's answers reach down the screen (no blank lower
half); and at 1280x720 a Predict's conventions line (the point of the question) and, after the reveal, its worked
terms are on the first screen without scrolling. One projector page is resized to each screen in turn, as a window
moved to the projector would be (the view scales by CSS and the charts by Vega's window size, with no rerun)."""

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from test_browser_projector_reveal_fits import lesson_room, within  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

SIZES = ((1280, 720), (1920, 1080), (3840, 2160))
# The smallest text of the view laid out for 720p: 20 px, a 36th of the screen's height; larger screens alike.
SHARE = 20 / 720
# The view reaches at least this far down the screen: a larger screen is filled as a 720p one, not left blank below.
FILLED = 0.7
# The four students' estimates of the shipped lesson's first step (a Predict of NDCG@5 over five results).
ESTIMATES = ("0.9", "0.8", "0.95", "0.5")

# Every visible text on the page with its font size in px, an SVG chart's text included; and how far down the page
# the lowest visible text, table, chart or image reaches.
TEXTS = """() => {
  const out = [];
  for (const e of document.querySelectorAll('.stMain *')) {
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const box = e.getBoundingClientRect();
    if (!own || !box.width || !box.height || getComputedStyle(e).visibility === 'hidden') continue;
    if (e.closest('[data-testid="stIconMaterial"]')) continue;  // an icon's name, drawn as a symbol
    out.push({text: e.textContent.trim().slice(0, 40), size: parseFloat(getComputedStyle(e).fontSize)});
  }
  return out;
}"""
LOWEST = """() => Math.max(...[...document.querySelectorAll(
  '.stMain [data-testid=stMarkdownContainer] p, .stMain [data-testid=stVegaLiteChart], .stMain [data-testid=stTable],'
  + ' .stMain [data-testid=stMetric], .stMain [data-testid=stImage] img, .stMain [data-testid=stAlert]')]
  .map(e => e.getBoundingClientRect()).filter(b => b.width && b.height).map(b => b.bottom))"""


def projector(browser, app_url, code, key):
    """The projector view in the teacher's browser, which holds the key: one page, resized to each screen in turn
    (the view's sizes follow the viewport's height by CSS alone, as a projector's window resized would)."""
    context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]}, device_scale_factor=1)
    screen = context.new_page()
    screen.goto(f"{app_url}/Classroom?room={code}&key={key}&view=screen")
    expect(screen.get_by_text("Join with a phone")).to_be_visible(timeout=30_000)
    return context, screen


def at_size(screen, size):
    """``screen`` resized to ``size`` (width, height), once the projector's style has followed: the room code's
    6rem, 96 px at 720p, as large a share of this screen's height."""
    width, height = size
    screen.set_viewport_size({"width": width, "height": height})
    screen.wait_for_function(
        "h => parseFloat(getComputedStyle(document.querySelector('.st-key-cr_room_code p')).fontSize) >= 0.99 * h",
        arg=96 * height / 720,
        timeout=30_000,
    )


def texts_scale(screen, height):
    """Every text on the screen, each chart's included, is at least ``SHARE`` of the screen's height."""
    charts = screen.get_by_test_id("stVegaLiteChart")
    for i in range(charts.count()):
        expect(charts.nth(i).locator("svg text").first).to_be_attached()
    # A chart draws itself again after a resize: measured once every text has followed (30 s at most).
    with contextlib.suppress(PlaywrightTimeout):
        screen.wait_for_function(f"m => ({TEXTS})().every(t => t.size >= m)", arg=0.99 * SHARE * height, timeout=30_000)
    texts = screen.evaluate(TEXTS)
    assert texts, "no text measured"
    small = [t for t in texts if t["size"] < 0.99 * SHARE * height]
    assert not small, (height, sorted(small, key=lambda t: t["size"])[:5])


def fills(screen, height):
    """The view reaches ``FILLED`` of the screen's height, once drawn (a busy server sends the parts one by one)."""
    with contextlib.suppress(PlaywrightTimeout):
        screen.wait_for_function(f"({LOWEST})() >= {FILLED * height}", timeout=30_000)
    lowest = screen.evaluate(LOWEST)
    assert lowest >= FILLED * height, (lowest, height)


def test_the_projector_fills_a_720p_a_1080p_and_a_4k_screen_alike(browser, app_url, lesson_room):  # noqa: F811
    store, code, key, students = lesson_room
    context, screen = projector(browser, app_url, code, key)

    # The waiting screen: the QR code a third of the screen's height or more.
    expect(screen.get_by_test_id("stMetric").filter(has_text="Students in the room")).to_contain_text(
        "4", timeout=30_000
    )
    for size in SIZES:
        at_size(screen, size)
        images = screen.get_by_test_id("stMain").get_by_test_id("stImage").locator("img")
        expect(images.first).to_be_visible()
        screen.wait_for_function(
            "() => [...document.querySelectorAll('.stMain [data-testid=stImage] img')].every(i => i.complete)"
        )
        tallest = max(box["height"] for box in (images.nth(i).bounding_box() for i in range(images.count())))
        assert tallest >= size[1] / 3, (size, tallest)
        texts_scale(screen, size[1])
        fills(screen, size[1])

    # The class's estimates in (the page follows by itself): every text scales, the view fills the screen, the
    # conventions on the first screen.
    at_size(screen, SIZES[0])
    activity = store.lessons.step(code, key, 0)
    for me, estimate in zip(students, ESTIMATES, strict=True):
        store.answers.submit(code, me, activity.id, [(0, estimate)])
    expect(screen.get_by_test_id("stMetric").filter(has_text="Answered")).to_contain_text("4 / 4", timeout=30_000)
    for size in SIZES:
        at_size(screen, size)
        expect(screen.get_by_test_id("stVegaLiteChart").first.locator("svg text").first).to_be_attached()
        texts_scale(screen, size[1])
        fills(screen, size[1])
        within(screen, screen.get_by_text("Conventions:", exact=False).first, size[1])
        within(screen, screen.get_by_test_id("stVegaLiteChart").first, size[1])

    # The reveal: the truth, the conventions and the worked terms all on the first screen, at every size.
    at_size(screen, SIZES[0])
    store.rooms.set_phase(code, key, "revealed")
    expect(screen.get_by_text("The true NDCG is", exact=False)).to_be_visible(timeout=30_000)
    for size in SIZES:
        at_size(screen, size)
        expect(screen.get_by_text("The true NDCG is", exact=False)).to_be_visible(timeout=30_000)
        expect(screen.get_by_test_id("stTable").filter(has_text="DCG so far")).to_be_visible(timeout=30_000)
        expect(screen.get_by_test_id("stVegaLiteChart")).to_have_count(2)  # the class by group, the estimates
        texts_scale(screen, size[1])
        fills(screen, size[1])
        for part in (
            screen.get_by_text("The true NDCG is", exact=False).first,
            screen.get_by_text("Conventions:", exact=False).first,
            screen.get_by_test_id("stTable").filter(has_text="DCG so far"),
        ):
            within(screen, part, size[1])
    context.close()
