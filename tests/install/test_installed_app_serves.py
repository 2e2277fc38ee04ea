"""The app as an install runs it: the wheel built from this checkout carries every package and every file beside
them, and ``ndcg-lab serve``, installed with ``requirements.lock`` in a fresh virtual environment and started from an
empty folder, serves the Classroom page and a deep link in a real browser, a phone's own page and its JSON route.

The wheel is built and the environment filled by uv (``uv build``, ``uv venv``, ``uv pip install``; uv is in the test
lock, and the README's install fills its cache): from its cache, uv links the lock's packages into the new environment
in a few seconds of CPU, where pip unpacked and copied every one of them (about 25 s of CPU). The environment is as
fresh as pip's was: nothing of the test's own environment or of this checkout is in it, which the serving test checks
from the installed interpreter. Marked ``install``, and the serving test ``browser`` too, so that ``-m "not browser"``
leaves it out.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom import rules
from ndcg_core.classroom.storage import Classroom, database_url
from support import ROOT, free_port

pytestmark = pytest.mark.install

PACKAGES = ("ndcg_core", "ui", "deploy", "ndcg_lab")
# What the checkout holds that is no part of the app: left out of the copy the wheel is built from.
NOT_SHIPPED_TOP = {".git", "build", "data", "tests", "benchmarks", "mutants", "docs", "site", "test-results"}
NOT_SHIPPED_ANYWHERE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".*cache", ".hypothesis")


def not_shipped(folder: str, names: list[str]) -> set[str]:
    top = NOT_SHIPPED_TOP & set(names) if Path(folder) == ROOT else set()
    return top | NOT_SHIPPED_ANYWHERE(folder, names)


PAGES = [f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py")]
ENTRY_FILES = [
    "app.py",
    "serve.py",
    ".streamlit/config.toml",
    *PAGES,
    *(f"lessons/{p.name}" for p in sorted((ROOT / "lessons").glob("*.toml"))),
]
LESSON = ROOT / "lessons" / "ndcg-in-20-minutes.en.toml"
LESSON_TITLE = tomllib.loads(LESSON.read_text(encoding="utf-8"))["title"]
EN = json.loads((ROOT / "ui" / "locales" / "en.json").read_text(encoding="utf-8"))
START_TIMEOUT = 120  # seconds: Streamlit's first start in a new environment, on two busy cores
UV = [sys.executable, "-m", "uv"]
NO_CHECKOUT = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
IMPORTED = f"import importlib; print(*(importlib.import_module(p).__file__ for p in {PACKAGES!r}), sep=chr(10))"


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, command))}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of a clean copy of this checkout (a build/ folder left in the checkout could add stale files)."""
    source = tmp_path_factory.mktemp("source") / "ndcg-lab"
    shutil.copytree(ROOT, source, ignore=not_shipped)
    out = tmp_path_factory.mktemp("wheel")
    run([*UV, "build", "--quiet", "--wheel", "--out-dir", out, source])
    (found,) = out.glob("ndcg_lab-*.whl")
    return found


def shipped_files() -> set[str]:
    """Every file of the checkout's packages (code, locales, widgets, lessons, samples, templates, schema...)."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_the_wheel_carries_every_package_file_and_the_app_s_entry_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert shipped_files() - names == set()
    assert {f"ndcg_lab/app/{name}" for name in ENTRY_FILES} - names == set()
    assert "ui/widgets/phone_page.html" in names and "ndcg_lab/app/lessons/ndcg-in-20-minutes.zh.toml" in names
    # No generic top-level names in site-packages: app.py, serve.py and pages/ live in ndcg_lab/app/.
    top = {name.split("/")[0] for name in names if not name.startswith("ndcg_lab-")}
    assert top == set(PACKAGES)


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the lock, then the wheel alone; its ``bin`` folder."""
    venv = tmp_path_factory.mktemp("venv")
    run([*UV, "venv", "--quiet", "--python", sys.executable, venv])
    # No bytecode compiled at install (uv compiles none unless asked): it is made on import.
    install = [*UV, "pip", "install", "--quiet", "--python", venv / "bin" / "python"]
    run([*install, "-r", ROOT / "requirements.lock"])
    run([*install, "--no-deps", wheel])
    # Each package from the wheel's copy in the new environment, not from this checkout or the test's environment.
    where = run([venv / "bin" / "python", "-c", IMPORTED], cwd=venv, env=NO_CHECKOUT).stdout.split()
    assert where and all(Path(path).is_relative_to(venv) for path in where), where
    return venv / "bin"


