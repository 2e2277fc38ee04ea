"""The Evaluate page in Debian's Chromium: upload trec_eval's sample files, see its published means,
and open a query in the Playground."""

from math import log2

import pytest
from playwright.sync_api import expect

from ndcg_core import query_ranking, read_qrels, read_run
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


def test_upload_the_sample_and_open_a_query_in_the_playground(page, app_url):
    evaluate_files(page, app_url, SAMPLE / "qrels.test", SAMPLE / "results.test")
    means = page.locator('[data-testid="stMetric"]')
    for k in (5, 10):
        expect(means.filter(has_text=f"Mean NDCG@{k}").get_by_test_id("stMetricValue")).to_have_text(
            published(f"ndcg_cut_{k}", "all", "out.test.a"), timeout=30000
        )
    page.get_by_role("tab", name="Open a query").click()
    # Query 302, the one whose NDCG@5 is not 0: the Playground must show trec_eval's value for it.
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


def test_the_per_query_csv_is_made_when_asked_for_and_holds_every_query(page, app_url):
    import csv
    import io
    from pathlib import Path

    from ndcg_core import EvaluationOptions, evaluate

    page.set_viewport_size({"width": 1366, "height": 1000})
    page.goto(f"{app_url}/Evaluate")
    expect(page.get_by_role("heading", name="Evaluate")).to_be_visible(timeout=30000)
    wait_for_idle(page)  # the bundled sample is evaluated at once
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


def test_the_judged_only_setting_scores_as_minus_J(page, app_url, tmp_path):
    # u1 (unjudged) above d2 (grade 2): judged only, d2 moves up to the first place.
    (tmp_path / "qrels.txt").write_text("q1 0 d2 2\nq1 0 d3 1\nq2 0 e1 1\nq2 0 e2 0\n")
    (tmp_path / "run.txt").write_text(
        "q1 Q0 u1 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d3 3 1 t\nq2 Q0 u2 1 2 t\nq2 Q0 e1 2 1 t\n"
    )
    # Every document scored: q1 (0, 2, 1) against its ideal (2, 1); q2 (0, 1) against (1, 0).
    q1 = (2 / log2(3) + 1 / log2(4)) / (2 + 1 / log2(3))
    q2 = (1 / log2(3)) / 1
    # Judged only (trec_eval -J): the unjudged u1 and u2 dropped, each list is its own ideal.
    expected = {False: (q1 + q2) / 2, True: 1.0}
    evaluate_files(page, app_url, tmp_path / "qrels.txt", tmp_path / "run.txt")
    means = page.locator('[data-testid="stMetric"]')
    for judged_only in (False, True):
        expect(means.filter(has_text="Mean NDCG@5").get_by_test_id("stMetricValue")).to_have_text(
            f"{expected[judged_only]:.4f}", timeout=30000
        )
        if not judged_only:
            page.get_by_text("Settings").first.click()
            page.get_by_text("Score only judged documents (trec_eval -J)").click()
    page.screenshot(path=str(tmp_path / "evaluate_judged_only.png"), full_page=True)
