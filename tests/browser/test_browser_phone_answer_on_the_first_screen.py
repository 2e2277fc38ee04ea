"""Predict on an iPhone 13 (390 x 664, touch) in Debian's Chromium, as a lecturer's class of six found it: the number
box and Send are on the first screen with the countdown in view, even for a list of ten; a refused answer's message
is right under the box; "0,62" is saved as 0.62 and the phone says so on a line of its own; and when the time runs
out with an answer typed but not sent, the phone says so in one status line (not "Time is up" and "Locked: ... not
sent" together)."""

import os

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser

TEN = activity_list(tuple(f"result {i}" for i in range(1, 11)), (3, 2, 3, 0, 1, 2, 0, 1, 0, 2), 10)


@pytest.fixture
def store():
    """The store the test session's app uses (tests/conftest.py sets its data folder for both)."""
    opened = Classroom(database_url(os.environ))
    yield opened
    opened.close()


def timed_room(store, seconds):
    """A room running a one-step lesson: Predict over ten results with a time limit; a student, Ana, in it."""
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, Lesson("Timed", (Step(Predict(TEN), time_limit=seconds),)))
    store.lessons.step(room.code, key, 0)
    return room.code, store.students.join(room.code, rules.new_student_id(), "Ana")


def phone_page(browser, playwright, app_url, code, student, lang="en"):
    context = browser.new_context(**playwright.devices["iPhone 13"])
    page = context.new_page()
    page.goto(f"{app_url}/phone/{code}?me={student.id}&lang={lang}")
    expect(page.locator("input.number")).to_be_visible(timeout=30_000)
    return page


def on_first_screen(page, locator):
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def test_the_box_and_send_are_on_the_first_screen_and_a_refusal_is_beside_the_box(browser, playwright, app_url, store):
    code, ana = timed_room(store, 600)
    page = phone_page(browser, playwright, app_url, code, ana)
    box, send, timer = page.locator("input.number"), page.get_by_role("button", name="Send"), page.get_by_role("timer")
    expect(timer).to_contain_text("Time left")
    assert page.evaluate("window.scrollY") == 0
    assert on_first_screen(page, box) and on_first_screen(page, send) and on_first_screen(page, timer)

    box.fill("abc")
    send.tap()
    status = page.locator(".status")
    expect(status).to_have_text("'abc' is not a number: type digits, for example 0.75")
    assert on_first_screen(page, status)
    below = status.bounding_box()["y"] - (box.bounding_box()["y"] + box.bounding_box()["height"])
    assert 0 <= below <= 16  # right under the box, not past the list
    expect(box).to_have_attribute("aria-invalid", "true")
    assert box.get_attribute("aria-describedby") == status.get_attribute("id")

    box.fill("0,62")
    send.tap()
    expect(status).to_have_text("Read 0,62 as 0.62. Saved. You can change it until the teacher locks answers.")
    # The note and "Saved." on lines of their own, as the phone shows them (not one run-on sentence).
    assert status.inner_text().split("\n") == [
        "Read 0,62 as 0.62.",
        "Saved. You can change it until the teacher locks answers.",
    ]
    expect(page.get_by_text("Your estimate: 0.62")).to_be_visible()
    assert store.answers.of_student(store.rooms.get(code).current.id, ana.id) == {0: 0.62}
    page.context.close()


def test_time_up_with_an_answer_not_sent_is_one_status_line(browser, playwright, app_url, store):
    code, ana = timed_room(store, 5)
    page = phone_page(browser, playwright, app_url, code, ana, "zh")
    page.locator("input.number").fill("0,7")  # typed, never sent
    status = page.locator(".status")
    expect(status).to_have_text("时间到：你填写的估计值 0,7 没有提交。", timeout=20_000)
    # Nothing else on the card speaks of the closing: one line, not "Time is up" beside "Locked".
    expect(page.locator(".note")).to_have_count(1)
    expect(page.get_by_text("已锁定")).to_have_count(0)
    expect(page.get_by_text("已停止作答")).to_have_count(0)
    page.context.close()
