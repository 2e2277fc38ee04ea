"""The room's results CSV in Debian's Chromium (issue 46): the teacher prepares it and downloads it; its address,
asked again by anyone without the teacher's page (a request with no session, no cookie), serves nothing; the teacher
prepares it again and downloads it again."""

import pytest
from playwright.sync_api import expect
from test_browser_live_room import start_room

pytestmark = pytest.mark.browser


def download(teacher):
    teacher.get_by_role("button", name="Prepare the results (CSV)").click()
    expect(teacher.get_by_text("Results as of")).to_be_visible()
    with teacher.expect_download() as started:
        teacher.get_by_role("button", name="Download the results (CSV)").click()
    return started.value


def test_the_results_address_serves_the_teachers_download_only(browser, playwright, app_url):
    context, teacher, code, _ = start_room(browser, app_url)
    first = download(teacher)
    assert first.suggested_filename == f"ndcg_lab_room_{code}.csv"
    assert first.path().read_bytes().startswith(b"\xef\xbb\xbf")
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
    assert second.path().read_bytes() == first.path().read_bytes()
    context.close()
