"""A server that goes away and comes back, and the database under it, in Debian's Chromium, with a server of the
test's own on the test session's PostgreSQL (so a restart of the server keeps the rooms).

PostgreSQL stopped and started again in the middle of an activity: the teacher's page and the phones show a short
notice instead of a traceback, a phone keeps what it typed and is told its answer was not saved, everything comes
back by itself, the answer sent after the restart is stored, and none acknowledged before it is lost.

Then the server itself: while it is away every page shows a short notice in the reader's language, not Streamlit's
developer dialog; when it is back the notice goes by itself and the page works. A teacher's page comes back to the
teacher's controls by itself, never offering "Join" on the way, and a student's phone (its own page, no session)
says it lost the server and carries on with its identity and answer, both without a reload. What the restarted
server kept opens anew too: the control link in a new tab, the phone's link reloaded."""

import re
import time

import pytest
from playwright.sync_api import expect
from test_browser_live_room import open_activity
from test_browser_live_room import start_room as start_room_with_link
from test_browser_projector_view import open_screen

from ndcg_core.classroom.storage import Classroom
from support import empty_database, free_port, join_on_its_page, start_app, stop_app, wait_for_idle
from ui.views.classroom.identity import MEMORY_WAIT_SECONDS

pytestmark = pytest.mark.browser

NOTICE = "#ndcg-connection-notice"
CARD_NOTICE = ".ndcg-card .notice"  # the phone page's own notice (offline, database down)
DATABASE_DOWN = "The classroom's database is not answering"
STREAMLIT_TEXTS = ("Is Streamlit still running", "streamlit run", "Connection error", "not responding")

# Installed in a page before the server goes: records whether a "Join" button or a nickname box is ever in the
# page (a teacher must never be offered them), and a marker a reload would lose.
WATCH_JOIN = """() => {
  window.__stillThisPage = true;
  window.__sawJoin = false;
  const look = () => {
    const join = [...document.querySelectorAll('button')].some((b) => /^(Join|加入)$/.test(b.innerText.trim()));
    const nickname = document.querySelector('input[aria-label^="Nickname"], input[aria-label^="昵称"]');
    if (join || nickname) window.__sawJoin = true;
  };
  new MutationObserver(look).observe(document.body, { subtree: true, childList: true });
  look();
}"""


@pytest.fixture
def server(postgres_cluster, tmp_path):
    """Start, stop and start again the app on one port, over the session's PostgreSQL (emptied first; its store
    tries again for 2 s, not 10, before a page says the database is not answering). The cluster is started again
    afterwards if the test left it stopped."""
    empty_database(postgres_cluster.url)

    class Server:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        cluster = postgres_cluster
        log = open(tmp_path / "server.log", "w")  # noqa: SIM115 (closed below)
        process = None

        def start(self):
            env = {"NDCG_LAB_DATABASE_URL": postgres_cluster.url, "NDCG_LAB_DB_RETRY_SECONDS": "2"}
            self.process = start_app(self.port, self.log, env=env)

        def stop(self):
            if self.process is not None:
                stop_app(self.process)
                self.process = None

    s = Server()
    s.start()
    yield s
    s.stop()
    s.log.close()
    if not (postgres_cluster.datadir / "postmaster.pid").exists():
        postgres_cluster.start()


def settle(page):
    """Let a page finish loading Streamlit's parts: a server stopped while it still loads them leaves it broken
    for good (the browser keeps a failed module load), which no class's restart does to a page open a while."""
    wait_for_idle(page)
    page.wait_for_load_state("networkidle")


def expect_no_streamlit_dialog(page):
    # Streamlit opens its dialog after some failed pings (about three seconds): it is in the page, never seen.
    page.wait_for_selector("[data-testid=stDialog]", state="attached", timeout=30_000)
    expect(page.get_by_test_id("stDialog")).to_be_hidden()
    for text in STREAMLIT_TEXTS:
        for match in page.get_by_text(text).all():
            expect(match).to_be_hidden()
    expect(page.get_by_test_id("stConnectionStatus")).to_be_hidden()


def start_room(browser, url, context=None):
    """A teacher's room with its first activity open (in ``context``, else a new desktop browser); the teacher's
    page, the room's code and the control link."""
    _, teacher, code, keep = start_room_with_link(browser, url, context)
    teacher.get_by_text("An example", exact=True).click()  # grades 3, 0, 2 at k = 3: NDCG 0.9386
    open_activity(teacher)
    expect(teacher.get_by_role("button", name="Reveal")).to_be_visible()
    return teacher, code, keep


