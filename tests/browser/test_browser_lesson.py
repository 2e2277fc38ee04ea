"""A lesson in Debian's Chromium: the teacher (1280x720) starts a room from a lesson file (the shipped English
lesson, its first two time limits shortened to seconds, its third activity a list whose mistakes give three different
numbers), opens the projector view from the control page, three phones (iPhone 13, touch) join (two on the phones'
join page, one by the home page's Join box), and Next goes through every activity:

- activity 1, timed: the countdown runs out on the phones, the control page and the projector (answers closed, what
  was typed kept), and neither page ever shows "Time is up" beside "Answers: open" (issue 45: each page is sampled
  every 100 ms by a script of the test's own, which records any moment when both show together); the projector shows
  the class everything but the controls (no button but the large QR code's, no key);
- activity 2, timed, opened after activity 1's clock ran out, and its "Vote again" round after its own clock ran out:
  each takes answers on the phones from the start (issue 45: a phone judged the new activity by the old deadline),
  and no countdown of activity 1 stands beside activity 2's "open" while the pages draw it (sampled up to then);
  while its clock runs, the lesson editor in another tab builds and previews a lesson;
- activity 3, the class told its mistakes: three estimates made by three mistakes, the reveal names each phone's
  mistake on its card and the projector groups the class by mistake in labelled bars; "Vote again" runs round 2, and
  its reveal shows round 1 beside it, both rounds' figures on the projector without scrolling at 1280x720 and
  1920x1080;
- the class judges the Chengdu results and the projector shows the grades, the agreement and NDCG@5 under the
  class's median grades beside the teacher's; Back shows an earlier activity again;
- Which is better? on the projector at 1280x720 and 1920x1080: every text and chart label 20 px or more, nothing cut,
  the count and the chart on the first screen, every vote label drawn whole;
- the last activity, Which is right?, has the phones pick the right option and two made by mistakes, the projector
  count the votes naming nothing, and the reveal name each wrong option's mistake on the projector (1280x720 and
  1920x1080) and on each phone;
- the CSV at the end holds every activity, both rounds of activity 2, and no estimate sent after its time.

The rules under these screens are pinned without a browser: the status one word for every screen
(tests/core/classroom/test_a_run_out_clock_is_one_closed_status.py), a round keeping its step's time limit
(tests/core/classroom/test_a_step_s_wording_time_limit_and_points_are_columns.py), the projector's lack of controls
and a stranger's student page (tests/ui/test_classroom_page.py), what a phone says for each estimate, in English and
Chinese, and the mistakes' groups and rounds' figures (tests/ui/test_predict_names_the_class_s_mistakes.py).
Screenshots: the lesson editor, the countdown on the projector and a phone, the projector and the phones at each of
activity 3's reveals (/work/wt/shots/classmistakes), the judging projector view at 1280x720 and a judging phone,
Which is better? at 1920x1080, the Which is right? projector and phone before and after the reveal, a phone in the
second round of a timed activity."""

import csv
import io
import re
from dataclasses import replace
from math import log2
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_browser_join_link import join_link_text, qr_codes, this_machines_address
from test_browser_live_room import answered
from test_browser_projector_reveal_fits import within
from test_browser_projector_view import check_sizes_and_fit, open_screen

from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Step, lesson_to_toml, read_lesson_file
from support import ROOT, join_on_its_page

pytestmark = pytest.mark.browser

SHIPPED = ROOT / "lessons" / "ndcg-in-20-minutes.en.toml"
# Seconds: the time limits of activities 1 and 2 in the copy the test starts from (the others' removed). The first is
# long enough for the control page and the projector to show the countdown, three phones to type and two to send
# before it runs out on a loaded machine (6.4 s at a load of 25 on 2 cores; 12 s was once too short there); the
# second for two phones to send in each of its rounds (2.4 and 1.2 s there), the lesson editor filling the rest of
# its first round's wait.
FIRST = 16
SECOND = 12
TIME_UP = "Time is up: answers are closed"  # a phone's status line once the clock ran out
SAVED = "Saved. You can change it"
ESTIMATE = "Your estimate of NDCG (0 to 1)"
SHOTS = "/tmp/ndcg_lesson_{}.png"
CHOOSE_SHOTS = "/work/wt/shots/choose/{}.png"  # the Which is right? activity's
MISTAKE_SHOTS = Path("/work/wt/shots/classmistakes")  # activity 3's, the class told its mistakes

