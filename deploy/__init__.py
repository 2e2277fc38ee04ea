"""Running the app as several processes behind nginx on one machine: ``python -m deploy up --replicas N --port P``."""

from __future__ import annotations

import sys

from ndcg_lab import ENTRY, app_dir


def app_command(port: int, address: str | None = "127.0.0.1", script: str | None = None) -> list[str]:
    """How one app process is started (``streamlit run serve.py``) on ``address``:``port`` (``None``: Streamlit's
    default, every interface): by the launcher, ``ndcg-lab serve``, the tests and the benchmarks alike. ``script``:
    the entry file, by default ``serve.py`` where this checkout or install keeps it (:func:`ndcg_lab.app_dir`)."""
    command = [sys.executable, "-m", "streamlit", "run", script or str(app_dir() / ENTRY), "--server.port", str(port)]
    if address is not None:
        command += ["--server.address", address]
    return command + [
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]
