"""Fixtures for the whole suite: hypothesis profiles, the app's server, Debian's Chromium, a throwaway PostgreSQL.

Helpers that are not fixtures (paths, ``plain``, ``upload``) live in ``support.py``. Browser tests carry the
``browser`` marker: ``pytest -m "not browser"`` is the quick loop.
"""

import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from deploy.postgres import postgres_bin, start_cluster, stop_cluster
from support import free_port, start_app, stop_app

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Mutation testing (docs/evaluation.md, "Mutation score") runs the suite thousands of times: fewer examples, always
# the same.
settings.register_profile(
    "mutation",
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The classroom's SQLite file goes to a folder of this test run, never the checkout's data/ (servers the
# browser tests start inherit it). A test that needs its own database sets the variable itself.
os.environ.setdefault("NDCG_LAB_DATA_DIR", tempfile.mkdtemp(prefix="ndcg-lab-tests-"))

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-gpu",
    "--no-first-run",
    "--disable-sync",
]


def _browser_missing() -> str | None:
    """Why browser tests cannot run here, in one line, or None."""
    if importlib.util.find_spec("pytest_playwright") is None:
        return 'pytest-playwright is not installed: python -m pip install -e ".[test]"'
    if not os.path.exists(CHROMIUM):
        return f"Chromium is not at {CHROMIUM}: apt-get install -y chromium"
    return None


def pytest_collection_modifyitems(config, items):
    missing = _browser_missing()
    if missing:
        skip = pytest.mark.skip(reason=missing)
        for item in items:
            if "browser" in item.keywords:
                item.add_marker(skip)


if importlib.util.find_spec("pytest_playwright") is not None:

    @pytest.fixture(scope="session")
    def browser_type_launch_args(browser_type_launch_args):
        """Debian's Chromium, never a downloaded browser (``playwright install`` cannot run here)."""
        return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    """The app (``streamlit run serve.py``) for this test session on a free loopback port."""
    port = free_port()
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    with open(log, "w") as out:
        try:
            server = start_app(port, out)
        except RuntimeError as err:
            raise RuntimeError(f"{err}:\n{log.read_text()}") from None
    yield f"http://127.0.0.1:{port}"
    stop_app(server)


@pytest.fixture(scope="session", autouse=True)
def _patient_expectations():
    """Playwright's expect() waits up to 15 s: a full parallel run on 2 cores can slow a page down."""
    if importlib.util.find_spec("playwright") is not None:
        from playwright.sync_api import expect

        expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def postgres_cluster():
    """A PostgreSQL server of its own on a free loopback port, in a temporary folder, removed afterwards
    (``deploy.postgres.Cluster``: its ``url``; ``stop``, ``start`` and ``restart`` for fault tests).

    PostgreSQL refuses to run as root, and the suite runs as root in CI: the cluster then belongs to the
    ``postgres`` user (Debian's package creates it) and is started through ``runuser``
    (``deploy/postgres.py``, which ``python -m deploy up`` uses too). pytest-postgresql starts ``pg_ctl`` as the
    current user, which is why this small fixture is ours.
    """
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    base = Path(tempfile.mkdtemp(prefix="ndcg-lab-pg-"))
    try:
        yield start_cluster(base, bin_dir)
    finally:
        stop_cluster(base / "data", bin_dir)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(postgres_cluster):
    """The SQLAlchemy URL of the test session's PostgreSQL (``postgres_cluster``)."""
    return postgres_cluster.url
