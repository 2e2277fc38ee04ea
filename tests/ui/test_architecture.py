"""The house rules a newcomer can rely on, checked on the source: layers, one state module, no import circle."""

import ast
from pathlib import Path

import pytest

from support import ROOT

PACKAGES = ("ndcg_core", "ui", "deploy", "ndcg_lab")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, Path]:
    found = {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}
    found.update({f"pages.{p.stem}": p for p in (ROOT / "pages").glob("*.py")})
    found["app"] = ROOT / "app.py"
    return found


def imports_of(name: str, path: Path) -> set[str]:
    """Every module of this project that ``name`` imports, at the top or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    modules = sources()
    return {m for m in found if m in modules and m != name}


GRAPH = {name: imports_of(name, path) for name, path in sources().items()}


def test_the_graph_sees_the_imports_it_should():
    # A check that cannot fail is a defect: the graph must hold edges we know are there.
    assert "ui.state" in GRAPH["ui.views.playground"]
    assert "ndcg_core.lists.ties" in GRAPH["ndcg_core.lists.scores"]  # a relative import
    assert "ui.views.classroom.page" in GRAPH["pages.7_Classroom"]


def test_the_core_never_imports_streamlit_or_the_ui():
    for name, path in sources().items():
        if name.startswith("ndcg_core"):
            text = path.read_text(encoding="utf-8")
            assert "import streamlit" not in text and "from streamlit" not in text, name
            assert not {m for m in GRAPH[name] if m.split(".")[0] == "ui"}, name


def view_of(name: str) -> str:
    """The view a module belongs to: ``ui.views.classroom`` for every module of the classroom's package."""
    return ".".join(name.split(".")[:3])


def test_no_view_imports_another_view():
    # A view split into a package by role (ui/views/classroom/) imports its own modules, never another view's.
    for name, imported in GRAPH.items():
        if name.startswith("ui.views."):
            assert not {m for m in imported if m.startswith("ui.views.") and view_of(m) != view_of(name)}, name


def test_the_view_rule_sees_a_package_s_own_modules_and_other_views():
    assert "ui.views.classroom.sources" in GRAPH["ui.views.classroom.kinds.judge"]
    assert view_of("ui.views.classroom.kinds.judge") == view_of("ui.views.classroom") != view_of("ui.views.learn")


def below_the_views(name: str) -> bool:
    """Whether a module of the UI is below its views: the phones' HTTP API (``ui.phones``), each kind's words
    (``ui.kinds``), the results, the database's handle and every other shared module of ``ui``."""
    return name.startswith("ui.") and not name.startswith("ui.views")


def test_nothing_below_the_views_imports_a_view():
    # Issue 49: the phones' routes were built from the classroom's views (ui/routes.py imported
    # ui/views/classroom/student_card, and so did join_link and classroom_results): the phones' API is a package
    # of its own, and a kind's card a model that the phone's page and the Streamlit views each draw.
    assert {"ui.phones.routes", "ui.phones.card", "ui.kinds.predict", "ui.classroom_results"} <= set(GRAPH)
    for name, imported in GRAPH.items():
        if below_the_views(name):
            assert not {m for m in imported if m.startswith("ui.views")}, (name, sorted(imported))


def test_the_below_the_views_rule_sees_the_phones_imports():
    assert below_the_views("ui.phones.routes") and below_the_views("ui.join_link")
    assert not below_the_views("ui.views.classroom.phone") and not below_the_views("pages.7_Classroom")
    assert "ui.phones.student_card" in GRAPH["ui.phones.routes"]
    assert "ui.kinds" in GRAPH["ui.phones.student_card"]
    assert "ui.phones.card" in GRAPH["ui.views.classroom.phone"]  # a view draws the phones' card model


def test_pages_are_thin_they_start_the_page_and_call_its_view():
    for path in sorted((ROOT / "pages").glob("*.py")):
        imported = GRAPH[f"pages.{path.stem}"]
        views = {m for m in imported if m.startswith("ui.views.")}
        assert len(views) == 1 and imported - views <= {"ui.page", "ui.page.start_page"}, path.name
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 10, path.name


def test_only_ui_state_touches_session_state():
    for name, path in sources().items():
        if name == "ui.state":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        touching = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "session_state"]
        assert not touching, f"{name} uses st.session_state on lines {touching}: add a field or accessor to ui/state.py"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules along it, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def module_graph() -> dict[str, set[str]]:
    """Imports between modules; ``from pkg import name`` counts for the module ``pkg.name`` when it is one,
    and a package's own ``__init__`` re-exports are not a circle with the modules it gathers."""
    graph = {}
    for name, imported in GRAPH.items():
        edges = set()
        for m in imported:
            parent = m.rpartition(".")[0]
            if f"{m}" in GRAPH and (m not in PACKAGES or parent == ""):
                edges.add(m)
            elif parent in GRAPH:
                edges.add(parent)
        graph[name] = {m for m in edges if not (name.startswith(m + ".") and GRAPH.get(m) is not None)}
    return graph


