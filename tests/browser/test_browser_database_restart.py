"""PostgreSQL stopped and started again in the middle of an activity, in Debian's Chromium: the app (one process,
``NDCG_LAB_DATABASE_URL`` on the test session's cluster) shows a short notice on the teacher's page and the phone
instead of a traceback, keeps what the phone typed, comes back by itself, stores the answer sent after the restart,
and loses none acknowledged before it."""

import re

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom.storage import Classroom
from support import empty_database, free_port, join_on_its_page, start_app, stop_app

pytestmark = pytest.mark.browser

NOTICE = "The classroom's database is not answering"


@pytest.fixture
def app_on_postgres(postgres_cluster, tmp_path):
    empty_database(postgres_cluster.url)
    port = free_port()
    env = {"NDCG_LAB_DATABASE_URL": postgres_cluster.url, "NDCG_LAB_DB_RETRY_SECONDS": "2"}
    with open(tmp_path / "streamlit.log", "w") as log:
        server = start_app(port, log, env)
        yield f"http://127.0.0.1:{port}", postgres_cluster
        stop_app(server)
    if not (postgres_cluster.datadir / "postmaster.pid").exists():
        postgres_cluster.start()


def join(browser, playwright, url, code, nickname):
    """A phone joined on its own join page (no Streamlit session: the phone's page is what is looked at)."""
    return join_on_its_page(browser.new_context(**playwright.devices["iPhone 13"]), url, code, nickname)


def no_traceback(page):
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_postgresql_restarting_during_an_activity_is_a_notice_and_loses_no_answer(browser, playwright, app_on_postgres):
    url, cluster = app_on_postgres
    teacher = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    teacher.goto(f"{url}/Classroom")
    teacher.get_by_role("button", name="Start a room").click()
    expect(teacher.get_by_text("Open the projector view")).to_be_visible(timeout=30_000)
    code = re.search(r"room=([A-Z0-9]{6})", teacher.url).group(1)
    ana, bo = join(browser, playwright, url, code, "Ana"), join(browser, playwright, url, code, "Bo")
    teacher.get_by_text("An example", exact=True).click()
    teacher.get_by_role("button", name="Open for the class").click()
    estimate = "Your estimate of NDCG (0 to 1)"
    for page in (ana, bo):
        expect(page.get_by_text("Activity 1: Predict the NDCG")).to_be_visible(timeout=30_000)
    ana.get_by_role("textbox", name=estimate).fill("0.9")
    ana.get_by_role("button", name="Send").tap()
    expect(ana.get_by_text("Saved. You can change it")).to_be_visible()  # acknowledged

    cluster.stop()
    expect(teacher.get_by_text(NOTICE)).to_be_visible(timeout=30_000)  # the live panel, by itself
    for page in (ana, bo):
        expect(page.locator(".ndcg-card .notice")).to_have_text(re.compile(f"^{NOTICE}"))  # the card's, by itself
    bo.get_by_role("textbox", name=estimate).fill("0.5")
    bo.get_by_role("button", name="Send").tap()
    expect(bo.get_by_text("this was not saved; try again in a moment")).to_be_visible(timeout=30_000)
    expect(bo.get_by_role("textbox", name=estimate)).to_have_value("0.5")  # what was typed stays
    teacher.screenshot(path="/tmp/ndcg-db-outage-teacher.png")
    bo.screenshot(path="/tmp/ndcg-db-outage-phone.png")
    for page in (teacher, ana, bo):
        no_traceback(page)

    cluster.start()
    expect(teacher.get_by_text(NOTICE)).to_have_count(0, timeout=30_000)  # back by itself
    for page in (ana, bo):
        expect(page.locator(".ndcg-card .notice")).to_be_hidden(timeout=30_000)
    bo.get_by_role("button", name="Send").tap()
    expect(bo.get_by_text("Saved. You can change it")).to_be_visible(timeout=30_000)
    expect(teacher.get_by_test_id("stMetric").filter(has_text="Answered").get_by_test_id("stMetricValue")).to_have_text(
        "2 / 2", timeout=30_000
    )
    bo.screenshot(path="/tmp/ndcg-db-back-phone.png")
    for page in (teacher, ana, bo):
        no_traceback(page)
    store = Classroom(cluster.url)
    try:
        answers = store.answers.for_activity(store.rooms.get(code).current.id)
        assert [(a.nickname, a.value) for a in answers] == [("Ana", 0.9), ("Bo", 0.5)]
    finally:
        store.close()
