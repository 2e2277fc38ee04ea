"""A Streamlit server for a benchmark: the app on a free loopback port, waited for until healthy."""

from __future__ import annotations

import contextlib
import ctypes
import signal
import subprocess
from pathlib import Path

from deploy import free_port, start_app

ROOT = Path(__file__).resolve().parent.parent


def end_with_parent() -> None:
    """In a child process (``preexec_fn``): ask Linux to end it when the benchmark that started it dies, so a
    benchmark killed part-way leaves no server or load behind."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def start_server(env: dict[str, str] | None = None, seconds: float = 60.0) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run serve.py`` and return the process and its base URL once it answers (within
    ``seconds``); ``env`` adds variables to the server's environment."""
    port = free_port()
    return start_app(port, env=env, preexec_fn=end_with_parent, seconds=seconds), f"http://127.0.0.1:{port}"
