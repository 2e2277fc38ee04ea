"""A kind of classroom activity lives in one place: its core module in ``ndcg_core/classroom/kinds/`` (a class that
has every hook of ``ActivityKind``, checked by mypy against the protocol), its words module in ``ui/kinds/`` (its
phone card and its results CSV wording, checked against ``KindWords`` of its own kind), its views module in
``ui/views/classroom/kinds/`` (checked against ``KindViews`` of its own kind) and its texts in both languages. The
registries ``KINDS``, ``WORDS`` and ``VIEWS`` find the modules themselves and name no kind: a new kind's three
modules are registered with no other edit. Nothing outside the kinds' core package asks which kind an activity is with
``isinstance``: what a caller needs is a hook of the protocol."""

import ast
import importlib
import inspect
import json
import pkgutil
import re
import sys
from pathlib import Path

import pytest

import ndcg_core.classroom.kinds as core_kinds
import ui.kinds as kind_words
import ui.views.classroom.kinds as kind_views
from ndcg_core.classroom.kinds import HELPERS, KINDS, kind_class
from ndcg_core.classroom.kinds.base import ActivityKind
from support import ROOT
from ui.kinds import WORDS, KindWords
from ui.views.classroom.kinds import VIEWS, KindViews

CORE_KINDS = ROOT / "ndcg_core" / "classroom" / "kinds"
VIEW_KINDS = ROOT / "ui" / "views" / "classroom" / "kinds"
WORD_KINDS = ROOT / "ui" / "kinds"
# The order the app offers the kinds in (the lesson editor's list, the lesson format's schema and docs).
ORDER = ["predict", "rank", "compare", "practice", "judge", "choose"]
# The product's code (tests may ask what an activity is: that is what they check).
SCANNED = ("ndcg_core", "ui", "pages", "deploy", "app.py", "serve.py")
TEXTS = ("classroom.kind.{}", "classroom.kind_help.{}", "classroom.{}_question")
CJK = re.compile(r"[\u4e00-\u9fff]")


def members(protocol: type) -> set[str]:
    """The names a protocol asks for (methods, properties and attributes), without Python's own."""
    own = {n for n in vars(protocol) if not n.startswith("_")}
    return own | set(getattr(protocol, "__annotations__", {}))


def kind_classes() -> dict[str, str]:
    """Every class a kind's core module defines (its activity, answer, summary, detail...), by name: its module."""
    found = {}
    for name in KINDS.names():
        module = importlib.import_module(f"ndcg_core.classroom.kinds.{name}")
        for cls_name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                found[cls_name] = module.__name__
    return found


@pytest.mark.parametrize("name", KINDS.names())
def test_a_kind_has_its_core_module_with_every_hook_of_the_protocol(name):
    cls = kind_class(name)
    assert cls.__module__ == f"ndcg_core.classroom.kinds.{name}" and cls.kind == name
    missing = {m for m in members(ActivityKind) if not hasattr(cls, m)}
    assert not missing, (name, missing)
    # mypy checks the class against the protocol with its own answer, summary and detail types.
    source = (CORE_KINDS / f"{name}.py").read_text(encoding="utf-8")
    assert re.search(rf"def _is_a_kind\(activity: {cls.__name__}\) -> ActivityKind\[", source), name


@pytest.mark.parametrize("name", KINDS.names())
def test_a_kind_has_its_views_module_registered_and_typed_against_its_own_class(name):
    assert list(VIEWS) == KINDS.names()
    views = VIEWS[name]
    assert views.__name__ == f"ui.views.classroom.kinds.{name}"
    missing = {m for m in members(KindViews) if not hasattr(views, m)}
    assert not missing, (name, missing)
    # mypy checks the module against KindViews of its own class, at the module's end.
    source = (VIEW_KINDS / f"{name}.py").read_text(encoding="utf-8")
    assert re.search(rf"import {name} as _this\n", source), name
    assert re.search(rf": KindViews\[{kind_class(name).__name__}, \w+\] = _this ", source), name