# Activity 3 in the test's copy: grades 0 1 0 1 at k = 3 and a missed judged result of grade 1, a list whose
# mistakes give three different numbers: NDCG@3 = (1/log2(3)) / (1 + 1/log2(3) + 1/log2(4)) = 0.30; the DCG itself
# is 0.63, the ideal of the list alone gives 0.39, the list summed to 4 gives 0.50.
SPEC = activity_list(("doc A", "doc B", "doc C", "doc D"), (0, 1, 0, 1), 3, pool=(1,))
DCG = 1 / log2(3)
IDCG = 1 + 1 / log2(3) + 1 / log2(4)
NO_NORMALISATION = f"{DCG:.2f}"
IDEAL_FROM_LIST = f"{DCG / (1 + 1 / log2(3)):.2f}"
LIST_NOT_CUT = f"{(1 / log2(3) + 1 / log2(5)) / IDCG:.2f}"
RIGHT = f"{DCG / IDCG:.2f}"

# Every 100 ms: the countdown's text (in the page or a component's shadow root) and the "Answers" metric's value;
# a moment when the countdown says the time is up and the metric "open" is kept in window.contradictions.
SAMPLE = """() => {
  window.contradictions = [];
  const timers = (root, out) => {
    for (const node of root.querySelectorAll("[role=timer], *")) {
      if (node.getAttribute("role") === "timer") out.push(node.textContent);
      if (node.shadowRoot) timers(node.shadowRoot, out);
    }
    return out;
  };
  window.sampler = setInterval(() => {
    const counted = timers(document, []);
    const status = [...document.querySelectorAll("[data-testid=stMetric]")]
      .filter((m) => m.querySelector("[data-testid=stMetricLabel]")?.textContent.trim() === "Answers")
      .map((m) => m.querySelector("[data-testid=stMetricValue]")?.textContent.trim());
    if (counted.some((text) => text.includes("Time is up")) && status.includes("open")) {
      window.contradictions.push(`${counted.join(" | ")} beside Answers: ${status.join(", ")}`);
    }
  }, 100);
}"""
CHART_TEXT = "ts => ts.map(e => e.textContent)"


def lesson_file(tmp_path):
    """The shipped English lesson with the first two activities' time limits shortened, and the others' removed;
    its third activity a Predict of ``SPEC``."""
    lesson = read_lesson_file(SHIPPED)
    limits = (FIRST, SECOND)
    steps = [replace(step, time_limit=limits[i] if i < 2 else None) for i, step in enumerate(lesson.steps)]
    steps[2] = Step(Predict(SPEC))
    path = tmp_path / "lesson.toml"
    path.write_text(lesson_to_toml(replace(lesson, steps=tuple(steps))), encoding="utf-8")
    return path, replace(lesson, steps=tuple(steps))


def next_step(teacher, number, count):
    teacher.get_by_role("button", name="Start the lesson" if number == 1 else "Next").click()
    expect(teacher.get_by_text(f"Activity {number} of {count}").first).to_be_visible()


def status(page):
    """The "Answers" metric's value (open, locked, Time is up, revealed) on the control page or the projector."""
    return page.get_by_test_id("stMetric").filter(has_text="Answers").get_by_test_id("stMetricValue")


def answer_in_time(page, guess):
    """Type ``guess`` into the open Predict's box and send it: the box takes it and Send is there while its countdown
    runs."""
    box = page.get_by_role("textbox", name=ESTIMATE)
    expect(box).to_be_enabled()
    expect(page.get_by_role("timer")).to_contain_text("Time left")
    box.fill(guess)
    page.get_by_role("button", name="Send").tap()
    expect(page.locator(".status")).to_contain_text(SAVED)


def estimate(page, value):
    """Send ``value`` as the estimate of the open (untimed) Predict."""
    page.get_by_role("textbox", name=ESTIMATE).fill(value)
    page.get_by_role("button", name="Send").tap()
    expect(page.locator(".ndcg-card")).to_contain_text("Saved.")


def shoot(page, name, full_page=False):
    MISTAKE_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(MISTAKE_SHOTS / f"{name}.png"), full_page=full_page)


def the_lesson_editor_builds_and_previews_a_lesson(page, app_url):
    """On a page of its own (a session of its own): a lesson titled, a Judge activity typed into its table, added,
    and previewed as a phone shows it."""
    page.set_viewport_size({"width": 1280, "height": 900})
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
    page.close()


