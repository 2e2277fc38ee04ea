"""What tests share besides fixtures: the checkout's paths and small helpers for pages and evaluations."""

import asyncio
import concurrent.futures
import contextlib
import re
import subprocess
import threading
from pathlib import Path

import deploy
from deploy import free_port

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
TREC = DATA / "trec_eval"


def start_app(port: int, log, env: dict | None = None) -> subprocess.Popen:
    """The app as the README starts it (``streamlit run serve.py``) on 127.0.0.1:``port``, once it answers (within
    two minutes: a start takes 5-10 s, but a loaded CI machine has taken over a minute)."""
    return deploy.start_app(port, env=env, output=log, seconds=120)


def stop_app(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


@contextlib.contextmanager
def deployment(replicas: int, say=None, spare: bool = True, public: bool = True):
    """``python -m deploy up --replicas N`` run by this process (``deploy.launcher.Deployment``): a throwaway
    PostgreSQL, N replicas and nginx on a free port; yields (the deployment, nginx's URL). The replicas' join links
    go through nginx (``NDCG_LAB_PUBLIC_URL``), as behind a real proxy; ``public=False``: no such setting, as the
    launcher runs by default (the links name this machine's network address and nginx's port). ``say`` takes the
    launcher's lines (its start, and each replica's exit, restart and give-up), if given. ``spare=False``: no spare
    process, so a killed replica is started afresh (tens of seconds, not a few)."""
    from deploy.launcher import Deployment

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    running = Deployment(replicas, port, env={"NDCG_LAB_PUBLIC_URL": url} if public else {}, spare=spare)
    try:
        running.start(say or (lambda line: None))
        yield running, url
    finally:
        running.stop()


def pin(context, url: str, replica: int) -> None:
    """Send a Playwright browser context to replica ``replica`` of a deployment at ``url``: nginx's affinity
    cookie, set before its first request (its value is the replica's number, as nginx sets it)."""
    context.add_cookies([{"name": "ndcg_replica", "value": str(replica), "url": url}])


def join_on_its_page(context, url: str, code: str, nickname: str):
    """A student joins room ``code`` in ``context`` (a phone's) on the phones' own join page (``/join/CODE``, the
    projector's link under ``serve.py``), which loads no Streamlit front end and starts no Streamlit session; the
    phone's own page once it says who they are. (The Streamlit page's join form, the way in without ``serve.py``, is
    ``test_browser_live_room.phone``'s and ``test_browser_phone_join_form``'s.)"""
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(f"{url}/join/{code}?lang=en")
    page.get_by_role("textbox", name="Nickname (optional)").fill(nickname)
    page.get_by_role("button", name="Join").tap()
    page.wait_for_url(f"**/phone/{code}?me=*", timeout=30_000)
    expect(page.get_by_text(f"You are {nickname}.")).to_be_visible(timeout=30_000)
    return page


def answers_on(host: str, port: int) -> bool:
    """Whether nginx (or an app) answers its health route at ``host``:``port``; False for a refused connection.
    Another error is tried again for 5 s, then raised."""
    import time
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + 5
    while True:
        try:
            with urllib.request.urlopen(f"http://{host}:{port}/_stcore/health", timeout=5) as reply:
                return reply.status == 200
        except urllib.error.URLError as error:
            if isinstance(error.reason, ConnectionRefusedError):
                return False
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)  # a server that is starting: there is no event to wait on


def wait_until(condition, seconds=10.0):
    """Whether ``condition()`` holds within ``seconds``, looked at every 10 ms: for what another thread or
    process does (a notice heard, a caller queued), which gives no event to wait on."""
    pause = threading.Event()
    for _ in range(int(seconds / 0.01)):
        if condition():
            return True
        pause.wait(0.01)
    return condition()


def run_coroutine(coroutine):
    """``asyncio.run(coroutine)`` in a thread of its own: once a browser test has run in this pytest process,
    Playwright's sync API keeps an event loop running in the main thread, where ``asyncio.run`` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def error_of(call, *args, **kwargs):
    """The ``InputError`` a call raises, for tests that check its code and every field, not only its message."""
    import pytest

    from ndcg_core import InputError

    with pytest.raises(InputError) as info:
        call(*args, **kwargs)
    return info.value


def means(evaluation):
    """Each measure's mean, keyed by the name trec_eval prints (``ndcg``, ``ndcg_cut_5``)."""
    return {m.name: evaluation.mean(m) for m in evaluation.measures}


