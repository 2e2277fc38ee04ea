"""Shared paths and hypothesis profiles (``--hypothesis-profile=deep`` for a long fuzzing run)."""

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
TREC = DATA / "trec_eval"

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The classroom's SQLite file goes to a folder of this test run, never the checkout's data/ (servers the
# browser tests start inherit it). A test that needs its own database sets the variable itself.
os.environ.setdefault("NDCG_LAB_DATA_DIR", __import__("tempfile").mkdtemp(prefix="ndcg-lab-tests-"))


# ---------------------------------------------------------------- the app in a real browser

import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402

import pytest  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-background-networking", "--disable-component-update",
                 "--disable-gpu", "--no-first-run", "--disable-sync"]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, never a downloaded browser (``playwright install`` cannot run here)."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True, "args": CHROMIUM_ARGS}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    """A Streamlit server for this test session on a free loopback port."""
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    with open(log, "w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
             "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    break
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise RuntimeError(f"Streamlit did not start:\n{log.read_text()}")
        time.sleep(0.3)
    yield url
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


@pytest.fixture(scope="session", autouse=True)
def _patient_expectations():
    """Playwright's expect() waits up to 15 s: a full parallel run on 2 cores can slow a page down."""
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)


def wait_for_idle(page, timeout=30_000):
    """Wait until Streamlit has finished running the script (elements of the last run are gone)."""
    page.wait_for_timeout(100)  # let a rerun that a click just asked for begin
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'",
        timeout=timeout,
    )


def means(evaluation):
    """Each measure's mean, keyed by the name trec_eval prints (``ndcg``, ``ndcg_cut_5``)."""
    return {m.name: evaluation.mean(m) for m in evaluation.measures}


def plain(markdown_text):
    """Text as a reader sees it: the backslash escapes that keep user input inert in Markdown removed."""
    import re

    return re.sub(r"\\(.)", r"\1", str(markdown_text))


def upload(page, uploader, path):
    """Give a file to one Streamlit uploader and wait until the page has taken it (a rerun may redraw it)."""
    import re

    from playwright.sync_api import expect

    wait_for_idle(page)
    uploader.locator("input[type=file]").set_input_files(path)
    expect(uploader.get_by_role("button", name=re.compile("^Remove "))).to_have_count(1, timeout=30000)
    wait_for_idle(page)


# ---------------------------------------------------------------- a throwaway PostgreSQL cluster

import glob  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402


def _postgres_bin():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL server of its own on a free loopback port, in a temporary folder, removed afterwards.

    PostgreSQL refuses to run as root, and the suite runs as root in CI: the cluster then belongs to the
    ``postgres`` user (Debian's package creates it) and is started through ``runuser``. pytest-postgresql
    starts ``pg_ctl`` as the current user, which is why this small fixture is ours.
    """
    bin_dir = _postgres_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    base = Path(tempfile.mkdtemp(prefix="ndcg-lab-pg-"))
    if as_postgres:
        shutil.chown(base, "postgres", "postgres")
    os.chmod(base, 0o700)
    data, port = base / "data", _free_port()
    run = lambda *args: subprocess.run([*as_postgres, *args], check=True, capture_output=True, text=True)  # noqa: E731
    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-w", "-l", str(base / "log"), "-o",
            f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", "start")
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_postgres, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
