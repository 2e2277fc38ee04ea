"""The Evaluate page in Debian's Chromium: upload trec_eval's sample files, see its published means,
and open a query in the Playground."""

import pytest
from playwright.sync_api import expect

from support import ROOT, upload

pytestmark = pytest.mark.browser


SAMPLE = ROOT / "ui" / "sample"


def test_upload_the_sample_and_open_a_query_in_the_playground(page, app_url, tmp_path):
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{app_url}/Evaluate")
    expect(page.get_by_role("heading", name="Evaluate")).to_be_visible(timeout=30000)
    page.get_by_text("Upload files").click()
    uploaders = page.get_by_test_id("stFileUploader")
    expect(uploaders).to_have_count(3, timeout=30000)
    upload(page, uploaders.nth(0), str(SAMPLE / "qrels.test"))
    upload(page, uploaders.nth(1), str(SAMPLE / "results.test"))
    means = page.locator('[data-testid="stMetric"]')
    expect(means.filter(has_text="Mean NDCG@10")).to_contain_text("0.3016", timeout=30000)  # trec_eval's out.test.a
    expect(means.filter(has_text="Mean NDCG@5")).to_contain_text("0.2768", timeout=30000)
    page.screenshot(path=str(tmp_path / "evaluate.png"))
    page.get_by_role("tab", name="Open a query").click()
    page.get_by_role("button", name="Open in the Playground").click()
    expect(page.get_by_role("heading", name="Playground")).to_be_visible(timeout=30000)
    expect(page.locator("li.row")).to_have_count(100, timeout=30000)  # the first 100 of the query's 500
    expect(page.get_by_role("radio", name="all judgments (this list + unretrieved items)")).to_be_checked(timeout=30000)
