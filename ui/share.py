"""Shareable links: the Playground's state as one URL parameter, and back, with every value checked.

The state is compact JSON, base64url-encoded, under the ``s`` parameter (``v`` is its
version). ``decode_playground`` never trusts a link: any bad, missing, unknown or oversized
value is a ``ValueError`` that says what was wrong, and the page keeps safe defaults.
No Streamlit here, so it is unit-tested.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ndcg_core.ranked_list import (
    MAX_ITEMS,
    MAX_TOP_GRADE,
    Item,
    check_grade,
    check_label,
    check_size,
    check_top_grade,
    make_items,
)
from ndcg_core.variants import DISCOUNTS, GAINS

VERSION = 1
MAX_PARAM_LENGTH = 20_000  # characters of the encoded state; a full 100-item list needs far less
IDEALS = ("list", "pool")


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode_playground(items: Sequence[Item], *, extra: Sequence[Item], k: int, top: int, gain: str,
                      gain_map: Mapping[Any, float], discount: str, jk_base: float, ideal: str) -> str:
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
    """The Playground state a link holds, as session-state values; ``ValueError`` if any part is bad."""
    if not isinstance(param, str) or not param:
        raise ValueError("the link holds no state")
    if len(param) > MAX_PARAM_LENGTH:
        raise ValueError(f"the link's state is {len(param)} characters long; at most {MAX_PARAM_LENGTH} are read")
    try:
        state = json.loads(_b64decode(param).decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise ValueError("the link's state is damaged (it may have been cut short or edited)") from None
    if not isinstance(state, dict):
        raise ValueError("the link's state is not a set of settings")
    if state.get("v") != VERSION:
        raise ValueError(f"the link's state has version {state.get('v')!r}; this NDCG Lab reads version {VERSION}")
    top = check_top_grade(_field(state, "t", int))
    labels = _field(state, "l", list)
    grades = _field(state, "g", list)
    if len(labels) != len(grades):
        raise ValueError(f"the link has {len(labels)} labels for {len(grades)} grades")
    if not labels:
        raise ValueError("the link's list is empty")
    check_size(len(labels))
    items = make_items([check_label(x, f"label {i + 1}") for i, x in enumerate(labels)],
                       [check_grade(g, top, f"grade {i + 1}") for i, g in enumerate(grades)])
    k = _field(state, "k", int)
    if not 1 <= k <= len(items):
        raise ValueError(f"k is {k}, but the list has {len(items)} items")
    gain = _field(state, "gain", str)
    if gain not in GAINS:
        raise ValueError(f"unknown gain {gain!r}; the link may come from another program")
    discount = _field(state, "d", str)
    if discount not in DISCOUNTS:
        raise ValueError(f"unknown discount {discount!r}")
    ideal = _field(state, "i", str)
    if ideal not in IDEALS:
        raise ValueError(f"unknown ideal {ideal!r}")
    gain_map: dict[int, float] = {}
    if gain == "custom":
        raw_map = _field(state, "m", dict)
        if len(raw_map) > MAX_TOP_GRADE + 1:
            raise ValueError(f"the link's custom gain has {len(raw_map)} grades; at most {MAX_TOP_GRADE + 1}")
        for key, value in raw_map.items():
            grade = whole_number(key, "custom-gain grade", 0, MAX_TOP_GRADE)
            gain_map[grade] = check_grade(value, 1e6, f"the gain of grade {grade}")
    jk_base = 2.0
    if "base" in DISCOUNTS[discount].params:
        jk_base = float(check_grade(_field(state, "b", (int, float)), 20, "the discount base"))
        if jk_base <= 1:
            raise ValueError(f"the discount base must be above 1, got {jk_base:g}")
    extra_rows = state.get("x", [])
    if not isinstance(extra_rows, list) or len(extra_rows) > MAX_ITEMS:
        raise ValueError(f"the link's unretrieved items must be a list of at most {MAX_ITEMS}")
    extra = []
    for i, row in enumerate(extra_rows):
        if not isinstance(row, list) or len(row) != 2:
            raise ValueError(f"unretrieved item {i + 1} is not a (label, grade) pair")
        extra.append(Item(len(items) + i + 1, check_label(row[0], f"unretrieved label {i + 1}"),
                          check_grade(row[1], top, f"unretrieved grade {i + 1}")))
    return {"pg_items": items, "pg_extra": extra, "pg_k": k, "pg_top": top, "pg_gain": gain, "pg_gain_map": gain_map,
            "pg_discount": discount, "pg_jk_base": jk_base, "pg_ideal": ideal}


def _field(state: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in state:
        raise ValueError(f"the link lacks its {name!r} part")
    value = state[name]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ValueError(f"the link's {name!r} part is {value!r}, not the expected kind of value")
    return value


def whole_number(text: Any, name: str, low: int, high: int) -> int:
    """A small whole number from a URL parameter (a Learn step, a Practice exercise number)."""
    try:
        value = int(str(text))
    except ValueError:
        raise ValueError(f"the link's {name} {str(text)[:20]!r} is not a whole number") from None
    if not low <= value <= high:
        raise ValueError(f"the link's {name} is {value}; it must be {low} to {high}")
    return value
