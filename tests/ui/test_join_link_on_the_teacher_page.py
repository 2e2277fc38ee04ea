"""The teacher's page through AppTest: the join link and its QR code are the ones ``ui.join_link`` works out, a
bad NDCG_LAB_PUBLIC_URL is a message in the teacher's language, a network link says what phones need, and with
no link a phone could open the page warns instead of showing a QR code."""

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
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(PAGE)
    seed_state(at, lang=lang)
    at.run()
    next(b for b in at.button if b.key == "btn_cr_start").click().run()
    assert not at.exception
    return at, at.session_state["classroom"].room


def images(at):
    return at.get("image")


def codes(at):
    return [c.value for c in at.code if "key=" not in c.value]


def shown(elements):
    return [plain(e.value) for e in elements]


def test_a_page_opened_at_localhost_projects_the_network_address_and_says_what_phones_need(monkeypatch):
    opened_at(monkeypatch, "http://localhost:8501/Classroom")
    at, code = teacher()
    assert codes(at) == [f"http://192.168.1.23:8501/Classroom?room={code}"]
    assert len(images(at)) == 1
    assert any("phones must be on a network that reaches this computer (the same Wi-Fi" in c for c in shown(at.caption))
    assert not at.warning[1:] and not at.error  # the keep-link warning only
    assert any(b.key == "btn_cr_big_qr" for b in at.button)


def test_a_page_opened_on_the_network_address_projects_it_as_it_is_without_a_note(monkeypatch):
    opened_at(monkeypatch, "http://10.0.0.9:8501/Classroom", address=None)
    at, code = teacher()
    assert codes(at) == [f"http://10.0.0.9:8501/Classroom?room={code}"]
    assert len(images(at)) == 1
    assert not any("Wi-Fi" in c for c in shown(at.caption) + shown(at.warning))


@pytest.mark.parametrize(
    "lang, warning",
    [
        ("en", "No join link a phone could open: this page was opened at this computer's own address (localhost)"),
        ("zh", "没有手机能打开的加入链接：本页是用这台电脑自己的地址（localhost）打开的"),
    ],
)
def test_no_network_address_is_a_warning_instead_of_a_qr_code(monkeypatch, lang, warning):
    opened_at(monkeypatch, "http://127.0.0.1:8501/Classroom", address=None)
    at, code = teacher(lang)
    assert not images(at) and not codes(at)
    assert any(w.startswith(warning) for w in shown(at.warning)), shown(at.warning)
    assert not any(b.key == "btn_cr_big_qr" for b in at.button)
    assert f"{code}" in " ".join(shown(at.markdown))  # the code is still on the screen


def test_the_public_url_wins_over_the_pages_address(monkeypatch):
    opened_at(monkeypatch, "http://localhost:8501/Classroom")
    monkeypatch.setenv("NDCG_LAB_PUBLIC_URL", "https://host.example.org/ndcg/")
    at, code = teacher()
    assert codes(at) == [f"https://host.example.org/ndcg/Classroom?room={code}"]
    assert len(images(at)) == 1
    assert not at.error and not any("Wi-Fi" in c for c in shown(at.caption))


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
    at, code = teacher(lang)
    assert [e.replace("\u2060", "") for e in shown(at.error)] == [message]
    assert codes(at) == [f"http://192.168.1.23:8501/Classroom?room={code}"]
    assert len(images(at)) == 1


def test_a_server_listening_on_loopback_only_is_a_warning_beside_the_network_link(monkeypatch):
    opened_at(monkeypatch, "http://localhost:8501/Classroom")
    monkeypatch.setattr(ui.join_link.st, "get_option", lambda name: "127.0.0.1")
    at, code = teacher()
    assert codes(at) == [f"http://192.168.1.23:8501/Classroom?room={code}"]
    assert any(w.startswith("This server listens only on this computer's own address") for w in shown(at.warning))


def test_this_machines_network_address_is_not_loopback():
    address = ui.join_link.network_address()
    # This machine has a network (the suite runs on one): an IPv4 address that is not 127.x.
    assert address is not None and not address.startswith("127.") and address.count(".") == 3
