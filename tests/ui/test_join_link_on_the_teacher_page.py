"""The teacher's pages through AppTest: the join link on the control page and the projector view, and the QR code
on the projector view, are the ones ``ui.join_link`` works out; a bad NDCG_LAB_PUBLIC_URL is a message in the
teacher's language, a network link says what phones need, and with no link a phone could open the projector view
warns instead of showing a QR code."""

import re

import pytest
from streamlit.testing.v1 import AppTest

import ui.join_link
from support import ROOT, plain, seed_state

PAGE = "pages/7_Classroom.py"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_LAB_PUBLIC_URL", raising=False)
    return tmp_path


def opened_at(monkeypatch, page, address="192.168.1.23"):
    """The page as a browser at ``page`` sees it, on a machine whose network address is ``address``."""
    monkeypatch.setattr(ui.join_link, "page_address", lambda: page)
    monkeypatch.setattr(ui.join_link, "network_address", lambda: address)


def teacher(lang="en"):
    """The control page of a new room, and the room's projector view opened in the same browser."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(PAGE)
    seed_state(at, lang=lang)
    at.run()
    next(b for b in at.button if b.key == "btn_cr_start").click().run()
    assert not at.exception
    code = at.session_state["classroom"].room
    screen = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    screen.switch_page(PAGE)
    seed_state(screen, lang=lang)
    screen.query_params["room"], screen.query_params["view"] = code, "screen"
    screen.run()
    screen.session_state["classroom"].key = at.session_state["classroom"].key  # as the browser's memory does
    screen.run()
    assert not screen.exception
    return at, screen, code


def images(at):
    return at.get("image")


LINK = re.compile(r"https?://[^\s`]+/Classroom\?room=[A-Z0-9]{6}")


def codes(at):
    """The join links the page shows (the control link, with its key, is not one)."""
    return sorted({m for e in at.markdown for m in LINK.findall(plain(e.value).replace("\u2060", ""))})


def shown(elements):
    return [plain(e.value) for e in elements]


def test_a_page_opened_at_localhost_projects_the_network_address_and_says_what_phones_need(monkeypatch):
    opened_at(monkeypatch, "http://localhost:8501/Classroom")
    at, screen, code = teacher()
    for page in (at, screen):
        assert codes(page) == [f"http://192.168.1.23:8501/Classroom?room={code}"]
        assert not page.error
    # What phones need is for the teacher, on the control page; the class's screen is spared it.
    assert any("phones must be on a network that reaches this computer (the same Wi-Fi" in c for c in shown(at.caption))
    assert not any("Wi-Fi" in c for c in shown(screen.caption))
    assert len(images(screen)) == 2  # the join bar's QR code, and the waiting screen's large one
    assert [b.key for b in screen.button] == ["btn_cr_big_qr"]
    # The control link for the lecturer's phone is on the same reachable address, with its QR code.
    [control] = [c.value for c in at.code if "key=" in c.value]
    assert re.fullmatch(rf"http://192\.168\.1\.23:8501/Classroom\?room={code}&lang=en#key=[\w-]{{43}}", control)
    assert len(images(at)) == 1


def test_a_page_opened_on_the_network_address_projects_it_as_it_is_without_a_note(monkeypatch):
    opened_at(monkeypatch, "http://10.0.0.9:8501/Classroom", address=None)
    at, screen, code = teacher()
    assert codes(at) == codes(screen) == [f"http://10.0.0.9:8501/Classroom?room={code}"]
    assert len(images(screen)) == 2  # the join bar's QR code, and the waiting screen's large one
    assert not any("Wi-Fi" in c for c in shown(screen.caption) + shown(screen.warning))


@pytest.mark.parametrize(
    "lang, warning",
    [
        ("en", "No join link a phone could open: this page was opened at this computer's own address (localhost)"),
        ("zh", "没有手机能打开的加入链接：本页是用这台电脑自己的地址（localhost）打开的"),
    ],
)
def test_no_network_address_is_a_warning_instead_of_a_qr_code(monkeypatch, lang, warning):
    opened_at(monkeypatch, "http://127.0.0.1:8501/Classroom", address=None)
    at, screen, code = teacher(lang)
    assert not images(screen) and not codes(screen) and not codes(at)
    assert not images(at)  # no QR code of the control link either: no phone could open it
    assert any(w.startswith(warning) for w in shown(screen.warning)), shown(screen.warning)
    assert not screen.button
    assert f"{code}" in " ".join(shown(screen.markdown))  # the code is still on the screen


def test_the_public_url_wins_over_the_pages_address(monkeypatch):
    opened_at(monkeypatch, "http://localhost:8501/Classroom")
    monkeypatch.setenv("NDCG_LAB_PUBLIC_URL", "https://host.example.org/ndcg/")
    at, screen, code = teacher()
    assert codes(at) == codes(screen) == [f"https://host.example.org/ndcg/Classroom?room={code}"]
    assert len(images(screen)) == 2  # the join bar's QR code, and the waiting screen's large one
    assert not screen.error and not any("Wi-Fi" in c for c in shown(screen.caption))


@pytest.mark.parametrize(
    "lang, message",
    [
        (
            "en",
            "NDCG_LAB_PUBLIC_URL is 'ndcg.example.edu': it must start with http:// or https://, "
            "e.g. https://ndcg.example.edu. Until it is fixed, the join link is worked out as if it were not set.",
        ),
        (
            "zh",
            "NDCG_LAB_PUBLIC_URL 的值是 'ndcg.example.edu'：必须以 http:// 或 https:// 开头，"
            "例如 https://ndcg.example.edu。改正之前，加入链接按未设置该变量的情况给出。",
        ),
    ],
)
def test_a_bad_public_url_is_explained_to_the_teacher_and_the_link_falls_back(monkeypatch, lang, message):
    opened_at(monkeypatch, "http://localhost:8501/Classroom")
    monkeypatch.setenv("NDCG_LAB_PUBLIC_URL", "ndcg.example.edu")
    at, screen, code = teacher(lang)
    assert [e.replace("\u2060", "") for e in shown(at.error)] == [message] and not screen.error
    assert codes(screen) == [f"http://192.168.1.23:8501/Classroom?room={code}"]
    assert len(images(screen)) == 2  # the join bar's QR code, and the waiting screen's large one


def test_a_server_listening_on_loopback_only_is_a_warning_beside_the_network_link(monkeypatch):
    opened_at(monkeypatch, "http://localhost:8501/Classroom")
    monkeypatch.setattr(ui.join_link.st, "get_option", lambda name: "127.0.0.1")
    at, screen, code = teacher()
    assert codes(screen) == [f"http://192.168.1.23:8501/Classroom?room={code}"]
    assert any(w.startswith("This server listens only on this computer's own address") for w in shown(at.warning))


def test_this_machines_network_address_is_not_loopback():
    address = ui.join_link.network_address()
    if address is None:
        pytest.skip("this machine has no network interface but loopback")
    assert not address.startswith("127.") and address.count(".") == 3
