"""The join link as the browser tests read it: this machine's network address (found apart from ``ui.join_link``), the
link as a page writes it, and the QR codes a page shows, decoded from the screen as a phone's camera would. Phones can
join from the first try: a teacher who opened the app at localhost projects a QR code of this machine's network
address, and the home page's Join box takes a student to that room, both checked on the class of
test_browser_lesson.py. A server with NDCG_LAB_PUBLIC_URL projecting that address is pinned without a browser
(tests/core/test_join_link_phones_can_open.py for the link, tests/ui/test_join_link_on_the_teacher_page.py for the
pages)."""

import io
import socket

import test_browser_live_room as live_room
import zxingcpp
from PIL import Image
from playwright.sync_api import expect
from test_browser_projector_view import open_screen


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
