"""On the projector view in Debian's Chromium at 1280x720, the Judge chart names every result: none hidden by
the chart theme's overlap rule (Streamlit's ``labelOverlap``)."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.rules import new_student_id
from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser

NAMES = ["Chengdu 3-day itinerary", "Chengdu food guide", "Getting around by metro", "Where to stay", "History"]
DRAWN = """c => [...c.querySelectorAll('svg text')]
  .filter(e => e.getAttribute('opacity') !== '0' && getComputedStyle(e).opacity !== '0').map(e => e.textContent)"""


def test_the_projected_judge_chart_names_every_result(desktop_page, app_url):
    store = Classroom(database_url())
    room, key = store.rooms.create()
    activity = Judge(activity_list(NAMES, [3, 2, 2, 1, 0], 3), Scale(0, 3))
    row = store.rooms.open_activity(room.code, key, activity)
    for i in range(3):
        student = new_student_id()
        store.students.join(room.code, student, f"S{i}")
        store.answers.submit(room.code, student, row.id, [(p, (g + i) % 4) for p, g in enumerate(activity.spec.grades)])
    # The projector view opened at its address, in the teacher's browser (the key in it), on the worker's shared
    # desktop page (conftest's); the control page's link to it is followed in test_browser_lesson.
    screen = desktop_page
    screen.set_viewport_size({"width": 1280, "height": 720})
    screen.goto(f"{app_url}/Classroom?room={room.code}&key={key}&view=screen&lang=en")
    chart = screen.get_by_test_id("stVegaLiteChart").first
    expect(chart.locator("svg text").filter(has_text="5. History")).to_be_attached(timeout=30_000)
    drawn = chart.evaluate(DRAWN)
    assert {f"{i}. {name}" for i, name in enumerate(NAMES, start=1)} <= set(drawn), drawn
    Path("test-results").mkdir(exist_ok=True)
    screen.screenshot(path="test-results/projector_judge_every_result_1280x720.png")
