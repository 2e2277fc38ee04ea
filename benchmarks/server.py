"""A Streamlit server for a benchmark: the app on a free loopback port, waited for until healthy."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from deploy import app_command

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def end_with_parent() -> None:
    """In a child process (``preexec_fn``): ask Linux to end it when the benchmark that started it dies, so a
    benchmark killed part-way leaves no server or load behind."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def start_server(env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run serve.py`` and return the process and its base URL once it answers; ``env`` adds
    variables to the server's environment."""
    port = free_port()
    server = subprocess.Popen(
        app_command(port),
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        preexec_fn=end_with_parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=1)
            return server, url
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("the server did not start")
