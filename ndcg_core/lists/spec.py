"""One value for a ranked list and how it is scored (``ListSpec``), with its checks and its link codec.

A ``ListSpec`` holds the items in ranked order (label and grade), the judged items the list did not retrieve
(``extra``), how it is scored (a ``Scoring``: gain and its table, discount and its base, k, where the ideal comes
from), the top grade of its scale and the query the list answers. It is checked when made, so a value that
exists is a valid one; copies are made with ``with_items``, ``with_k``, ``with_scoring`` and
``dataclasses.replace``. The Playground holds one; presets, Evaluate's drill-down, Practice, the Classroom's
activities and lessons build one (``from_grades``).

``to_link()`` writes it as the Playground's ``s`` link parameter (compact JSON, base64url-encoded, version
``LINK_VERSION``) and ``ListSpec.from_link`` reads one back: a link is never trusted, so every bad, missing,
unknown or oversized part is an ``InputError`` with a ``link.*`` code (templates in ``ndcg_core.errors``).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .. import validate
from ..errors import InputError, Place, number_text, shown
from .discounts import DISCOUNTS
from .gains import GAINS
from .items import (
    DEFAULT_TOP_GRADE,
    MAX_ITEMS,
    Item,
    Scores,
    check_grade,
    check_label,
    list_breakdown,
    list_ndcg,
    make_items,
    score,
)
from .scoring import IDEAL_SOURCES, USUAL, Scoring

if TYPE_CHECKING:
    import pandas as pd

# Where a list's ideal comes from: "list", its own grades; "pool", its grades and the unretrieved judged items'.
LIST_IDEALS = tuple(IDEAL_SOURCES)

LINK_VERSION = 1
MAX_LINK_LENGTH = 20_000  # characters of the encoded state; a full 100-item list needs far less
MAX_CUSTOM_GAIN = 1e6  # the largest gain a link's custom gain table may give a grade


@dataclass(frozen=True)
class ListSpec:
    """A ranked list and how it is scored; checked when made (an ``InputError`` names the first bad part).

    ``top`` is a whole number 1 or more that no grade exceeds. The Playground's scale goes up to
    ``validate.MAX_TOP_GRADE`` (its editor has a button per grade), which its top-grade box and ``from_link``
    check; a class list or a TREC query may grade beyond it. ``scoring.k`` is a whole number from 1 to the
    list's length (a scoring without one is cut at the list's end); the custom gain's table gives whole grades
    from 0 to ``validate.MAX_TOP_GRADE``.
    """

    items: tuple[Item, ...]
    scoring: Scoring = USUAL
    top: int = DEFAULT_TOP_GRADE
    extra: tuple[Item, ...] = ()
    query: str = ""

    def __post_init__(self) -> None:
        # Sequences given as lists are kept as tuples, so the value stays frozen and hashable.
        object.__setattr__(self, "items", tuple(self.items))
        object.__setattr__(self, "extra", tuple(self.extra))
        if not isinstance(self.scoring, Scoring):  # a caller's bug (a k where the scoring goes), not bad input
            raise TypeError(f"a ListSpec's scoring is a Scoring, not {type(self.scoring).__name__}")
        if not self.items:
            raise InputError("list.empty")
        validate.list_size(len(self.items), MAX_ITEMS)
        validate.list_size(len(self.extra), MAX_ITEMS)
        object.__setattr__(self, "top", validate.whole(self.top, Place("top_grade")))
        for position, item in enumerate(self.items, start=1):
            validate.grade(item.grade, Place("list.grade", position=position), self.top)
        for row, item in enumerate(self.extra, start=1):
            validate.grade(item.grade, Place("extra.grade", row=row), self.top)
        k = len(self.items) if self.scoring.k is None else self.scoring.k
        k = validate.whole(k, Place("k"), high=len(self.items))
        if k != self.scoring.k:
            object.__setattr__(self, "scoring", replace(self.scoring, k=k))
        for grade, _ in self.scoring.gain_table:
            validate.whole(grade, Place("gain.grade"), low=0, high=validate.MAX_TOP_GRADE)

    # --- making one ------------------------------------------------------------------------------

    @classmethod
    def from_grades(
        cls,
        labels: Sequence[str],
        grades: Sequence[float],
        k: int,
        *,
        pool: Sequence[float] = (),
        top: int | None = None,
        scoring: Scoring = USUAL,
        query: str = "",
    ) -> ListSpec:
        """A list of labels and grades (items numbered 1, 2, ... in order) cut at ``k`` under ``scoring``;
        ``pool`` holds the grades of judged items it did not retrieve, numbered on after them (the ideal then
        comes from every judged grade, else from the list's own). ``top`` defaults to the smallest whole top
        grade that holds every grade."""
        items = make_items(labels, grades)
        unretrieved = make_items([f"judged {i}" for i in range(1, len(pool) + 1)], pool, first_id=len(items) + 1)
        if top is None:
            highest = max((it.grade for it in (*items, *unretrieved)), default=0.0)
            top = max(1, math.ceil(validate.number(highest, Place("list.grades"))))
        ideal = "pool" if unretrieved else "list"
        return cls(tuple(items), replace(scoring, k=k, ideal=ideal), top, tuple(unretrieved), query=query)

    def with_items(self, items: Iterable[Item]) -> ListSpec:
        """The same scoring for another list (a move, an edit); k is clamped to the new list's length."""
        new = tuple(items)
        return replace(self, items=new, scoring=replace(self.scoring, k=max(1, min(self.k, len(new)))))

    def with_k(self, k: int) -> ListSpec:
        """The same list with another cutoff."""
        return self.with_scoring(k=k)

    def with_scoring(self, **changes: Any) -> ListSpec:
        """The same list with some of its scoring's fields changed (``dataclasses.replace`` of ``scoring``)."""
        return replace(self, scoring=replace(self.scoring, **changes))

    def with_gain_of(self, grade: int, value: float) -> ListSpec:
        """The custom gain's table with ``grade`` worth ``value``."""
        return replace(self, scoring=self.scoring.with_gain_of(int(grade), float(value)))

    def reordered(self, order: Sequence[int]) -> ListSpec:
        """The list in ``order`` (indices into the items), the rest unchanged."""
        return replace(self, items=tuple(self.items[i] for i in order))

    def scored_like(self, other: ListSpec) -> ListSpec:
        """This list, pool, k, top grade and ideal under ``other``'s gain and discount."""
        return replace(self, scoring=replace(other.scoring, k=self.k, ideal=self.ideal))

    # --- reading it ------------------------------------------------------------------------------

    @property
    def labels(self) -> tuple[str, ...]:
        """The items' labels, in ranked order."""
        return tuple(it.label for it in self.items)

    @property
    def grades(self) -> tuple[float, ...]:
        """The items' grades, in ranked order."""
        return tuple(it.grade for it in self.items)

    @property
    def k(self) -> int:
        """The cutoff (``scoring.k``)."""
        return self.scoring.k or len(self.items)

    # Shorthands of ``scoring``'s fields, read-only (the classroom's activities read them).
    @property
    def gain(self) -> str:
        return self.scoring.gain

    @property
    def discount(self) -> str:
        return self.scoring.discount

    @property
    def jk_base(self) -> float:
        return self.scoring.base

    @property
    def ideal(self) -> str:
        return self.scoring.ideal

    @property
    def pool(self) -> tuple[float, ...]:
        """The grades of the judged items the list did not retrieve that its ideal includes (``from_grades``'s
        ``pool``): none when the ideal is the list's own, even if ``extra`` holds items."""
        return tuple(it.grade for it in self.extra) if self.ideal == "pool" else ()

    def gain_of_every_grade(self) -> dict[float, float]:
        """The custom gain for every grade of the scale, 0 to the top grade (a grade not set is worth itself)."""
        table = dict(self.scoring.gain_table)
        return validate.gain_mapping({g: table.get(g, g) for g in range(self.top + 1)})

    def judged_pool(self) -> list[float] | None:
        """The grades the ideal comes from: ``None`` for the list's own, else every judged grade."""
        return self.scoring.pool(self.grades, [it.grade for it in self.extra])

    def scores(self) -> Scores:
        """NDCG@k, DCG@k and IDCG@k (``ndcg_at_k``, ``dcg``, ``idcg``)."""
        return score(self.items, self.scoring, self.extra)

    def ndcg(self) -> float:
        """NDCG@k of the list in its order (``scores().ndcg``, without the DCG and IDCG beside it)."""
        return list_ndcg(self.items, self.scoring, self.extra)

    def best_order(self) -> list[int]:
        """The indices of the items in an order that reaches the highest NDCG@k: highest gain first, equal gains
        as listed (``ideal_order``)."""
        gains = self.scoring.gain_function()(list(self.grades))
        return sorted(range(len(self.items)), key=lambda i: -gains[i])

    def dcg(self) -> float:
        """DCG@k of the list in its order."""
        return self.scores().dcg

    def breakdown(self) -> pd.DataFrame:
        """``ndcg_core.breakdown`` of the list, with its labels: every term of NDCG@k."""
        return list_breakdown(self.items, self.scoring, self.extra)

    # --- the link codec --------------------------------------------------------------------------

    def to_link(self) -> str:
        """The Playground's ``s`` link parameter for this list (``from_link`` reads it back)."""
        state: dict[str, Any] = {
            "v": LINK_VERSION,
            "l": [it.label for it in self.items],
            "g": [_number(it.grade) for it in self.items],
            "k": int(self.k),
            "t": int(self.top),
            "gain": self.gain,
            "d": self.discount,
            "i": self.ideal,
        }
        if self.gain == "custom":
            state["m"] = {str(int(g)): _number(v) for g, v in self.scoring.gain_table}
        if self.scoring.takes_base:
            state["b"] = _number(self.scoring.base)
        if self.extra:
            state["x"] = [[it.label, _number(it.grade)] for it in self.extra]
        return _b64encode(json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))

    @classmethod
    def from_link(cls, param: Any) -> ListSpec:
        """The list a link parameter holds; an ``InputError`` (a ``link.*`` code, or the bad value's) if any part
        is bad. The query is not part of a link."""
        if not isinstance(param, str) or not param:
            raise InputError("link.empty")
        if len(param) > MAX_LINK_LENGTH:
            raise InputError("link.too_long", count=len(param), limit=MAX_LINK_LENGTH)
        try:
            state = json.loads(_b64decode(param).decode("utf-8"))
        except (binascii.Error, UnicodeDecodeError, ValueError):
            raise InputError("link.damaged") from None
        if not isinstance(state, dict):
            raise InputError("link.not_settings")
        if state.get("v") != LINK_VERSION:
            raise InputError("link.version", value=shown(state.get("v")), version=LINK_VERSION)
        top = validate.top_grade(_field(state, "t", int))
        labels = _field(state, "l", list)
        grades = _field(state, "g", list)
        if len(labels) != len(grades):
            raise InputError("link.counts", labels=len(labels), grades=len(grades))
        if not labels:
            raise InputError("link.list_empty")
        validate.list_size(len(labels), MAX_ITEMS)
        items = make_items(
            [check_label(x, Place("link.label", position=i + 1)) for i, x in enumerate(labels)],
            [check_grade(g, top, Place("link.grade", position=i + 1)) for i, g in enumerate(grades)],
        )
        k = _field(state, "k", int)
        if not 1 <= k <= len(items):
            raise InputError("link.k", value=shown(k), count=len(items))
        gain = _field(state, "gain", str)
        if gain not in GAINS:
            raise InputError("link.gain", value=shown(gain))
        discount = _field(state, "d", str)
        if discount not in DISCOUNTS:
            raise InputError("link.discount", value=shown(discount))
        ideal = _field(state, "i", str)
        if ideal not in LIST_IDEALS:
            raise InputError("link.ideal", value=shown(ideal))
        gain_map: dict[int, float] = {}
        if gain == "custom":
            raw_map = _field(state, "m", dict)
            if len(raw_map) > validate.MAX_TOP_GRADE + 1:
                raise InputError("link.custom_gain", count=len(raw_map), limit=validate.MAX_TOP_GRADE + 1)
            for key, value in raw_map.items():
                grade = link_number(key, Place("link.gain_grade"), 0, validate.MAX_TOP_GRADE)
                gain_map[grade] = check_grade(value, MAX_CUSTOM_GAIN, Place("gain.of", grade=grade))
        jk_base = 2.0
        if "base" in DISCOUNTS[discount].params:
            jk_base = float(check_grade(_field(state, "b", (int, float)), 20, Place("discount.base")))
            if jk_base <= 1:
                raise InputError("link.base", value=number_text(jk_base))
        extra_rows = state.get("x", [])
        if not isinstance(extra_rows, list) or len(extra_rows) > MAX_ITEMS:
            raise InputError("link.extra", limit=MAX_ITEMS)
        extra = []
        for i, row in enumerate(extra_rows):
            if not isinstance(row, list) or len(row) != 2:
                raise InputError("link.extra_pair", position=i + 1)
            extra.append(
                Item(
                    len(items) + i + 1,
                    check_label(row[0], Place("link.extra_label", position=i + 1)),
                    check_grade(row[1], top, Place("link.extra_grade", position=i + 1)),
                )
            )
        scoring = Scoring(gain, tuple(gain_map.items()), discount, jk_base, k, ideal)
        return cls(tuple(items), scoring, top, tuple(extra))


def link_number(text: Any, place: Place, low: int, high: int) -> int:
    """A small whole number from a link (a custom gain's grade, a Learn step, a Practice exercise number)."""
    try:
        value = int(str(text))
    except ValueError:
        raise InputError("link.not_whole", place=place, value=shown(str(text)[:20])) from None
    if not low <= value <= high:
        raise InputError("link.range", place=place, value=shown(value), low=low, high=high)
    return value


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _field(state: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in state:
        raise InputError("link.lacks", name=shown(name))
    value = state[name]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise InputError("link.kind", name=shown(name), value=shown(value))
    return value
