"""The projector view of a whole lesson in Debian's Chromium, as a lecturer projects it, on one page resized to
1280x720, 1920x1080 and 3840x2160 as a window moved to the projector would be (the view scales by CSS and the charts by
Vega's window size, with no rerun):

- the waiting screen: the room code large enough to read from the back of a lecture hall and the join link on one
  line, on the page and in the large QR code's dialog; the roster shows nicknames typed as Streamlit shortcodes
  (``:material/home:``, ``:streamlit:``, ``:smile:``, ``:red[...]``) as typed, never as an icon, a logo, an emoji or
  coloured text; the QR code at least a third of the screen's height, to scan from the middle of a hall;
- on every screen alike (a lecturer's trial, issue 45): every text, the charts' included, as large a share of the
  screen's height as 20 px of a 720p screen's (at 1920x1080 it had stayed at 20-22 px), and the class's answers
  reaching down the screen (no blank lower half); a Predict's conventions line (the point of the question) and, after
  the reveal, its worked terms on the first screen without scrolling;
- for every activity kind the reveal's key sentence, the chart and the answer count on a 1280x720 screen without
  scrolling (and on 1920x1080), and so the leaderboard at the end of a lesson that keeps scores, its nicknames as
  typed; an ended room says so and invites nobody to join.

The rule that a nickname is never read as Markdown is pinned without a browser in
tests/ui/test_user_text_draws_no_streamlit_shortcode.py."""

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from test_browser_projector_view import TEXT_SIZES

from ndcg_core.classroom import rules
from ndcg_core.classroom.lessons import read_lesson
from ndcg_core.classroom.storage import Classroom, database_url
from support import ROOT
from ui.format import WORD_JOINER

pytestmark = pytest.mark.browser

SIZES = ((1280, 720), (1920, 1080))  # where every reveal must fit
SCREENS = (*SIZES, (3840, 2160))  # where the view scales alike
# The smallest text of the view laid out for 720p: 20 px, a 36th of the screen's height; larger screens alike.
SHARE = 20 / 720
# The view reaches at least this far down the screen: a larger screen is filled as a 720p one, not left blank below.
FILLED = 0.7
NAMES = (":material/home: Ana", ":streamlit: Bo", ":smile: Chen", ":red[Dee]")
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
# What each kind's reveal says, the sentence the class must see with the chart (step 0's, a Predict's, with its
# worked terms at every size, comes first).
REVEALS = {
    3: ["found the highest NDCG@5", "Most common mistake", "A best order"],
    4: ["NDCG@5: class / teacher"],
    6: ["votes agree with NDCG@5"],
    7: ["Exercise 4: predict a swap ·"],
    8: ["The right answer is"],
}

# How far down the page the lowest visible text, table, chart or image reaches.
LOWEST = """() => Math.max(...[...document.querySelectorAll(
  '.stMain [data-testid=stMarkdownContainer] p, .stMain [data-testid=stVegaLiteChart], .stMain [data-testid=stTable],'
  + ' .stMain [data-testid=stMetric], .stMain [data-testid=stImage] img, .stMain [data-testid=stAlert]')]
  .map(e => e.getBoundingClientRect()).filter(b => b.width && b.height).map(b => b.bottom))"""


@pytest.fixture
def lesson_room():
    """A room running the shipped lesson with scores kept and nicknames shown, four students in it."""
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, key = store.rooms.create()
    store.lessons.use(
        room.code, key, read_lesson(LESSON.read_text().replace("format = 1\n", "format = 1\nscores = true\n"))
    )
    store.rooms.show_names(room.code, key, True)
    students = [rules.new_student_id() for _ in NAMES]
    for me, name in zip(students, NAMES, strict=True):
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


def shown_text(locator) -> str:
    return locator.inner_text().replace(WORD_JOINER, "")


