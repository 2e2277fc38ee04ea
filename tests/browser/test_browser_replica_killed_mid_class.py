"""One deployment (``python -m deploy up``: two app processes and a spare behind nginx on one PostgreSQL) for two
browser tests in Debian's Chromium, the one that kills nothing first, each browser held on a replica by nginx's
affinity cookie:

The app through nginx, under its Content-Security-Policy: the Playground's sortable list and the Classroom's control
page (its QR code, its live part) work, and the browser reports no violation of the policy. When the launcher's file
says one of two processes is restarting, the teacher's control page, in English and in Chinese, says so at its part's
next look, and stops once the file says two of two. (That a killed replica makes the launcher write so is
``tests/deploy/test_a_killed_replica_answers_again.py``'s; the notice's text,
``tests/ui/test_control_page_says_when_the_room_runs_on_fewer_processes.py``'s: a kill here only raced the restart
against the part's 5 s look on a loaded machine.)

A class across the two replicas, and the replica serving the teacher killed in the middle of it, each browser checked
by the ``X-Replica`` of every response. The teacher's control page and projector
view on replica 1, a second projector view (the teacher's other device) on replica 2, four phones (iPhone 13, touch),
two on each replica.

Before the kill, answers cross the replicas (issue 26: "a teacher served by process 1 sees the answers of students
served by process 2"): the join and the answer of a phone on replica 2 reach the teacher's pages on replica 1 through
the database's notices, before their live part's own re-read (``QUIET_SECONDS`` after the teacher's last action)
could have brought them.

After every answer is acknowledged, replica 1 is killed (SIGKILL to its process group); one kill, seen by everyone:

- the phones of the killed replica hold no session there (they joined on their own join page, ``/join/CODE``, and
  never opened a Streamlit page): their next requests go through nginx to replica 2 (the cookie now names it),
  without a reload; the same student, the acknowledged answer still shown, and a new answer saved and counted;
- the teacher's pages come back by themselves: Streamlit's page reconnects its websocket, nginx sends it to replica
  2, where a new session draws the page again from what the store and the browser keep (the room in the address, the
  key in the browser's storage), the control page with its controls (never offering "Join"), the projector without
  them; they keep control (the reveal and the next activity reach every phone) and keep updating;
- the projector view on replica 2 never loses its connection, and every change reaches it;
- nobody sees a traceback or Streamlit's connection dialog.

The times from the kill to each moved phone's first answer from replica 2 and to the teacher's controls are printed,
not asserted (``benchmarks/load_live_room.py`` measures them)."""

import os
import re
import shutil
import signal
import time

import pytest
from playwright.sync_api import expect
from test_browser_live_room import answered, open_activity, send, start_room
from test_browser_playground import open_playground
from test_browser_projector_view import open_screen
from test_browser_reconnect import WATCH_JOIN

from deploy import HEALTH, answers
from ndcg_core.classroom.processes import Processes, write_processes
from support import deployment, join_on_its_page, pin, wait_for_idle, wait_until
from ui.views.classroom.live import QUIET_SECONDS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.deploy,
    pytest.mark.skipif(shutil.which("nginx", path="/usr/sbin:/usr/bin") is None, reason="nginx is not installed"),
]

SHOTS = os.environ.get("NDCG_LAB_SHOTS")  # a folder for the screenshots a person looks at (none: not taken)
NOTICE = "#ndcg-connection-notice"
# Nicknames, the replica each phone starts on, its first answer and its answer after the kill (Ana's first answer is
# changed before the kill, to 0.45).
CLASS = [("Ana", 2, "0.9", "0.5"), ("Bo", 1, "0.8", "0.3"), ("李雷", 1, "0.7", "0.1"), ("Cy", 2, "0.6", None)]
CONNECTED = "() => document.querySelector('[data-testid=stApp]')?.dataset.testConnectionState === 'CONNECTED'"

# Installed in a page before the kill: whether its connection was ever lost, whatever a user must never see
# (a traceback, Streamlit's exception box or its connection dialog's texts, visible), and a marker a reload loses.
WATCH = """() => {
  window.__stillThisPage = true;
  window.__lost = false;
  window.__bad = [];
  const look = () => {
    const state = document.querySelector('[data-testid=stApp]')?.getAttribute('data-test-connection-state');
    if (state && state !== 'CONNECTED') window.__lost = true;
    if (document.querySelector('[data-testid=stException]')) window.__bad.push('stException');
    const text = document.body.innerText;  // what is rendered: Streamlit's dialog, hidden by the app, is not
    for (const s of ['Traceback', 'Connection error', 'Is Streamlit still running', 'not responding']) {
      if (text.includes(s)) window.__bad.push(s);
    }
  };
  new MutationObserver(look).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-test-connection-state'],
  });
  look();
}"""

