"""The kinds of classroom activity, one module each (``predict``, ``rank``, ``compare``, ``practice``, ``judge``,
``choose``), each a frozen dataclass that is an ``base.ActivityKind``: what the teacher sends, how a student's
answer is checked, and what the class's answers add up to. Every number comes from ndcg_core (``ndcg_at_k``,
``breakdown``, ``metrics``, ``exercises``). An activity is built from its JSON payload (what the store keeps), so
any replica computes the same figures.

``KINDS`` registers the kinds' classes by name, in the order the app offers them: adding a kind is one module
here, one line below, its views module in ``ui/views/classroom/kinds/`` and its texts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import InputError, shown
from ...registry import Registry
from .base import Json
from .choose import Choose
from .compare import Compare
from .judge import Judge
from .practice import Practice
from .predict import Predict
from .rank import Rank

Activity = Predict | Rank | Compare | Practice | Judge | Choose
KindClass = type[Predict] | type[Rank] | type[Compare] | type[Practice] | type[Judge] | type[Choose]

# Every kind by its name: the one place ``from_payload`` finds a kind's class (an entry builds the class itself).
KINDS: Registry[KindClass] = Registry("activity", unknown="activity.kind")


def _register(cls: KindClass, label: str) -> None:
    doc = (cls.__doc__ or "").split("\n\n")[0].strip()
    KINDS.register(cls.kind, label, " ".join(doc.split()))(lambda: cls)


for _cls, _label in (
    (Predict, "Predict the NDCG"),
    (Rank, "Rank it best"),
    (Compare, "Which is better?"),
    (Practice, "Practice together"),
    (Judge, "Judge the results"),
    (Choose, "Which is right?"),
):
    _register(_cls, _label)


def kind_class(kind: str) -> KindClass:
    """The class of a kind by its name; an ``InputError`` (``activity.kind``) for a name no kind has."""
    if kind not in KINDS:
        raise InputError("activity.kind", value=shown(kind), choices=", ".join(KINDS.names()))
    return KINDS.build(kind)


def answer_to_json(kind: str, value: Any) -> Json:
    """A checked answer (``check``'s typed value) as the store keeps it, through its kind's codec."""
    return kind_class(kind).answer_to_json(value)


def answer_from_json(kind: str, data: Json) -> Any:
    """A stored answer as its kind's typed value (``check``'s)."""
    return kind_class(kind).answer_from_json(data)


def from_payload(kind: str, payload: Mapping[str, Any]) -> Activity:
    """An activity from what the store keeps."""
    return kind_class(kind).from_payload(payload)
