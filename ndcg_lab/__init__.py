"""NDCG Lab as an installed program: the ``ndcg-lab`` command (:mod:`ndcg_lab.cli`) and where the app's entry files
are (:func:`app_dir`)."""

from __future__ import annotations

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
