"""The end of a short class on the projector view in Debian's Chromium at 1280x720: "How the class did" draws one
bar per activity with its name beside it, and with only two activities the names (20 px on the projector) stand
apart, one per bar, not drawn over each other."""

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.rules import new_student_id
from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser

NAMES = ["Activity 1: Predict the NDCG", "Activity 2: Predict the NDCG"]
BOXES = """c => [...c.querySelectorAll('svg text')].filter(e => names.includes(e.textContent))
  .map(e => { const b = e.getBoundingClientRect(); return {text: e.textContent, top: b.top, bottom: b.bottom}; })"""


def test_two_activities_names_stand_apart_on_the_ended_projector(desktop_page, app_url):
    store = Classroom(database_url())
    room, key = store.rooms.create()
    students = [new_student_id() for _ in range(2)]
    for i, student in enumerate(students):
        store.students.join(room.code, student, f"S{i}")
    for grades in ([3, 0, 2], [3, 2, 3]):
        row = store.rooms.open_activity(room.code, key, Predict(activity_list(["a", "b", "c"], grades, 3)))
        for student, guess in zip(students, ("0.9", "0.2"), strict=True):
            store.answers.submit(room.code, student, row.id, [(0, guess)])
        store.rooms.set_phase(room.code, key, "revealed")
    # The projector view opened at its address in the teacher's browser (the key in it), on the worker's shared desktop
    # page (conftest's); the control page's link to it is followed in test_browser_lesson.py.
    screen = desktop_page
    screen.set_viewport_size({"width": 1280, "height": 720})
    screen.goto(f"{app_url}/Classroom?room={room.code}&key={key}&view=screen&lang=en")
    expect(screen.get_by_text("Join with a phone")).to_be_visible(timeout=30_000)
    store.rooms.end(room.code, key)
    expect(screen.get_by_text("This room has ended.")).to_be_visible(timeout=30_000)  # it follows by itself
    chart = screen.get_by_test_id("stVegaLiteChart").last
    expect(chart.locator("svg text").filter(has_text=NAMES[1])).to_be_attached(timeout=30_000)
    boxes = chart.evaluate(BOXES.replace("names", repr(NAMES)))
    assert sorted(b["text"] for b in boxes) == NAMES
    first, second = sorted(boxes, key=lambda b: b["top"])
    assert first["bottom"] <= second["top"], boxes  # one line each, not over each other
    screen.screenshot(path="/work/wt/shots/review/summary_two_activities_1280.png")
    store.close()
