"""Running the app as several processes behind nginx on one machine: ``python -m deploy up --replicas N --port P``."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Mapping
from typing import IO

from ndcg_lab import app_command, app_dir

__all__ = ["HEALTH", "answers", "app_command", "free_port", "start_app"]

HEALTH = "/_stcore/health"


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