def join_from_the_home_page(browser, playwright, app_url, code, nickname):
    """A student joins from an iPhone 13 by the home page's Join box: a code of the wrong length is refused and kept
    to be corrected; the code typed in lower case with a dash takes the phone to the room."""
    page = browser.new_context(**playwright.devices["iPhone 13"]).new_page()
    page.goto(app_url)
    box = page.get_by_role("textbox", name="Room code from the teacher's screen")
    box.fill("zzz")
    page.get_by_role("button", name="Join the class").tap()
    expect(page.get_by_text("The room code 'zzz' does not have 6 characters")).to_be_visible(timeout=30_000)
    expect(box).to_have_value("zzz")  # what was typed stays, to be corrected
    box.fill(f"{code[:3].lower()}-{code[3:].lower()}")
    page.get_by_role("button", name="Join the class").tap()
    expect(page).to_have_url(re.compile(rf"/Classroom\?(.*&)?room={code}(&|$)"), timeout=30_000)
    name = page.get_by_role("textbox", name="Nickname (optional)")
    name.fill(nickname)
    name.press("Enter")
    page.get_by_role("button", name="Join", exact=True).tap()
    page.wait_for_url("**/phone/**", timeout=30_000)
    expect(page.get_by_text(f"You are {nickname}.")).to_be_visible(timeout=30_000)
    return page


