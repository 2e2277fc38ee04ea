"""How the app's ``st.components.v2`` components reach the browser: their scripts and style sheets are files in
``ndcg_lab/components/`` (``COMPONENTS``), which Streamlit serves at ``/_stcore/bidi-components/<name>/<file>``.

A component given its code as a string sends all of it in its element on every run: the Playground's list alone,
with SortableJS, was 75 KB of every move's 135 KB. Given a file, the element carries the file's path; the browser
loads the script once as an ES module (its imports, such as ``./pointer.js``, beside it) and each run sends only
the data.

Streamlit takes such files only from an installed package that declares them: ``ndcg_lab/pyproject.toml``
(``[tool.streamlit.component]``, each component's ``asset_dir``), found beside the package in a checkout installed
with ``pip install -e .`` and shipped in the wheel. The folder must lie inside the package named after the
distribution (``ndcg_lab``), which is why the files are there and not beside their Python modules in ``ui/widgets``.
Run without installing, the first component drawn fails with ``ComponentFilesNotFoundError``, which says so; nothing
falls back to sending the code inline.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

import ndcg_lab

if TYPE_CHECKING:
    from streamlit.components.v2.types import ComponentRenderer

COMPONENTS = Path(ndcg_lab.__file__).resolve().parent / "components"


class ComponentFilesNotFoundError(RuntimeError):
    """The running Streamlit does not know where a component's files are: NDCG Lab is not installed."""


@dataclass(frozen=True)
class ServedComponent:
    """A component whose script ``js`` and style sheet ``css`` are file names in ``COMPONENTS`` (``html`` is its
    markup, inline). Calling it draws it, with the keyword arguments of a ``st.components.v2`` component."""

    name: str
    js: str
    css: str | None = None
    html: str | None = None

    def __call__(self, **kwargs: Any) -> Any:
        return _renderer(self)(**kwargs)


# Registered at the first drawing rather than at import: only a running app (or AppTest) has read the package's
# manifest, and a module imported by a plain unit test must not fail. The cache holds one registration per
# component for the process, as a module-level `component()` call did; a later runtime (another AppTest) gets the
# same definition from Streamlit's own check on each mount.
@functools.cache
def _renderer(component: ServedComponent) -> ComponentRenderer:
    try:
        return st.components.v2.component(component.name, html=component.html, css=component.css, js=component.js)
    except StreamlitAPIException as error:
        raise ComponentFilesNotFoundError(
            f"Streamlit cannot find the files of the component {component.name} ({COMPONENTS}): install NDCG Lab "
            "(pip install -e . in the checkout, or the wheel) so that Streamlit reads ndcg_lab/pyproject.toml"
        ) from error
