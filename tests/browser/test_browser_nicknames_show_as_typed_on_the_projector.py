"""Nicknames on the projector in Debian's Chromium: a student who types a Streamlit shortcode as a nickname
(``:material/home:``, ``:streamlit:``, ``:smile:``, ``:red[...]``) has it shown as typed in the room's roster and in
the leaderboard at the end of a lesson that keeps scores, never drawn as an icon, a logo, an emoji or coloured text
for the class to see."""

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom import rules
from ndcg_core.classroom.lessons import read_lesson
from ndcg_core.classroom.storage import Classroom, database_url
from ui.format import WORD_JOINER

pytestmark = pytest.mark.browser

NAMES = (":material/home: Ana", ":streamlit: Bo", ":smile: Chen", ":red[Dee]")
LESSON = """\
format = 1
title = "One question"
scores = true

[[activity]]
kind = "predict"
items = ["a", "b", "c"]
grades = [3, 0, 2]
k = 3
"""


def shown_text(locator) -> str:
    return locator.inner_text().replace(WORD_JOINER, "")


def test_shortcodes_in_nicknames_show_as_typed_in_the_roster_and_the_leaderboard(browser, app_url, tmp_path):
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, key = store.rooms.create()
    store.lessons.use(room.code, key, read_lesson(LESSON))
    store.rooms.show_names(room.code, key, True)
    students = [rules.new_student_id() for _ in NAMES]
    for me, name in zip(students, NAMES, strict=True):
        store.students.join(room.code, me, name)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    screen = context.new_page()
    screen.goto(f"{app_url}/Classroom?room={room.code}&key={key}&view=screen")

    roster = screen.get_by_test_id("stMarkdownContainer").filter(has_text="Ana")
    expect(roster).to_have_count(1, timeout=30_000)
    assert shown_text(roster) == " · ".join(NAMES)
    expect(roster.get_by_test_id("stIconMaterial")).to_have_count(0)
    expect(roster.locator("img")).to_have_count(0)

    activity = store.lessons.step(room.code, key, 0)
    for me in students:
        store.answers.submit(room.code, me, activity.id, [(0, "0.9")])
    store.rooms.set_phase(room.code, key, "revealed")
    board = screen.get_by_test_id("stTable").filter(has_text="Ana")
    expect(board).to_have_count(1, timeout=30_000)
    cells = [shown_text(cell) for cell in board.locator("td, th").all()]
    assert set(NAMES) <= set(cells), cells
    expect(board.get_by_test_id("stIconMaterial")).to_have_count(0)
    expect(board.locator("img")).to_have_count(0)
    screen.screenshot(path=str(tmp_path / "nicknames-on-the-projector.png"), full_page=True)
    context.close()
    store.close()
