"""A student on an iPhone 13 (touch, a Chinese browser) in Debian's Chromium joins from the link the projector
shows, which under ``serve.py`` is the phones' own join page (``/join/CODE``), not a Streamlit page: in the
browser's language, the nickname's limit said before anything is typed, a nickname past the limit kept whole and
refused in Chinese, then the phone's own page; the link opened again goes straight back to that phone. The room is
made by the store, as a teacher's page makes it: the phone's pages are what is looked at. (That the teacher's page
and the projector under ``serve.py`` show ``/join/CODE`` as the link, in text and QR codes, is
``tests/browser/test_browser_lesson.py``'s and ``tests/browser/test_browser_replica_killed_mid_class.py``'s; the
link's form, ``tests/core/test_join_link_phones_can_open.py``'s.)"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom import rules
from ndcg_core.classroom.joining import JOIN_ROUTE
from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser

SHOTS = Path("/work/wt/shots/join")
LONG = "Alexandra-Konstantinopolous"  # 27 characters


def test_a_chinese_phone_joins_on_the_join_page_and_the_link_again_is_the_same_student(browser, playwright, app_url):
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, _ = store.rooms.create()
    code = room.code
    path = f"/{JOIN_ROUTE}/{code}"  # the join link's path, as the projector shows it
    phone = browser.new_context(**playwright.devices["iPhone 13"], locale="zh-CN")
    page = phone.new_page()
    loads = []
    page.on("request", lambda r: loads.append(r.url) if r.resource_type in ("document", "script") else None)
    page.goto(app_url + path)  # the test's server listens on loopback: the link's path, opened there
    expect(page.get_by_role("heading", name="加入房间")).to_be_visible()
    box = page.get_by_role("textbox", name="昵称（可不填）")
    expect(page.get_by_text(f"最多 {rules.MAX_NICKNAME} 个字符")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "join-page-zh.png"))
    box.tap()
    page.keyboard.type(LONG)
    page.get_by_role("button", name="加入").tap()
    expect(page.get_by_role("alert")).to_contain_text(f"昵称有 {len(LONG)} 个字符；最多 {rules.MAX_NICKNAME} 个")
    expect(box).to_have_value(LONG)  # kept, to shorten
    box.fill("Ana")
    page.get_by_role("button", name="加入").tap()
    page.wait_for_url(re.compile(rf"/phone/{code}\?me=[\w-]+&lang=zh$"))
    expect(page.get_by_text("你的昵称是 Ana。")).to_be_visible()
    page.screenshot(path=str(SHOTS / "joined-phone-zh.png"))
    assert not any("/static/js/" in url for url in loads)  # no Streamlit front end loaded to join
    me = re.search(r"me=([\w-]+)", page.url).group(1)
    again = phone.new_page()
    again.goto(app_url + path)  # the link opened again: this browser's student, not a new one
    again.wait_for_url(re.compile(rf"/phone/{code}\?me={me}&lang=zh$"))
    expect(again.get_by_text("你的昵称是 Ana。")).to_be_visible()
    assert [student.nickname for student in store.students.roster(code)] == ["Ana"]  # not two
    phone.close()
    store.close()
