"""The teacher's control page under ``python -m deploy up``: when the launcher's file says fewer replicas serve
than it started (one restarting, or given up), a notice says so in the teacher's language; while all serve, or
without the launcher, nothing is said. Through Streamlit's AppTest, the file written as the launcher writes it."""

import pytest
from test_classroom_page import button, session, texts

from ndcg_core.classroom.processes import PROCESSES_VARIABLE, Processes, write_processes
from ui.i18n import Translator


def control_page(lang):
    teacher = session(lang)
    button(teacher, "btn_cr_start").click().run()
    assert not teacher.exception
    return teacher


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_notice_comes_with_a_missing_process_and_goes_with_its_return(classroom_db, monkeypatch, tmp_path, lang):
    t = Translator(lang)
    status = tmp_path / "processes.json"
    monkeypatch.setenv(PROCESSES_VARIABLE, str(status))
    write_processes(status, Processes(started=2, alive=1, restarting=1))
    teacher = control_page(lang)
    restarting = t("classroom.processes_restarting", alive=1, started=2)
    assert restarting in texts(teacher)
    assert ("Running on 1 of 2 processes; a process is restarting" in restarting) == (lang == "en")

    write_processes(status, Processes(started=2, alive=2))
    teacher.run()
    assert restarting not in texts(teacher)

    write_processes(status, Processes(started=3, alive=2, failed=1))
    teacher.run()
    assert t("classroom.processes_failed", alive=2, started=3) in texts(teacher)


def test_without_the_launcher_nothing_is_said(classroom_db, monkeypatch, tmp_path):
    monkeypatch.delenv(PROCESSES_VARIABLE, raising=False)
    teacher = control_page("en")
    assert "processes" not in texts(teacher)
    assert "Room " in texts(teacher)  # the control page it is
