"""A lesson in Debian's Chromium: the teacher (1280x720) starts a room from a lesson file (the shipped English
lesson, its first time limit shortened to 8 seconds), three phones (iPhone 13, touch) join, and Next goes through
every activity: the countdown runs out on the phones and the projector (answers closed, what was typed kept), the
class judges the Chengdu results and the projector shows the grades, the agreement and NDCG@5 under the class's
median grades beside the teacher's; Back shows an earlier activity again; the last activity, Which is right?, has the
phones pick the right option and two made by mistakes, the projector count the votes naming nothing, and the reveal
name each wrong option's mistake on the projector (1280x720 and 1920x1080) and on each phone; the CSV at the end holds
every activity.
Screenshots: the lesson editor, the judging projector view at 1280x720 and a judging phone, the Which is right?
projector and phone before and after the reveal."""

import csv
import io
from dataclasses import replace

import pytest
from playwright.sync_api import expect
from test_browser_live_room import answered, phone
from test_browser_projector_view import check_sizes_and_fit, open_screen

from ndcg_core.classroom.lessons import lesson_to_toml, read_lesson_file
from support import ROOT

pytestmark = pytest.mark.browser

SHIPPED = ROOT / "lessons" / "ndcg-in-20-minutes.en.toml"
LIMIT = 8  # seconds: the first activity's time limit in the copy the test starts from
SHOTS = "/tmp/ndcg_lesson_{}.png"
CHOOSE_SHOTS = "/work/wt/shots/choose/{}.png"  # the Which is right? activity's


def lesson_file(tmp_path):
    """The shipped English lesson with the first activity's time limit shortened, and the others' removed."""
    lesson = read_lesson_file(SHIPPED)
    steps = [replace(step, time_limit=LIMIT if i == 0 else None) for i, step in enumerate(lesson.steps)]
    path = tmp_path / "lesson.toml"
    path.write_text(lesson_to_toml(replace(lesson, steps=tuple(steps))), encoding="utf-8")
    return path, replace(lesson, steps=tuple(steps))


def next_step(teacher, number, count):
    teacher.get_by_role("button", name="Start the lesson" if number == 1 else "Next").click()
    expect(teacher.get_by_text(f"Activity {number} of {count}").first).to_be_visible()


