"""Running the app as several processes behind nginx on one machine: ``python -m deploy up --replicas N --port P``."""

from __future__ import annotations

import sys


def app_command(port: int) -> list[str]:
    """How one app process is started (``streamlit run serve.py``) on 127.0.0.1:``port``: by the launcher, the
    tests and the benchmarks alike."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "serve.py",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]
