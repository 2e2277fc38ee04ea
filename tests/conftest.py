"""Fixtures for the whole suite: hypothesis profiles, the app's server, Debian's Chromium, a throwaway PostgreSQL.

Helpers that are not fixtures (paths, ``plain``, ``upload``) live in ``support.py``. Browser tests carry the
``browser`` marker: ``pytest -m "not browser"`` is the quick loop.
"""

import contextlib
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
# Every test starts its rooms from 127.0.0.1, on the session's one server or in one process's AppTests: the limit of
# rooms one address may start an hour (10) would refuse a teacher after the tenth test. Tests of that limit set
# their own.
os.environ.setdefault("NDCG_LAB_ROOMS_PER_CLIENT_HOUR", "100000")

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


# The tiers that need more than Python: each may be left out by its marker, and all of them by ``slow`` (the inner
# loop: ``python -m pytest -m "not slow"``, the core, the rules and the pages without a browser or a server).
SLOW_TIERS = ("browser", "deploy", "postgresql", "spark", "install")
POSTGRES_FIXTURES = {"postgres_cluster", "postgres_url"}


def mark_tiers(items):
    """Mark each test by what it needs: ``postgresql`` where it asks for the session's PostgreSQL (as a fixture or as
    a database parameter), ``spark`` where it asks for the Spark session, and ``slow`` on every test of a slow tier."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        if names & POSTGRES_FIXTURES or "postgresql" in (value for value in params.values() if isinstance(value, str)):
            item.add_marker(pytest.mark.postgresql)
        if "spark_engine" in names:
            item.add_marker(pytest.mark.spark)
        if any(tier in item.keywords for tier in SLOW_TIERS):
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the marks added here
def pytest_collection_modifyitems(config, items):
    mark_tiers(items)
    missing = _browser_missing()
    if missing:
        skip = pytest.mark.skip(reason=missing)
        for item in items:
            if "browser" in item.keywords:
                item.add_marker(skip)
    elif importlib.util.find_spec("pytest_rerunfailures") is not None:
        # A browser test waits on real time (a server, a stream, a page's next run) on two shared cores: one
        # more try, reported as a rerun (R) in the summary. A test that fails twice fails the run.
        for item in items:
            if "browser" in item.keywords:
                item.add_marker(pytest.mark.flaky(reruns=1))
    items[:] = spark_first(spread_browser_modules(items))


def spark_first(items):
    """The tests that use the Spark session first, in their order, the others after them in theirs.

    The session is one per pytest process (``spark_engine``): ``-n 2 --dist worksteal`` hands the first worker the
    start of this order and steals only from the ends of the workers' queues, so one worker starts the JVM and runs
    them all. Scattered, each worker started a JVM of its own (tens of seconds of CPU each).
    """
    spark = [item for item in items if "spark_engine" in getattr(item, "fixturenames", ())]
    return [*spark, *(item for item in items if "spark_engine" not in getattr(item, "fixturenames", ()))]


def spread_browser_modules(items):
    """The browser tests' modules, alternately at the start and at the end of the run, the other tests between.

    ``-n 2 --dist worksteal`` hands each worker one half of this order: each then starts (or ends) with browser
    tests, which mostly wait, beside the other worker's tests, which mostly compute. In the collected order every
    browser test sat in the first worker's half, one after another, and the run took as long as they did.
    """
    modules: dict[str, list] = {}
    for item in items:
        if "browser" in item.keywords:
            modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    ordered = [modules[name] for name in sorted(modules)]
    first = [item for group in ordered[::2] for item in group]
    last = [item for group in ordered[1::2] for item in group]
    middle = [item for item in items if "browser" not in item.keywords]
    return [*first, *middle, *last]


if importlib.util.find_spec("pytest_playwright") is not None:

    @pytest.fixture(scope="session")
    def browser_type_launch_args(browser_type_launch_args):
        """Debian's Chromium, never a downloaded browser (``playwright install`` cannot run here)."""
        return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True, "args": CHROMIUM_ARGS}


@pytest.fixture(autouse=True)
def _close_the_pages_a_test_opened(request):
    """After a browser test, close every browser context it opened (and so its pages). A page left open keeps
    running in the worker's browser for the rest of the run: its live parts rerun on the shared server, its
    stream or websocket reconnects to a server gone, and a run's leftover pages came to load two cores."""
    if "browser" not in request.keywords or "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            with contextlib.suppress(Exception):  # a context that cannot close is gone with its pages anyway
                context.close()


# A page in a context that has loaded the app before costs about 2 CPU seconds to open a page of it; in a fresh
# context about 5 (Streamlit's scripts fetched and compiled again). The pages' browser tests that need nothing of a
# fresh context share one desktop page and one phone page per worker, each test going to its own address.
DESKTOP = {"width": 1280, "height": 720}
PHONE = "iPhone 13"


@pytest.fixture(scope="session")
def _desktop_context(browser):
    context = browser.new_context(viewport=DESKTOP)
    yield context
    context.close()


@pytest.fixture(scope="session")
def _phone_context(browser, playwright):
    context = browser.new_context(**playwright.devices[PHONE])
    yield context
    context.close()


def _shared_page(context, viewport):
    """The context's first page (a new one if it has none or it was closed); afterwards blank again (its app
    session closed), with its viewport and media as at the start and every other page of the context closed."""
    page = next((p for p in context.pages if not p.is_closed()), None) or context.new_page()
    yield page
    for other in context.pages[1:]:
        with contextlib.suppress(Exception):
            other.close()
    with contextlib.suppress(Exception):
        page.goto("about:blank")
        page.set_viewport_size(viewport)
        page.emulate_media(reduced_motion="no-preference")


@pytest.fixture
def desktop_page(_desktop_context):
    """A desktop page (1280x720, no touch) shared by the pages' browser tests: go to an address first."""
    yield from _shared_page(_desktop_context, DESKTOP)


@pytest.fixture
def phone_page(_phone_context, playwright):
    """An iPhone 13 page (390x664, touch) shared by the pages' browser tests: go to an address first."""
    yield from _shared_page(_phone_context, playwright.devices[PHONE]["viewport"])


# What a failed browser test leaves to read: each open page's address and text, in the report (CI prints only
# the report), and its screenshot in a folder the report names. A timed-out wait otherwise says only what it
# waited for, not what the page showed instead.
PAGE_TEXT_CHARS = 1200


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed and "browser" in item.keywords:
        described = _describe_pages(item.funcargs.get("browser"))
        if described:
            report.sections.append(("the pages when it failed", described))
    return report


def _describe_pages(browser) -> str:
    if browser is None:
        return ""
    folder = Path(tempfile.mkdtemp(prefix="ndcg-lab-failed-"))
    parts = []
    for c, context in enumerate(browser.contexts):
        for p, page in enumerate(context.pages):
            try:
                shot = folder / f"context{c}-page{p}.png"
                page.screenshot(path=str(shot), timeout=5_000)
                text = page.evaluate("() => document.body.innerText")
                parts.append(f"[{page.url}] ({shot})\n{text[:PAGE_TEXT_CHARS]}")
            except Exception as err:  # noqa: BLE001 (a page that cannot answer is described by its error)
                parts.append(f"[{page.url}] {type(err).__name__}: {str(err)[:200]}")
    return "\n\n".join(parts)


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