# A phone page: the card's notice (offline, database down, room gone) is hidden.
CARD_NOTICE = ".ndcg-card .notice"


# Installed in every page before its scripts: each report of a blocked script, style, frame or connection.
WATCH_POLICY = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""
MISSING = {
    "en": "Running on 1 of 2 processes; a process is restarting.",
    "zh": "当前在 2 个进程中的 1 个上运行；有一个进程正在重启",
}


def violations(page):
    return page.evaluate("window.__violations")


@pytest.fixture(scope="module")
def two_replicas():
    """The module's deployment: (the launcher's ``Deployment``, nginx's URL). The first test kills nothing; the
    second kills replica 1, which the spare replaces."""
    with deployment(2) as running:
        yield running


def test_the_app_works_under_the_policy_and_the_control_page_tells_of_a_missing_process(
    browser, tmp_path, two_replicas
):
    running, url = two_replicas
    desk = browser.new_context(viewport={"width": 1280, "height": 720})
    desk.add_init_script(WATCH_POLICY)
    pin(desk, url, 1)
    reported = []
    playground = desk.new_page()
    playground.on("console", lambda m: reported.append(m.text) if "Content Security Policy" in m.text else None)
    reply = playground.goto(url + "/")
    assert "frame-ancestors 'self'" in reply.headers["content-security-policy"]
    assert (reply.headers["x-frame-options"], reply.headers["referrer-policy"]) == ("SAMEORIGIN", "no-referrer")
    open_playground(playground, url)  # the sortable list drawn, NDCG computed: the component's script ran

    _, teacher, code, control_link = start_room(browser, url, desk)
    teacher.on("console", lambda m: reported.append(m.text) if "Content Security Policy" in m.text else None)
    teacher.get_by_text("Open the controls on another device").click()
    qr = teacher.locator("[data-testid=stImage] img").last
    expect(qr).to_be_visible()
    assert qr.evaluate("(img) => img.complete && img.naturalWidth > 0")  # the QR code's image loaded
    teacher.keyboard.press("Escape")

    chinese = desk.new_page()
    chinese.goto(control_link.replace("&lang=en", "&lang=zh"))
    expect(chinese.get_by_text(f"房间 {code}", exact=False).first).to_be_visible()
    for page in (teacher, chinese):
        wait_for_idle(page)
        assert not page.get_by_text(MISSING["en"]).count() and not page.get_by_text(MISSING["zh"]).count()

    write_processes(running.processes_file, Processes(started=2, alive=1, restarting=1))
    try:
        expect(chinese.get_by_text(MISSING["zh"])).to_be_visible(timeout=20_000)
        chinese.screenshot(path=str(tmp_path / "deploy-control-page-missing-process-zh.png"))
        expect(teacher.get_by_text(MISSING["en"])).to_be_visible(timeout=20_000)
        teacher.screenshot(path=str(tmp_path / "deploy-control-page-missing-process.png"))
    finally:  # the module's next test runs on this deployment, whose file must say what is true again
        write_processes(running.processes_file, Processes(started=2, alive=2))  # back: gone at the part's next look
    expect(teacher.get_by_text(MISSING["en"])).to_have_count(0, timeout=20_000)
    expect(chinese.get_by_text(MISSING["zh"])).to_have_count(0, timeout=20_000)

    for page in (playground, teacher, chinese):
        assert violations(page) == [], violations(page)
        expect(page.get_by_test_id("stException")).to_have_count(0)
    assert reported == []


def cookie(context):
    return {c["name"]: c["value"] for c in context.cookies()}.get("ndcg_replica")


def estimate(page):
    return page.get_by_role("textbox", name="Your estimate of NDCG (0 to 1)")


def replicas_answering(context):
    """The ``X-Replica`` of every response the context's pages get from now on (a list that grows)."""
    seen = []
    context.on("response", lambda response: seen.append(response.headers.get("x-replica")))
    return seen


def before_the_quiet_read(acted):
    """An expect's timeout: what remains until the pages' live parts, which read the room anew after the teacher's
    action (clicked at ``acted``, time.monotonic(), and so read after it), would read it again by themselves."""
    return max(1.0, (QUIET_SECONDS - (time.monotonic() - acted)) * 1000)


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"replica-killed-{name}.png"))


def count_on(page):
    return page.get_by_test_id("stMetric").filter(has_text="Answered")


