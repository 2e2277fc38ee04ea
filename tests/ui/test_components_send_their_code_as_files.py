"""The app's ``st.components.v2`` components give Streamlit file names, not their code: Streamlit's own manifest scan
finds ``ndcg_lab/pyproject.toml`` for the installed ``ndcg-lab``, every component drawn is declared there with its
files in ``ndcg_lab/components/``, and the definition Streamlit builds for it carries a URL path and no inline code,
so a run sends only the component's data. The files each one imports (``./pointer.js``, ``@import``) are there too.
"""

import importlib
import pkgutil
import re

import pytest
from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.components.v2.manifest_scanner import scan_component_manifests

import ui.widgets
from ui.widgets.served import COMPONENTS, ServedComponent


def served_components() -> list[ServedComponent]:
    found = []
    for module in pkgutil.iter_modules(ui.widgets.__path__, "ui.widgets."):
        found += [v for v in vars(importlib.import_module(module.name)).values() if isinstance(v, ServedComponent)]
    return found


SERVED = served_components()


def test_the_playground_s_components_are_among_those_served():
    names = {c.name for c in SERVED}
    assert {"ndcg_lab.sortable_list", "ndcg_lab.formula", "ndcg_lab.breakdown_table", "ndcg_lab.page_nav"} <= names
    assert len(names) == len(SERVED)  # one registration per name


def test_streamlit_finds_the_manifest_of_the_installed_package():
    ours = [(m, root) for m, root in scan_component_manifests() if m.name == "ndcg_lab"]
    assert len(ours) == 1
    manifest, root = ours[0]
    assert root.resolve() == COMPONENTS.parent
    declared = {f"ndcg_lab.{c.name}": c.resolve_asset_root(root) for c in manifest.components}
    assert {c.name for c in SERVED} <= declared.keys()
    assert {declared[c.name] for c in SERVED} == {COMPONENTS}


@pytest.fixture(scope="module")
def manager() -> BidiComponentManager:
    found = BidiComponentManager()
    found.discover_and_register_components(start_file_watching=False)
    return found


@pytest.mark.parametrize("component", SERVED, ids=lambda c: c.name)
def test_each_definition_carries_a_url_path_not_the_code(component, manager):
    definition = manager.build_definition_with_validation(
        component_key=component.name, html=component.html, css=component.css, js=component.js
    )
    assert definition.js_url == component.js
    assert (COMPONENTS / component.js).is_file()
    if component.css is not None and component.css.endswith(".css"):
        assert definition.css_url == component.css


def imported(path) -> set[str]:
    """The files a module or style sheet in ``COMPONENTS`` loads beside it."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".js":
        return set(re.findall(r'^import (?:[^"\n]* from )?"\./([^"]+)";', text, flags=re.M))
    return set(re.findall(r'^@import url\("([^"]+)"\);', text, flags=re.M))


def test_what_each_file_imports_is_beside_it():
    for path in list(COMPONENTS.glob("*.js")) + list(COMPONENTS.glob("*.css")):
        for name in imported(path):
            assert (COMPONENTS / name).is_file(), f"{path.name} imports {name}"
    assert imported(COMPONENTS / "sortable.js") == {"Sortable.min.js", "pointer.js"}
    assert imported(COMPONENTS / "table.entry.css") == {"table.css", "linked.css"}