def test_a_lesson_from_a_file_runs_through_every_activity_on_three_phones(browser, playwright, app_url, tmp_path):
    path, lesson = lesson_file(tmp_path)
    count = len(lesson.steps)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    teacher = context.new_page()
    port = int(app_url.rsplit(":", 1)[1])
    teacher.goto(f"http://localhost:{port}/Classroom")  # as a teacher opens the app on the laptop it runs on
    start = teacher.get_by_test_id("stVerticalBlock").filter(has_text="Start from a lesson").last
    teacher.get_by_text("a lesson file", exact=True).first.click()
    teacher.locator("input[type=file]").first.set_input_files(str(path))
    expect(teacher.get_by_text(f"“{lesson.title}”: {count} activities").first).to_be_visible()
    assert start.count() >= 1
    teacher.get_by_role("button", name="Run this lesson in a new room").first.click()
    expect(teacher.get_by_text(f"{count} activities. Press “Start the lesson”")).to_be_visible(timeout=30_000)
    code = teacher.url.split("room=")[1][:6]
    iphone = playwright.devices["iPhone 13"]
    phones = [join_on_its_page(browser.new_context(**iphone), app_url, code, name) for name in ("Ana", "Bo")]
    phones.append(join_from_the_home_page(browser, playwright, app_url, code, "Cy"))
    screen = open_screen(teacher)
    assert "view=screen" in screen.url

    # Opened at localhost, both pages project this machine's network address, which a phone could open, as the join
    # link and its QR codes (decoded from the screen, as a phone's camera would); the control page says the test's
    # server listens on loopback only (support.start_app), the class's screen is spared the note.
    address = this_machines_address()
    if address is None:  # no network: a warning, and no QR code of an address no phone could open
        expect(screen.get_by_text("No join link a phone could open")).to_be_visible()
        assert qr_codes(screen, 0) == []
    else:
        join = f"http://{address}:{port}/join/{code}"
        for page in (teacher, screen):
            expect(join_link_text(page)).to_have_text(join)
        assert qr_codes(screen, 2) == [join, join]  # the join bar's, and the waiting screen's large one
        expect(teacher.get_by_text("This server listens only on this computer's own address")).to_be_visible()
        expect(screen.get_by_text("This server listens only")).to_have_count(0)
    for page in (teacher, screen):  # both drawn, no activity yet: sampled from before the clock starts
        expect(page.get_by_test_id("stMetric").filter(has_text="Students in the room")).to_be_visible()
        page.evaluate(SAMPLE)

    # 1. Predict, timed: two phones send, the third types and does not; at zero every phone closes by itself, and the
    # control page and the projector say the time is up with the countdown.
    next_step(teacher, 1, count)
    for page in (teacher, screen):
        expect(page.get_by_role("timer")).to_contain_text("Time left 0:")
        expect(status(page)).to_have_text("open")
    own = lesson.steps[0].question.get("en")
    for page in phones:
        expect(page.get_by_text(own.split("@")[0]).first).to_be_visible()
        expect(page.get_by_role("timer")).to_contain_text("Time left 0:")
    for page, guess in zip(phones, ("0.9", "0.95", "0.5"), strict=True):
        page.get_by_role("textbox", name=ESTIMATE).fill(guess)  # kept on the phone, not sent
    for page in phones[:2]:
        page.get_by_role("button", name="Send").tap()
        expect(page.get_by_text(SAVED)).to_be_visible()
    expect(answered(teacher)).to_have_text("2 / 3")
    screen.screenshot(path=SHOTS.format("timer_projector"))
    phones[0].screenshot(path=SHOTS.format("timer_phone"))
    for page in phones[:2]:
        expect(page.get_by_text(TIME_UP)).to_be_visible(timeout=(FIRST + 10) * 1000)
    box = phones[2].get_by_role("textbox", name=ESTIMATE)
    expect(box).to_be_disabled()
    expect(box).to_have_value("0.5")  # what was typed stays
    expect(phones[2].locator(".status")).to_have_text("Time is up: your estimate 0.5 was not sent.")  # one line
    for page in (teacher, screen):
        expect(status(page)).to_have_text("Time is up", timeout=20_000)
        expect(page.get_by_role("timer")).to_have_count(0)  # the status says it; no countdown is left to stand
        assert page.evaluate("window.contradictions") == []
    # The projector: no controls, no setup, no key; its only button enlarges the QR code (unnamed buttons are the
    # chart's and image's own toolbars).
    buttons = [b.strip() for b in screen.get_by_role("button").all_inner_texts() if b.strip()]
    assert len(buttons) == 1 and buttons[0].endswith("Large QR code"), buttons
    for gone in ("Lock answers", "Reveal", "Open for the class", "End the room", "Next"):
        expect(screen.get_by_text(gone, exact=True)).to_have_count(0)
    assert "key=" not in screen.content() and "key=" not in screen.url

    # 2. Predict, timed, opened after activity 1's clock ran out: every phone's box takes an estimate from the start.
    # Its clock runs out too; the teacher reveals, then votes again: round 2 takes estimates from the start as well.
    next_step(teacher, 2, count)
    for page in phones:
        expect(page.get_by_text(f"Activity 2 of {count}:")).to_be_visible()
        expect(page.get_by_role("textbox", name=ESTIMATE)).to_be_enabled()
    for page in (teacher, screen):  # sampled until activity 2 counts down: no countdown of activity 1 left beside it
        expect(page.get_by_role("timer")).to_contain_text("Time left 0:")
        assert page.evaluate("window.contradictions") == []
        page.evaluate("clearInterval(window.sampler)")
    for page, guess in zip(phones, ("0.6", "0.7"), strict=False):
        answer_in_time(page, guess)
    # While its clock runs: the lesson editor, in a new tab of the teacher's browser.
    the_lesson_editor_builds_and_previews_a_lesson(context.new_page(), app_url)
    for page in phones[:2]:
        expect(page.locator(".status")).to_contain_text(TIME_UP, timeout=(SECOND + 10) * 1000)
    teacher.get_by_role("button", name="Reveal").click()
    teacher.get_by_role("button", name="Vote again (new round)").click()
    for page in phones:
        expect(page.get_by_text(re.compile(rf"Activity 2 of {count}: .*Round 2")).first).to_be_visible()
    for page, guess in zip(phones, ("0.8", "0.9"), strict=False):
        answer_in_time(page, guess)
    phones[0].screenshot(path=SHOTS.format("timed_vote_again_phone"))

    # 3. The class is told its mistakes: three estimates made by three mistakes; the reveal names each phone's
    # mistake on its card, the projector groups the class by mistake in labelled bars; "Vote again" runs round 2,
    # and its reveal shows round 1 beside it, both rounds' figures on the projector without scrolling.
    next_step(teacher, 3, count)
    for page, value in zip(phones, (NO_NORMALISATION, LIST_NOT_CUT, IDEAL_FROM_LIST), strict=True):
        expect(page.locator(".ndcg-card")).to_contain_text("NDCG@3")
        estimate(page, value)
    expect(answered(screen)).to_have_text("3 / 3")
    expect(screen.get_by_text("DCG given for NDCG")).to_have_count(0)  # nothing named before the reveal
    teacher.get_by_role("button", name="Reveal").click()
    groups = "Answers by what they were: 1 DCG given for NDCG · 1 Ideal from the list alone · 1 List not cut at k"
    expect(screen.get_by_text(groups)).to_be_visible()
    chart = screen.get_by_test_id("stVegaLiteChart").first
    for label in ("DCG given for NDCG", "Ideal from the list alone", "List not cut at k"):
        expect(chart.locator("svg text").filter(has_text=label)).to_have_count(1)  # each bar named, not colour alone
    for width, height in ((1280, 720), (1920, 1080)):
        screen.set_viewport_size({"width": width, "height": height})
        within(screen, screen.get_by_text("The true NDCG is", exact=False).first, height)
        within(screen, chart, height)
        shoot(screen, f"projector_reveal_{width}x{height}")
    screen.set_viewport_size({"width": 1280, "height": 720})
    for page, says in (
        (phones[0], ["Your estimate is the number a known mistake gives", "DCG given for NDCG", "Divide DCG@3"]),
        (phones[1], ["Your estimate is the number a known mistake gives", "List not cut at k", "positions 1 to 3"]),
    ):
        note = page.locator(".ndcg-card .note.warning")
        for text in says:
            expect(note).to_contain_text(text)
    shoot(phones[0], "phone_reveal_en", full_page=True)
    teacher.get_by_role("button", name="Vote again (new round)").click()
    expect(phones[0].get_by_text(re.compile(rf"Activity 3 of {count}: .*Round 2")).first).to_be_visible()
    for page, value in zip(phones, (RIGHT, IDEAL_FROM_LIST, f"{DCG / IDCG + 0.03:.2f}"), strict=True):
        estimate(page, value)
    expect(answered(screen)).to_have_text("3 / 3")
    teacher.get_by_role("button", name="Reveal").click()
    rounds = screen.get_by_test_id("stTable").filter(has_text="Middle half")
    rows = rounds.locator("tbody tr")
    expect(rows.nth(0)).to_contain_text("Round 1")
    expect(rows.nth(0)).to_contain_text("0 of 3 (0%)")
    expect(rows.nth(1)).to_contain_text("Round 2")
    expect(rows.nth(1)).to_contain_text("2 of 3 (67%)")
    compared = screen.get_by_test_id("stVegaLiteChart").first
    expect(compared.locator("svg text").filter(has_text="Round 1: 1")).not_to_have_count(0)
    for width, height in ((1280, 720), (1920, 1080)):
        screen.set_viewport_size({"width": width, "height": height})
        within(screen, screen.get_by_text("The true NDCG is", exact=False).first, height)
        within(screen, rounds, height)
        within(screen, compared, height)
        shoot(screen, f"projector_round2_{width}x{height}")
    screen.set_viewport_size({"width": 1280, "height": 720})
    expect(phones[0].locator(".ndcg-card .note.success")).to_contain_text("right to the decimals you gave")
    expect(phones[1].locator(".ndcg-card .note.warning")).to_contain_text("Ideal from the list alone")
    shoot(phones[1], "phone_round2_en", full_page=True)

    # 4: opened with Next; the phones follow by themselves.
    next_step(teacher, 4, count)
    expect(phones[0].get_by_text(f"Activity 4 of {count}:")).to_be_visible()

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

    # 6. Which is better? on the projector: every text 20 px or more and nothing cut, at 1280x720 the count and the
    # chart above the fold, at 1920x1080 nothing cut and every vote label drawn whole.
    next_step(teacher, 6, count)
    expect(screen.get_by_text(f"Activity 6 of {count}: Which is better?")).to_be_visible()
    check_sizes_and_fit(screen, 720)
    screen.set_viewport_size({"width": 1920, "height": 1080})
    expect(screen.get_by_text("System B")).to_be_visible()
    check_sizes_and_fit(screen, 1080)
    votes = screen.get_by_test_id("stVegaLiteChart").first.locator("svg text").evaluate_all(CHART_TEXT)
    assert {"A", "B", "The same"} <= set(votes), votes
    screen.screenshot(path=SHOTS.format("compare_projector_1920"))
    screen.set_viewport_size({"width": 1280, "height": 720})
    for number in range(7, count + 1):
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
    rounds = {(r["Round"], r["Student"]): r["Answer"] for r in rows if r["Activity"] == "2"}
    assert rounds == {
        ("1", "Ana"): "0.6",
        ("1", "Bo"): "0.7",
        ("1", "Cy"): "",
        ("2", "Ana"): "0.8",
        ("2", "Bo"): "0.9",
        ("2", "Cy"): "",
    }
    for page in phones:
        page.context.close()
    context.close()
