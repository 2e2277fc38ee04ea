"""A class predicts an NDCG in Debian's Chromium and is told its mistakes: three students answer with three different
mistakes (two on phones, iPhone 13, touch, one in Chinese; the third's estimate sent through the store), the reveal
names each phone's mistake on its card, the projector (1280x720) groups the class by mistake in labelled bars; "Vote
again" runs round 2, and its reveal shows round 1 beside it, both rounds' figures on a 1280x720 projector without
scrolling (and at 1920x1080). The teacher's Reveal and Vote again are the store's, as the control page calls them
(the buttons are pressed in test_browser_lesson.py). What each phone says for each estimate, in English and Chinese,
and the groups' and rounds' figures are pinned without a browser in
tests/ui/test_predict_names_the_class_s_mistakes.py. Screenshots of the projector at both sizes and of the phones in
English and Chinese, at each reveal.

The list: grades 0 1 0 1 at k = 3 and a missed judged result of grade 1: NDCG@3 = (1/log2(3)) / (1 + 1/log2(3) +
1/log2(4)) = 0.30; the DCG itself is 0.63, the ideal of the list alone gives 0.39, the list summed to 4 gives 0.50."""

from math import log2
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_browser_live_room import answered, phone
from test_browser_projector_reveal_fits import within

from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser

SHOTS = Path("/work/wt/shots/classmistakes")
SPEC = activity_list(("doc A", "doc B", "doc C", "doc D"), (0, 1, 0, 1), 3, pool=(1,))
DCG = 1 / log2(3)
IDCG = 1 + 1 / log2(3) + 1 / log2(4)
NO_NORMALISATION = f"{DCG:.2f}"
IDEAL_FROM_LIST = f"{DCG / (1 + 1 / log2(3)):.2f}"
LIST_NOT_CUT = f"{(1 / log2(3) + 1 / log2(5)) / IDCG:.2f}"
RIGHT = f"{DCG / IDCG:.2f}"


def chinese_phone(browser, playwright, url, code, nickname):
    """A student joins in Chinese from an iPhone 13."""
    context = browser.new_context(**playwright.devices["iPhone 13"])
    page = context.new_page()
    page.goto(f"{url}/Classroom?room={code}&lang=zh")
    box = page.get_by_role("textbox", name="昵称（可不填）")
    box.fill(nickname)
    box.press("Enter")
    page.get_by_role("button", name="加入").tap()
    page.wait_for_url("**/phone/**", timeout=30_000)
    expect(page.get_by_text(f"你的昵称是 {nickname}。")).to_be_visible(timeout=30_000)
    return page


def estimate(page, value, zh=False):
    page.get_by_role("textbox", name="你估计的 NDCG（0 到 1）" if zh else "Your estimate of NDCG (0 to 1)").fill(value)
    page.get_by_role("button", name="提交" if zh else "Send").tap()
    expect(page.locator(".ndcg-card")).to_contain_text("已保存" if zh else "Saved.")


def shoot(page, name, full_page=False):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def test_a_class_is_told_its_mistakes_and_votes_again_beside_round_one(browser, playwright, app_url):
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, key = store.rooms.create()
    code = room.code
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    screen = context.new_page()
    screen.goto(f"{app_url}/Classroom?room={code}&key={key}&view=screen")  # the teacher's browser, holding the key
    expect(screen.get_by_text("Join with a phone")).to_be_visible(timeout=30_000)
    ana = phone(browser, playwright, app_url, code, "Ana")
    lei = chinese_phone(browser, playwright, app_url, code, "李雷")
    bo = store.students.join(code, rules.new_student_id(), "Bo")
    activity = store.rooms.open_activity(code, key, Predict(SPEC))

    for page, value, zh in ((ana, NO_NORMALISATION, False), (lei, LIST_NOT_CUT, True)):
        expect(page.locator(".ndcg-card")).to_contain_text("NDCG@3")
        estimate(page, value, zh)
    store.answers.submit(code, bo.id, activity.id, [(0, IDEAL_FROM_LIST)])
    expect(answered(screen)).to_have_text("3 / 3")
    expect(screen.get_by_text("DCG given for NDCG")).to_have_count(0)  # nothing named before the reveal

    store.rooms.set_phase(code, key, "revealed")  # Reveal
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
        (ana, ["Your estimate is the number a known mistake gives", "DCG given for NDCG", "Divide DCG@3"]),
        (lei, ["你的估计正是一种已知错误算出的数", "列表没有截断到 k", "只加第 1 到第 3 位"]),
    ):
        note = page.locator(".ndcg-card .note.warning")
        for text in says:
            expect(note).to_contain_text(text)
    shoot(ana, "phone_reveal_en", full_page=True)
    shoot(lei, "phone_reveal_zh", full_page=True)

    # Round 2: "Vote again" after the class has talked; the same question, and round 1 beside it at the reveal.
    again = store.rooms.run_again(code, key)
    expect(ana.get_by_text("Activity 1: Predict the NDCG · Round 2")).to_be_visible()
    expect(lei.get_by_text("第 2 轮")).to_be_visible()
    for page, value, zh in ((ana, RIGHT, False), (lei, IDEAL_FROM_LIST, True)):
        estimate(page, value, zh)
    store.answers.submit(code, bo.id, again.id, [(0, f"{DCG / IDCG + 0.03:.2f}")])
    expect(answered(screen)).to_have_text("3 / 3")
    store.rooms.set_phase(code, key, "revealed")
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
    expect(ana.locator(".ndcg-card .note.success")).to_contain_text("right to the decimals you gave")
    expect(lei.locator(".ndcg-card .note.warning")).to_contain_text("只用列表自身排理想")
    shoot(lei, "phone_round2_zh", full_page=True)
    for page in (ana, lei):
        page.context.close()
    context.close()
    store.close()
