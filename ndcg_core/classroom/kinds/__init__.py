"""The kinds of classroom activity, one module each (``predict``, ``rank``, ``compare``, ``practice``, ``judge``,
``choose``), each a frozen dataclass that is an ``base.ActivityKind``: what the teacher sends, how a student's
answer is checked, and what the class's answers add up to. Every number comes from ndcg_core (``ndcg_at_k``,
``breakdown``, ``metrics``, ``exercises``). An activity is built from its JSON payload (what the store keeps), so
any replica computes the same figures.

``KINDS`` registers the kinds' classes by name, in the order the app offers them. It finds them itself: every module
of this package but the shared ones (``HELPERS``) is a kind, named as its module, that ends with
``KIND = KindEntry(Name, "label", order=N)``. Adding a kind is one module here, its words module in ``ui/kinds/``
(its phone card and CSV words), its views module in ``ui/views/classroom/kinds/`` and its texts; nothing here names
a kind."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from ...errors import InputError, shown
from ...registry import Registry
from .base import ActivityKind, Answer, Json, KindEntry

HELPERS = frozenset({"base", "lists", "tally"})  # the kinds' shared modules: what every kind is, lists, tallies

# An activity of any kind, and a kind's class: what a caller needs of one is a hook of the protocol.
Activity = ActivityKind[Any, Any, Any]
KindClass = type[ActivityKind[Any, Any, Any]]


def discover(path: Iterable[str] | None = None) -> Registry[KindClass]:
    """Every kind module found on ``path`` (this package's by default) registered by its module's name, ordered by
    its ``KIND``'s ``order``; an ``ImportError`` for a module that is not a helper and has no ``KIND``, or whose
    class's ``kind`` is not its module's name."""
    entries: list[tuple[str, KindEntry]] = []
    for module in pkgutil.iter_modules(list(__path__ if path is None else path)):
        if module.name in HELPERS or module.name.startswith("_"):
            continue
        found = getattr(importlib.import_module(f"{__name__}.{module.name}"), "KIND", None)
        if not isinstance(found, KindEntry) or getattr(found.cls, "kind", None) != module.name:
            raise ImportError(
                f"{__name__}.{module.name} is a kind's module: end it with KIND = KindEntry(Name, label, order=N), "
                f"its class's kind being {module.name!r} (or add it to HELPERS)"
            )
        entries.append((module.name, found))
    registry: Registry[KindClass] = Registry("activity", unknown="activity.kind")
    for name, entry in sorted(entries, key=lambda named: (named[1].order, named[0])):
        doc = (entry.cls.__doc__ or "").split("\n\n")[0].strip()
        registry.register(name, entry.label, " ".join(doc.split()))(lambda cls=entry.cls: cls)
    return registry


# Every kind by its name: the one place ``from_payload`` finds a kind's class (an entry builds the class itself).
KINDS: Registry[KindClass] = discover()


def one_module_per_kind(
    package: str, path: Iterable[str], role: str, kinds: Registry[KindClass] = KINDS
) -> dict[str, ModuleType]:
    """The modules of ``package`` (found on ``path``) by name, one per kind of ``kinds`` and named as it, in
    ``kinds``' order: the ``role`` a kind has there (its words, its views). An ``ImportError`` names a module named
    as no kind and a kind with no module."""
    found = {m.name for m in pkgutil.iter_modules(list(path)) if m.name[0] != "_"}
    names = set(kinds.names())
    if found != names:
        raise ImportError(
            f"{package}: one {role} module for each kind, named as it; without a kind: {sorted(found - names)}, "
            f"a kind without {role}: {sorted(names - found)}"
        )
    return {name: importlib.import_module(f"{package}.{name}") for name in kinds.names()}


def kind_class(kind: str) -> KindClass:
    """The class of a kind by its name; an ``InputError`` (``activity.kind``) for a name no kind has."""
    if kind not in KINDS:
        raise InputError("activity.kind", value=shown(kind), choices=", ".join(KINDS.names()))
    return KINDS.build(kind)


def list_kinds() -> tuple[str, ...]:
    """The kinds made from any ranked list (``made_from_a_list``), in the order the app offers them: the lesson
    editor's kinds whose list may be typed as a table, and which it turns into one another."""
    return tuple(name for name in KINDS.names() if KINDS.build(name).made_from_a_list)


def answer_to_json(kind: str, value: Any) -> Json:
    """A checked answer (``check``'s typed value) as the store keeps it, through its kind's codec."""
    return kind_class(kind).answer_to_json(value)


def answer_from_json(kind: str, data: Json) -> Any:
    """A stored answer as its kind's typed value (``check``'s)."""
    return kind_class(kind).answer_from_json(data)


def from_payload(kind: str, payload: Mapping[str, Any]) -> Activity:
    """An activity from what the store keeps."""
    return kind_class(kind).from_payload(payload)


def own_answers(activity: Activity, answers: Iterable[Answer]) -> tuple[Answer, ...]:
    """The answers to a part ``activity`` has (0 to ``parts()`` - 1): a row stored for any other part (before the
    kinds refused them) counts for nobody, so each student counts once per part in every summary and result."""
    parts = activity.parts()
    return tuple(a for a in answers if 0 <= a.part < parts)


def summary(activity: Activity, answers: Iterable[Answer]) -> Any:
    """What the class's answers to ``activity`` add up to (its kind's ``summary``), counting only the answers to
    the parts it has (``own_answers``)."""
    return activity.summary(own_answers(activity, answers))