@pytest.mark.parametrize("name", KINDS.names())
def test_a_kind_has_its_words_module_registered_and_typed_against_its_own_class(name):
    words = WORDS[name]
    assert words.__name__ == f"ui.kinds.{name}"
    missing = {m for m in members(KindWords) if not hasattr(words, m)}
    assert not missing, (name, missing)
    # mypy checks the module against KindWords of its own class, at the module's end.
    source = (WORD_KINDS / f"{name}.py").read_text(encoding="utf-8")
    assert re.search(rf"import {name} as _this\n", source), name
    assert re.search(rf": KindWords\[{kind_class(name).__name__}\] = _this ", source), name


def test_the_kinds_are_offered_in_the_order_they_always_were():
    assert KINDS.names() == ORDER
    assert list(VIEWS) == ORDER
    assert list(WORDS) == ORDER


def test_every_module_of_the_kinds_packages_is_registered():
    core = {m.name for m in pkgutil.iter_modules([str(CORE_KINDS)]) if not m.name.startswith("_")}
    assert core > HELPERS and set(KINDS.names()) == core - HELPERS
    # A shared module is no kind: none has a ``KIND``.
    assert not [h for h in HELPERS if hasattr(importlib.import_module(f"ndcg_core.classroom.kinds.{h}"), "KIND")]
    views = {m.name for m in pkgutil.iter_modules([str(VIEW_KINDS)]) if not m.name.startswith("_")}
    assert views == set(VIEWS) == set(KINDS.names())
    words = {m.name for m in pkgutil.iter_modules([str(WORD_KINDS)]) if not m.name.startswith("_")}
    assert words == set(WORDS) == set(KINDS.names())


def registry_words(path: Path) -> set[str]:
    """Every name and string a registry's code uses (its docstrings left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.alias):
            words.update(node.name.split("."))
        elif isinstance(node, ast.ImportFrom):
            words.update((node.module or "").split("."))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            words.update(re.findall(r"\w+", node.value))
    return words


@pytest.mark.parametrize(
    "registry",
    [
        CORE_KINDS / "__init__.py",
        VIEW_KINDS / "__init__.py",
        WORD_KINDS / "__init__.py",
        ROOT / "ui/views/classroom/lesson_editor.py",
    ],
)
def test_the_registries_name_no_kind(registry):
    names = set(KINDS.names()) | {kind_class(n).__name__ for n in KINDS.names()}
    assert "KINDS" in registry_words(registry) or "__path__" in registry_words(registry)  # the scan reads code
    assert not names & registry_words(registry), sorted(names & registry_words(registry))


PROBE_KIND = '''"""Probe: a kind a test writes, to see it registered with no other edit."""

from dataclasses import dataclass

from .base import KindEntry
from .predict import Predict


@dataclass(frozen=True)
class Probe(Predict):
    """Probe the NDCG: a copy of Predict under its own name."""

    kind: str = "probe"


KIND = KindEntry(Probe, "Probe the NDCG", order={order})
'''

PROBE_VIEWS = '''"""Probe: its views, Predict's."""

from ui.views.classroom.kinds.predict import ROUNDS, build, form, present
'''

PROBE_WORDS = '''"""Probe: its words, Predict's."""

