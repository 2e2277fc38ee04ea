"""Answers across replicas, in Debian's Chromium: two app processes behind nginx on one PostgreSQL (``python -m
deploy up``), the teacher's browser held on replica 1 and a phone on replica 2 by nginx's affinity cookie. The
activity the teacher opens reaches the phone on the other process, and the phone's answer reaches the teacher's
control page and projector view through the database's notices (issue 26: "a teacher served by process 1 sees the
answers of students served by process 2").

How long that takes is measured by ``benchmarks/load_live_room.py`` (docs/benchmarks.md), not here. What this test
pins is the way it comes: every answer is on both pages before their live part's own re-read, ``QUIET_SECONDS``
after the read that followed the teacher's last action, could have brought it. A 2-s deadline stood here before,
and a full parallel run on two cores missed it with the answer on its way (the page's run, drawn halfway, at load
average 9)."""

import shutil
import time

import pytest
from playwright.sync_api import expect
from test_browser_live_room import answered, open_activity, phone, start_room
from test_browser_projector_view import open_screen

from support import deployment, pin
from ui.views.classroom.live import QUIET_SECONDS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which("nginx", path="/usr/sbin:/usr/bin") is None, reason="nginx is not installed"),
]


@pytest.fixture(scope="module")
def two_replicas():
    """nginx's URL in front of two replicas sharing a throwaway PostgreSQL."""
    with deployment(2) as (_, url):
        yield url


def replicas_answering(context):
    """The ``X-Replica`` of every response the context's pages get from now on (a list that grows)."""
    seen = []
    context.on("response", lambda response: seen.append(response.headers.get("x-replica")))
    return seen


def before_the_quiet_read(acted):
    """An expect's timeout: what remains until the pages' live parts, which read the room anew after the teacher's
    action (clicked at ``acted``, time.monotonic(), and so read after it), would read it again by themselves."""
    return max(1.0, (QUIET_SECONDS - (time.monotonic() - acted)) * 1000)


def test_a_teacher_on_replica_1_is_told_the_answer_of_a_phone_on_replica_2(browser, playwright, two_replicas):
    url = two_replicas
    desk = browser.new_context(viewport={"width": 1280, "height": 720})
    pin(desk, url, 1)
    teacher_replicas = replicas_answering(desk)
    _, teacher, code, _ = start_room(browser, url, desk)
    screen = open_screen(teacher)  # a second tab of the teacher's browser: the same cookie, the same replica
    mobile = browser.new_context(**playwright.devices["iPhone 13"])
    pin(mobile, url, 2)
    phone_replicas = replicas_answering(mobile)
    student = phone(browser, playwright, url, code, "Ana", mobile)
    expect(student.get_by_text("Wait for the teacher to open an activity")).to_be_visible()
    # The join, stored by replica 2, counted on replica 1's pages.
    for page in (teacher, screen):
        expect(page.get_by_test_id("stMetric").filter(has_text="Students in the room")).to_contain_text("1")

    # Replica 1 opens the activity; the phone on replica 2 follows by itself.
    teacher.get_by_text("An example", exact=True).click()  # grades 3, 0, 2 at k = 3
    acted = time.monotonic()
    open_activity(teacher)
    expect(student.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()

    student.get_by_role("textbox", name="Your estimate of NDCG (0 to 1)").fill("0.9")
    student.get_by_role("button", name="Send").tap()
    expect(student.get_by_text("Saved. You can change it")).to_be_visible()
    expect(answered(teacher)).to_have_text("1 / 1", timeout=before_the_quiet_read(acted))
    screen_count = screen.get_by_test_id("stMetric").filter(has_text="Answered")
    expect(screen_count).to_contain_text("1 / 1", timeout=before_the_quiet_read(acted))

    # A changed answer, not only a count: the histogram's text moves to the new bin. The nicknames shown first, a
    # teacher's action: both pages read the room anew, and the bound starts again.
    acted = time.monotonic()
    teacher.get_by_text("Show nicknames").click()
    for page in (teacher, screen):
        expect(page.get_by_text("Ana", exact=True)).to_be_visible(timeout=before_the_quiet_read(acted))
    student.get_by_role("textbox", name="Your estimate of NDCG (0 to 1)").fill("0.5")
    student.get_by_role("button", name="Send").tap()
    expect(student.get_by_text("Your estimate: 0.50")).to_be_visible()
    expect(student.get_by_text("Saved. You can change it")).to_be_visible()
    for page in (teacher, screen):
        bins = page.get_by_text("Answers by bin: 0.50–0.55: 1")
        expect(bins).to_be_attached(timeout=before_the_quiet_read(acted))

    # Each browser was where its cookie said, for every response (page, scripts, health checks) and still is.
    assert set(filter(None, teacher_replicas)) == {"1"}, teacher_replicas
    assert set(filter(None, phone_replicas)) == {"2"}, phone_replicas
    assert {c["name"]: c["value"] for c in mobile.cookies()}["ndcg_replica"] == "2"
    assert {c["name"]: c["value"] for c in desk.cookies()}["ndcg_replica"] == "1"
    teacher.screenshot(path="/tmp/across-replicas-teacher.png")
    screen.screenshot(path="/tmp/across-replicas-screen.png")
    student.screenshot(path="/tmp/across-replicas-phone.png")
    mobile.close()
    desk.close()