def answered(teacher):
    return teacher.get_by_test_id("stMetric").filter(has_text="Answered").get_by_test_id("stMetricValue")


def no_traceback(page):
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_a_database_restart_then_a_server_restart_are_notices_and_every_page_comes_back_with_every_answer(
    browser, playwright, server
):
    """One stop and one start of the database, then of the server, for every page: the Playground on a desktop and
    Learn in Chinese on a phone, a teacher's control page and projector view with a room, and two students' phone
    pages. Three browsers: a desktop one (the Playground, then the teacher's tabs: Streamlit's front end loaded
    once), a phone (Learn, then Ana's own page, joined on the phones' join page) and Bo's phone."""
    desk = browser.new_context(viewport={"width": 1280, "height": 720})
    desktop = desk.new_page()
    desktop.goto(f"{server.url}/Playground")
    expect(desktop.get_by_text("NDCG@5").first).to_be_visible(timeout=30_000)
    handset = browser.new_context(**playwright.devices["iPhone 13"])
    learner = handset.new_page()
    learner.goto(f"{server.url}/Learn?lang=zh")
    expect(learner.get_by_role("heading", level=1)).to_be_visible(timeout=30_000)

    teacher, code, keep = start_room(browser, server.url, desk)
    screen = open_screen(teacher)  # the projector view, in a second tab of the teacher's browser
    expect(screen.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()
    phone = join_on_its_page(handset, server.url, code, "Ana")  # the phone's own page, which holds no session
    bo = join_on_its_page(browser.new_context(**playwright.devices["iPhone 13"]), server.url, code, "Bo")
    estimate = "Your estimate of NDCG (0 to 1)"
    phone.get_by_role("textbox", name=estimate).fill("0.9")
    phone.get_by_role("button", name="Send").tap()
    expect(phone.get_by_text("Saved. You can change it")).to_be_visible(timeout=30_000)  # acknowledged
    expect(answered(teacher)).to_have_text("1 / 2", timeout=30_000)

    # The database goes: a notice on the teacher's page and on each phone, by themselves; Bo's answer is not saved,
    # and what Bo typed stays.
    server.cluster.stop()
    expect(teacher.get_by_text(DATABASE_DOWN)).to_be_visible(timeout=30_000)  # the live panel, by itself
    for page in (phone, bo):
        expect(page.locator(CARD_NOTICE)).to_have_text(re.compile(f"^{DATABASE_DOWN}"))  # the card's, by itself
    bo.get_by_role("textbox", name=estimate).fill("0.5")
    bo.get_by_role("button", name="Send").tap()
    expect(bo.get_by_text("this was not saved; try again in a moment")).to_be_visible(timeout=30_000)
    expect(bo.get_by_role("textbox", name=estimate)).to_have_value("0.5")  # what was typed stays
    teacher.screenshot(path="/tmp/ndcg-db-outage-teacher.png")
    bo.screenshot(path="/tmp/ndcg-db-outage-phone.png")
    for page in (teacher, phone, bo):
        no_traceback(page)
    # It comes back: the notices go by themselves, and Bo's answer sent again is saved and counted.
    server.cluster.start()
    expect(teacher.get_by_text(DATABASE_DOWN)).to_have_count(0, timeout=30_000)
    for page in (phone, bo):
        expect(page.locator(CARD_NOTICE)).to_be_hidden(timeout=30_000)
    bo.get_by_role("button", name="Send").tap()
    expect(bo.get_by_text("Saved. You can change it")).to_be_visible(timeout=30_000)
    expect(answered(teacher)).to_have_text("2 / 2", timeout=30_000)
    bo.screenshot(path="/tmp/ndcg-db-back-phone.png")
    for page in (teacher, phone, bo):
        no_traceback(page)
    bo.context.close()

    teacher_url = teacher.url
    for page in (desktop, learner, teacher, screen):
        settle(page)
        expect(page.locator(NOTICE)).to_be_hidden()  # in the page, out of sight while connected
    for page in (teacher, screen, phone):
        page.evaluate(WATCH_JOIN)
        assert page.evaluate("window.__sawJoin") is False

    server.stop()  # every session is gone with the process; the database stays
    expect(desktop.locator(NOTICE)).to_be_visible(timeout=10_000)
    expect(desktop.locator(NOTICE)).to_contain_text("Reconnecting…")
    expect(learner.locator(NOTICE)).to_be_visible(timeout=10_000)
    expect(learner.locator(NOTICE)).to_contain_text("正在重新连接…")
    expect(learner.locator(NOTICE)).not_to_contain_text("Reconnecting")
    expect(teacher.locator(NOTICE)).to_be_visible(timeout=10_000)
    # The phone's page says it lost the server, in place of nothing happening, and keeps what it showed.
    expect(phone.locator(CARD_NOTICE)).to_contain_text("Reconnecting…", timeout=10_000)
    expect(phone.get_by_text("Your estimate: 0.90")).to_be_visible()
    for page in (desktop, learner):
        expect_no_streamlit_dialog(page)
    desktop.screenshot(path="/tmp/reconnect-notice-desktop.png")
    learner.screenshot(path="/tmp/reconnect-notice-phone.png")
    server.start()
    back = time.monotonic()

    # Within 10 seconds of the server answering again, with no reload and no "Join" on the way: the notice goes
    # when the new session has run the page, which has the teacher's controls again.
    expect(teacher.locator(NOTICE)).to_be_hidden(timeout=10_000)
    expect(teacher.get_by_role("button", name="Reveal")).to_be_enabled(timeout=10_000)
    controls = time.monotonic()  # the new session has run: its wait for the browser's memory began before this
    expect(teacher.get_by_role("button", name="Lock answers")).to_be_visible()
    assert controls - back < 10
    expect(answered(teacher)).to_have_text("2 / 2")
    expect(phone.locator(CARD_NOTICE)).to_be_hidden(timeout=10_000)
    expect(phone.get_by_text("You are Ana.")).to_be_visible()
    expect(phone.get_by_text("Your estimate: 0.90")).to_be_visible()
    for page in (desktop, learner):
        expect(page.locator(NOTICE)).to_be_hidden(timeout=15_000)
        expect(page.get_by_test_id("stDialog")).to_have_count(0)
    # The Playground works: a new session on the restarted server, and its buttons act.
    desktop.get_by_role("button", name="Worst order").click()
    expect(desktop.get_by_text("NDCG@5").first).to_be_visible()
    expect(desktop.get_by_test_id("stMetricValue").first).not_to_have_text("0.9724", timeout=15_000)
    # The projector view came back by itself too: the same key from the browser's memory, no join form.
    expect(screen.locator(NOTICE)).to_be_hidden(timeout=10_000)
    expect(screen.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()
    expect(screen.get_by_test_id("stMetric").filter(has_text="Answered")).to_contain_text("2 / 2")
    # Longer than a page waits for the browser's memory before it offers the join form (counted from the controls'
    # return, the checks above meanwhile): still none.
    left = controls + MEMORY_WAIT_SECONDS + 1.5 - time.monotonic()
    if left > 0:
        teacher.wait_for_timeout(left * 1000)
    expect(teacher.get_by_role("button", name="Reveal")).to_be_enabled()
    for page in (teacher, screen, phone):
        assert page.evaluate("window.__stillThisPage") is True  # never reloaded
        assert page.evaluate("window.__sawJoin") is False
    assert teacher.url == teacher_url and "key=" not in teacher.url
    # What the restarted server kept, opened anew: the control link in a new tab has the controls and the count,
    # and the phone's own link, reloaded, the student's answer.
    again = teacher.context.new_page()
    again.goto(keep)
    expect(answered(again)).to_have_text("2 / 2", timeout=30_000)
    assert "key=" not in again.url
    again.close()
    reloaded = phone.context.new_page()
    reloaded.goto(phone.url)
    expect(reloaded.get_by_text("Your estimate: 0.90")).to_be_visible(timeout=30_000)
    reloaded.close()

    # Both pages work on the new server: the teacher reveals, the phone follows by itself.
    teacher.get_by_role("button", name="Reveal").click()
    expect(teacher.get_by_text("1 of 2 estimates were within 0.05")).to_be_visible(timeout=15_000)
    expect(phone.get_by_text("you were 0.039 away: within 0.05")).to_be_visible(timeout=15_000)
    # Every acknowledged answer is stored: Ana's from before the database's restart, Bo's from after it.
    store = Classroom(server.cluster.url)
    try:
        answers = store.answers.for_activity(store.rooms.get(code).current.id)
        assert [(a.nickname, a.value) for a in answers] == [("Ana", 0.9), ("Bo", 0.5)]
    finally:
        store.close()
