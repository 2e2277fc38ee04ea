"""Results a lecturer can use, in Debian's Chromium: a desktop teacher and two iPhone 13 phones. A Which-is-better
round is revealed and cannot take answers again; it runs again as round 2; the downloaded CSV words every vote as
the phones showed it, has a row for each student who did not answer and a total per student. The results' address
(issue 46), asked again by anyone without the teacher's page (a request with no session, no cookie), serves nothing;
the teacher prepares the CSV again and downloads it again."""

import csv
import io

import pytest
from playwright.sync_api import expect
from test_browser_live_room import phone, start_room

pytestmark = pytest.mark.browser


def answered(teacher):
    return teacher.get_by_test_id("stMetric").filter(has_text="Answered").get_by_test_id("stMetricValue")


def download(teacher):
    """The results CSV as the teacher gets it: prepared, then downloaded."""
    teacher.get_by_role("button", name="Prepare the results (CSV)").click()
    expect(teacher.get_by_text("Results as of")).to_be_visible()
    with teacher.expect_download() as started:
        teacher.get_by_role("button", name="Download the results (CSV)").click()
    return started.value


def vote(page, label):
    page.get_by_role("radiogroup").get_by_role("radio", name=label, exact=True).tap()
    expect(page.get_by_role("radio", name=label, exact=True)).to_have_attribute("aria-checked", "true")
    page.get_by_role("button", name="Send").tap()
    expect(page.get_by_text("Saved. You can change it")).to_be_visible()


def test_a_revealed_round_is_final_round_two_runs_again_and_the_csv_says_what_students_saw(
    browser, playwright, app_url
):
    context, teacher, code, _ = start_room(browser, app_url)
    ana, bo = (phone(browser, playwright, app_url, code, name) for name in ("Ana", "Bo"))
    expect(teacher.get_by_test_id("stMetricValue").first).to_have_text("2")

    # Round 1: seed 003's systems under NDCG@5, which says A. Ana votes B; Bo does not vote.
    teacher.get_by_text("Which is better?", exact=True).click()
    teacher.get_by_role("button", name="Open for the class").click()
    expect(ana.get_by_text("Activity 1: Which is better?")).to_be_visible()
    expect(bo.get_by_text("Activity 1: Which is better?")).to_be_visible()
    vote(ana, "B")
    expect(answered(teacher)).to_have_text("1 / 2")
    teacher.get_by_role("button", name="Reveal").click()
    expect(teacher.get_by_text("0 of 1 votes agree with NDCG@5, which says: A.")).to_be_visible()
    expect(ana.get_by_text("the answer is: A")).to_be_visible()
    # A reveal is final: no "Take answers again", no lock; the phone cannot send another vote.
    expect(teacher.get_by_role("button", name="Run it again (new round)")).to_be_visible()
    expect(teacher.get_by_role("button", name="Take answers again")).to_have_count(0)
    expect(teacher.get_by_role("button", name="Lock answers")).to_have_count(0)
    expect(ana.get_by_role("button", name="Send")).to_have_count(0)

    # Round 2: the same question again, a round of activity 1; Bo votes A this time, Ana does not.
    teacher.get_by_role("button", name="Run it again (new round)").click()
    expect(teacher.get_by_text("Activity 1: Which is better? · Round 2")).to_be_visible()
    expect(bo.get_by_text("Activity 1: Which is better? · Round 2")).to_be_visible()
    expect(answered(teacher)).to_have_text("0 / 2")
    vote(bo, "A")
    expect(answered(teacher)).to_have_text("1 / 2")
    teacher.get_by_role("button", name="Reveal").click()
    expect(teacher.get_by_text("1 of 1 votes agree with NDCG@5, which says: A.")).to_be_visible()

    first = download(teacher)
    assert first.suggested_filename == f"ndcg_lab_room_{code}.csv"
    data = first.path().read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    header, *rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert header[:4] == ["Activity", "Round", "Kind", "Query"]
    columns = [header.index(name) for name in ("Student", "Answer", "Correct answer", "Right")]
    details = header.index("Details")
    compare = "under NDCG@5; A: 成都3天游攻略:4"
    assert all(r[2] == "Which is better?" and r[details].startswith(compare) for r in rows[:4])
    assert [r[:2] + [r[i] for i in columns] for r in rows] == [
        ["1", "1", "Ana", "B", "A", "no"],
        ["1", "1", "Bo", "", "A", "no answer"],  # joined, did not answer: a row all the same
        ["1", "2", "Ana", "", "A", "no answer"],  # round 2 of activity 1
        ["1", "2", "Bo", "A", "A", "yes"],
        ["Total", "", "Ana", "answered 1 of 2", "", "0 right"],
        ["Total", "", "Bo", "answered 1 of 2", "", "1 right"],
    ]

    # The address served the teacher's download once: asked again without the page, it serves nothing.
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
    assert second.path().read_bytes() == data
    for page in (ana, bo):
        page.context.close()
    context.close()
