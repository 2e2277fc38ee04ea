"""Back in a scored lesson, on two phones (iPhone 13) in Debian's Chromium, as a lecturer's trial found it (issue
45): Back from an open, unrevealed vote gave every phone that voted right its points (+100 each), which told the
class the answer. Now the phones' points stay as they were; Next returns to the vote still open (the phones can
still vote), and only the reveal brings the points."""

import pytest
from playwright.sync_api import expect
from test_browser_phone_answer_on_the_first_screen import phone_page, store  # noqa: F401 (store: a fixture)

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.base import POINTS
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step

pytestmark = pytest.mark.browser

PREDICT = Predict(preset_list("five"))
VOTE = compare_activity("seed003", "ndcg")


def points_line(page, points):
    return expect(page.locator(".ndcg-card")).to_contain_text(f"Your points: {points}")


def test_back_from_an_open_vote_gives_no_phone_its_points(browser, playwright, app_url, store):  # noqa: F811
    room, key = store.rooms.create()
    code = room.code
    store.lessons.use(code, key, Lesson("Scored", (Step(PREDICT), Step(VOTE)), scores=True))
    first = store.lessons.step(code, key, 0)
    ana, bo = (store.students.join(code, rules.new_student_id(), name) for name in ("Ana", "Bo"))
    phones = [phone_page(browser, playwright, app_url, code, s) for s in (ana, bo)]
    store.answers.submit(code, ana.id, first.id, [(0, PREDICT.truth())])  # Ana's estimate is exact
    store.rooms.set_phase(code, key, "revealed")
    for page, points in zip(phones, (POINTS, 0), strict=True):
        points_line(page, points)

    vote = store.lessons.step(code, key, 1)
    for page in phones:
        expect(page.get_by_text("Activity 2 of 2: Which is better?")).to_be_visible()
    for student in (ana, bo):  # both vote right; the vote stays open and unrevealed
        store.answers.submit(code, student.id, vote.id, [(0, VOTE.verdict("ndcg"))])

    store.lessons.step(code, key, 0)  # Back
    for page, points in zip(phones, (POINTS, 0), strict=True):
        expect(page.get_by_text("Activity 1 of 2: Predict the NDCG")).to_be_visible()
        points_line(page, points)  # before the fix: POINTS more on each phone
    phones[1].screenshot(path="/tmp/ndcg_back_phone.png", full_page=True)

    store.lessons.step(code, key, 1)  # Next: the vote as it was left, still open
    for page, points in zip(phones, (POINTS, 0), strict=True):
        expect(page.get_by_text("Activity 2 of 2: Which is better?")).to_be_visible()
        expect(page.get_by_role("button", name="Send")).to_be_enabled()
        points_line(page, points)
    store.rooms.set_phase(code, key, "revealed")  # the reveal, and only the reveal, scores the vote (the last step)
    card = [expect(page.locator(".ndcg-card")) for page in phones]
    for shown, points in zip(card, (2 * POINTS, POINTS), strict=True):
        shown.to_contain_text(f"Your final score: {points} points")
    for page in phones:
        page.context.close()
