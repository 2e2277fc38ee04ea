"""The Evaluate page in Debian's Chromium: trec_eval's sample files uploaded through the page show trec_eval's
published means, the per-query CSV is made when asked for and downloads with every query, and a query opens in
the Playground.

What only a browser shows is here: the uploads, the download, the page switch with the list drawn. The page's
rules are pinned by its AppTests (tests/ui/test_evaluate_page.py): the judged-only setting's means
(test_judged_only_is_a_setting_off_by_default_and_the_drill_down_ranks_as_it_scores), the sample's means, the
query opened in the Playground. One shared page goes through the three in turn (opening one costs more than a
step).
"""

import csv
import io
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ndcg_core import EvaluationOptions, evaluate, query_ranking, read_qrels, read_run
from support import ROOT, TREC, upload, wait_for_idle

pytestmark = pytest.mark.browser


SAMPLE = ROOT / "ui" / "sample"


def published(name, qid, out="out.test.aq"):
    """trec_eval's own value of a measure for one query (``-q``) or for ``all``."""
    for line in (TREC / out).read_text().splitlines():
        measure, q, value = line.split()
        if measure == name and q == qid:
            return value
    raise KeyError((name, qid))


def evaluate_files(page, app_url, qrels, run):
    """Open the Evaluate page at 1366x1000 and upload ``qrels`` and ``run`` as its files."""
    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{app_url}/Evaluate")
    expect(page.get_by_role("heading", name="Evaluate")).to_be_visible(timeout=30000)
    wait_for_idle(page)
    page.get_by_text("Upload files").click()
    uploaders = page.get_by_test_id("stFileUploader")
    expect(uploaders).to_have_count(3, timeout=30000)
    upload(page, uploaders.nth(0), str(qrels))
    upload(page, uploaders.nth(1), str(run))


def test_upload_the_sample_download_its_per_query_csv_and_open_a_query_in_the_playground(desktop_page, app_url):
    page = desktop_page
    evaluate_files(page, app_url, SAMPLE / "qrels.test", SAMPLE / "results.test")
    means = page.locator('[data-testid="stMetric"]')
    for k in (5, 10):
        expect(means.filter(has_text=f"Mean NDCG@{k}").get_by_test_id("stMetricValue")).to_have_text(
            published(f"ndcg_cut_{k}", "all", "out.test.a"), timeout=30000
        )

    # The per-query CSV: made when asked for, then downloaded, with every query of the files uploaded.
    page.get_by_role("tab", name="Export").click()
    page.get_by_role("button", name="Prepare the per-query table (CSV)").click()
    button = page.get_by_role("button", name="Download the per-query table (CSV)")
    expect(button).to_be_visible(timeout=30000)
    page.screenshot(path="/tmp/evaluate_export_tab.png")
    with page.expect_download(timeout=30000) as caught:
        button.click()
    rows = list(csv.DictReader(io.StringIO(Path(caught.value.path()).read_text(encoding="utf-8"))))
    expected = evaluate(
        read_qrels(SAMPLE / "qrels.test"), read_run(SAMPLE / "results.test"), EvaluationOptions(cutoffs=(5, 10, 20))
    )
    assert [row["Query"] for row in rows] == expected.qids
    at_10 = [float(row["NDCG@10"]) for row in rows]
    assert at_10 == pytest.approx(expected.table()["ndcg_cut_10"].tolist(), abs=1e-12)

    # Query 302, the one whose NDCG@5 is not 0: the Playground must show trec_eval's value for it.
    page.get_by_role("tab", name="Open a query").click()
    query = page.get_by_role("combobox", name="Query (largest gap first)")
    expect(query).to_have_value("301")  # the largest gap first
    query.click()
    page.get_by_role("option", name="302", exact=True).click()
    expect(query).to_have_value("302")
    wait_for_idle(page)
    page.get_by_role("button", name="Open in the Playground").click()
    expect(page.get_by_role("heading", name="Playground")).to_be_visible(timeout=30000)
    ranking = query_ranking(read_qrels(SAMPLE / "qrels.test"), read_run(SAMPLE / "results.test"), "302")
    assert len(ranking["docnos"]) == 500
    expect(page.locator("li.row .label")).to_have_text(ranking["docnos"][:100], timeout=30000)  # the first 100
    headline = page.get_by_test_id("stMetric").filter(has_text="NDCG@").first
    expect(headline.get_by_test_id("stMetricLabel")).to_have_text("NDCG@5")
    expect(headline.get_by_test_id("stMetricValue")).to_have_text(published("ndcg_cut_5", "302"))
    assert published("ndcg_cut_5", "302") == "0.8304"
    expect(page.get_by_role("radio", name="all judgments (this list + judged items not in it)")).to_be_checked()
