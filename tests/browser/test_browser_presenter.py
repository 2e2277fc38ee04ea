"""Presenter view on a projector, in Debian's Chromium: at 1280x720 and 1366x768 (one page, resized) with the sidebar
open, and at 150% zoom, no headline figure is cut, the type a room reads is at least 18 px, captions have WCAG AA
contrast; presenter view is part of the link, shows a QR code of the page's link, and the app shows no developer
controls."""

import base64
import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
from playwright.sync_api import expect

from support import wait_for_idle
from ui.widgets.qr import qr_svg

pytestmark = pytest.mark.browser

# The headline's figures: each metric's value, and the Playground's DCG@k and IDCG@k (one element, not metrics).
CUT = """() => [...document.querySelectorAll('[data-testid=stMetricValue] > div, .pg-dcg-idcg-value')]
  .filter(e => e.scrollWidth > e.clientWidth + 1 || e.innerText.trim().endsWith('…')).map(e => e.innerText)"""

FONT = "e => parseFloat(getComputedStyle(e).fontSize)"
AT_LEAST_18PX = re.compile(r"^(1[89]|[2-9]\d|\d{3,})(\.\d+)?px$")

# The contrast of each caption's text (and each chart's reading in grey) against the page, as WCAG 2 defines it
# (opacity blends into the background).
CAPTION_CONTRAST = """() => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => {
                       v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bg = rgb(getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor);
  const small = '[data-testid=stCaptionContainer], [data-testid=stMarkdownContainer] .stMarkdownColoredText';
  return [...document.querySelectorAll(small)].map(e => {
    let alpha = 1;
    for (let n = e; n && n.nodeType === 1; n = n.parentElement) alpha *= Number(getComputedStyle(n).opacity);
    const fg = rgb(getComputedStyle(e).color).map((v, i) => v * alpha + bg[i] * (1 - alpha));
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  });
}"""


def open_page(browser, app_url, path, width=1280, height=720, scale=1):
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
    page = context.new_page()
    page.goto(f"{app_url}/{path}")
    expect(page.get_by_test_id("stSidebar")).to_be_visible(timeout=30000)
    wait_for_idle(page)
    return context, page


def figures_are_whole_and_type_is_large(page, whole_table=True):
    """The Playground's presenter view as ``page`` shows it: no headline figure cut, the sidebar open, the type a room
    reads 18 px or more, captions of WCAG AA contrast; ``whole_table``: all eight columns in view beside the sidebar,
    headings wrapped (at 150% zoom it scrolls)."""
    expect(page.locator("li.row")).to_have_count(5)
    expect(page.locator("[data-testid=stMetricValue], .pg-dcg-idcg-value")).to_have_count(3)
    wait_for_idle(page)
    assert page.evaluate(CUT) == []
    assert page.get_by_test_id("stSidebar").is_visible()  # the default: sidebar open
    example = page.get_by_test_id("stSelectbox").filter(has_text="Example").locator("input")
    expect(example).to_have_css("font-size", AT_LEAST_18PX)
    expect(page.locator(".ndcg-table td").first).to_have_css("font-size", AT_LEAST_18PX)  # the worked terms
    if whole_table:
        assert page.locator(".ndcg-table").evaluate("e => e.scrollWidth <= e.clientWidth")
    reading = page.locator(".ndcg-figures .reading").filter(has_text="Each tile is a position")
    expect(reading).to_have_css("font-size", AT_LEAST_18PX)  # a chart's reading
    assert min(page.evaluate(CAPTION_CONTRAST)) >= 4.5


def other_pages_on_a_projector(page, app_url):
    """Metrics and Learn in presenter view at 1280x720: no figure cut, captions of AA contrast, Metrics' table and
    chart in type of 18 px or more."""
    for path in ("Metrics?present=1", "Learn?step=5&present=1"):
        page.goto(f"{app_url}/{path}")
        expect(page.get_by_test_id("stMetricValue").or_(page.get_by_test_id("stTable")).first).to_be_visible()
        wait_for_idle(page)
        assert page.evaluate(CUT) == []
        assert min(page.evaluate(CAPTION_CONTRAST)) >= 4.5
    page.goto(f"{app_url}/Metrics?present=1")
    table = page.get_by_test_id("stTable")
    expect(table).to_be_visible()
    cells = table.locator("td, th").evaluate_all("cells => cells.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert min(cells) >= 18
    chart = page.get_by_test_id("stVegaLiteChart").first
    expect(chart.locator("svg text").first).to_be_attached()
    sizes = chart.locator("svg text").evaluate_all("ts => ts.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= 18


def without_present(url):
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "present"]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def test_presenter_view_is_in_the_link_shows_a_qr_code_of_it_and_fits_a_projector(desktop_page, app_url):
    """Presenter view turned on in the sidebar, on one page (the worker's shared desktop page, 1280x720): in the link,
    kept by a reload, with a QR code of the link; its figures whole and its type large at 1280x720 and at 1366x768 (the
    page resized); then Metrics and Learn at 1280x720, and a prepared deep link."""
    page = desktop_page
    page.goto(f"{app_url}/Playground")
    expect(page.get_by_test_id("stSidebar")).to_be_visible(timeout=30000)
    wait_for_idle(page)
    assert page.get_by_text("Deploy", exact=True).count() == 0
    page.get_by_test_id("stMainMenu").click()
    menu = page.get_by_test_id("stMainMenuPopover")
    expect(menu).to_be_visible()
    for developer in ("Rerun", "Clear cache", "Developer"):
        assert developer not in menu.inner_text()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(page.locator(".ndcg-sortable.readonly")).to_have_count(0)
    expect(page.get_by_role("img", name="QR code of the link to this page, in this state")).to_have_count(0)
    page.get_by_test_id("stSidebar").get_by_text("Presenter view").click()
    expect(page.locator(".ndcg-sortable.readonly")).to_have_count(1)
    page.wait_for_function("() => new URLSearchParams(location.search).get('present') === '1'")
    page.reload()
    expect(page.locator(".ndcg-sortable.readonly")).to_have_count(1, timeout=30000)
    qr = page.get_by_role("img", name="QR code of the link to this page, in this state")
    expect(qr).to_be_visible()
    assert qr.bounding_box()["width"] >= 320
    wait_for_idle(page)
    link = without_present(page.url)  # the class gets the state, not the presenter's view
    assert "s=" in link
    src = qr.get_attribute("src")
    assert base64.b64decode(src.split(",", 1)[1]).decode() == qr_svg(link)
    expect(page.get_by_text(link, exact=True)).to_be_visible()

    for width, height in ((1280, 720), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        figures_are_whole_and_type_is_large(page)
    page.set_viewport_size({"width": 1280, "height": 720})
    other_pages_on_a_projector(page, app_url)
    page.goto(f"{app_url}/Learn?step=3&present=1")  # a prepared deep link
    expect(page.get_by_role("heading", name="3. The discount")).to_be_visible(timeout=30000)
    expect(page.get_by_role("img", name="QR code of the link to this page, in this state")).to_be_visible()


def test_at_150_percent_zoom_figures_are_whole_and_type_is_large(browser, app_url):
    """150% browser zoom on a 1280x720 screen lays the page out in 853x480 CSS pixels, each drawn as 1.5 device
    pixels: the table may scroll, nothing else changes."""
    context, page = open_page(browser, app_url, "Playground?present=1", 853, 480, 1.5)
    figures_are_whole_and_type_is_large(page, whole_table=False)
    context.close()
