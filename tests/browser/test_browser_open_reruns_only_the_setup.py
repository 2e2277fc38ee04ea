"""Pressing "Open for the class", in Debian's Chromium: the press reruns only the control page's setup part (an
``st.fragment``), not the whole page, so on a process that also serves half the class the teacher's page does not
compete with the phones fetching the activity; the rest of the page (Lock, Reveal, the live count) follows by
itself at the live part's next run. What the browser sends is read from its websocket: each rerun it asks for, and
for which part."""

import pytest
from playwright.sync_api import expect
from streamlit.proto.BackMsg_pb2 import BackMsg
from test_browser_live_room import answered, open_activity, phone, start_room

pytestmark = pytest.mark.browser


def reruns_asked(context):
    """Every rerun the context's pages ask their server for from now on, as (the part's fragment id or "", whether
    its timer asked), in order (a list that grows)."""
    asked = []

    def sent(payload):
        if isinstance(payload, bytes):
            msg = BackMsg()
            msg.ParseFromString(payload)
            if msg.WhichOneof("type") == "rerun_script":
                asked.append((msg.rerun_script.fragment_id, msg.rerun_script.is_auto_rerun))

    context.on("page", lambda page: page.on("websocket", lambda ws: ws.on("framesent", sent)))
    return asked


def test_the_press_reruns_the_setup_part_and_the_page_follows_by_itself(browser, playwright, app_url):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    asked = reruns_asked(context)
    _, teacher, code, _ = start_room(browser, app_url, context)
    phone(browser, playwright, app_url, code, "Ana")
    expect(teacher.get_by_test_id("stMetricValue").first).to_have_text("1")
    before = len(asked)
    open_activity(teacher)
    expect(teacher.get_by_role("button", name="Lock answers")).to_be_visible()
    expect(answered(teacher)).to_have_text("0 / 1")
    pressed = [(part, timer) for part, timer in asked[before:] if not timer]
    assert pressed and all(part for part, _ in pressed), pressed  # the press: one part's run, never the page's
    context.close()
