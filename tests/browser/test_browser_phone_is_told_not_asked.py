"""A phone (iPhone 13, touch) in Debian's Chromium is told of a change, not asking: its page keeps one event stream,
and the activity the teacher opens appears on it with no request to the card route at all. Where the stream cannot
get through (refused, or held back by a proxy so that nothing arrives), the page falls back by itself to asking the
card route, and the class carries on. The teacher's actions are made by the store (another process), as the
teacher's page makes them, and the phones join on their own join page: no Streamlit page is open, and the phones'
page is what is looked at."""

from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_browser_live_room import send

from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import Rank
from ndcg_core.classroom.storage import Classroom, database_url
from support import join_on_its_page, wait_until

pytestmark = pytest.mark.browser

SHOTS = Path("/work/wt/shots/push")
CARD = "/api/room/"


def card_requests(page):
    """The requests the page makes to the card route, counted as they go (the list grows)."""
    made = []
    page.on("request", lambda request: made.append(request.url) if "/card?" in request.url else None)
    return made


def hold(route):
    """A proxy that buffers the stream: the request is taken and nothing ever comes back."""


def served_sooner(**timings):
    """A route that serves the phone page as the server made it but with its data's ``timings`` (milliseconds)
    shortened: the page reads every interval from its data (``ui/phones/phone_page.py``), so a test need not wait the
    class's seconds. Each default is checked, so a changed one fails here instead of passing unseen."""
    defaults = {"grace": 4000, "probe": 30000}

    def route(route):
        response = route.fetch()
        body = response.text()
        for name, value in timings.items():
            assert f'"{name}": {defaults[name]}' in body, name
            body = body.replace(f'"{name}": {defaults[name]}', f'"{name}": {value}')
        route.fulfill(response=response, body=body)

    return route


def student_where(browser, playwright, app_url, code, nickname, stream, **timings):
    """A phone whose event streams go through ``stream`` (None: they get through), its page's timings shortened."""
    context = browser.new_context(**playwright.devices["iPhone 13"])
    if timings:
        context.route("**/phone/*", served_sooner(**timings))
    if stream is not None:
        context.route("**/api/room/*/events?*", stream)
    return join_on_its_page(context, app_url, code, nickname)


def test_a_phone_is_told_on_its_stream_and_falls_back_to_polling_where_the_stream_cannot_get_through(
    browser, playwright, app_url
):
    """One class, three phones: Ana's stream gets through; Di's is held back by a proxy (the page falls back to
    polling by itself, and asks); Cy's is refused (the page falls back too) until it falls back, then gets through
    again. A class whose streams failed while their server was overloaded (a replica killed, every phone arriving at
    the other) must not poll for the rest of the lesson: the page tries a stream again now and then (every 2 s here,
    not 30 s), and a held-back stream is given up after 1 s here, not 4 s. (A refused stream and a held-back one lead
    to the same polling, which Di's page shows: one phone polls here, not two.)"""
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, key = store.rooms.create()
    code = room.code
    ana = student_where(browser, playwright, app_url, code, "Ana", None)
    di = student_where(browser, playwright, app_url, code, "Di", hold, grace=1000)
    cy = student_where(browser, playwright, app_url, code, "Cy", lambda route: route.abort(), probe=2000)
    card = {page: page.locator(".ndcg-card") for page in (ana, di, cy)}
    expect(card[ana]).to_have_attribute("data-mode", "stream")
    for page in (di, cy):
        expect(card[page]).to_have_attribute("data-mode", "poll", timeout=60_000)
    cy.context.unroute("**/api/room/*/events?*")  # streams get through again
    expect(card[cy]).to_have_attribute("data-mode", "stream", timeout=30_000)
    assert cy.evaluate("sessionStorage.getItem('ndcg-card:poll')") is None  # its next page streams too
    polls = {page: card_requests(page) for page in (ana, di, cy)}

    first = store.rooms.open_activity(code, key, Predict(preset_list("five")))
    for page in (ana, di, cy):
        expect(page.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()
    assert polls[ana] == [] and polls[cy] == []  # told on the stream, not by asking
    assert polls[di]  # it asked
    SHOTS.mkdir(parents=True, exist_ok=True)
    ana.screenshot(path=str(SHOTS / "phone-new-activity-by-stream.png"))
    for page, guess in ((ana, "0.8"), (di, "0.4"), (cy, "0.6")):
        page.get_by_role("textbox", name="Your estimate of NDCG (0 to 1)").fill(guess)
        send(page)
        expect(page.locator(".ndcg-card .notice")).to_be_hidden()
    assert wait_until(lambda: len(store.answers.for_activity(first.id)) == 3)  # each stored
    store.rooms.open_activity(code, key, Rank.from_list(preset_list("five")))
    expect(ana.get_by_text("Activity 2: Rank it best")).to_be_visible()
    assert polls[ana] == []
    expect(card[ana]).to_have_attribute("data-mode", "stream")
    for page in (ana, di, cy):
        page.context.close()
    store.close()
