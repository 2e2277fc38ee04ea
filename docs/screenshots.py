"""Makes the screenshots in docs/img/ from the running app: run by hand, never in CI.

    python docs/screenshots.py

Starts the app (``streamlit run serve.py``) on a free loopback port with a throwaway classroom database, drives
Debian's Chromium (never a downloaded browser) through the pages a newcomer meets first, a class with three phones
included, and writes one PNG per view into docs/img/ (1280x720 for the desktop and the control page, 390x844 for a
phone, the projector at 1280x720, 1920x1080 and 3840x2160: waiting with its QR code, the class's answers, the
reveal; at one device pixel per CSS pixel and in 256 colours, so the files stay small). Look at them before
committing them. ``python docs/screenshots.py classroom`` makes the classroom's alone, ``python docs/screenshots.py
learn-by-hand`` Learn's worksheet alone, ``python docs/screenshots.py playground`` the Playground as it opens, its
explained move and its linked highlight alone.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import Browser, Page, Playwright, ViewportSize, expect, sync_playwright

from deploy import free_port, start_app

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
CHROMIUM = "/usr/bin/chromium"
DESKTOP: ViewportSize = {"width": 1280, "height": 720}
# The projectors of a lecturer's trial (issue 45): 720p, 1080p and 4K; the first is also the pictures' plain name.
PROJECTORS: tuple[ViewportSize, ...] = (
    {"width": 1280, "height": 720},
    {"width": 1920, "height": 1080},
    {"width": 3840, "height": 2160},
)


def shoot(page: Page, name: str) -> None:
    page.wait_for_timeout(1500)  # let charts and components finish drawing before the picture
    path = IMG / f"{name}.png"
    page.screenshot(path=str(path))
    # 256 colours without dithering: the text and charts look the same and the file is about a third the size
    Image.open(path).convert("RGB").quantize(256, dither=Image.Dither.NONE).save(path, optimize=True)
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")


def shoot_projector(screen: Page, name: str) -> None:
    """The projector view at every size of ``PROJECTORS``, each a fresh drawing at that size: ``name-WxH.png``, and
    the 720p picture also as ``name.png`` (the one the docs show inline)."""
    for size in PROJECTORS:
        screen.set_viewport_size(size)
        screen.reload()
        expect(screen.get_by_test_id("stMain")).to_be_visible(timeout=30_000)
        expect(screen.get_by_test_id("stMetric").first).to_be_visible(timeout=30_000)
        shoot(screen, f"{name}-{size['width']}x{size['height']}")
    screen.set_viewport_size(DESKTOP)
    screen.reload()
    expect(screen.get_by_test_id("stMetric").first).to_be_visible(timeout=30_000)
    shoot(screen, name)


def desktop_page(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport=DESKTOP, device_scale_factor=1).new_page()
    page.goto(url)
    expect(page.get_by_test_id("stMain")).to_be_visible(timeout=30_000)
    return page


def playground_opened(browser: Browser, url: str) -> None:
    """The Playground as it opens, at 1280x720."""
    playground = desktop_page(browser, f"{url}/Playground")
    expect(playground.get_by_test_id("stMetricValue").first).to_be_visible(timeout=30_000)
    shoot(playground, "playground")


def pages(browser: Browser, url: str) -> None:
    home = desktop_page(browser, url)
    expect(home.get_by_text("1. Learn")).to_be_visible(timeout=30_000)
    shoot(home, "home")

    playground_opened(browser, url)

    learn = desktop_page(browser, f"{url}/Learn")
    expect(learn.get_by_test_id("stMain").get_by_role("heading").first).to_be_visible(timeout=30_000)
    shoot(learn, "learn")

    # Practice, seed 2026, exercise 0: position 3 of grades 1, 3, 3, 2, 0 adds 3/log2(4) = 1.5 to the DCG;
    # 3/ln(4) = 2.16 is the natural logarithm's number, which the page names as that mistake.
    practice = desktop_page(browser, f"{url}/Practice?seed=2026&n=0")
    box = practice.get_by_role("textbox", name="Your answer")
    box.fill("2.16")
    box.press("Enter")
    practice.get_by_role("button", name="Check").click()
    expect(practice.get_by_test_id("stAlertContentError").first).to_be_visible(timeout=30_000)
    practice.get_by_test_id("stAlertContentError").first.scroll_into_view_if_needed()
    shoot(practice, "practice-mistake-named")


# Learn's worksheet: what a learner has typed so far, cell by cell (a slip at position 2's term, ln at position 3).
LEARN_TYPED = (
    ("Position 1's gain", "3"),
    ("Position 1's discount", "1"),
    ("Position 1's term", "3"),
    ("Position 2's gain", "2"),
    ("Position 2's discount", "0.63"),
    ("Position 2's term", "1.62"),
    ("Position 3's gain", "3"),
    ("Position 3's discount", "0.72"),
)


def learn_by_hand(browser: Browser, url: str) -> None:
    """Learn's step 6 at 1280x800: the table partly filled, a slip located in its cell and a mistake named."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1).new_page()
    page.goto(f"{url}/Learn?step=6")
    heading = page.get_by_role("heading", name="6. A whole NDCG by hand")
    expect(heading).to_be_visible(timeout=30_000)
    for name, text in LEARN_TYPED:
        box = page.get_by_role("textbox", name=name, exact=True)
        box.fill(text)
        box.press("Enter")
        expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning", timeout=30_000)
    expect(page.get_by_text("Position 2's term is 1.26, not 1.62.")).to_be_visible(timeout=30_000)
    heading.scroll_into_view_if_needed()
    page.get_by_test_id("stMain").evaluate("main => main.scrollBy(0, 250)")  # the table, from its header row
    shoot(page, "learn-by-hand")


