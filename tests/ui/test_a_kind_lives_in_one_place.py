"""A kind of classroom activity lives in one place: its core module in ``ndcg_core/classroom/kinds/`` (a class that
has every hook of ``ActivityKind``, checked by mypy against the protocol), its views module in
``ui/views/classroom/kinds/`` (registered in ``VIEWS`` and checked against ``KindViews``) and its texts in both
languages. Nothing outside the kinds' core package asks which kind an activity is with ``isinstance``: what a
caller needs is a hook of the protocol."""

import ast
import importlib
import inspect
import json
import re
from pathlib import Path

import pytest

from ndcg_core.classroom.kinds import KINDS, kind_class
from ndcg_core.classroom.kinds.base import ActivityKind
from support import ROOT
from ui.views.classroom.kinds import VIEWS, KindViews

CORE_KINDS = ROOT / "ndcg_core" / "classroom" / "kinds"
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
    registry = (ROOT / "ui" / "views" / "classroom" / "kinds" / "__init__.py").read_text(encoding="utf-8")
    assert re.search(rf": KindViews\[{kind_class(name).__name__}, \w+\] = {name}\n", registry), name


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