from ui.kinds.predict import card, csv_answer, csv_details, csv_solution
'''


@pytest.fixture
def packages(tmp_path, monkeypatch):
    """The three kinds packages with a folder of their own beside them (``core``, ``views``, ``words``), the modules
    written there forgotten again after the test."""
    folders = {"core": tmp_path / "core", "views": tmp_path / "views", "words": tmp_path / "words"}
    for package, folder in (
        (core_kinds, folders["core"]),
        (kind_views, folders["views"]),
        (kind_words, folders["words"]),
    ):
        folder.mkdir()
        monkeypatch.setattr(package, "__path__", [*package.__path__, str(folder)])
    before = set(sys.modules)
    yield folders
    for name in set(sys.modules) - before:
        del sys.modules[name]


def test_a_new_kind_is_registered_from_its_three_modules_alone(packages):
    (packages["core"] / "probe.py").write_text(PROBE_KIND.format(order=35), encoding="utf-8")
    (packages["views"] / "probe.py").write_text(PROBE_VIEWS, encoding="utf-8")
    (packages["words"] / "probe.py").write_text(PROBE_WORDS, encoding="utf-8")
    kinds = core_kinds.discover()
    assert kinds.names() == ["predict", "rank", "compare", "probe", "practice", "judge", "choose"]  # its order: 35
    probe = kinds.build("probe")
    assert (probe.__name__, probe.__module__) == ("Probe", "ndcg_core.classroom.kinds.probe")
    assert kinds["probe"].label == "Probe the NDCG"
    assert kinds["probe"].description == "Probe the NDCG: a copy of Predict under its own name."
    views = kind_views.discover(kinds)
    assert list(views) == kinds.names()
    assert views["probe"].__name__ == "ui.views.classroom.kinds.probe"
    assert not {m for m in members(KindViews) if not hasattr(views["probe"], m)}
    words = kind_words.discover(kinds)
    assert list(words) == kinds.names()
    assert words["probe"].__name__ == "ui.kinds.probe"
    assert not {m for m in members(KindWords) if not hasattr(words["probe"], m)}


def test_a_module_of_the_kinds_without_its_kind_stops_the_registry(packages):
    (packages["core"] / "probe.py").write_text(PROBE_KIND.format(order=35).split("\n\nKIND")[0], encoding="utf-8")
    with pytest.raises(ImportError, match=r"kinds\.probe is a kind's module: end it with KIND = KindEntry"):
        core_kinds.discover()


def test_a_kind_without_views_or_views_without_a_kind_stop_the_views(packages):
    (packages["core"] / "probe.py").write_text(PROBE_KIND.format(order=35), encoding="utf-8")
    with pytest.raises(ImportError, match=r"a kind without views: \['probe'\]"):
        kind_views.discover(core_kinds.discover())
    (packages["views"] / "probe.py").write_text(PROBE_VIEWS, encoding="utf-8")
    with pytest.raises(ImportError, match=r"without a kind: \['probe'\]"):
        kind_views.discover(KINDS)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", KINDS.names())
def test_a_kind_has_its_texts_in_both_languages(name, lang):
    texts = json.loads((ROOT / "ui" / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    for key in (pattern.format(name) for pattern in TEXTS):
        assert texts.get(key, "").strip(), (lang, key)
        assert lang == "en" or CJK.search(texts[key]), (lang, key)  # real Chinese, not the English copied


def kind_checks(path: Path, classes: set[str]) -> list[str]:
    """Every ``isinstance(x, C)`` in a file whose ``C`` (alone, in a tuple or a union, bare or ``module.C``) is a
    class of a kind's core module, as "path:line C"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            for part in ast.walk(node.args[1]) if len(node.args) == 2 else ():
                name = part.id if isinstance(part, ast.Name) else part.attr if isinstance(part, ast.Attribute) else ""
                if name in classes:
                    found.append(f"{path}:{node.lineno} {name}")
    return found


def test_nothing_outside_the_kinds_asks_which_kind_an_activity_is():
    classes = set(kind_classes())
    assert {"Predict", "Rank", "Compare", "Practice", "Judge", "Choose", "ExerciseAnswer"} <= classes
    files = [p for root in SCANNED for p in ([ROOT / root] if root.endswith(".py") else (ROOT / root).rglob("*.py"))]
    outside = [p for p in files if CORE_KINDS not in p.parents]
    assert len(outside) > 50  # the scan reads the product's code, not an empty folder
    found = [hit for path in outside for hit in kind_checks(path, classes)]
    assert not found, "ask the kind through a hook of ActivityKind instead:\n" + "\n".join(found)


def test_the_scan_finds_a_kind_asked_for_in_every_form(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        "isinstance(a, Predict)\nisinstance(a, (acts.Rank, int))\nisinstance(a, Judge | Choose)\n"
        "isinstance(a.value, ExerciseAnswer)\nisinstance(a, list)\n",
        encoding="utf-8",
    )
    hits = kind_checks(probe, set(kind_classes()))
    assert [h.split(" ")[1] for h in hits] == ["Predict", "Rank", "Judge", "Choose", "ExerciseAnswer"]


def test_a_kind_without_words_or_words_without_a_kind_stop_the_words(packages):
    (packages["core"] / "probe.py").write_text(PROBE_KIND.format(order=35), encoding="utf-8")
    with pytest.raises(ImportError, match=r"a kind without words: \['probe'\]"):
        kind_words.discover(core_kinds.discover())
    (packages["words"] / "probe.py").write_text(PROBE_WORDS, encoding="utf-8")
    with pytest.raises(ImportError, match=r"without a kind: \['probe'\]"):
        kind_words.discover(KINDS)