def plain(markdown_text):
    """Text as a reader sees it: the backslash escapes that keep user input inert in Markdown removed."""
    return re.sub(r"\\(.)", r"\1", str(markdown_text))


def wait_for_idle(page, timeout=30_000):
    """Wait until Streamlit has run the script a click or an edit asked for and is idle again."""
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'",
        timeout=timeout,
    )


def upload(page, uploader, path):
    """Give a file to one Streamlit uploader and wait until the page has taken it (a rerun may redraw it)."""
    from playwright.sync_api import expect

    wait_for_idle(page)
    uploader.locator("input[type=file]").set_input_files(path)
    expect(uploader.get_by_role("button", name=re.compile("^Remove "))).to_have_count(1, timeout=30000)
    wait_for_idle(page)


SECTIONS = {
    "pg_": "playground",
    "ev_": "evaluate",
    "learn_": "learn",
    "pr_": "practice",
    "cmp_": "metrics",
    "conv_": "conventions",
}


def seed_state(at, **values):
    """Give an AppTest session state before its first run, by the names a page's state fields have with their
    page's prefix (``pg_items=...``, ``pr_seed=3``, ``lang="zh"``): each page's state starts from its defaults."""
    from ui.state import SECTIONS as MAKERS

    for name, value in values.items():
        prefix = next((p for p in SECTIONS if name.startswith(p)), "")
        section = SECTIONS.get(prefix, "app")
        if section not in at.session_state:
            at.session_state[section] = MAKERS[section]()
        field = name[len(prefix) :]
        if not hasattr(at.session_state[section], field):  # a field renamed since: fail, not seed nothing
            raise AttributeError(f"the {section} state has no field {field}")
        setattr(at.session_state[section], field, value)
    return at


def playground_list(items, k=None, **scoring):
    """A ``ListSpec`` of ``items`` to seed the Playground with (``pg_spec=...``): k 5 or the whole list if shorter,
    as the default example's k clamped to it, scored with ``scoring``'s fields."""
    from ndcg_core.lists.scoring import Scoring
    from ndcg_core.lists.spec import ListSpec

    return ListSpec(tuple(items), Scoring(k=min(5, len(items)) if k is None else k, **scoring))


def empty_database(url: str) -> None:
    """Drop every table of the database at ``url`` (the classroom's, the short links', an older version's)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    tables = sa.MetaData()
    tables.reflect(engine)
    tables.drop_all(engine)
    engine.dispose()


def send_component_action(at, key: str, value, event: str = "action"):
    """What a click inside one of our ``st.components.v2`` components sends (``setTriggerValue(event, value)``),
    for an AppTest, which cannot draw the component: the script runs again with the page's other widgets as they
    are and the trigger of the component with key ``key`` set, so its ``on_<event>_change`` callback runs first,
    as in a browser. Returns the AppTest after the run."""
    import json

    from streamlit.components.v2.bidi_component.main import _make_trigger_id
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    ids = [node.proto.id for node in at._tree if getattr(node, "type", None) == "bidi_component"]
    base = next((i for i in ids if i.endswith(f"-{key}")), None)
    if base is None:
        raise LookupError(f"no component with key {key!r} on the page (components: {ids})")
    states = at._tree.get_widget_states()
    payload = json.dumps([{"event": event, "value": value}])
    states.widgets.append(WidgetState(id=_make_trigger_id(base, "events"), json_trigger_value=payload))
    return at._run(states)


def component_data(at, key: str):
    """The data one of our components with key ``key`` was last sent (its JSON text, parsed), from an AppTest."""
    import json

    ours = (n for n in at._tree if getattr(n, "type", None) == "bidi_component")
    node = next(n for n in ours if n.proto.id.endswith(f"-{key}"))
    data = json.loads(node.proto.json)
    return json.loads(data) if isinstance(data, str) else data


def press_order(at, kind: str):
    """Press one of the Playground's one-click orderings (ideal, worst, shuffle, reset), which the list's component
    draws under the list (was an ``st.button`` with the key ``btn_order_<kind>``); the AppTest after the run."""
    return send_component_action(at, "pg_list", {"type": "order", "kind": kind, "nonce": 1})
