"""A live room in Debian's Chromium: one desktop teacher (1280x720) and three phones (iPhone 13 emulation, touch).
Students join (one by the room's link, two on the phones' join page) and answer four activities; the teacher's counts
update with nobody clicking;
after the reveal each phone shows its own result; a student's link cannot lock, reveal or end; a hostile
nickname stays text; and the browser remembers who it is in the room. (A restarted server keeps the room and its
answers: test_browser_reconnect.py.)

On the same class, the teacher's side: "Open for the class" reruns only the control page's setup part (an
``st.fragment``, so on a process that also serves half the class the teacher's page does not compete with the phones
fetching the activity; what the browser asks is read from its websocket), and the rest of the page follows by itself;
with an activity open the answered count and the class's chart are on the first screen beside Lock and Reveal (issue
45: they were below the buttons, off a 1280x720 laptop's first screen); and the control link opened on the lecturer's
phone works as a remote with its buttons on the first screen: its Lock locks the room. Results a lecturer can use: a
revealed Which is better? round cannot take answers again and runs again as round 2; the downloaded CSV words every
vote as the phones showed it and has a row for each student who did not answer; its address (issue 46), asked again
by anyone without the teacher's page (a request with no session, no cookie), serves nothing, and the teacher prepares
and downloads it again. (The CSV's totals, columns and Chinese: tests/ui/test_classroom_results.py.)

A fifth activity, Rank it best on seed 003's 成都美食推荐 results with their grades hidden, walks one phone through
what a hidden rank shows: the titles with no grade anywhere, rows that fit the phone with 44 px buttons, the order
changed by tapping ▲, locked as a short list and opened again, and after the reveal the judged grades, a best order
and the phone's own NDCG@5."""

import csv
import io
import re

import pytest
from playwright.sync_api import expect
from test_browser_open_reruns_only_the_setup import reruns_asked
from test_browser_projector_reveal_fits import within

from ndcg_core import ndcg_at_k
from ndcg_core.classroom.kinds.lists import result_list
from ndcg_core.classroom.kinds.practice import practice_activity
from support import join_on_its_page, wait_for_idle

pytestmark = pytest.mark.browser

HOSTILE = "<img src=x onerror=1>"
FOOD = result_list("chengdu_food")  # seed 003's 成都美食推荐, the first real query's results
GRADE = dict(zip(FOOD.labels, FOOD.grades, strict=True))


def start_room(browser, url, context=None):
    """A teacher at 1280x720 (or in ``context``) starts a room; the control link (with the key) is read from its
    popover."""
    context = context or browser.new_context(viewport={"width": 1280, "height": 720})
    teacher = context.new_page()
    teacher.goto(f"{url}/Classroom")
    teacher.get_by_role("button", name="Start a room").click()
    expect(teacher.get_by_text("Open the projector view")).to_be_visible(timeout=30_000)
    code = re.search(r"room=([A-Z0-9]{6})", teacher.url).group(1)
    assert "key=" not in teacher.url  # the address bar, which a projector may show, never holds the key
    expect(teacher.get_by_test_id("stCode").filter(has_text="key=")).to_have_count(0)  # not on the page until asked
    teacher.get_by_text("Open the controls on another device").click()
    keep = teacher.get_by_test_id("stCode").filter(has_text="key=").inner_text()
    teacher.keyboard.press("Escape")
    expect(teacher.get_by_test_id("stCode").filter(has_text="key=")).to_have_count(0)
    keep = re.sub(r"\s+", "", keep)
    # The link is on this machine's network address, which a phone would open; the test's server listens on
    # loopback only, so the test opens the same path and query there.
    assert re.search(rf"/Classroom\?room={code}&lang=en#key=[\w-]{{43}}$", keep), keep
    return context, teacher, code, url + keep[keep.index("/Classroom") :]