def at_size(screen, size):
    """``screen`` resized to ``size`` (width, height), once the projector's style has followed: the room code's
    6rem, 96 px at 720p, as large a share of this screen's height."""
    width, height = size
    screen.set_viewport_size({"width": width, "height": height})
    screen.wait_for_function(
        "h => parseFloat(getComputedStyle(document.querySelector('.st-key-cr_room_code p')).fontSize) >= 0.99 * h",
        arg=96 * height / 720,
        timeout=30_000,
    )


def texts_scale(screen, height):
    """Every text on the screen, each chart's included, is at least ``SHARE`` of the screen's height."""
    charts = screen.get_by_test_id("stVegaLiteChart")
    for i in range(charts.count()):
        expect(charts.nth(i).locator("svg text").first).to_be_attached()
    # A chart draws itself again after a resize: measured once every text has followed (30 s at most).
    with contextlib.suppress(PlaywrightTimeout):
        screen.wait_for_function(
            f"m => ({TEXT_SIZES})().every(t => t.size >= m)", arg=0.99 * SHARE * height, timeout=30_000
        )
    texts = screen.evaluate(TEXT_SIZES)
    assert texts, "no text measured"
    small = [t for t in texts if t["size"] < 0.99 * SHARE * height]
    assert not small, (height, sorted(small, key=lambda t: t["size"])[:5])


def fills(screen, height):
    """The view reaches ``FILLED`` of the screen's height, once drawn (a busy server sends the parts one by one)."""
    with contextlib.suppress(PlaywrightTimeout):
        screen.wait_for_function(f"({LOWEST})() >= {FILLED * height}", timeout=30_000)
    lowest = screen.evaluate(LOWEST)
    assert lowest >= FILLED * height, (lowest, height)


def answered(screen):
    return screen.get_by_test_id("stMetric").filter(has_text="Answered")