def test_find_cycle_finds_a_circle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("package", ["ndcg_core", "ui"])
def test_no_import_circle(package):
    graph = {n: {m for m in e if m.startswith(package)} for n, e in module_graph().items() if n.startswith(package)}
    assert find_cycle(graph) is None


def test_deploy_builds_on_ndcg_lab_s_base_and_only_the_command_reaches_back():
    # Layers: ndcg_lab (where the app is, how a process starts) <- deploy <- ndcg_lab.cli (its deploy subcommand).
    assert GRAPH["deploy"] >= {"ndcg_lab"}, "the check must see deploy's import of the base"
    for name in GRAPH:
        if name.startswith("deploy"):
            assert not {m for m in GRAPH[name] if m.startswith("ndcg_lab.")}, name
        if name.startswith("ndcg_lab"):
            reached = {m for m in GRAPH[name] if m.split(".")[0] == "deploy"}
            assert reached <= ({"deploy.launcher"} if name == "ndcg_lab.cli" else set()), (name, reached)


def test_no_import_circle_between_deploy_and_the_command():
    graph = {n: set(e) for n, e in module_graph().items() if n.split(".")[0] in ("deploy", "ndcg_lab")}
    assert find_cycle(graph) is None


# The store's ways in that no view may take: a command (and a read) goes through the classroom's runtime
# (``ui.database.runtime``, ``ndcg_core.classroom.runtime``), the rows it returns are values the views draw.
REPOSITORIES = frozenset({"Classroom", "Database", "Schema", "Rooms", "Students", "Doors", "Answers", "Lessons"})
STORE_HANDLES = frozenset({"db", "quick_db", "service", "room_changed", "make_engine"})


def store_reaches(source: str) -> list[str]:
    """Where ``source`` reaches the classroom's store past its runtime: a repository (or the engine) imported, a
    store handle of ``ui.database`` imported, or one called (``db()``, ``database.db()``), as readable strings."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if node.module.startswith("ndcg_core.classroom.storage") and alias.name in REPOSITORIES:
                    found.append(f"line {node.lineno}: imports {node.module}.{alias.name}")
                if node.module == "ui.database" and alias.name in STORE_HANDLES:
                    found.append(f"line {node.lineno}: imports ui.database.{alias.name}")
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in STORE_HANDLES and not node.args and not node.keywords:
                found.append(f"line {node.lineno}: calls {called}()")
    return found


def test_the_store_rule_finds_a_repository_or_a_db_call():
    assert store_reaches("from ui.database import db\ndb().rooms.lock('K', 'k')\n") == [
        "line 1: imports ui.database.db",
        "line 2: calls db()",
    ]
    assert store_reaches("from ndcg_core.classroom.storage.rooms import Rooms\n") == [
        "line 1: imports ndcg_core.classroom.storage.rooms.Rooms"
    ]
    assert store_reaches("from ui import database\ndatabase.service().card('K', 's')\n") == ["line 2: calls service()"]
    assert store_reaches("from ui.database import runtime\nruntime().lock('K', 'k')\n") == []


def test_no_view_reaches_the_store_past_the_classroom_s_runtime():
    # Issue 49: teacher actions called the repositories from the views (db().rooms.set_phase ...); every command
    # goes through ClassroomRuntime now, and the rows it returns (Room, ActivityRow, ...) are values to draw.
    for name, path in sources().items():
        if name.startswith("ui.views"):
            assert not store_reaches(path.read_text(encoding="utf-8")), (name, store_reaches(path.read_text("utf-8")))


def test_the_phones_reach_the_store_only_through_the_classroom_s_runtime():
    # Issue 49: the phones' routes answered through ``service()`` beside the runtime; an answer and a join are the
    # runtime's commands now, and a card is read through its service (``runtime().service``). Telling the process
    # that a room changed (``room_changed``: its shared read is forgotten) is no way into the store.
    phones = [name for name in sources() if name.startswith("ui.phones")]
    assert "ui.phones.routes" in phones
    for name in phones:
        reaches = [r for r in store_reaches(sources()[name].read_text(encoding="utf-8")) if "room_changed" not in r]
        assert not reaches, (name, reaches)