def test_a_lesson_from_a_file_runs_through_every_activity_on_three_phones(browser, playwright, app_url, tmp_path):
    path, lesson = lesson_file(tmp_path)
    count = len(lesson.steps)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    teacher = context.new_page()
    teacher.goto(f"{app_url}/Classroom")
    start = teacher.get_by_test_id("stVerticalBlock").filter(has_text="Start from a lesson").last
    teacher.get_by_text("a lesson file", exact=True).first.click()
    teacher.locator("input[type=file]").first.set_input_files(str(path))
    expect(teacher.get_by_text(f"“{lesson.title}”: {count} activities").first).to_be_visible()
    assert start.count() >= 1
    teacher.get_by_role("button", name="Run this lesson in a new room").first.click()
    expect(teacher.get_by_text(f"{count} activities. Press “Start the lesson”")).to_be_visible(timeout=30_000)
    code = teacher.url.split("room=")[1][:6]
    phones = [phone(browser, playwright, app_url, code, name) for name in ("Ana", "Bo", "Cy")]
    screen = open_screen(teacher)

    # 1. Predict, timed: two phones send, the third types and does not; at zero every phone closes by itself.
    next_step(teacher, 1, count)
    own = lesson.steps[0].question.get("en")
    for page in phones:
        expect(page.get_by_text(own.split("@")[0]).first).to_be_visible()
        expect(page.get_by_role("timer")).to_contain_text("Time left 0:0")
    expect(screen.get_by_role("timer")).to_contain_text("Time left 0:0")
    screen.screenshot(path=SHOTS.format("timer_projector"))
    phones[0].screenshot(path=SHOTS.format("timer_phone"))
    for page, guess in zip(phones, ("0.9", "0.95", "0.5"), strict=True):
        page.get_by_role("textbox", name="Your estimate of NDCG (0 to 1)").fill(guess)  # kept on the phone, not sent
    for page in phones[:2]:
        page.get_by_role("button", name="Send").tap()
        expect(page.get_by_text("Saved. You can change it")).to_be_visible()
    expect(answered(teacher)).to_have_text("2 / 3")
    for page in phones[:2]:
        expect(page.get_by_text("Time is up: answers are closed")).to_be_visible(timeout=(LIMIT + 10) * 1000)
    box = phones[2].get_by_role("textbox", name="Your estimate of NDCG (0 to 1)")
    expect(box).to_be_disabled()
    expect(box).to_have_value("0.5")  # what was typed stays
    expect(phones[2].locator(".status")).to_have_text("Time is up: your estimate 0.5 was not sent.")  # one line
    expect(screen.get_by_test_id("stMetric").filter(has_text="Answers")).to_contain_text("Time is up")

    # 2 to 4: opened with Next; the phones follow by themselves.
    for number in (2, 3, 4):
        next_step(teacher, number, count)
        expect(phones[0].get_by_text(f"Activity {number} of {count}:")).to_be_visible()

    # 5. Judge the results: every phone grades the five Chengdu results and sends them at once.
    next_step(teacher, 5, count)
    grades = ([4, 2, 0, 1, 3], [3, 2, 0, 2, 3], [4, 1, 1, 1, 2])
    for page, mine in zip(phones, grades, strict=True):
        expect(page.get_by_text(f"Activity 5 of {count}: Judge the results")).to_be_visible()
        # One grade picker per result, on the phone's card.
        rows = page.locator(".ndcg-card").get_by_role("radiogroup")
        expect(rows).to_have_count(5)
        for row, grade in zip(rows.all(), mine, strict=True):
            row.get_by_role("radio", name=str(grade), exact=True).tap()
            expect(row.get_by_role("radio", name=str(grade), exact=True)).to_have_attribute("aria-checked", "true")
        page.get_by_role("button", name="Send my answers").tap()
        expect(page.get_by_text("Saved. You can change it")).to_be_visible()
    expect(answered(screen)).to_have_text("3 / 3")
    expect(screen.get_by_text("Agreement (α)")).to_be_in_viewport()
    teacher.get_by_role("button", name="Reveal").click()
    expect(screen.get_by_text("NDCG@5: class / teacher")).to_be_in_viewport()  # above the fold at 1280x720
    check_sizes_and_fit(screen, 720)  # every text 20 px or more, nothing cut, the count and chart above the fold
    screen.screenshot(path=SHOTS.format("judge_projector"))
    expect(phones[1].get_by_text("Teacher's grade: 4 · yours: 3")).to_be_visible()
    phones[1].screenshot(path=SHOTS.format("judge_phone"), full_page=True)

    # Back shows activity 4 again, as it was; Next returns to 5 without opening anything new.
    teacher.get_by_role("button", name="Back").click()
    expect(teacher.get_by_text(f"Activity 4 of {count}").first).to_be_visible()
    expect(phones[0].get_by_text(f"Activity 4 of {count}:")).to_be_visible()
    next_step(teacher, 5, count)
    for number in range(6, count + 1):
        next_step(teacher, number, count)

    # 9. Which is right? Each phone picks an option (the right one, and two made by mistakes); the projector counts
    # the votes naming nothing, and the reveal names each wrong option's mistake there (with its working) and on each
    # phone (what its student did, the fix).
    choose = lesson.steps[-1].activity
    option = {o.mistake: f"{o.letter.upper()}: {choose.shown(o)}" for o in choose.options()}
    picks = (option[None], option["gain_exponential"], option["ideal_from_list"])
    for page, pick in zip(phones, picks, strict=True):
        expect(page.get_by_text(f"Activity {count} of {count}: Which is right?")).to_be_visible()
        expect(page.get_by_text("Which of these numbers is NDCG@3 of this list?")).to_be_visible()
        expect(page.locator(".ndcg-card").get_by_role("radio")).to_have_count(4)
        button = page.get_by_role("radio", name=pick.replace(" ", "\u00a0"), exact=True)  # a no-break space
        button.tap()
        expect(button).to_have_attribute("aria-checked", "true")
        page.get_by_role("button", name="Send").tap()
        expect(page.get_by_text("Saved. You can change it")).to_be_visible()
    expect(answered(screen)).to_have_text("3 / 3")
    expect(screen.get_by_text("Which of these numbers is NDCG@3 of this list?")).to_be_visible()
    expect(screen.get_by_text("stay hidden until you reveal them")).to_be_visible()
    expect(screen.get_by_text("Ideal from the list alone")).to_have_count(0)  # nothing named before the reveal
    screen.screenshot(path=CHOOSE_SHOTS.format("projector_open_1280"))
    phones[1].screenshot(path=CHOOSE_SHOTS.format("phone_open"), full_page=True)
    teacher.get_by_role("button", name="Reveal").click()
    expect(screen.get_by_text(f"The right answer is {option[None]}: 1 of 3 chose it.")).to_be_visible()
    table = screen.get_by_test_id("stTable")
    for label in ("DCG given for NDCG", "Ideal from the list alone", "2^grade - 1 as the gain", "Right"):
        expect(table.get_by_text(label, exact=True)).to_be_visible()
    expect(table).to_contain_text("not divided")  # the DCG's working: divided by nothing
    screen.screenshot(path=CHOOSE_SHOTS.format("projector_reveal_1280"), full_page=True)
    screen.set_viewport_size({"width": 1920, "height": 1080})
    expect(table).to_be_in_viewport()
    screen.screenshot(path=CHOOSE_SHOTS.format("projector_reveal_1920"))
    expect(phones[0].get_by_text("Right: ")).to_be_visible()
    wrong = phones[1].locator(".ndcg-card .note.warning")
    expect(wrong).to_contain_text(f"You chose {option['gain_exponential']}, a number made by a mistake")
    expect(wrong).to_contain_text("2^grade - 1 as the gain")
    expect(wrong).to_contain_text("Take each grade as its gain")  # the fix
    expect(phones[2].locator(".ndcg-card .note.warning")).to_contain_text("Ideal from the list alone")
    for label in ("DCG given for NDCG", "Ideal from the list alone", "2^grade - 1 as the gain"):
        expect(phones[0].locator(".ndcg-card").get_by_text(label)).to_be_visible()
    phones[1].screenshot(path=CHOOSE_SHOTS.format("phone_reveal"), full_page=True)
    expect(teacher.get_by_role("button", name="Next")).to_be_disabled()

    teacher.get_by_role("button", name="Prepare the results (CSV)").click()
    with teacher.expect_download() as got:
        teacher.get_by_role("button", name="Download the results (CSV)").click()
    rows = list(csv.DictReader(io.StringIO(got.value.path().read_text(encoding="utf-8-sig"))))
    assert {r["Activity"] for r in rows if r["Activity"] != "Total"} == {str(n) for n in range(1, count + 1)}
    judged = [r for r in rows if r["Activity"] == "5" and r["Student"] == "Bo"]
    assert [r["Answer"] for r in judged] == [str(g) for g in grades[1]]
    assert {r["Right"] for r in judged} == {""}  # a grade is neither right nor wrong
    assert all(r["Class median grade"] and r["Grade minus class median"] for r in judged)
    timed = {r["Student"]: r["Answer"] for r in rows if r["Activity"] == "1"}
    assert timed == {"Ana": "0.9", "Bo": "0.95", "Cy": ""}  # the estimate not sent in time is not there
    for page in phones:
        page.context.close()
    context.close()


def test_the_lesson_editor_builds_and_previews_a_lesson(browser, app_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{app_url}/Classroom")
    page.get_by_role("textbox", name="Lesson title").fill("Week 3: judging")
    page.get_by_role("textbox", name="Lesson title").press("Enter")
    editor = page.get_by_test_id("stExpander").filter(has_text="Add an activity")
    editor.get_by_text("Judge the results", exact=True).click()
    editor.get_by_text("a query and results typed into a table", exact=True).click()
    editor.get_by_role("textbox", name="Query").fill("chengdu food")
    editor.get_by_role("textbox", name="Query").press("Enter")
    page.get_by_role("button", name="Add to the lesson").click()
    expect(page.get_by_text("Activities: 1")).to_be_visible()
    page.get_by_text("Preview activity 1").click()
    expect(page.get_by_text("On a phone:")).to_be_visible()
    page.get_by_text("Preview activity 1").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS.format("editor"), full_page=True)
    context.close()
