"""A teacher's control page behind ``python -m deploy up --listen 127.0.0.1`` (through AppTest): the replica listens
on 127.0.0.1 by design and nginx, kept local too, is named by the launcher (``NDCG_LAB_FRONT_ADDRESS``); the page
warns, in the teacher's language, that no phone can open the link and names the launcher's option to restart
without, never Streamlit's. (That the launcher gives its replicas that address is
``tests/deploy/test_deploy_up.py``'s; which address and option the link is flagged for,
``tests/core/test_join_link_phones_can_open.py``'s.)"""

import pytest
from test_join_link_on_the_teacher_page import opened_at, shown, teacher

import ui.join_link
from ndcg_core.classroom.joining import FRONT_ADDRESS_VARIABLE
from support import plain
from ui.i18n import Translator


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_LAB_PUBLIC_URL", raising=False)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nginx_kept_local_is_a_warning_naming_the_launchers_option(monkeypatch, lang):
    opened_at(monkeypatch, "http://localhost:8080/Classroom")  # nginx's port, opened on this machine
    monkeypatch.setattr(ui.join_link.st, "get_option", lambda name: "127.0.0.1")  # the replica, as deploy up runs it
    monkeypatch.setenv(FRONT_ADDRESS_VARIABLE, "127.0.0.1")
    at, _screen, _code = teacher(lang)
    t = Translator(lang)
    warnings = shown(at.warning)
    assert plain(t("classroom.join_note.deploy_local")) in warnings, warnings
    assert plain(t("classroom.join_note.server_local")) not in warnings
    assert not [w for w in warnings if "--server.address" in w]
    assert [w for w in warnings if "--listen" in w]
