"""The replica serving the teacher killed in the middle of a class, in Debian's Chromium: two app processes behind
nginx on one PostgreSQL (``python -m deploy up``); the teacher's control page and projector view on replica 1, three
phones (iPhone 13, touch) on replica 2. After the phones' answers are acknowledged, replica 1 is killed (SIGKILL to
its process group). Streamlit's page reconnects its websocket by itself; nginx sends it to replica 2, where a new
session draws the page again from what the store and the browser keep (the room in the address, the key in the
browser's storage): both pages come back without a reload or a click, the control page with its controls (never
offering "Join"), the projector without controls. They keep control and keep updating: a phone's new answer
reaches both, the Reveal pressed on the control page reaches the projector and the phones, and the next activity
opens on every phone. The phones, on replica 2 all along, carry on. The time from the kill to each page's controls
is printed, not asserted."""

import os
import shutil
import signal
import time

import pytest
from playwright.sync_api import expect
from test_browser_live_room import answered, open_activity, phone, send, start_room
from test_browser_projector_view import open_screen
from test_browser_reconnect import WATCH_JOIN
from test_browser_replica_killed_mid_class import NOTICE, WATCH, cookie, estimate

from support import deployment, pin, wait_for_idle

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which("nginx", path="/usr/sbin:/usr/bin") is None, reason="nginx is not installed"),
]

SHOTS = os.environ.get("NDCG_LAB_SHOTS")  # a folder for the screenshots a person looks at (none: not taken)
# Nicknames, each phone's answer before the kill and after it.
CLASS = [("Ana", "0.9", "0.5"), ("Bo", "0.8", "0.3"), ("李雷", "0.7", None)]
CONNECTED = "() => document.querySelector('[data-testid=stApp]')?.dataset.testConnectionState === 'CONNECTED'"


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"teacher-replica-killed-{name}.png"))


def test_the_teachers_replica_killed_mid_activity_comes_back_by_itself_with_control(browser, playwright):
    with deployment(2) as (running, url):
        desk = browser.new_context(viewport={"width": 1280, "height": 720})
        pin(desk, url, 1)
        _, teacher, code, _ = start_room(browser, url, desk)
        screen = open_screen(teacher)
        teacher.get_by_text("An example", exact=True).click()  # grades 3, 0, 2 at k = 3
        open_activity(teacher)

        phones = []
        for nickname, first, _ in CLASS:
            context = browser.new_context(**playwright.devices["iPhone 13"])
            pin(context, url, 2)
            page = phone(browser, playwright, url, code, nickname, context)
            estimate(page).fill(first)
            send(page)
            phones.append(page)
        expect(answered(teacher)).to_have_text(f"{len(CLASS)} / {len(CLASS)}")
        expect(screen.get_by_test_id("stMetric").filter(has_text="Answered")).to_contain_text("3 / 3")
        assert [cookie(p.context) for p in (teacher, *phones)] == ["1", "2", "2", "2"]
        for page in (teacher, screen):
            wait_for_idle(page)
            page.wait_for_load_state("networkidle")
        for page in (teacher, screen, *phones):
            page.evaluate(WATCH)
        for page in (teacher, screen):
            page.evaluate(WATCH_JOIN)

        victim = running.apps[0]  # replica 1, as the launcher numbers them
        killed = time.monotonic()
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)

        # Both pages come back by themselves, on replica 2: the control page with its controls, the projector
        # without them, and the class's answers as they were.
        reveal = teacher.get_by_role("button", name="Reveal")
        for page in (teacher, screen):
            page.wait_for_function("() => window.__lost === true", timeout=30_000)  # it did lose its server
            page.wait_for_function(CONNECTED, timeout=60_000)  # and reconnected by itself, with no click
        wait_for_idle(teacher, 60_000)  # the new session's first run, drawn from the store and the browser's memory
        expect(reveal).to_be_enabled(timeout=60_000)
        print(f"control page: its controls back {time.monotonic() - killed:.2f} s after replica 1 was killed")
        expect(screen.get_by_test_id("stMetric").filter(has_text="Answered")).to_contain_text("3 / 3", timeout=60_000)
        print(f"projector view: the count back {time.monotonic() - killed:.2f} s after replica 1 was killed")
        expect(answered(teacher)).to_have_text("3 / 3")
        expect(screen.get_by_role("button", name="Reveal")).to_have_count(0)
        for page in (teacher, screen):
            wait_for_idle(page)
            expect(page.locator(NOTICE)).to_be_hidden()
        assert cookie(desk) == "2"
        shot(teacher, "control")
        shot(screen, "projector")

        # They keep updating: the phones carry on, and their changed answers reach both pages.
        for page, (_, _, again) in zip(phones, CLASS, strict=True):
            expect(page.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()
            if again is not None:
                estimate(page).fill(again)
                page.get_by_role("button", name="Send").tap()
                expect(page.get_by_text(f"Your estimate: {float(again):.2f}")).to_be_visible()
        bins = "Answers by bin: 0.30–0.35: 1 · 0.50–0.55: 1 · 0.70–0.75: 1"
        for page in (teacher, screen):
            expect(page.get_by_text(bins)).to_be_attached(timeout=30_000)

        # They keep control: the reveal reaches the projector and the phones; the next activity every phone.
        reveal.click()
        expect(screen.get_by_text("The true NDCG is")).to_be_visible(timeout=30_000)
        for page in phones:
            expect(page.get_by_text("0.9386").first).to_be_visible(timeout=30_000)
        open_activity(teacher, "Rank it best")
        expect(screen.get_by_text("Activity 2: Rank it best")).to_be_visible(timeout=30_000)
        for page in phones:
            expect(page.get_by_text("Activity 2: Rank it best")).to_be_visible()
        send(phones[0], "Send my order")
        expect(answered(teacher)).to_have_text("1 / 3")
        shot(screen, "projector-next")

        for page in (teacher, screen, *phones):
            assert page.evaluate("window.__bad") == [], page.url
            expect(page.get_by_test_id("stDialog")).to_have_count(0)
        for page in (teacher, screen):
            assert page.evaluate("window.__sawJoin") is False  # a teacher is never offered Join on the way
        for page in phones:
            assert page.evaluate("window.__stillThisPage") is True  # never reloaded
        for page in phones:
            page.context.close()
        desk.close()
