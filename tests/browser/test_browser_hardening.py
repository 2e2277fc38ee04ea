"""Hardening in Debian's Chromium: two sessions stay apart, and hostile file content stays text."""

import pytest
from playwright.sync_api import expect

from support import upload, wait_for_idle

pytestmark = pytest.mark.browser


def test_two_sessions_editing_at_once_never_see_each_other(browser, app_url):
    pages = []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 1366, "height": 1000})
        page = context.new_page()
        page.goto(f"{app_url}/Playground")
        expect(page.locator("li.row")).to_have_count(5, timeout=30000)
        pages.append(page)
    one, two = pages
    # Interleaved edits while both sessions are open on the same server.
    one.get_by_role("button", name="Worst order").click()
    two.get_by_role("button", name="Move doc E up").click()
    wait_for_idle(one)
    wait_for_idle(two)
    two.get_by_label("Grade of doc D").select_option("3")
    one.get_by_role("slider", name="k (positions counted)").focus()
    one.keyboard.press("ArrowLeft")
    wait_for_idle(two)
    wait_for_idle(one)
    expect(one.get_by_test_id("stMetricLabel").first).to_have_text("NDCG@4")
    expect(two.get_by_test_id("stMetricLabel").first).to_have_text("NDCG@5")
    assert one.locator("li.row .label").all_inner_texts() == ["doc D", "doc E", "doc B", "doc C", "doc A"]
    assert two.locator("li.row .label").all_inner_texts() == ["doc A", "doc B", "doc C", "doc E", "doc D"]
    assert one.locator("li.row").nth(0).get_by_role("combobox").input_value() == "0"  # doc D kept grade 0 here
    for page in pages:
        page.context.close()


def test_hostile_file_content_is_quoted_as_text(page, app_url, tmp_path):
    requests, dialogs = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    qrels = tmp_path / "qrels <img src=x onerror=alert(1)>.txt"
    qrels.write_text("1 0 d1 1\n")
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 ![x](http://127.0.0.1:9/evil.png) 1 <script>alert(2)</script> t\n")
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{app_url}/Evaluate")
    page.get_by_text("Upload files").click()
    uploaders = page.get_by_test_id("stFileUploader")
    upload(page, uploaders.nth(0), str(qrels))
    upload(page, uploaders.nth(1), str(run))
    alert = page.get_by_test_id("stAlert").filter(has_text="Run A")
    expect(alert).to_contain_text("<script>alert(2)</script>", timeout=30000)
    # Shown as typed (an invisible word joiner after "http" keeps Markdown from making it a link).
    assert "![x](http://127.0.0.1:9/evil.png)" in alert.text_content().replace("\u2060", "")
    assert alert.locator("img, script, a").count() == 0
    assert not [u for u in requests if "evil.png" in u or u.startswith("http://x")]
    assert dialogs == []