def playground_linked(browser: Browser, url: str) -> None:
    """A move explained where the eye is (doc C, a 3, up from 3 to 2 with the row's button), then position 2
    pointed at: marked in the list, the formula (with its own numbers), the table and every chart (a taller
    picture, so the charts are in it)."""
    page = desktop_page(browser, f"{url}/Playground")
    rows = page.locator("ol > li.row")
    expect(rows).to_have_count(5, timeout=30_000)
    page.wait_for_timeout(2000)
    rows.nth(2).locator("button.up").click()
    expect(page.get_by_text("after moving doc C")).to_be_visible(timeout=30_000)
    page.mouse.move(5, 400)  # nothing pointed at
    shoot(page, "playground-move-explained")
    page.set_viewport_size({"width": 1280, "height": 1150})
    page.get_by_test_id("stMain").evaluate("main => main.scrollBy(0, 330)")
    page.wait_for_timeout(500)
    rows.nth(1).hover()
    shoot(page, "playground-linked")


def join(browser: Browser, playwright: Playwright, url: str, code: str, nickname: str) -> Page:
    device = {**playwright.devices["iPhone 13"], "device_scale_factor": 1}
    page = browser.new_context(**device).new_page()
    page.goto(f"{url}/Classroom?room={code}")
    box = page.get_by_role("textbox", name="Nickname (optional)")
    box.fill(nickname)
    box.press("Enter")
    page.get_by_role("button", name="Join").tap()
    page.wait_for_url("**/phone/**", timeout=30_000)
    expect(page.get_by_text(f"You are {nickname}.")).to_be_visible(timeout=30_000)
    return page


def classroom(browser: Browser, playwright: Playwright, url: str) -> None:
    teacher = desktop_page(browser, f"{url}/Classroom")
    teacher.get_by_role("button", name="Start a room").click()
    expect(teacher.get_by_text("Open the projector view")).to_be_visible(timeout=30_000)
    match = re.search(r"room=([A-Z0-9]{6})", teacher.url)
    assert match, teacher.url
    code = match.group(1)
    with teacher.context.expect_page() as opened:
        teacher.get_by_text("Open the projector view").click()
    screen = opened.value
    screen.set_viewport_size(DESKTOP)
    expect(screen.get_by_text("Join with a phone")).to_be_visible(timeout=30_000)

    phones = [join(browser, playwright, url, code, name) for name in ("Ana", "李雷", "Bo")]
    expect(screen.get_by_test_id("stMetric").filter(has_text="Students in the room")).to_contain_text("3")
    shoot_projector(screen, "projector-waiting")
    teacher.get_by_text("An example", exact=True).click()  # grades 3, 0, 2 at k = 3: NDCG 0.9386
    teacher.get_by_role("button", name="Open for the class").click()
    expect(screen.get_by_text("Activity 1: Predict the NDCG")).to_be_visible(timeout=30_000)
    for page, estimate in zip(phones, ("0.9", "0.94", "0.67"), strict=True):
        field = page.get_by_role("textbox", name="Your estimate of NDCG (0 to 1)")
        field.fill(estimate)
        page.get_by_role("button", name="Send").tap()
        expect(page.get_by_text("Saved. You can change it")).to_be_visible(timeout=30_000)
    expect(screen.get_by_test_id("stMetric").filter(has_text="Answered")).to_contain_text("3 / 3", timeout=30_000)
    shoot(phones[0], "phone-predict")
    expect(teacher.get_by_test_id("stMetric").filter(has_text="Answered")).to_contain_text("3 / 3", timeout=30_000)
    teacher.get_by_test_id("stMain").evaluate("main => main.scrollTo(0, 0)")  # its first screen, as opened
    shoot(teacher, "control-answers")
    shoot_projector(screen, "projector-answers")
    teacher.get_by_role("button", name="Reveal").click()
    expect(screen.get_by_text("The true NDCG is 0.9386.")).to_be_visible(timeout=30_000)
    shoot_projector(screen, "projector-reveal")
    expect(phones[2].locator(".ndcg-card")).to_contain_text("0.9386", timeout=30_000)
    shoot(phones[2], "phone-reveal")


def main() -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="ndcg-lab-shots-") as data_dir:
        with (Path(data_dir) / "streamlit.log").open("wb") as log:
            server = start_app(port, env={"NDCG_LAB_DATA_DIR": data_dir}, output=log)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                url = f"http://127.0.0.1:{port}"
                if sys.argv[1:] == ["learn-by-hand"]:
                    learn_by_hand(browser, url)
                elif sys.argv[1:] == ["playground"]:
                    playground_opened(browser, url)
                    playground_linked(browser, url)
                else:
                    if sys.argv[1:] != ["classroom"]:
                        pages(browser, url)
                        learn_by_hand(browser, url)
                        playground_linked(browser, url)
                    classroom(browser, playwright, url)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=20)


if __name__ == "__main__":
    main()