def phone(browser, playwright, url, code, nickname, context=None):
    """A student joins from an iPhone 13 (or from ``context``) by the room's link, with a nickname."""
    context = context or browser.new_context(**playwright.devices["iPhone 13"])
    page = context.new_page()
    page.goto(f"{url}/Classroom?room={code}")
    box = page.get_by_role("textbox", name="Nickname (optional)")
    box.fill(nickname)
    box.press("Enter")
    page.get_by_role("button", name="Join").tap()
    page.wait_for_url("**/phone/**", timeout=30_000)  # the phone's own page from here on (phone_page.py)
    expect(page.get_by_text(f"You are {nickname}.")).to_be_visible(timeout=30_000)
    return page


def setup(teacher):
    """Open the control page's "Open the next activity" panel (open by itself only before the first activity)."""
    if not teacher.get_by_role("button", name="Open for the class").is_visible():
        teacher.get_by_text("Open the next activity").click()
    expect(teacher.get_by_role("button", name="Open for the class")).to_be_visible()


def open_activity(teacher, kind=None):
    setup(teacher)
    if kind is not None:
        teacher.get_by_text(kind, exact=True).click()
    teacher.get_by_role("button", name="Open for the class").click()


def answered(teacher):
    return teacher.get_by_test_id("stMetric").filter(has_text="Answered").get_by_test_id("stMetricValue")


def send(page, name="Send"):
    page.get_by_role("button", name=name).tap()
    expect(page.get_by_text("Saved. You can change it")).to_be_visible()


def download(teacher):
    """The results CSV as the teacher gets it: prepared, then downloaded."""
    teacher.get_by_role("button", name="Prepare the results (CSV)").click()
    expect(teacher.get_by_text("Results as of")).to_be_visible()
    with teacher.expect_download() as started:
        teacher.get_by_role("button", name="Download the results (CSV)").click()
    return started.value


def first_screen_beside_the_buttons(teacher):
    """The answered count and the class's chart on the control page's first screen (720 px), right of Lock and
    Reveal, all whole, the page as it opens."""
    count = teacher.get_by_test_id("stMetric").filter(has_text="Answered")
    chart = teacher.get_by_test_id("stVegaLiteChart").first
    expect(chart.locator("svg text").first).to_be_attached()
    teacher.get_by_test_id("stMain").evaluate("main => main.scrollTo(0, 0)")
    lock = teacher.get_by_role("button", name="Lock answers")
    reveal = teacher.get_by_role("button", name="Reveal")
    for part in (lock, reveal, count, chart):
        within(teacher, part, 720)
    right_of_buttons = max(b["x"] + b["width"] for b in (lock.bounding_box(), reveal.bounding_box()))
    assert count.bounding_box()["x"] >= right_of_buttons, (count.bounding_box(), right_of_buttons)
    assert chart.bounding_box()["x"] >= right_of_buttons, (chart.bounding_box(), right_of_buttons)


