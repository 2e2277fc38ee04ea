"""Timed activities one after another on two iPhone 13 phones (touch) in Debian's Chromium, as a lecturer's class
found them (issue 45): a timed Predict opened after one whose clock ran out, and the "Vote again" round of a timed
Predict whose clock ran out, each take answers on every phone: the box is enabled and Send is there from the start,
not only once the new countdown has run out too (the phone judged the new activity by the old one's deadline).

The teacher's side is the store, as the control page calls it (Next is ``lessons.step``, Reveal ``set_phase``, Vote
again ``run_again``): the phones are what is tested. The time limits are short; a phone has the second one's to
type and send."""

import os

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step
from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser

FIRST = 8  # seconds: the first activity's time limit, run out before the second opens
LIMIT = 20  # seconds: the second's (and its second round's): a phone types and sends in it on a loaded machine
TIME_UP = "Time is up: answers are closed"  # the phone's status line once the clock ran out, nothing typed
SAVED = "Saved. You can change it"


@pytest.fixture
def store():
    """The store the test session's app uses (tests/conftest.py sets its data folder for both)."""
    opened = Classroom(database_url(os.environ))
    yield opened
    opened.close()


def phone_page(browser, playwright, app_url, code, student):
    """A student's phone on its own page (``/phone/CODE``), waiting for the first activity."""
    context = browser.new_context(**playwright.devices["iPhone 13"])
    page = context.new_page()
    page.goto(f"{app_url}/phone/{code}?me={student.id}&lang=en")
    expect(page.get_by_text("Wait for the teacher to open an activity")).to_be_visible(timeout=30_000)
    return page


def answer(page, activity_id, guess):
    """Type ``guess`` into activity ``activity_id``'s box and send it: the box takes it and Send is there while its
    countdown runs."""
    box = page.locator(f"#card-{activity_id}-0")
    expect(box).to_be_enabled()
    expect(page.get_by_role("timer")).to_contain_text("Time left")
    box.fill(guess)
    page.get_by_role("button", name="Send").tap()
    expect(page.locator(".status")).to_contain_text(SAVED)


def test_timed_activities_back_to_back_and_a_vote_again_round_take_answers(browser, playwright, app_url, store):
    made, key = store.rooms.create()
    code = made.code
    first = Predict(activity_list(("a", "b", "c"), (0, 3, 1), 3))
    second = Predict(activity_list(("x", "y", "z"), (2, 0, 1), 3))
    store.lessons.use(code, key, Lesson("Timed", (Step(first, time_limit=FIRST), Step(second, time_limit=LIMIT))))
    students = [store.students.join(code, rules.new_student_id(), name) for name in ("Ana", "Bo")]
    phones = [phone_page(browser, playwright, app_url, code, s) for s in students]
    store.lessons.step(code, key, 0)
    for page in phones:  # the first countdown runs on every phone, then runs out, nothing sent
        expect(page.get_by_role("timer")).to_contain_text("Time left")
    for page in phones:
        expect(page.locator(".status")).to_contain_text(TIME_UP, timeout=(FIRST + 15) * 1000)

    # Next: the second timed Predict, opened after the first one's clock ran out.
    opened = store.lessons.step(code, key, 1)
    for page, guess in zip(phones, ("0.6", "0.7"), strict=True):
        answer(page, opened.id, guess)
    assert [store.answers.of_student(opened.id, s.id) for s in students] == [{0: 0.6}, {0: 0.7}]

    # Its clock runs out too; the teacher reveals, then votes again: round 2, the same time limit.
    for page in phones:
        expect(page.locator(".status")).to_contain_text(TIME_UP, timeout=(LIMIT + 15) * 1000)
    store.rooms.set_phase(code, key, "revealed")
    again = store.rooms.run_again(code, key)
    assert again.round == 2 and again.time_limit == LIMIT
    for page, guess in zip(phones, ("0.8", "0.9"), strict=True):
        answer(page, again.id, guess)
    assert [store.answers.of_student(again.id, s.id) for s in students] == [{0: 0.8}, {0: 0.9}]
    phones[0].screenshot(path="/tmp/ndcg_timed_vote_again_phone.png")
    for page in phones:
        page.context.close()
