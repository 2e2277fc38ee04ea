"""The commonest mistake on a phone, in Debian's Chromium (iPhone 13, touch), as a lecturer's trial found it: a
student types the list's DCG where its NDCG is asked; the phone saves it (no range message) and at the reveal
names it, their number quoted as typed, in a paragraph of its own; in English and in Chinese. Screenshots of both.

The list: grades 3 2 3 0 1 at k = 5, DCG@5 = 3 + 2/log2(3) + 3/2 + 1/log2(6) = 6.15."""

from math import log2
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_browser_phone_answer_on_the_first_screen import phone_page, store  # noqa: F401 (store: the fixture)

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict

pytestmark = pytest.mark.browser

SHOTS = Path("/work/wt/shots/mistakes")
FIVE = Predict(activity_list(tuple(f"result {i}" for i in range(1, 6)), (3, 2, 3, 0, 1), 5))
TYPED = f"{3 + 2 / log2(3) + 3 / 2 + 1 / log2(6):.2f}"  # 6.15
SAID = {
    "en": ("Send", "Saved.", "DCG given for NDCG", f"Your {TYPED} is the DCG itself ({TYPED}), divided by nothing"),
    "zh": ("提交", "已保存", "把 DCG 当成 NDCG", f"你的 {TYPED} 就是 DCG 本身（{TYPED}），没有除以任何数"),
}


def test_a_phone_that_typed_the_dcg_sees_it_saved_and_named(browser, playwright, app_url, store):  # noqa: F811
    room, key = store.rooms.create()
    store.rooms.open_activity(room.code, key, FIVE)
    pages = {}
    for lang in SAID:
        student = store.students.join(room.code, rules.new_student_id(), f"phone {lang}")
        pages[lang] = page = phone_page(browser, playwright, app_url, room.code, student, lang)
        send, saved, _, _ = SAID[lang]
        page.locator("input.number").fill(TYPED)
        page.get_by_role("button", name=send).tap()
        expect(page.locator(".status")).to_contain_text(saved)
        expect(page.locator("input.number")).to_have_attribute("aria-invalid", "false")
    store.rooms.set_phase(room.code, key, "revealed")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for lang, page in pages.items():
        _, _, label, rebuilt = SAID[lang]
        note = page.locator(".note.warning")
        expect(note).to_contain_text(label, timeout=30_000)
        expect(note).to_contain_text(rebuilt)
        paragraphs = note.locator("p")
        expect(paragraphs.filter(has_text=label)).to_have_count(1)  # one explanation, its own paragraph
        assert paragraphs.count() == 2  # how far it was, then the mistake
        page.screenshot(path=str(SHOTS / f"phone-dcg-named-{lang}.png"), full_page=True)
        page.context.close()
