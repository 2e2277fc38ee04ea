"""A phone (iPhone 13, touch) in Debian's Chromium is told of a change, not asking: its page keeps one event stream,
and the activity the teacher opens appears on it with no request to the card route at all. Where the stream cannot
get through (refused, or held back by a proxy so that nothing arrives), the page falls back by itself to asking the
card route, and the class carries on."""

from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_browser_live_room import answered, open_activity, phone, send, start_room

pytestmark = pytest.mark.browser

SHOTS = Path("/work/wt/shots/push")
CARD = "/api/room/"


def card_requests(page):
    """The requests the page makes to the card route, counted as they go (the list grows)."""
    made = []
    page.on("request", lambda request: made.append(request.url) if "/card?" in request.url else None)
    return made


def test_a_new_activity_reaches_the_phone_on_its_stream_with_no_poll(browser, playwright, app_url):
    context, teacher, code, _ = start_room(browser, app_url)
    student = phone(browser, playwright, app_url, code, "Ana")
    polls = card_requests(student)
    card = student.locator(".ndcg-card")
    expect(card).to_have_attribute("data-mode", "stream")
    open_activity(teacher)
    expect(student.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    student.screenshot(path=str(SHOTS / "phone-new-activity-by-stream.png"))
    student.get_by_role("textbox", name="Your estimate of NDCG (0 to 1)").fill("0.8")
    send(student)
    # As a lecturer would: the answer shows on the control page (its live part redraws on the answer's notice)
    # before the next activity is set up, so the setup is not clicked while that part is being redrawn.
    expect(answered(teacher)).to_have_text("1 / 1")
    open_activity(teacher, "Rank it best")
    expect(student.get_by_text("Activity 2: Rank it best")).to_be_visible()
    assert polls == []
    expect(card).to_have_attribute("data-mode", "stream")
    student.context.close()
    context.close()


def hold(route):
    """A proxy that buffers the stream: the request is taken and nothing ever comes back."""


@pytest.mark.parametrize("blocked", ["refused", "held back"])
def test_where_the_stream_cannot_get_through_the_phone_polls_by_itself(browser, playwright, app_url, blocked):
    context, teacher, code, _ = start_room(browser, app_url)
    student_context = browser.new_context(**playwright.devices["iPhone 13"])
    student_context.route("**/api/room/*/events?*", (lambda route: route.abort()) if blocked == "refused" else hold)
    student = phone(browser, playwright, app_url, code, "Bo", student_context)
    card = student.locator(".ndcg-card")
    expect(card).to_have_attribute("data-mode", "poll", timeout=60_000)
    polls = card_requests(student)
    open_activity(teacher)
    expect(student.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()
    assert polls  # it asked
    student.get_by_role("textbox", name="Your estimate of NDCG (0 to 1)").fill("0.4")
    send(student)
    expect(student.locator(".ndcg-card .notice")).to_be_hidden()
    student_context.close()
    context.close()


def sooner_probes(route):
    """The phone page as served, with its stream tried again every 2 s while it polls instead of every 30 s."""
    response = route.fetch()
    body = response.text()
    assert '"probe": 30000' in body
    route.fulfill(response=response, body=body.replace('"probe": 30000', '"probe": 2000'))


def test_a_phone_that_fell_back_to_polling_goes_back_to_its_stream_once_it_gets_through(browser, playwright, app_url):
    """A class whose streams failed while their server was overloaded (a replica killed, every phone arriving at the
    other) must not poll for the rest of the lesson: the page tries a stream again now and then."""
    context, teacher, code, _ = start_room(browser, app_url)
    student_context = browser.new_context(**playwright.devices["iPhone 13"])
    student_context.route("**/phone/*", sooner_probes)
    student_context.route("**/api/room/*/events?*", lambda route: route.abort())
    student = phone(browser, playwright, app_url, code, "Cy", student_context)
    card = student.locator(".ndcg-card")
    expect(card).to_have_attribute("data-mode", "poll", timeout=60_000)
    student_context.unroute("**/api/room/*/events?*")  # streams get through again
    expect(card).to_have_attribute("data-mode", "stream", timeout=30_000)
    assert student.evaluate("sessionStorage.getItem('ndcg-card:poll')") is None  # its next page streams too
    polls = card_requests(student)
    open_activity(teacher)
    expect(student.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()
    assert polls == []  # told on the stream, not by asking
    student_context.close()
    context.close()
