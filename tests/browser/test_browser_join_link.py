"""Phones can join from the first try, in Debian's Chromium: a teacher who opened the app at localhost projects a
QR code of this machine's network address (decoded here as a phone's camera would), and the home page's Join box
takes a student to that room. A server with NDCG_LAB_PUBLIC_URL projecting that address is pinned without a browser
(tests/core/test_join_link_phones_can_open.py for the link, tests/ui/test_join_link_on_the_teacher_page.py for the
pages), the QR code drawing whatever link the page shows being checked here."""

import io
import re
import socket

import pytest
import test_browser_live_room as live_room
import zxingcpp
from PIL import Image
from playwright.sync_api import expect
from test_browser_projector_view import open_screen

pytestmark = pytest.mark.browser


def this_machines_address():
    """The outgoing interface's IPv4 address, found here independently of ui.join_link (another probe address),
    or None when the machine has no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("198.51.100.7", 9))  # TEST-NET-2: a UDP connect sends no packet
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def start_room(browser, url):
    """A teacher starts a room at ``url``, and opens its projector view (where the QR code is) from the control page."""
    context, teacher, code, _ = live_room.start_room(browser, url)
    return context, teacher, open_screen(teacher), code


def join_link_text(page):
    """The join link as the page writes it (inline code in the join line)."""
    return page.get_by_test_id("stMarkdownContainer").locator("code").filter(has_text="/join/")


def qr_codes(page, count):
    """The texts of the QR codes in the page's ``count`` images, read from what the screen shows. The images are
    waited for: the page may draw the join line before the image beside it."""
    images = page.get_by_test_id("stImage").locator("img")
    expect(images).to_have_count(count)
    found = []
    for image in images.all():
        expect(image).to_have_js_property("complete", True)
        picture = Image.open(io.BytesIO(image.screenshot()))
        found += [b.text for b in zxingcpp.read_barcodes(picture) if b.format == zxingcpp.BarcodeFormat.QRCode]
    return found


def test_a_teacher_at_localhost_projects_this_machines_network_address_and_the_home_page_joins_a_phone(
    browser, playwright, app_url, tmp_path
):
    port = int(app_url.rsplit(":", 1)[1])
    context, teacher, screen, code = start_room(browser, f"http://localhost:{port}")
    screen.screenshot(path=str(tmp_path / "projector-at-localhost.png"))
    address = this_machines_address()
    if address is None:  # no network: a warning, and no QR code of an address no phone could open
        expect(screen.get_by_text("No join link a phone could open")).to_be_visible()
        assert qr_codes(screen, 0) == []
    else:
        join = f"http://{address}:{port}/join/{code}"
        for page in (teacher, screen):
            expect(join_link_text(page)).to_have_text(join)
        assert qr_codes(screen, 2) == [join, join]  # the join bar's, and the waiting screen's large one
        # The test server listens on 127.0.0.1 only (support.start_app): the control page says phones cannot reach
        # it; the class's screen is spared the note.
        expect(teacher.get_by_text("This server listens only on this computer's own address")).to_be_visible()
        expect(screen.get_by_text("This server listens only")).to_have_count(0)

    # The same room joined from the home page's Join box on a phone (the same server, at its loopback address).
    phone = browser.new_context(**playwright.devices["iPhone 13"])
    page = phone.new_page()
    page.goto(app_url)
    box = page.get_by_role("textbox", name="Room code from the teacher's screen")
    box.fill("zzz")
    page.get_by_role("button", name="Join the class").tap()
    expect(page.get_by_text("The room code 'zzz' does not have 6 characters")).to_be_visible(timeout=30_000)
    expect(box).to_have_value("zzz")  # what was typed stays, to be corrected
    typed = f"{code[:3].lower()}-{code[3:].lower()}"
    box.fill(typed)
    page.get_by_role("button", name="Join the class").tap()
    expect(page).to_have_url(re.compile(rf"/Classroom\?(.*&)?room={code}(&|$)"), timeout=30_000)
    expect(page.get_by_role("textbox", name="Nickname (optional)")).to_be_visible()
    page.get_by_role("button", name="Join", exact=True).tap()
    expect(page.get_by_text("You joined as student 1.")).to_be_visible(timeout=30_000)
    phone.close()
    context.close()
