"""The app through ``python -m deploy up``'s nginx in Debian's Chromium, under its Content-Security-Policy: the
Playground's sortable list and the Classroom's control page (its QR code, its live part) work, and the browser
reports no violation of the policy. When the launcher's file says one of two processes is restarting, the teacher's
control page, in English and in Chinese, says so at its part's next look, and stops once the file says two of two.
(That a killed replica makes the launcher write so is ``tests/deploy/test_a_killed_replica_answers_again.py``'s; the
notice's text, ``tests/ui/test_control_page_says_when_the_room_runs_on_fewer_processes.py``'s: a kill here only
raced the restart against the part's 5 s look on a loaded machine.)"""

import shutil

import pytest
from playwright.sync_api import expect
from test_browser_live_room import start_room
from test_browser_playground import open_playground

from ndcg_core.classroom.processes import Processes, write_processes
from support import deployment, pin, wait_for_idle

pytestmark = [
    pytest.mark.browser,
    pytest.mark.deploy,
    pytest.mark.skipif(shutil.which("nginx", path="/usr/sbin:/usr/bin") is None, reason="nginx is not installed"),
]

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


def test_the_app_works_under_the_policy_and_the_control_page_tells_of_a_missing_process(browser, tmp_path):
    with deployment(2, spare=False) as (running, url):
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
        expect(chinese.get_by_text(MISSING["zh"])).to_be_visible(timeout=20_000)
        chinese.screenshot(path=str(tmp_path / "deploy-control-page-missing-process-zh.png"))
        expect(teacher.get_by_text(MISSING["en"])).to_be_visible(timeout=20_000)
        teacher.screenshot(path=str(tmp_path / "deploy-control-page-missing-process.png"))
        write_processes(running.processes_file, Processes(started=2, alive=2))  # back: gone at the part's next look
        expect(teacher.get_by_text(MISSING["en"])).to_have_count(0, timeout=20_000)
        expect(chinese.get_by_text(MISSING["zh"])).to_have_count(0, timeout=20_000)

        for page in (playground, teacher, chinese):
            assert violations(page) == [], violations(page)
            expect(page.get_by_test_id("stException")).to_have_count(0)
        assert reported == []
