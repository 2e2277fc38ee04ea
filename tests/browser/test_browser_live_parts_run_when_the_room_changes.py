"""The control page and the projector view, in Debian's Chromium, run their live part when the room changes, not by a
timer: left alone they ask their server for no run but their 15-s timer's (a timer of 0.5 s asked for two a second,
each costing the projector's browser and the server CPU), an answer stored by another process reaches both through
the room's stream (a run their page asked for, not their timer's), and where the stream is refused, or held back by
a proxy, the page asks for a run every half second by itself, as the timer did, and the answer still arrives. What
the browser sends is read from its websocket."""

import pytest
from playwright.sync_api import expect
from storage_support import predict
from test_browser_open_reruns_only_the_setup import reruns_asked

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser

IDLE_SECONDS = 3  # what the old timer filled with six runs a page


@pytest.fixture
def room():
    """A room with one student and an open Predict activity, made by another process (this one)."""
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, key = store.rooms.create()
    me = rules.new_student_id()
    store.students.join(room.code, me, "Ana")
    activity = store.rooms.open_activity(room.code, key, predict())
    yield store, room.code, key, me, activity
    store.close()


def answered(page):
    return page.get_by_test_id("stMetric").filter(has_text="Answered").get_by_test_id("stMetricValue")


def open_pages(context, app_url, code, key):
    control = context.new_page()
    control.goto(f"{app_url}/Classroom?room={code}&key={key}")
    screen = context.new_page()
    screen.goto(f"{app_url}/Classroom?room={code}&key={key}&view=screen")
    for page in (control, screen):
        expect(answered(page)).to_have_text("0 / 1", timeout=30_000)
    return control, screen


def test_left_alone_they_ask_for_no_run_and_an_answer_reaches_both_through_the_rooms_stream(browser, app_url, room):
    store, code, key, me, activity = room
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    asked = reruns_asked(context)
    control, screen = open_pages(context, app_url, code, key)
    control.wait_for_timeout(1000)  # the pages' first runs, and the runs their streams ask for at once, are over
    before = len(asked)
    control.wait_for_timeout(IDLE_SECONDS * 1000)
    # Nothing changed: no run asked for but, at most, each page's timer of 15 s (the old timer asked for 12 here).
    assert len(asked[before:]) <= 2, asked[before:]

    store.answers.submit(code, me, activity.id, [(0, "0.5")])
    for page in (control, screen):
        expect(answered(page)).to_have_text("1 / 1")
    told = asked[before:]
    assert len([part for part, timer in told if part and not timer]) >= 2, told  # each page's part, asked by its stream
    context.close()


def held(route):
    """A proxy that answers the stream and holds its events back: a stream with nothing in it."""
    route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body="")


def refused(route):
    route.abort()


def counted(stream, tried):
    """A route handler that does what ``stream`` does and keeps each request it takes in ``tried``."""

    def handle(route):
        tried.append(route.request.url)
        stream(route)

    return handle


def test_where_the_stream_cannot_get_through_the_page_asks_for_a_run_every_half_second(browser, app_url, room):
    """Two teachers' browsers on one room: one whose stream is refused, one whose stream a proxy holds back."""
    store, code, key, me, activity = room
    tried, asked, pages = {}, {}, {}
    for stream in (refused, held):
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        tried[stream] = []
        context.route("**/api/room/*/watch*", counted(stream, tried[stream]))
        asked[stream] = reruns_asked(context)
        pages[stream] = open_pages(context, app_url, code, key)
    before = {stream: len(asked[stream]) for stream in asked}

    def polled(stream):
        return [part for part, timer in asked[stream][before[stream] :] if part and not timer]

    for _ in range(20):  # a held-back stream is given up after 4 s; then about 2 runs a second and page
        if all(len(polled(stream)) >= 2 * IDLE_SECONDS for stream in asked):
            break
        pages[refused][0].wait_for_timeout(1000)
    for stream in asked:
        assert tried[stream] and len(polled(stream)) >= 2 * IDLE_SECONDS, (stream.__name__, polled(stream))

    store.answers.submit(code, me, activity.id, [(0, "0.5")])
    for control, screen in pages.values():
        for page in (control, screen):
            expect(answered(page)).to_have_text("1 / 1")
        control.context.close()
