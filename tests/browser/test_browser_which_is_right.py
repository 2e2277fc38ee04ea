"""Which is right? run end to end in Debian's Chromium: the teacher (1280x720) starts a lesson from a file whose one
activity is a choose activity, three phones (iPhone 13, touch) join and pick options (the right one and two made by
mistakes), the projector counts the votes without naming anything, and the reveal names each wrong option's mistake
on the projector (with its working) and on each phone (what its student did, their number rebuilt, the fix).
Screenshots of the projector at 1280x720 and 1920x1080 and of a phone, before and after the reveal."""

import pytest
from playwright.sync_api import expect
from test_browser_live_room import answered, phone
from test_browser_projector_view import open_screen

from ndcg_core.classroom.lessons import read_lesson

pytestmark = pytest.mark.browser

SHOTS = "/work/wt/shots/choose/{}.png"
LESSON = """\
format = 1
title = "Name the mistake"

[[activity]]
kind = "choose"
items = ["doc A", "doc B", "doc C", "doc D", "doc E"]
grades = [3, 2, 3, 0, 1]
k = 3
missed = [3, 2]
options = ["no_normalisation", "ideal_from_list", "gain_exponential"]
"""


def test_a_lesson_with_a_choose_activity_names_each_wrong_option_at_the_reveal(browser, playwright, app_url, tmp_path):
    activity = read_lesson(LESSON).steps[0].activity
    option = {o.mistake: f"{o.letter.upper()}: {activity.shown(o)}" for o in activity.options()}
    path = tmp_path / "name-the-mistake.toml"
    path.write_text(LESSON, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    teacher = context.new_page()
    teacher.goto(f"{app_url}/Classroom")
    teacher.get_by_text("a lesson file", exact=True).first.click()
    teacher.locator("input[type=file]").first.set_input_files(str(path))
    expect(teacher.get_by_text("“Name the mistake”: 1 activities").first).to_be_visible()
    teacher.get_by_role("button", name="Run this lesson in a new room").first.click()
    expect(teacher.get_by_text("Press “Start the lesson”")).to_be_visible(timeout=30_000)
    code = teacher.url.split("room=")[1][:6]
    phones = [phone(browser, playwright, app_url, code, name) for name in ("Ana", "Bo", "Cy")]
    screen = open_screen(teacher)
    teacher.get_by_role("button", name="Start the lesson").click()

    picks = (option[None], option["gain_exponential"], option["ideal_from_list"])
    for page, pick in zip(phones, picks, strict=True):
        expect(page.get_by_text("Activity 1 of 1: Which is right?")).to_be_visible()
        expect(page.get_by_text("Which of these numbers is NDCG@3 of this list?")).to_be_visible()
        choices = page.locator(".ndcg-card").get_by_role("radio")
        expect(choices).to_have_count(4)
        button = page.get_by_role("radio", name=pick.replace(" ", "\u00a0"), exact=True)  # a no-break space
        button.tap()
        expect(button).to_have_attribute("aria-checked", "true")
        page.get_by_role("button", name="Send").tap()
        expect(page.get_by_text("Saved. You can change it")).to_be_visible()
    expect(answered(screen)).to_have_text("3 / 3")
    expect(screen.get_by_text("Which of these numbers is NDCG@3 of this list?")).to_be_visible()
    expect(screen.get_by_text("stay hidden until you reveal them")).to_be_visible()
    expect(screen.get_by_text("Ideal from the list alone")).to_have_count(0)  # nothing named before the reveal
    screen.screenshot(path=SHOTS.format("projector_open_1280"))
    phones[1].screenshot(path=SHOTS.format("phone_open"), full_page=True)

    teacher.get_by_role("button", name="Reveal").click()
    expect(screen.get_by_text(f"The right answer is {option[None]}: 1 of 3 chose it.")).to_be_visible()
    table = screen.get_by_test_id("stTable")
    for label in ("DCG given for NDCG", "Ideal from the list alone", "2^grade - 1 as the gain", "Right"):
        expect(table.get_by_text(label, exact=True)).to_be_visible()
    expect(table).to_contain_text("not divided")  # the DCG's working: divided by nothing
    screen.screenshot(path=SHOTS.format("projector_reveal_1280"), full_page=True)
    screen.set_viewport_size({"width": 1920, "height": 1080})
    expect(table).to_be_in_viewport()
    screen.screenshot(path=SHOTS.format("projector_reveal_1920"))

    expect(phones[0].get_by_text("Right: ")).to_be_visible()
    wrong = phones[1].locator(".ndcg-card .note.warning")
    expect(wrong).to_contain_text(f"You chose {option['gain_exponential']}, a number made by a mistake")
    expect(wrong).to_contain_text("2^grade - 1 as the gain")
    expect(wrong).to_contain_text("Take each grade as its gain")  # the fix
    expect(phones[2].locator(".ndcg-card .note.warning")).to_contain_text("Ideal from the list alone")
    for label in ("DCG given for NDCG", "Ideal from the list alone", "2^grade - 1 as the gain"):
        expect(phones[0].locator(".ndcg-card").get_by_text(label)).to_be_visible()
    phones[1].screenshot(path=SHOTS.format("phone_reveal"), full_page=True)
    for page in phones:
        page.context.close()
    context.close()
