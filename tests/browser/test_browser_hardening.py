"""Hardening in Debian's Chromium: two sessions stay apart, and hostile file content stays text.

Both on the worker's shared desktop context (conftest's ``desktop_page``): the two sessions are two tabs of it, each
its own Streamlit session (a session is a page's connection, not its cookies), without the two fresh contexts
that fetched and compiled Streamlit's front end again (about 5 CPU s each)."""

import pytest
from playwright.sync_api import expect

from ndcg_core import ndcg_at_k
from ndcg_core.lists.presets import PRESETS
from support import upload, wait_for_idle

pytestmark = pytest.mark.browser

FIVE = dict(zip(PRESETS.build("five").labels, PRESETS.build("five").grades, strict=False))


def test_two_sessions_editing_at_once_never_see_each_other(desktop_page, app_url):
    pages = []
    for page in (desktop_page, desktop_page.context.new_page()):  # the shared page's teardown closes the other
        page.set_viewport_size({"width": 1366, "height": 1000})
        page.goto(f"{app_url}/Playground")
        expect(page.locator("li.row .label")).to_have_text(list(FIVE), timeout=30000)
        expect(page.get_by_test_id("stMetricValue").first).to_have_text(f"{ndcg_at_k(list(FIVE.values()), 5):.4f}")
        wait_for_idle(page)
        pages.append(page)
    one, two = pages

    def label(page):
        return page.get_by_test_id("stMetricLabel").first

    def value(page):
        return page.get_by_test_id("stMetricValue").first

    def grade_of(page, item):
        return page.get_by_label(f"Grade of {item}")

    # Interleaved edits while both sessions are open on the same server.
    one.get_by_role("button", name="Worst order", exact=True).click()
    two.get_by_role("button", name="Move doc E up").click()
    worst = ["doc D", "doc E", "doc B", "doc C", "doc A"]
    mine = ["doc A", "doc B", "doc C", "doc E", "doc D"]
    expect(one.locator("li.row .label")).to_have_text(worst)
    expect(two.locator("li.row .label")).to_have_text(mine)
    expect(value(one)).to_have_text(f"{ndcg_at_k([FIVE[x] for x in worst], 5):.4f}")
    expect(value(two)).to_have_text(f"{ndcg_at_k([FIVE[x] for x in mine], 5):.4f}")
    two.get_by_label("Grade of doc D").select_option("3")
    one.get_by_role("slider", name="k (positions counted)").focus()
    one.keyboard.press("ArrowLeft")
    # Session two: its own grade, its own k.
    expect(value(two)).to_have_text(f"{ndcg_at_k([3, 2, 3, 1, 3], 5):.4f}")
    expect(label(two)).to_have_text("NDCG@5")
    expect(grade_of(two, "doc D")).to_have_value("3")
    # Session one: its own k, and doc D kept grade 0 here.
    expect(label(one)).to_have_text("NDCG@4")
    expect(value(one)).to_have_text(f"{ndcg_at_k([0, 1, 2, 3, 3], 4):.4f}")
    expect(grade_of(one, "doc D")).to_have_value("0")
    expect(one.locator("li.row .label")).to_have_text(worst)
    expect(two.locator("li.row .label")).to_have_text(mine)


def test_hostile_file_content_is_quoted_as_text(desktop_page, app_url, tmp_path):
    page, requests, dialogs = desktop_page, [], []

    def dismiss(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    def note(request):
        requests.append(request.url)

    page.on("request", note)
    page.on("dialog", dismiss)
    try:
        upload_hostile_files(page, app_url, tmp_path, requests)
    finally:  # the page is shared: the next test's requests and dialogs are its own
        page.remove_listener("request", note)
        page.remove_listener("dialog", dismiss)
    assert dialogs == []


def upload_hostile_files(page, app_url, tmp_path, requests):
    qrels = tmp_path / "qrels <img src=x onerror=alert(1)>.txt"
    qrels.write_text("1 0 d1 1\n")
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 ![x](http://127.0.0.1:9/evil.png) 1 <script>alert(2)</script> t\n")
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{app_url}/Evaluate")
    expect(page.get_by_role("heading", name="Evaluate")).to_be_visible(timeout=30000)
    wait_for_idle(page)
    page.get_by_text("Upload files").click()
    uploaders = page.get_by_test_id("stFileUploader")
    expect(uploaders).to_have_count(3, timeout=30000)
    upload(page, uploaders.nth(0), str(qrels))
    # The file's name is text: the uploader's button names it in full.
    expect(uploaders.nth(0).get_by_role("button", name=f"Remove {qrels.name}", exact=True)).to_have_count(1)
    upload(page, uploaders.nth(1), str(run))
    alert = page.get_by_test_id("stAlert").filter(has_text="Run A")
    expect(alert).to_contain_text("<script>alert(2)</script>", timeout=30000)
    # Shown as typed (an invisible word joiner after "http" keeps Markdown from making it a link).
    assert "![x](http://127.0.0.1:9/evil.png)" in alert.text_content().replace("\u2060", "")
    assert alert.locator("img, script, a").count() == 0
    assert page.locator("img[src='x'], img[src*='evil.png']").count() == 0
    assert not [u for u in requests if "evil.png" in u or u.startswith("http://x")]
