"""The control page's notice that the room runs on fewer app processes than ``python -m deploy up`` started: one
is being started again, or was given up (:mod:`ndcg_core.classroom.processes`). Nothing is drawn when the app is
not served by the launcher, nor while every process serves."""

from __future__ import annotations

import os

import streamlit as st

from ndcg_core.classroom.processes import PROCESSES_VARIABLE, Processes, processes_now
from ui.i18n import Translator
from ui.live_part import live_part

# How often the notice looks again: a killed process is back within seconds, and reading the file costs nothing.
PROCESSES_SECONDS = 5.0


def processes_text(t: Translator, processes: Processes | None) -> str | None:
    """The notice for ``processes``, in ``t``'s language, or None when there is nothing to say."""
    if processes is None or not processes.short:
        return None
    key = "classroom.processes_failed" if processes.failed else "classroom.processes_restarting"
    return t(key, alive=processes.alive, started=processes.started)


def processes_notice(t: Translator) -> None:
    """Draw the notice, looked at again every ``PROCESSES_SECONDS`` (only under the launcher: else no part)."""
    if os.environ.get(PROCESSES_VARIABLE):
        _processes_part(t.lang)


@live_part(run_every=PROCESSES_SECONDS)
def _processes_part(lang: str) -> None:
    text = processes_text(Translator(lang), processes_now())
    if text is not None:
        st.warning(text, icon=":material/dns:")