def ranks_real_results_without_grades_and_sees_them_at_the_reveal(teacher, page, number):
    """Rank it best on a real query's results, opened as activity ``number``: the phone ``page`` shows the titles
    with no grade anywhere, is reordered by tapping ▲, is locked and opened again, and after the reveal shows the
    judged grades, the best order and its own NDCG@k (its student the only one to answer)."""
    setup(teacher)
    for choice in ("Rank it best", "A real query's results"):  # each choice drawn before the next is made
        teacher.get_by_text(choice, exact=True).click()
        expect(teacher.get_by_role("radio", name=choice, exact=True)).to_be_checked()
        wait_for_idle(teacher)
    # Seed 003's food search is the source's first entry; its grades hidden.
    expect(teacher.get_by_text("The phones show these results without grades until you reveal.")).to_be_visible()
    teacher.get_by_role("button", name="Open for the class").click()

    expect(page.get_by_text(f"Activity {number}: Rank it best")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Query: 成都美食推荐")).to_be_visible()
    rows = page.locator(".ndcg-card li.row")
    expect(page.locator(".ndcg-card li.row .text")).to_have_text(list(FOOD.labels))
    # No grade anywhere on the phone: no grade chip or box in the list; a row says its position and title only.
    expect(page.locator(".ndcg-card .chip, .ndcg-card select")).to_have_count(0)
    expect(rows).to_have_text([re.compile(rf"^\W*{i}\s*{re.escape(x)}\W*$") for i, x in enumerate(FOOD.labels, 1)])
    expect(page.get_by_text("Grades are hidden until the reveal.")).to_be_visible()
    for part in (page.locator("main"), page.locator(".ndcg-card")):
        assert "Grade" not in part.inner_text().replace("Grades are hidden until the reveal.", "")
    expect(page.get_by_text("Conventions: exponential (gain = 2^grade − 1) gain")).to_be_visible()
    # Every row fits the phone's width, its title wrapped rather than cut, and its buttons are 44 px or more.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    up = page.get_by_role("button", name="Move 成都美食地图 up")
    box = up.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    page.screenshot(path="/tmp/rank_hidden_phone.png", full_page=True)
    page.locator(".ndcg-card ol").screenshot(path="/tmp/rank_hidden_phone_list.png")

    # The best order by tapping: 成都美食地图 up twice, then 成都小吃街 up once.
    best = ["成都火锅大全", "成都美食地图", "成都小吃街", "重庆火锅", "北京烤鸭"]
    for label, after in (
        ("成都美食地图", ["成都火锅大全", "重庆火锅", "成都美食地图", "成都小吃街", "北京烤鸭"]),
        ("成都美食地图", ["成都火锅大全", "成都美食地图", "重庆火锅", "成都小吃街", "北京烤鸭"]),
        ("成都小吃街", best),
    ):
        page.get_by_role("button", name=f"Move {label} up").tap()
        expect(page.locator(".ndcg-card li.row .text")).to_have_text(after)
    page.get_by_role("button", name="Send my order").tap()
    expect(page.get_by_text("Saved. You can change it")).to_be_visible()
    expect(page.get_by_text("You can change your answer until")).to_have_count(0)

    # Locked: the order as a short list, no handle or button left; opened again: the controls are back, and the
    # status says what is true now (the sent order can be changed), not the earlier "Saved".
    teacher.get_by_role("button", name="Lock answers").click()
    expect(page.get_by_text("Answers are locked. Wait for the reveal.")).to_be_visible(timeout=30_000)
    expect(page.locator(".ndcg-card li.row .text")).to_have_text(best)
    expect(page.get_by_role("button", name=re.compile("^Move "))).to_have_count(0)
    expect(page.locator(".ndcg-card li.row .handle")).to_have_count(5)
    for handle in page.locator(".ndcg-card li.row .handle").all():
        expect(handle).to_be_hidden()
    page.screenshot(path="/tmp/rank_hidden_phone_locked.png", full_page=True)
    teacher.get_by_role("button", name="Take answers again").click()
    change = page.get_by_text("You can change your answer until the teacher locks answers.")
    expect(change).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Saved. You can change it")).to_have_count(0)
    expect(page.get_by_role("button", name=f"Move {best[1]} up")).to_be_enabled()

    teacher.get_by_role("button", name="Reveal").click()
    expect(teacher.get_by_text("1 of 1 found the highest NDCG@5, 1.0000")).to_be_visible(timeout=30_000)
    reached = ndcg_at_k([GRADE[x] for x in best], 5, gain="exponential")
    assert reached == pytest.approx(1.0)
    expect(page.get_by_text(f"Your order reaches NDCG@5 = {reached:.4f}")).to_be_visible(timeout=30_000)
    table = page.locator(".ndcg-card p").filter(has_text="Your order, with the judged grades:")
    expect(table).to_be_visible()
    cells = page.locator("table").first.locator("tbody tr")
    expect(cells).to_have_count(5)
    for i, label in enumerate(best):
        expect(cells.nth(i)).to_have_text(re.compile(rf"^\s*{i + 1}\s*{label}\s*{GRADE[label]:g}\s*$"))
    expect(page.get_by_text("A best order: 成都火锅大全 (4) > 成都美食地图 (4) > 成都小吃街 (3)")).to_be_visible()
    page.screenshot(path="/tmp/rank_hidden_phone_revealed.png", full_page=True)


def test_a_class_of_three_phones_runs_five_activities(browser, playwright, app_url):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    asked = reruns_asked(context)
    _, teacher, code, keep = start_room(browser, app_url, context)
    remote = browser.new_context(**playwright.devices["iPhone 13"]).new_page()
    remote.goto(keep)  # the control link, opened on the lecturer's phone
    expect(remote.get_by_text(f"Room {code}: controls")).to_be_visible(timeout=30_000)
    assert "key=" not in remote.url
    phones = [phone(browser, playwright, app_url, code, "Ana")]  # by the room's link
    iphone = playwright.devices["iPhone 13"]
    phones += [join_on_its_page(browser.new_context(**iphone), app_url, code, name) for name in ("李雷", HOSTILE)]
    expect(phones[0].get_by_text("Wait for the teacher to open an activity")).to_be_visible()
    expect(teacher.get_by_test_id("stMetricValue").first).to_have_text("3")  # live, no click

    # 1. Predict the NDCG (the first example: grades 3, 0, 2 at k = 3, NDCG 0.9386). The press of "Open for the
    # class" asks for its setup part's run only, never the page's; Lock, Reveal and the count follow by themselves.
    teacher.get_by_text("An example", exact=True).click()  # the list source Rank it best keeps too
    wait_for_idle(teacher)
    before = len(asked)
    open_activity(teacher)
    expect(teacher.get_by_role("button", name="Lock answers")).to_be_visible()
    expect(answered(teacher)).to_have_text("0 / 3")
    pressed = [(part, timer) for part, timer in asked[before:] if not timer]
    assert pressed and all(part for part, _ in pressed), pressed
    first_screen_beside_the_buttons(teacher)
    for page, guess in zip(phones, ("0.9", "0.95", "0.5"), strict=False):
        expect(page.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()  # appeared by itself
        page.get_by_role("textbox", name="Your estimate of NDCG (0 to 1)").fill(guess)
        send(page)
        expect(answered(teacher)).to_have_text(f"{phones.index(page) + 1} / 3")  # the projector, untouched
    # The histogram's bars, as its text description says them, also changed with nobody clicking.
    expect(teacher.get_by_text("Answers by bin: 0.50–0.55: 1 · 0.90–0.95: 1 · 0.95–1.00: 1")).to_be_visible()
    expect(teacher.get_by_text("0.9386")).to_have_count(0)  # hidden until the reveal
    # The lecturer's phone locks the answers: its Lock on its first screen, nothing sideways.
    lock = remote.get_by_role("button", name="Lock answers")
    expect(lock).to_be_visible()
    assert lock.bounding_box()["y"] < 844
    assert remote.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    lock.tap()
    expect(teacher.get_by_test_id("stMetric").filter(has_text="Answers")).to_contain_text("locked")
    teacher.get_by_role("button", name="Reveal").click()
    expect(teacher.get_by_text("2 of 3 estimates were within 0.05")).to_be_visible()
    expect(phones[0].get_by_text("you were 0.039 away: within 0.05")).to_be_visible()
    expect(phones[2].get_by_text("you were 0.439 away: more than 0.05 away")).to_be_visible()

    # 2. Rank it best: doc C (grade 2) moves above doc B (grade 0), by touch on its button.
    open_activity(teacher, "Rank it best")
    for page in phones[:2]:
        expect(page.get_by_text("Activity 2: Rank it best")).to_be_visible()
        page.get_by_role("button", name="Move doc C up").tap()
        send(page, "Send my order")
    expect(phones[2].get_by_text("Activity 2: Rank it best")).to_be_visible()
    send(phones[2], "Send my order")  # the list as dealt
    expect(answered(teacher)).to_have_text("3 / 3")
    teacher.get_by_role("button", name="Reveal").click()
    expect(teacher.get_by_text("2 of 3 found the highest NDCG@3, 1.0000")).to_be_visible()
    expect(teacher.get_by_text("Most common mistake, made by 1: doc B at position 2")).to_be_visible()
    expect(phones[0].get_by_text("Your order reaches NDCG@3 = 1.0000")).to_be_visible()

    # 3. Which is better? Seed 003's systems, the first pair, under NDCG@5 (the first metric): A.
    open_activity(teacher, "Which is better?")
    for page, vote in zip(phones, ("A", "The same", "B"), strict=False):
        expect(page.get_by_text("Activity 3: Which is better?")).to_be_visible()
        page.get_by_role("radiogroup").get_by_role("radio", name=vote, exact=True).tap()
        expect(page.get_by_role("radio", name=vote, exact=True)).to_have_attribute("aria-checked", "true")
        send(page)
    expect(answered(teacher)).to_have_text("3 / 3")
    teacher.get_by_role("button", name="Reveal").click()
    expect(teacher.get_by_text("1 of 3 votes agree with NDCG@5, which says: A.")).to_be_visible()
    expect(phones[1].get_by_text("the answer is: A")).to_be_visible()
    # A reveal is final: no "Take answers again", no lock; the phone cannot send another vote.
    expect(teacher.get_by_role("button", name="Run it again (new round)")).to_be_visible()
    expect(teacher.get_by_role("button", name="Take answers again")).to_have_count(0)
    expect(teacher.get_by_role("button", name="Lock answers")).to_have_count(0)
    expect(phones[0].get_by_role("button", name="Send")).to_have_count(0)
    # Round 2: the same question again, a round of activity 3; only 李雷 votes, A this time.
    teacher.get_by_role("button", name="Run it again (new round)").click()
    expect(teacher.get_by_text("Activity 3: Which is better? · Round 2")).to_be_visible()
    expect(phones[1].get_by_text("Activity 3: Which is better? · Round 2")).to_be_visible()
    expect(answered(teacher)).to_have_text("0 / 3")
    phones[1].get_by_role("radiogroup").get_by_role("radio", name="A", exact=True).tap()
    expect(phones[1].get_by_role("radio", name="A", exact=True)).to_have_attribute("aria-checked", "true")
    send(phones[1])
    expect(answered(teacher)).to_have_text("1 / 3")
    teacher.get_by_role("button", name="Reveal").click()
    expect(teacher.get_by_text("1 of 1 votes agree with NDCG@5, which says: A.")).to_be_visible()

    # 4. Practice together: seed 2026's first exercise is a DCG term, 3/log2(3 + 1) = 1.5; Ana gets it right.
    practice = practice_activity(2026, 5)
    first = practice.exercises()[0]
    assert first.kind == "dcg_term" and first.answer == 1.5
    assert practice.check("1.5").right and not practice.check("1").right
    open_activity(teacher, "Practice together")
    for page, answer in zip(phones, ("1.5", "1", "1"), strict=True):
        expect(page.get_by_text("Activity 4: Practice together")).to_be_visible()
        page.get_by_role("textbox", name="Your answer").first.fill(answer)
        send(page, "Send my answers")
    expect(answered(teacher)).to_have_text("3 / 3")
    teacher.get_by_role("button", name="Reveal").click()
    # Each phone marks its own answer to exercise 1 (the others, unanswered, show the explanation only).
    expect(phones[0].locator(".ndcg-card .note.success").filter(has_text="Right. The term is")).to_be_visible()
    expect(phones[0].locator(".ndcg-card .note.error")).to_have_count(0)
    for page in phones[1:]:
        # A wrong number is named by its mistake, or said to match none, beside the term's right working.
        wrong = re.compile(r"Not this time\. .*[Tt]he term")
        expect(page.locator(".ndcg-card .note.error").filter(has_text=wrong)).to_be_visible()
        expect(page.locator(".ndcg-card .note.success").filter(has_text="Right.")).to_have_count(0)

    # 5. Rank it best on a real query's results, grades hidden until the reveal: Ana alone answers.
    ranks_real_results_without_grades_and_sees_them_at_the_reveal(teacher, phones[0], 5)

    # The hostile nickname is text on the phone and on the projector; nothing ran, no image was made.
    expect(phones[2].get_by_text(f"You are {HOSTILE}.")).to_be_visible()
    expect(teacher.get_by_text(HOSTILE)).to_have_count(0)  # nicknames are hidden until the teacher shows them
    teacher.get_by_text("Show nicknames").click()
    expect(teacher.get_by_text(HOSTILE)).to_be_visible()
    for page in (teacher, phones[2]):
        assert page.locator("img[src='x']").count() == 0

    # A student's page has no controls, and a forged key gets none either.
    for name in ("Lock answers", "Reveal", "End the room", "Open for the class"):
        expect(phones[0].get_by_role("button", name=name)).to_have_count(0)
    forged = phones[0].context.new_page()
    forged.goto(f"{app_url}/Classroom?room={code}&key={'x' * 43}")
    expect(forged.get_by_text("this link does not control the room", exact=False)).to_be_visible(timeout=30_000)
    for name in ("Lock answers", "Reveal", "End the room"):
        expect(forged.get_by_role("button", name=name)).to_have_count(0)
    # The browser remembers: the join link opened again is the same student, the room link is the teacher's again.
    again = phones[0].context.new_page()
    again.goto(f"{app_url}/Classroom?room={code}")
    expect(again.get_by_text("You are Ana.")).to_be_visible(timeout=30_000)
    reloaded = context.new_page()
    reloaded.goto(f"{app_url}/Classroom?room={code}")
    expect(reloaded.get_by_role("button", name="Prepare the results (CSV)")).to_be_visible(timeout=30_000)

    # The results: every vote of both rounds of activity 3 worded as the phones showed it, a row for each student
    # who did not answer.
    first = download(teacher)
    assert first.suggested_filename == f"ndcg_lab_room_{code}.csv"
    data = first.path().read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    header, *rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert header[:4] == ["Activity", "Round", "Kind", "Query"]
    columns = [header.index(name) for name in ("Round", "Student", "Answer", "Correct answer", "Right")]
    details = header.index("Details")
    votes = [r for r in rows if r[0] == "3"]
    assert all(r[2] == "Which is better?" and r[details].startswith("under NDCG@5; A: 成都3天游攻略:4") for r in votes)
    assert [[r[i] for i in columns] for r in votes] == [
        ["1", "Ana", "A", "A", "yes"],
        ["1", "李雷", "The same", "A", "no"],
        ["1", HOSTILE, "B", "A", "no"],
        ["2", "Ana", "", "A", "no answer"],  # joined, did not answer: a row all the same
        ["2", "李雷", "A", "A", "yes"],
        ["2", HOSTILE, "", "A", "no answer"],
    ]
    # The address served the teacher's download once: asked again without the page, it serves nothing.
    assert "/media/" in first.url
    stranger = playwright.request.new_context()
    try:
        again = stranger.get(first.url)
        assert again.status == 404
        assert "ndcg_lab_room" not in again.headers.get("content-disposition", "")
    finally:
        stranger.dispose()
    second = download(teacher)  # prepared again: the teacher's own download works as before
    assert second.suggested_filename == first.suggested_filename
    assert second.path().read_bytes() == data
    for page in (*phones, remote):
        page.context.close()
    context.close()
