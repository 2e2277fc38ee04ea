"""The projector view of a whole lesson in Debian's Chromium, as a lecturer projects it: for every activity kind the
reveal's key sentence, the chart and the answer count are on a 1280x720 screen without scrolling (and on 1920x1080),
and so is the leaderboard at the end of a lesson that keeps scores; the room code is large enough to read from the
back of a lecture hall and the join link is on one line, on the page and in the large QR code's dialog; an ended room
says so and invites nobody to join."""

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom import rules
from ndcg_core.classroom.lessons import read_lesson
from ndcg_core.classroom.storage import Classroom, database_url
from support import ROOT

pytestmark = pytest.mark.browser

SIZES = ((1280, 720), (1920, 1080))
# The shipped lesson, keeping scores: predict (step 0), rank (3), judge (4), compare (6), practice (7), which is
# right? (8, the last).
LESSON = ROOT / "lessons" / "ndcg-in-20-minutes.en.toml"
ANSWERS = {
    0: [[(0, "0.9")], [(0, "0.8")], [(0, "0.95")], [(0, "0.5")]],
    3: [[(0, [0, 3, 2, 1, 4])], [(0, [3, 0, 2, 1, 4])], [(0, [1, 0, 2, 3, 4])], [(0, [0, 1, 2, 3, 4])]],
    4: [list(enumerate(g)) for g in ([4, 2, 0, 1, 3], [4, 3, 0, 2, 3], [3, 2, 1, 1, 2], [4, 2, 0, 0, 3])],
    6: [[(0, "a")], [(0, "b")], [(0, "same")], [(0, "a")]],
    7: [[(0, "1"), (1, "2.5"), (2, "0.8"), (3, "up")], [(0, "1")], [(0, "0.5"), (1, "3")], [(3, "down")]],
    8: [[(0, "a")], [(0, "b")], [(0, "c")], [(0, "a")]],
}
# What each kind's reveal says, the sentence the class must see with the chart.
REVEALS = {
    0: ["The true NDCG is"],
    3: ["found the highest NDCG@5", "Most common mistake", "A best order"],
    4: ["NDCG@5: class / teacher"],
    6: ["votes agree with NDCG@5"],
    7: ["Exercise 4: predict a swap ·"],
    8: ["The right answer is"],
}


@pytest.fixture
def lesson_room():
    """A room running the shipped lesson with scores kept and nicknames shown, four students in it."""
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, key = store.rooms.create()
    store.lessons.use(
        room.code, key, read_lesson(LESSON.read_text().replace("format = 1\n", "format = 1\nscores = true\n"))
    )
    store.rooms.show_names(room.code, key, True)
    students = [rules.new_student_id() for _ in range(4)]
    for me, name in zip(students, ("Ana", "Bo", "Chen", "Dee"), strict=True):
        store.students.join(room.code, me, name)
    yield store, room.code, key, students
    store.close()


def within(page, locator, height):
    """``locator`` is drawn whole inside the first ``height`` pixels of the page, which has not scrolled."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (locator, box, height)
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.querySelector('[data-testid=stMain]').scrollTop") == 0


def one_line(locator):
    """The element's text is on a single line: no taller than one line of its font."""
    height, line = locator.evaluate("e => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).fontSize)]")
    assert height < 1.8 * line, (height, line)


def test_every_kind_s_reveal_the_leaderboard_and_the_end_fit_the_projector(browser, app_url, lesson_room):
    store, code, key, students = lesson_room
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    screen = context.new_page()
    screen.goto(f"{app_url}/Classroom?room={code}&key={key}&view=screen")  # the teacher's browser, holding the key
    expect(screen.get_by_text("Join with a phone")).to_be_visible(timeout=30_000)

    # The room code, large (its lines 96 px tall at 1280x720), and the join link whole on one line.
    big = screen.locator(".st-key-cr_room_code p")
    expect(big).to_have_text(code)
    expect(big).to_have_css("font-size", "96px")  # once the projector's style has reached the page
    assert big.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 96
    assert big.bounding_box()["height"] >= 96
    link = screen.get_by_test_id("stMarkdownContainer").locator("code").filter(has_text=f"/join/{code}")
    one_line(link)
    assert link.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().right <= 1280")
    assert link.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 20
    within(screen, big, 720)

    # The large QR code: the code larger still, the QR code and the link on one line, all on a 720-pixel screen.
    screen.get_by_role("button", name="Large QR code").click()
    dialog = screen.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog_code = dialog.locator(".st-key-cr_big_code p")
    expect(dialog_code).to_have_text(code)
    assert dialog_code.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 96
    dialog_link = dialog.locator("code").filter(has_text=f"/join/{code}")
    one_line(dialog_link)
    for part in (dialog.get_by_role("img"), dialog_code, dialog_link):
        within(screen, part, 720)
    screen.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    for step, sentences in REVEALS.items():
        activity = store.lessons.step(code, key, step)
        for me, answer in zip(students, ANSWERS[step], strict=True):
            store.answers.submit(code, me, activity.id, answer)
        store.rooms.set_phase(code, key, "revealed")
        expect(screen.get_by_text(sentences[0], exact=False).first).to_be_visible()
        for width, height in SIZES:
            screen.set_viewport_size({"width": width, "height": height})
            for sentence in sentences:
                within(screen, screen.get_by_text(sentence, exact=False).first, height)
            # Which is right?'s reveal puts its table (votes, mistakes, workings) where its chart was.
            within(screen, screen.get_by_test_id("stTable" if step == 8 else "stVegaLiteChart").first, height)
            within(screen, screen.get_by_test_id("stMetric").filter(has_text="Answered"), height)
            screen.screenshot(path=str(_shots() / f"projector_reveal_{step}_{width}x{height}.png"))
        screen.set_viewport_size({"width": 1280, "height": 720})

    # The last step revealed in a lesson that keeps scores: the leaderboard beside the reveal.
    leaderboard = screen.get_by_role("heading", name="Leaderboard")
    within(screen, leaderboard, 720)
    within(screen, screen.get_by_test_id("stTable").filter(has_text="Ana"), 720)

    # Ended: the projector says so, invites nobody to join, and shows the leaderboard first.
    store.rooms.end(code, key)
    expect(screen.get_by_text("This room has ended.", exact=False)).to_be_visible()
    expect(screen.get_by_text("Join with a phone")).to_have_count(0)
    expect(screen.get_by_role("button", name="Large QR code")).to_have_count(0)
    expect(screen.locator(".st-key-cr_room_code")).to_have_count(0)
    expect(screen.get_by_test_id("stTable")).to_have_count(2)  # the leaderboard and the summary: the reveal is gone
    within(screen, screen.get_by_test_id("stTable").filter(has_text="Ana"), 720)
    screen.screenshot(path=str(_shots() / "projector_ended_1280x720.png"))
    context.close()


def _shots():
    from pathlib import Path

    folder = Path("test-results")
    folder.mkdir(exist_ok=True)
    return folder