def test_a_class_across_two_replicas_loses_no_student_no_answer_and_no_control_when_one_is_killed(
    browser, playwright, two_replicas
):
    running, url = two_replicas
    # Both replicas up (a first try of this test, run again, may have killed one a moment ago).
    assert wait_until(lambda: all(answers(f"http://127.0.0.1:{port}{HEALTH}") for port in running.ports), 120)
    desk = browser.new_context(viewport={"width": 1280, "height": 720})
    pin(desk, url, 1)
    seen = {"desk": replicas_answering(desk)}
    _, teacher, code, keep = start_room(browser, url, desk)
    screen = open_screen(teacher)  # a second tab of the teacher's browser: the same cookie, the same replica
    other = browser.new_context(viewport={"width": 1280, "height": 720})
    pin(other, url, 2)
    seen["other"] = replicas_answering(other)
    far = other.new_page()  # the projector view on the teacher's other device, on replica 2
    key = re.search(r"#key=([\w-]+)", keep)[1]
    far.goto(f"{url}/Classroom?room={code}&key={key}&view=screen")
    expect(far.get_by_text("Join with a phone")).to_be_visible(timeout=30_000)

    phones = []
    for nickname, replica, _, _ in CLASS:
        context = browser.new_context(**playwright.devices["iPhone 13"])
        pin(context, url, replica)
        seen[nickname] = replicas_answering(context)
        phones.append(join_on_its_page(context, url, code, nickname))
    ana = phones[0]
    expect(ana.get_by_text("Wait for the teacher to open an activity")).to_be_visible()
    # The joins, two of them stored by replica 2, counted on replica 1's pages.
    for page in (teacher, screen, far):
        expect(page.get_by_test_id("stMetric").filter(has_text="Students in the room")).to_contain_text("4")

    # Replica 1 opens the activity; the phones on replica 2 follow by themselves; an answer from there reaches
    # the teacher's pages on replica 1 before their own re-read could have brought it.
    teacher.get_by_text("An example", exact=True).click()  # grades 3, 0, 2 at k = 3
    acted = time.monotonic()
    open_activity(teacher)
    expect(ana.get_by_text("Activity 1: Predict the NDCG")).to_be_visible()
    estimate(ana).fill(CLASS[0][2])
    send(ana)
    expect(answered(teacher)).to_have_text("1 / 4", timeout=before_the_quiet_read(acted))
    expect(count_on(screen)).to_contain_text("1 / 4", timeout=before_the_quiet_read(acted))
    for page, (_, _, first, _) in zip(phones[1:], CLASS[1:], strict=True):
        estimate(page).fill(first)
        send(page)
        expect(page.get_by_text(f"Your estimate: {float(first):.2f}")).to_be_visible()
    expect(answered(teacher)).to_have_text("4 / 4")
    for page in (screen, far):
        expect(count_on(page)).to_contain_text("4 / 4")

    # A changed answer, not only a count: the histogram's text moves to the new bin. The nicknames shown first, a
    # teacher's action: both pages read the room anew, and the bound starts again.
    acted = time.monotonic()
    teacher.get_by_text("Show nicknames").click()
    for page in (teacher, screen):
        roster = page.get_by_text(re.compile(r"(^| · )Ana( · |$)"))  # the nicknames, one line
        expect(roster).to_be_visible(timeout=before_the_quiet_read(acted))
    estimate(ana).fill("0.45")
    send(ana)
    expect(ana.get_by_text("Your estimate: 0.45")).to_be_visible()
    bins = "Answers by bin: 0.45–0.50: 1 · 0.60–0.65: 1 · 0.70–0.75: 1 · 0.80–0.85: 1"
    for page in (teacher, screen):
        expect(page.get_by_text(bins)).to_be_attached(timeout=before_the_quiet_read(acted))
    expect(far.get_by_text(bins)).to_be_attached()

    # Each browser was where its cookie said, for every response (page, scripts, health checks) and still is.
    wanted = {"desk": "1", "other": "2", **{nickname: str(replica) for nickname, replica, _, _ in CLASS}}
    for who, replica in wanted.items():
        assert set(filter(None, seen[who])) == {replica}, (who, seen[who])
    assert [cookie(c) for c in (desk, other, *(p.context for p in phones))] == list(wanted.values())
    shot(teacher, "teacher-before")
    shot(ana, "phone-before")
    for page in (teacher, screen, far):
        wait_for_idle(page)
        page.wait_for_load_state("networkidle")  # every part of Streamlit loaded, as on a page open a while
    for page in (teacher, screen, far, *phones):
        page.evaluate(WATCH)
    for page in (teacher, screen):
        page.evaluate(WATCH_JOIN)

    victim = running.apps[0]  # replica 1, as the launcher numbers them
    killed = time.monotonic()
    os.killpg(victim.pid, signal.SIGKILL)
    victim.wait(timeout=10)
    moved = [(page, nickname) for page, (nickname, replica, _, _) in zip(phones, CLASS, strict=True) if replica == 1]

    # Each phone of the dead replica: the time from the kill until replica 2 answers it (nginx moves its cookie).
    reconnect = {}
    deadline = killed + 60
    while len(reconnect) < len(moved) and time.monotonic() < deadline:
        for page, nickname in moved:
            if nickname not in reconnect and cookie(page.context) == "2":
                reconnect[nickname] = time.monotonic() - killed
        ana.wait_for_timeout(100)
    for nickname, seconds in reconnect.items():
        print(f"phone {nickname}: answered by replica 2 {seconds:.2f} s after replica 1 was killed")
    assert sorted(reconnect) == sorted(n for _, n in moved), reconnect

    # The teacher's pages come back by themselves, on replica 2: the control page with its controls, the
    # projector without them, and the class's answers as they were.
    reveal = teacher.get_by_role("button", name="Reveal")
    for page in (teacher, screen):
        page.wait_for_function("() => window.__lost === true", timeout=30_000)  # it did lose its server
        page.wait_for_function(CONNECTED, timeout=60_000)  # and reconnected by itself, with no click
    wait_for_idle(teacher, 60_000)  # the new session's first run, drawn from the store and the browser's memory
    expect(reveal).to_be_enabled(timeout=60_000)
    print(f"control page: its controls back {time.monotonic() - killed:.2f} s after replica 1 was killed")
    expect(count_on(screen)).to_contain_text("4 / 4", timeout=60_000)
    print(f"projector view: the count back {time.monotonic() - killed:.2f} s after replica 1 was killed")
    expect(answered(teacher)).to_have_text("4 / 4")
    expect(screen.get_by_role("button", name="Reveal")).to_have_count(0)
    for page in (teacher, screen):
        wait_for_idle(page)
        expect(page.locator(NOTICE)).to_be_hidden()
    assert cookie(desk) == "2"
    shot(teacher, "control")
    shot(screen, "projector")

    # The same students, their acknowledged answers, all on replica 2 now.
    for page, (nickname, _, first, _) in zip(phones, CLASS, strict=True):
        expect(page.get_by_text(f"You are {nickname}.")).to_be_visible()
        shown = "0.45" if page is ana else f"{float(first):.2f}"
        expect(page.get_by_text(f"Your estimate: {shown}")).to_be_visible()
        assert cookie(page.context) == "2", (nickname, page.context.cookies())
    moved[0][0].evaluate("document.querySelectorAll('*').forEach((e) => { e.scrollTop = 0; })")  # its top
    shot(moved[0][0], "phone-recovered")

    # They answer again, the moved phones and the others; every teacher's page gets the new answers.
    for page, (_, _, _, again) in zip(phones, CLASS, strict=True):
        if again is not None:
            estimate(page).fill(again)
            page.get_by_role("button", name="Send").tap()
            expect(page.get_by_text(f"Your estimate: {float(again):.2f}")).to_be_visible()
            expect(page.get_by_text("Saved. You can change it")).to_be_visible()
    bins = "Answers by bin: 0.10–0.15: 1 · 0.30–0.35: 1 · 0.50–0.55: 1 · 0.60–0.65: 1"
    for page in (teacher, screen, far):
        expect(page.get_by_text(bins)).to_be_attached(timeout=30_000)
    expect(answered(teacher)).to_have_text("4 / 4")

    # The teacher keeps control: the reveal reaches both projectors and the phones; the next activity every
    # phone, and an answer from a moved phone is counted.
    reveal.click()
    for page in (screen, far):
        expect(page.get_by_text("The true NDCG is")).to_be_visible(timeout=30_000)
    for page in phones:
        expect(page.get_by_text("0.9386").first).to_be_visible(timeout=30_000)
    open_activity(teacher, "Rank it best")
    for page in (screen, far, *phones):
        expect(page.get_by_text("Activity 2: Rank it best")).to_be_visible(timeout=30_000)
    send(moved[0][0], "Send my order")
    expect(answered(teacher)).to_have_text("1 / 4")
    shot(screen, "projector-next")
    shot(moved[1][0], "phone-next-activity")

    for page in (teacher, screen, far, *phones):
        assert page.evaluate("window.__bad") == [], page.url
        assert page.evaluate("window.__stillThisPage") is True, page.url  # never reloaded
        expect(page.get_by_test_id("stDialog")).to_have_count(0)
    for page in (teacher, screen):
        assert page.evaluate("window.__sawJoin") is False  # a teacher is never offered Join on the way
    for page in (teacher, screen, far):
        expect(page.locator(NOTICE)).to_be_hidden()
    for page in phones:
        expect(page.locator(CARD_NOTICE)).to_be_hidden()
    assert far.evaluate("window.__lost") is False  # the page on replica 2 never lost its connection
    for page in phones:
        page.context.close()
    other.close()
    desk.close()
