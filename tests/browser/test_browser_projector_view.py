"""The projector view (``/Classroom?room=CODE&view=screen``) in Debian's Chromium: opened from the control page in
the teacher's browser it shows the join bar, the question, the live count and the chart, with no controls and no
key; every text and chart label is 20 px or more; at 1280x720 the count and the whole chart are on screen without
scrolling, and at 1920x1080 nothing is cut. Another browser opening the same address gets a student's page."""

import time

import pytest
from playwright.sync_api import expect
from test_browser_live_room import phone, start_room

pytestmark = pytest.mark.browser

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


def test_the_projector_view_shows_the_class_everything_but_the_controls(browser, playwright, app_url):
    context, teacher, code, keep = start_room(browser, app_url)
    screen = open_screen(teacher)
    assert screen.url.endswith("view=screen") or "view=screen" in screen.url
    expect(screen.get_by_text("Students in the room")).to_be_visible()
    phones = [phone(browser, playwright, app_url, code, name) for name in ("Ana", "Bo")]

    teacher.get_by_text("An example", exact=True).click()  # the first example: grades 3, 0, 2 at k = 3
    teacher.get_by_role("button", name="Open for the class").click()
    expect(screen.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()
    phones[0].get_by_role("textbox", name="Your estimate of NDCG (0 to 1)").fill("0.9")
    phones[0].get_by_role("button", name="Send").tap()
    expect(screen.get_by_test_id("stMetric").filter(has_text="Answered")).to_contain_text("1 / 2")  # live

    # No controls, no setup, no key: the only button enlarges the QR code.
    # (Unnamed buttons are the chart's and image's own toolbars.)
    buttons = [b.strip() for b in screen.get_by_role("button").all_inner_texts() if b.strip()]
    assert len(buttons) == 1 and buttons[0].endswith("Large QR code"), buttons
    for gone in ("Lock answers", "Reveal", "Open for the class", "End the room", "Open the next activity"):
        expect(screen.get_by_text(gone, exact=True)).to_have_count(0)
    assert "key=" not in screen.content() and "key=" not in screen.url
    assert keep.split("key=")[1] not in screen.content()
    check_sizes_and_fit(screen, 720)

    teacher.get_by_role("button", name="Reveal").click()
    expect(screen.get_by_text("The true NDCG is 0.9386.")).to_be_visible()  # the answer, and the worked terms
    expect(screen.get_by_test_id("stTable")).to_be_visible()
    screen.screenshot(path=str(_shots() / "projector_predict_revealed_1280x720.png"))

    teacher.get_by_text("Open the next activity").click()
    teacher.get_by_text("Which is better?", exact=True).click()
    teacher.get_by_role("button", name="Open for the class").click()
    expect(screen.get_by_text("Activity 2: Which is better?")).to_be_visible()
    check_sizes_and_fit(screen, 720)
    screen.set_viewport_size({"width": 1920, "height": 1080})
    expect(screen.get_by_text("System B")).to_be_visible()
    check_sizes_and_fit(screen, 1080)
    votes = screen.get_by_test_id("stVegaLiteChart").first.locator("svg text").evaluate_all(CHART_TEXT)
    assert {"A", "B", "The same"} <= {v["text"] for v in votes}  # every vote label drawn whole
    screen.screenshot(path=str(_shots() / "projector_compare_1920x1080.png"))

    # The same address in a browser that does not hold the key: a student's page.
    stranger = browser.new_context(**playwright.devices["iPhone 13"]).new_page()
    stranger.goto(screen.url)
    expect(stranger.get_by_role("button", name="Join")).to_be_visible(timeout=30_000)
    expect(stranger.get_by_text("Activity 2: Which is better?")).to_have_count(0)
    context.close()


def test_the_control_page_works_as_a_phone_remote_with_its_buttons_first(browser, playwright, app_url):
    context, teacher, code, keep = start_room(browser, app_url)
    remote = browser.new_context(**playwright.devices["iPhone 13"]).new_page()
    remote.goto(keep)  # the control link, opened on the lecturer's phone
    expect(remote.get_by_text(f"Room {code}: controls")).to_be_visible(timeout=30_000)
    assert "key=" not in remote.url
    teacher.get_by_role("button", name="Open for the class").click()
    lock = remote.get_by_role("button", name="Lock answers")
    expect(lock).to_be_visible(timeout=15_000)
    assert lock.bounding_box()["y"] < 844  # on the phone's first screen
    lock.tap()
    expect(teacher.get_by_test_id("stMetric").filter(has_text="Answers")).to_contain_text("locked")
    assert remote.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing sideways
    context.close()


def _shots():
    from pathlib import Path

    folder = Path("test-results")
    folder.mkdir(exist_ok=True)
    return folder
