"""The teacher's key in Debian's Chromium: the control link carries it after "#" (``?room=CODE&lang=en#key=...``),
which a browser never sends to a server, so no request line, no server's or proxy's log, and nothing the page sends
its server holds it; the page takes control and the address bar then holds no key. An older link with ``?key=``
still gives control, and the key leaves its address bar at once. The module's tests share the worker's desktop
browser (conftest's ``desktop_page``; each test a room and a page of its own): the Streamlit front end comes from the
browser's cache, and no room's key in its memory is another room's."""

import re

import pytest
from playwright.sync_api import expect

from ndcg_core.classroom.storage import Classroom, database_url

pytestmark = pytest.mark.browser


@pytest.fixture
def desk(desktop_page):
    """The teacher's browser: the worker's shared desktop one, where each test opens a page of its own (closed
    after it by ``desktop_page``)."""
    return desktop_page.context


def recorded(page):
    """Every address the page asks for (pages, scripts, the websocket: what a server or a proxy logs), and every
    websocket message it sends (where the page's address goes to Streamlit with each run), as hex."""
    addresses, frames = [], []
    page.on("request", lambda request: addresses.append(request.url))

    def websocket(ws):
        addresses.append(ws.url)
        ws.on("framesent", lambda payload: frames.append(payload.encode() if isinstance(payload, str) else payload))

    page.on("websocket", websocket)
    return addresses, frames


def test_a_control_link_gives_control_and_its_key_reaches_no_server(desk, app_url):
    store = Classroom(database_url())  # the same database as the app's server (tests/conftest.py)
    room, key = store.rooms.create()
    page = desk.new_page()
    addresses, frames = recorded(page)
    page.goto(f"{app_url}/Classroom?room={room.code}&lang=en#key={key}")
    expect(page.get_by_text(f"Room {room.code}: controls")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("button", name="End the room")).to_be_visible()
    page.wait_for_function("() => !window.location.href.includes('key')", timeout=15_000)
    assert page.url == f"{app_url}/Classroom?room={room.code}&lang=en"
    assert addresses and not [a for a in addresses if key in a or "key=" in a]
    # The component hands the key to the page in a websocket message of its own; the page's address, which
    # Streamlit sends with every run, never holds it.
    assert frames and not [f for f in frames if f"key={key}".encode() in f]

    # The projector view opened from there holds no key either: the browser's memory gives it control.
    page.goto(f"{app_url}/Classroom?room={room.code}&view=screen")
    expect(page.get_by_text("Join with a phone")).to_be_visible(timeout=30_000)
    assert not [a for a in addresses if key in a or "key=" in a]
    page.close()
    store.close()


def test_an_older_link_with_the_key_in_its_query_still_gives_control_and_drops_it(desk, app_url):
    store = Classroom(database_url())
    room, key = store.rooms.create()
    page = desk.new_page()
    page.goto(f"{app_url}/Classroom?room={room.code}&key={key}")
    expect(page.get_by_text(f"Room {room.code}: controls")).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(rf"/Classroom\?room={room.code}(&lang=en)?$"))
    page.close()
    store.close()


def test_a_wrong_key_in_the_fragment_gives_no_control_and_says_so(desk, app_url):
    store = Classroom(database_url())
    room, _ = store.rooms.create()
    page = desk.new_page()
    page.goto(f"{app_url}/Classroom?room={room.code}&lang=en#key={'x' * 43}")
    expect(page.get_by_text("This link does not control the room", exact=False)).to_be_visible(timeout=30_000)
    expect(page.get_by_role("button", name="End the room")).to_have_count(0)
    assert "key" not in page.url
    page.close()
    store.close()