def wait_for_health(url: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            pytest.fail(f"ndcg-lab serve did not start:\n{log.read_text()}")
        time.sleep(0.3)  # polling a server that is starting: there is no event to wait on


def get(url: str) -> tuple[int, str, str]:
    """Status, content type and body of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=30) as reply:
            return reply.status, reply.headers.get_content_type(), reply.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get_content_type(), error.read().decode("utf-8")


@pytest.mark.browser
def test_ndcg_lab_serve_from_an_empty_folder_serves_the_pages_and_the_phone_routes(installed, browser, tmp_path):
    empty, data, home = tmp_path / "empty", tmp_path / "data", tmp_path / "home"
    empty.mkdir()
    data.mkdir()
    # Nothing of this checkout on the path: the installed packages and entry files only.
    env = dict(NO_CHECKOUT)
    env |= {"NDCG_LAB_DATA_DIR": str(data), "HOME": str(home), "PATH": f"{installed}{os.pathsep}{env['PATH']}"}
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    with open(log, "w") as out:
        command = [installed / "ndcg-lab", "serve", "--port", str(port), "--address", "127.0.0.1"]
        server = subprocess.Popen(command, cwd=empty, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_health(url, server, log)
        # The same process became Streamlit, on the installed serve.py (the phone routes are its st.App's).
        argv = Path(f"/proc/{server.pid}/cmdline").read_bytes().split(b"\0")
        serve = next(Path(a.decode()) for a in argv if a.endswith(b"serve.py"))
        assert serve.parent.parts[-2:] == ("ndcg_lab", "app") and serve.is_relative_to(installed.parent)

        page = browser.new_page()
        page.goto(f"{url}/Classroom")
        expect(page).to_have_title(f"{EN['classroom.title']} · NDCG Lab", timeout=60_000)
        # The shipped lessons, found in the installed package, offered to start a room with, the first one outlined.
        chooser = page.get_by_role("combobox", name=EN["classroom.lesson_shipped"]).first
        expect(chooser).to_have_value(LESSON.name, timeout=30_000)
        expect(page.get_by_text(LESSON_TITLE).first).to_be_visible()
        # The installed .streamlit/config.toml is read: the app's own page links, not Streamlit's sidebar menu.
        expect(page.get_by_test_id("stSidebarNav")).to_have_count(0)
        page.goto(f"{url}/Playground")  # a deep link: pages/ found beside the installed app.py
        expect(page).to_have_title(f"{EN['playground.title']} · NDCG Lab", timeout=60_000)

        store = Classroom(database_url({"NDCG_LAB_DATA_DIR": str(data)}))  # the installed app's own SQLite file
        room, _ = store.rooms.create()
        student = store.students.join(room.code, rules.new_student_id(), "Ana")
        store.close()
        status, kind, body = get(f"{url}/phone/{room.code}?me={student.id}&lang=en")
        assert (status, kind) == (200, "text/html")
        assert f'"card": "/api/room/{room.code}/card?' in body  # the phone page's template, filled in
        status, kind, body = get(f"{url}/api/room/{room.code}/card?me={student.id}&lang=en")
        assert (status, kind) == (200, "application/json")
        assert isinstance(json.loads(body), dict)
        page.goto(f"{url}/phone/{room.code}?me={student.id}&lang=en")
        expect(page.get_by_text(f"Room {room.code}")).to_be_visible(timeout=30_000)
        page.close()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