def test_the_projector_fills_every_screen_and_every_kind_s_reveal_and_the_end_fit_on_it(
    desktop_page, app_url, lesson_room
):
    store, code, key, students = lesson_room
    screen = desktop_page  # 1280x720, the worker's shared desktop page
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

    # The roster: each nickname as typed, no icon, no image.
    roster = screen.get_by_test_id("stMarkdownContainer").filter(has_text="Ana")
    expect(roster).to_have_count(1, timeout=30_000)
    assert shown_text(roster) == " · ".join(NAMES)
    expect(roster.get_by_test_id("stIconMaterial")).to_have_count(0)
    expect(roster.locator("img")).to_have_count(0)

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

    # The waiting screen on every screen: the QR code a third of the screen's height or more.
    expect(screen.get_by_test_id("stMetric").filter(has_text="Students in the room")).to_contain_text("4")
    for size in SCREENS:
        at_size(screen, size)
        images = screen.get_by_test_id("stMain").get_by_test_id("stImage").locator("img")
        expect(images.first).to_be_visible()
        screen.wait_for_function(
            "() => [...document.querySelectorAll('.stMain [data-testid=stImage] img')].every(i => i.complete)"
        )
        tallest = max(box["height"] for box in (images.nth(i).bounding_box() for i in range(images.count())))
        assert tallest >= size[1] / 3, (size, tallest)
        texts_scale(screen, size[1])
        fills(screen, size[1])

    # The class's estimates in (the page follows by itself): every text scales, the view fills the screen, the
    # conventions on the first screen.
    at_size(screen, SCREENS[0])
    activity = store.lessons.step(code, key, 0)
    for me, answer in zip(students, ANSWERS[0], strict=True):
        store.answers.submit(code, me, activity.id, answer)
    expect(answered(screen)).to_contain_text("4 / 4", timeout=30_000)
    for size in SCREENS:
        at_size(screen, size)
        expect(screen.get_by_test_id("stVegaLiteChart").first.locator("svg text").first).to_be_attached()
        texts_scale(screen, size[1])
        fills(screen, size[1])
        within(screen, screen.get_by_text("Conventions:", exact=False).first, size[1])
        within(screen, screen.get_by_test_id("stVegaLiteChart").first, size[1])

    # The reveal: the truth, the conventions and the worked terms all on the first screen, at every size; the chart
    # and the count too on a 720p and a 1080p screen.
    at_size(screen, SCREENS[0])
    store.rooms.set_phase(code, key, "revealed")
    expect(screen.get_by_text("The true NDCG is", exact=False)).to_be_visible(timeout=30_000)
    for size in SCREENS:
        at_size(screen, size)
        expect(screen.get_by_text("The true NDCG is", exact=False)).to_be_visible(timeout=30_000)
        expect(screen.get_by_test_id("stTable").filter(has_text="DCG so far")).to_be_visible(timeout=30_000)
        expect(screen.get_by_test_id("stVegaLiteChart")).to_have_count(2)  # the class by group, the estimates
        texts_scale(screen, size[1])
        fills(screen, size[1])
        for part in (
            screen.get_by_text("The true NDCG is", exact=False).first,
            screen.get_by_text("Conventions:", exact=False).first,
            screen.get_by_test_id("stTable").filter(has_text="DCG so far"),
        ):
            within(screen, part, size[1])
        if size in SIZES:
            within(screen, screen.get_by_test_id("stVegaLiteChart").first, size[1])
            within(screen, answered(screen), size[1])
            screen.screenshot(path=str(_shots() / f"projector_reveal_0_{size[0]}x{size[1]}.png"))
    at_size(screen, SIZES[0])

    for step, sentences in REVEALS.items():
        activity = store.lessons.step(code, key, step)
        for me, answer in zip(students, ANSWERS[step], strict=True):
            store.answers.submit(code, me, activity.id, answer)
        store.rooms.set_phase(code, key, "revealed")
        expect(screen.get_by_text(sentences[0], exact=False).first).to_be_visible()
        for size in SIZES:
            at_size(screen, size)
            height = size[1]
            for sentence in sentences:
                within(screen, screen.get_by_text(sentence, exact=False).first, height)
            # Which is right?'s reveal puts its table (votes, mistakes, workings) where its chart was.
            within(screen, screen.get_by_test_id("stTable" if step == 8 else "stVegaLiteChart").first, height)
            within(screen, answered(screen), height)
            screen.screenshot(path=str(_shots() / f"projector_reveal_{step}_{size[0]}x{height}.png"))
        at_size(screen, SIZES[0])

    # The last step revealed in a lesson that keeps scores: the leaderboard beside the reveal, each nickname as typed.
    leaderboard = screen.get_by_role("heading", name="Leaderboard")
    within(screen, leaderboard, 720)
    board = screen.get_by_test_id("stTable").filter(has_text="Ana")
    within(screen, board, 720)
    cells = [shown_text(cell) for cell in board.locator("td, th").all()]
    assert set(NAMES) <= set(cells), cells
    expect(board.get_by_test_id("stIconMaterial")).to_have_count(0)
    expect(board.locator("img")).to_have_count(0)

    # Ended: the projector says so, invites nobody to join, and shows the leaderboard first.
    store.rooms.end(code, key)
    expect(screen.get_by_text("This room has ended.", exact=False)).to_be_visible()
    expect(screen.get_by_text("Join with a phone")).to_have_count(0)
    expect(screen.get_by_role("button", name="Large QR code")).to_have_count(0)
    expect(screen.locator(".st-key-cr_room_code")).to_have_count(0)
    expect(screen.get_by_test_id("stTable")).to_have_count(2)  # the leaderboard and the summary: the reveal is gone
    within(screen, screen.get_by_test_id("stTable").filter(has_text="Ana"), 720)
    screen.screenshot(path=str(_shots() / "projector_ended_1280x720.png"))


def _shots():
    from pathlib import Path

    folder = Path("test-results")
    folder.mkdir(exist_ok=True)
    return folder
