"""A phone's page follows the phone's own light or dark setting and stays readable, in Debian's Chromium: two
iPhone 13 phones (touch), one light and one dark. The page's background is the app's light or dark one; the card's
note ("wait for the teacher") has text at 4.5:1 or more against the note's own background over the page's (WCAG AA
for body text), as Streamlit's own notes had, and so has the Send button's label against the button; the answer's
buttons and the list's table are outlined in the theme's border colour. The room and its activity are made by the
store (another process), as the teacher's page makes them: the phones' page is what is looked at."""

import re

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.storage import Classroom, database_url
from support import join_on_its_page

pytestmark = pytest.mark.browser

# A colour as computed by the browser: rgb()/rgba() in 0-255, or color(srgb ...) in 0-1 (what color-mix gives).
COLOUR = re.compile(r"(rgba?|color)\((?:srgb )?([\d.]+)[, ]+([\d.]+)[, ]+([\d.]+)(?:\s*[,/]\s*([\d.]+))?\)")


def rgba(text):
    kind, r, g, b, a = COLOUR.match(text).groups()
    scale = 1.0 if kind == "color" else 255.0
    return [float(r) / scale, float(g) / scale, float(b) / scale], 1.0 if a is None else float(a)


def over(top, alpha, bottom):
    return [alpha * t + (1 - alpha) * u for t, u in zip(top, bottom, strict=True)]


def luminance(rgb):
    """WCAG 2's relative luminance of an sRGB colour (components 0-1)."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def note_contrast(page):
    note = page.locator(".ndcg-card .note.info")
    expect(note).to_be_visible()
    text = rgba(note.evaluate("n => getComputedStyle(n).color"))[0]
    fill, alpha = rgba(note.evaluate("n => getComputedStyle(n).backgroundColor"))
    paper = rgba(page.locator("body").evaluate("n => getComputedStyle(n).backgroundColor"))[0]
    return contrast(text, over(fill, alpha, paper)), paper


# The theme's border colour as a colour the browser computed, and the element's own top border colour.
THEME_BORDER = """n => {
  const probe = document.createElement("span");
  probe.style.color = getComputedStyle(n).getPropertyValue("--st-border-color");
  n.parentElement.appendChild(probe);
  const theme = probe.style.color ? getComputedStyle(probe).color : "";
  probe.remove();
  return [theme, getComputedStyle(n).borderTopColor];
}"""


def test_a_phone_page_is_readable_in_the_phones_own_theme(browser, playwright, app_url):
    """One class, a light phone and a dark one."""
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, key = store.rooms.create()
    phones = {}
    for system, nickname in (("light", "Ana"), ("dark", "Bo")):
        own = browser.new_context(**playwright.devices["iPhone 13"], color_scheme=system)
        phones[system] = join_on_its_page(own, app_url, room.code, nickname)
    for system, page in phones.items():
        expect(page.get_by_text("Wait for the teacher to open an activity")).to_be_visible()
        expect(page.locator("body")).to_have_css(
            "background-color", "rgb(14, 17, 23)" if system == "dark" else "rgb(255, 255, 255)"
        )
        ratio, paper = note_contrast(page)
        page.screenshot(path=f"/tmp/ndcg_phone_page_{system}.png")
        assert ratio >= 4.5, (system, ratio)

    # The answer's buttons and the list's table are outlined in the theme's border colour (on the dark theme a
    # fixed light-theme grey all but vanishes), and the Send button's label reads well on it.
    store.rooms.open_activity(room.code, key, compare_activity("seed003", "ndcg"))  # the control page's default
    for system, page in phones.items():
        expect(page.get_by_role("radio", name="A", exact=True)).to_be_visible(timeout=30_000)
        for part in (page.get_by_role("radio", name="A", exact=True), page.locator(".ndcg-card td").first):
            theirs, ours = part.evaluate(THEME_BORDER)
            assert theirs and ours == theirs, (system, theirs, ours)
        send = page.locator(".ndcg-card button.send")
        label = rgba(send.evaluate("n => getComputedStyle(n).color"))[0]
        fill = rgba(send.evaluate("n => getComputedStyle(n).backgroundColor"))[0]
        assert contrast(label, fill) >= 4.5, (system, contrast(label, fill))
        page.screenshot(path=f"/tmp/ndcg_phone_page_{system}_vote.png")
        page.context.close()
    store.close()
