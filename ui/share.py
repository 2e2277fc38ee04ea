"""Shareable links: the Playground's state as one URL parameter, and back, with every value checked.

The state is compact JSON, base64url-encoded, under the ``s`` parameter (``v`` is its
version). ``decode_playground`` never trusts a link: any bad, missing, unknown or oversized
value is an ``InputError`` that says what was wrong, and the page keeps safe defaults.
No Streamlit here, so it is unit-tested.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ndcg_core.errors import number_text
from ndcg_core.lists.discounts import DISCOUNTS
from ndcg_core.lists.gains import GAINS
from ndcg_core.lists.items import MAX_ITEMS, Item, check_grade, check_label, check_size, check_top_grade, make_items
from ndcg_core.validate import MAX_TOP_GRADE
from ui.errors import InputError, Place, shown

VERSION = 1
MAX_PARAM_LENGTH = 20_000  # characters of the encoded state; a full 100-item list needs far less
IDEALS = ("list", "pool")


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode_playground(
    items: Sequence[Item],
    *,
    extra: Sequence[Item],
    k: int,
    top: int,
    gain: str,
    gain_map: Mapping[Any, float],
    discount: str,
    jk_base: float,
    ideal: str,
) -> str:
    """The ``s`` parameter for a Playground state."""
    state: dict[str, Any] = {
        "v": VERSION,
        "l": [it.label for it in items],
        "g": [_number(it.grade) for it in items],
        "k": int(k),
        "t": int(top),
        "gain": gain,
        "d": discount,
        "i": ideal,
    }
    if gain == "custom":
        state["m"] = {str(int(g)): _number(v) for g, v in gain_map.items()}
    if "base" in DISCOUNTS[discount].params:
        state["b"] = _number(jk_base)
    if extra:
        state["x"] = [[it.label, _number(it.grade)] for it in extra]
    return _b64encode(json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def decode_playground(param: str) -> dict[str, Any]:
    """The Playground state a link holds, as session-state values; ``InputError`` if any part is bad."""
    if not isinstance(param, str) or not param:
        raise InputError("link.empty")
    if len(param) > MAX_PARAM_LENGTH:
        raise InputError("link.too_long", count=len(param), limit=MAX_PARAM_LENGTH)
    try:
        state = json.loads(_b64decode(param).decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InputError("link.damaged") from None
    if not isinstance(state, dict):
        raise InputError("link.not_settings")
    if state.get("v") != VERSION:
        raise InputError("link.version", value=shown(state.get("v")), version=VERSION)
    top = check_top_grade(_field(state, "t", int))
    labels = _field(state, "l", list)
    grades = _field(state, "g", list)
    if len(labels) != len(grades):
        raise InputError("link.counts", labels=len(labels), grades=len(grades))
    if not labels:
        raise InputError("link.list_empty")
    check_size(len(labels))
    items = make_items(
        [check_label(x, Place("link.label", position=i + 1)) for i, x in enumerate(labels)],
        [check_grade(g, top, Place("typed.grade", position=i + 1)) for i, g in enumerate(grades)],
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
    if ideal not in IDEALS:
        raise InputError("link.ideal", value=shown(ideal))
    gain_map: dict[int, float] = {}
    if gain == "custom":
        raw_map = _field(state, "m", dict)
        if len(raw_map) > MAX_TOP_GRADE + 1:
            raise InputError("link.custom_gain", count=len(raw_map), limit=MAX_TOP_GRADE + 1)
        for key, value in raw_map.items():
            grade = whole_number(key, Place("link.gain_grade"), 0, MAX_TOP_GRADE)
            gain_map[grade] = check_grade(value, 1e6, Place("gain.of", grade=grade))
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
    return {
        "items": items,
        "extra": extra,
        "k": k,
        "top": top,
        "gain": gain,
        "gain_map": gain_map,
        "discount": discount,
        "jk_base": jk_base,
        "ideal": ideal,
    }


def _field(state: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in state:
        raise InputError("link.lacks", name=shown(name))
    value = state[name]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise InputError("link.kind", name=shown(name), value=shown(value))
    return value


def whole_number(text: Any, place: Place, low: int, high: int) -> int:
    """A small whole number from a URL parameter (a Learn step, a Practice exercise number)."""
    try:
        value = int(str(text))
    except ValueError:
        raise InputError("link.not_whole", place=place, value=shown(str(text)[:20])) from None
    if not low <= value <= high:
        raise InputError("link.range", place=place, value=shown(value), low=low, high=high)
    return value
