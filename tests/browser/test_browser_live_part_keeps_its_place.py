"""A part of a page that reruns by itself keeps its place and what follows it, in Debian's Chromium, through the
Streamlit race described in ``ui.live_part``: a full run ends and the part's own run begins before the server has
sent the full run's messages. ``apps/live_part_race.py`` makes the race happen on every full run after the first.

Drawn by ``live_part``, the part and the line after it both stay, in their order. Drawn with ``st.fragment`` alone,
the line after the part is replaced by the part (the teacher's "Open the next activity" vanished this way in
parallel test runs). When a Streamlit release fixes the race, that second case fails here, and ``live_part`` can
go."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from deploy import answers, free_port
from support import ROOT, stop_app

pytestmark = pytest.mark.browser

APP = Path(__file__).parent / "apps" / "live_part_race.py"


@pytest.fixture(scope="module")
def race_server():
    """The race's page on a free port, for both ways of drawing its part (``?boxed=``); yields its URL."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "streamlit", "run", str(APP), "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while not answers(f"{url}/_stcore/health"):
            assert server.poll() is None and time.monotonic() < deadline, "the race's page did not start"
            time.sleep(0.2)
        yield url
    finally:
        stop_app(server)


@pytest.fixture(params=["live_part", "st.fragment alone"])
def race_page(request, race_server):
    """The race's page, its part drawn as the parameter says; yields (its URL, the parameter)."""
    return f"{race_server}/?boxed={1 if request.param == 'live_part' else 0}", request.param


def lines(page):
    """The page's lines of text, top to bottom (not its button's)."""
    return page.get_by_test_id("stMarkdown").all_inner_texts()


def test_a_live_part_keeps_what_follows_it_when_its_run_overtakes_the_pages(desktop_page, race_page):
    url, drawn = race_page
    page = desktop_page  # both cases on the worker's shared desktop page: the race's front end loaded once
    page.goto(url)
    expect(page.get_by_text("After the part (full run 1)")).to_be_visible()
    expect(page.get_by_text("The part's run 3")).to_be_visible()  # its timer runs
    page.get_by_role("button", name="Run the page again").click()
    after = page.get_by_text("After the part", exact=False)
    if drawn == "live_part":
        expect(after).to_have_text("After the part (full run 2)")
        ran = int(lines(page)[0].split()[-1])
        expect(page.get_by_text(f"The part's run {ran + 3}")).to_be_visible()  # it runs on, in its place
        part, line = lines(page)
        assert part.startswith("The part's run") and line == "After the part (full run 2)"
    else:
        expect(after).to_have_count(0, timeout=15_000)  # the part's run wrote over it
        expect(page.get_by_text("The part's run", exact=False)).to_have_count(1)
