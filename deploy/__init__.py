"""Running the app as several processes behind nginx on one machine: ``python -m deploy up --replicas N --port P``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Mapping
from typing import IO

from ndcg_lab import ENTRY, app_dir

HEALTH = "/_stcore/health"


def app_command(port: int, address: str | None = "127.0.0.1", script: str | None = None) -> list[str]:
    """How one app process is started (``streamlit run serve.py``) on ``address``:``port`` (``None``: Streamlit's
    default, every interface): by the launcher, ``ndcg-lab serve``, the tests and the benchmarks alike. ``script``:
    the entry file, by default ``serve.py`` where this checkout or install keeps it (:func:`ndcg_lab.app_dir`)."""
    command = [sys.executable, "-m", "streamlit", "run", script or str(app_dir() / ENTRY), "--server.port", str(port)]
    if address is not None:
        command += ["--server.address", address]
    upload_mb = os.environ.get("NDCG_LAB_MAX_UPLOAD_MB", "")
    if upload_mb.isdigit() and int(upload_mb) >= 1:  # Streamlit's own per-file limit, so that it can be raised too
        command += ["--server.maxUploadSize", upload_mb]
    return command + [
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def answers(url: str) -> bool:
    """Whether ``url`` answers 200 now."""
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def start_app(
    port: int,
    *,
    env: Mapping[str, str] | None = None,
    output: IO[bytes] | int = subprocess.DEVNULL,
    preexec_fn: Callable[[], None] | None = None,
    seconds: float = 60.0,
) -> subprocess.Popen[bytes]:
    """One app process (``app_command``) on 127.0.0.1:``port``, returned once it answers its health check, for
    the tests, the benchmarks and the docs' screenshots; ``env`` adds to its environment, ``output`` takes its
    log. A ``RuntimeError`` (the process killed) if it ends or does not answer within ``seconds``."""
    server = subprocess.Popen(
        app_command(port),
        cwd=app_dir(),
        env={**os.environ, **(env or {})},
        stdout=output,
        stderr=subprocess.STDOUT,
        preexec_fn=preexec_fn,
    )
    deadline = time.monotonic() + seconds
    while not answers(f"http://127.0.0.1:{port}{HEALTH}"):
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            server.wait(timeout=10)
            raise RuntimeError(f"the app did not start on port {port}")
        time.sleep(0.3)  # a starting server has no event to wait on
    return server
