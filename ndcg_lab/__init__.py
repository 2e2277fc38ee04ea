"""NDCG Lab as an installed program: the ``ndcg-lab`` command (:mod:`ndcg_lab.cli`), where the app's entry files
are (:func:`app_dir`) and how one app process is started (:func:`app_command`). It imports nothing of ``deploy``,
which builds on it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ENTRY = "serve.py"  # the script ``ndcg-lab serve`` and ``python -m deploy up`` run (Streamlit's st.App over app.py)


def app_dir() -> Path:
    """The folder that holds ``app.py``, ``serve.py``, ``pages/`` and ``.streamlit/config.toml``.

    Installed from a wheel, that is this package's ``app/`` (pyproject.toml ships the checkout's top-level files
    there); in a source checkout (run as it is, or installed with ``pip install -e .``) it is the checkout's top level,
    where those files are written.
    """
    here = Path(__file__).resolve().parent
    return here / "app" if is_installed() else here.parent


def is_installed() -> bool:
    """Whether this is an installed NDCG Lab (the entry files are in ``ndcg_lab/app/``), not a source checkout."""
    return (Path(__file__).resolve().parent / "app" / ENTRY).is_file()


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
