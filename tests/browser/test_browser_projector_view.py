"""The projector view (``/Classroom?room=CODE&view=screen``) as the browser tests open and measure it: opened from the
control page in the teacher's browser (``open_screen``), and every text and chart label 20 px or more, nothing cut,
the count and the whole chart on the first screen (``check_sizes_and_fit``). Its checks run on the classes other
modules start: the view with no controls and no key, its sizes at 1280x720 and 1920x1080 in test_browser_lesson.py;
every kind's reveal in test_browser_projector_reveal_fits.py; the control link on a phone in
test_browser_live_room.py; a browser without the key getting a student's page, without a browser, in
tests/ui/test_classroom_page.py."""

import time

from playwright.sync_api import expect

# Every visible element with text of its own, with its font size and whether its text is cut (ellipsis or clipped).
TEXT_SIZES = """() => {
  const out = [];
  for (const e of document.querySelectorAll('.stMain *')) {
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const box = e.getBoundingClientRect();
    if (!own || !box.width || !box.height || getComputedStyle(e).visibility === 'hidden') continue;
    if (e.closest('[data-testid="stIconMaterial"]')) continue;  // an icon's name, drawn as a symbol
    out.push({text: e.textContent.trim().slice(0, 40), size: parseFloat(getComputedStyle(e).fontSize),
              cut: e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible'});
  }
  return out;
}"""
CHART_TEXT = "ts => ts.map(e => ({text: e.textContent, size: parseFloat(getComputedStyle(e).fontSize)}))"


def open_screen(teacher):
    """The projector view, opened as the teacher does: the control page's link, in a new tab of the same browser."""
    with teacher.context.expect_page() as opened:
        teacher.get_by_text("Open the projector view").click()
    screen = opened.value
    screen.set_viewport_size({"width": 1280, "height": 720})
    expect(screen.get_by_text("Join with a phone")).to_be_visible(timeout=30_000)
    return screen


def check_sizes_and_fit(screen, height):
    chart = screen.get_by_test_id("stVegaLiteChart").first
    expect(chart.locator("svg text").first).to_be_attached()
    labels = chart.locator("svg text").evaluate_all(CHART_TEXT)
    assert labels and min(label["size"] for label in labels) >= 20, labels
    texts = screen.evaluate(TEXT_SIZES)
    assert texts and min(t["size"] for t in texts) >= 20, sorted(texts, key=lambda t: t["size"])[:5]
    assert not [t for t in texts if t["cut"]]
    count = screen.get_by_test_id("stMetric").filter(has_text="Answered")

    def outside() -> list:
        boxes = [(part, part.bounding_box()) for part in (count, chart)]
        return [(p, b) for p, b in boxes if not (b["y"] >= 0 and b["y"] + b["height"] <= height)]

    # A loaded server sends the view's parts one by one: the layout is measured once it has settled (10 s at most).
    deadline = time.monotonic() + 10
    while outside() and time.monotonic() < deadline:
        screen.wait_for_timeout(250)
    assert not outside(), outside()
    assert screen.evaluate("window.scrollY") == 0
