"""Session state: every key the app keeps is created here, from one table of defaults.

Widgets never own a value. Each value lives under its own key and a widget is bound to it
through ``bind``: the widget is given the stored value before it is drawn, and copies the
learner's change back. So a change made from code (ideal order, reset, a preset, a link)
always wins over a widget's stale value, and values survive a visit to another page
(Streamlit drops the state of widgets a page does not draw).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from ndcg_core.lists.items import default_k
from ndcg_core.lists.presets import PRESETS
from ui.i18n import DEFAULT_LANGUAGE

DEFAULT_PRESET = "five"
WIDGET_PREFIX = "_w_"
PRESENT_PARAM = "present"  # the link parameter for presenter view (present=1)


def preset_origin(name: str) -> dict[str, Any]:
    """What Reset returns to after a preset is loaded: its list, extra judgments, k, top grade and ideal."""
    preset = PRESETS.build(name)
    items = preset.items()
    return {
        "items": items,
        "extra": preset.extra_items(),
        "k": preset.k or default_k(len(items)),
        "top": preset.top_grade,
        "ideal": preset.ideal,
        "preset": name,
    }


EXAMPLE_TYPED_ROWS = [
    {"query": "q1", "document": "d1", "grade": "3", "rank": "2"},
    {"query": "q1", "document": "d2", "grade": "0", "rank": "1"},
    {"query": "q1", "document": "d3", "grade": "2", "rank": "3"},
    {"query": "q1", "document": "d4", "grade": "3", "rank": None},
    {"query": "q2", "document": "d5", "grade": "1", "rank": "1"},
    {"query": "q2", "document": "d6", "grade": "2", "rank": "2"},
    {"query": "q2", "document": "d7", "grade": "0", "rank": "3"},
]


def _evaluate_defaults() -> dict[str, Any]:
    return {
        "ev_source": "sample",
        "ev_cutoffs": "5, 10, 20",
        "ev_gain": "linear",
        "ev_ties": "trec_eval",
        "ev_ideal": "qrels",
        "ev_complete": False,
        "ev_float32": False,
        "ev_relevant_only": False,
        "ev_upload_hashes": {},  # upload id -> content hash, so each upload is hashed once
        "ev_uploads": {},  # role -> FileInput kept for a visit to another page (small files only)
        "ev_typed_rows": EXAMPLE_TYPED_ROWS,
    }


def _playground_defaults() -> dict[str, Any]:
    preset = PRESETS.build(DEFAULT_PRESET)
    items = preset.items()
    return {
        "pg_origin": preset_origin(DEFAULT_PRESET),
        "pg_items": items,
        "pg_extra": preset.extra_items(),
        "pg_preset": DEFAULT_PRESET,
        "pg_preset_choice": DEFAULT_PRESET,
        "pg_k": preset.k or default_k(len(items)),
        "pg_top": preset.top_grade,
        "pg_gain": "linear",
        "pg_gain_map": {},
        "pg_discount": "log2",
        "pg_jk_base": 2.0,
        "pg_ideal": preset.ideal,
        "pg_last": None,  # {"text": ..., "before": [Item, ...]}: the last change, for the headline's delta
        "pg_error": None,  # a message about the last rejected edit
        "pg_removed": None,  # {"before": [Item, ...], "label": str} right after a removal, for Undo
        "pg_editor_version": 0,  # bumped to redraw the data editors from the stored list
        "pg_drawn_version": 0,  # the pg_editor_version last drawn: a newer one is a change, whose headline leads
        "pg_shuffles": 0,
        "pg_swap_version": 0,  # bumped after a swap from the swap map, so the clicked cell is not kept selected
        "pg_edit_open": False,  # the table editor is drawn only when open
        "pg_export_open": False,
    }


def _learn_defaults() -> dict[str, Any]:
    return {
        "learn_step": 1,
        "learn_items": PRESETS.build(DEFAULT_PRESET).items(),
        "learn_prev": None,  # the list before the last move, to show which DCG term changed
        "learn_feedback": {},  # step -> {"kind": "right" | "wrong" | "revealed" | "unreadable", ...}, worded when drawn
        "learn_answers": {},  # step -> the learner's answer, kept across a change of language
        "learn_done": [],  # steps whose check is answered
        "learn_pool": "judged",  # step 1: the judged pages, or a larger pool (see ui.learn_view.POOLS)
    }


def _practice_defaults() -> dict[str, Any]:
    return {
        "pr_seed": 2026,
        "pr_number": 0,
        "pr_feedback": None,  # {"ok": bool, "kind": ..., ...} for the current exercise, worded when drawn
        "pr_answers": {},  # answer widget key -> the learner's answer, kept across a change of language
        "pr_score": {"attempted": 0, "correct": 0},
        "pr_answered": [],  # (seed, number) pairs already counted in the score
        "pr_items": None,  # the reach exercise's list as the learner reorders it
        "pr_moves": 0,
    }


def _compare_defaults() -> dict[str, Any]:
    return {
        "cmp_rankings": ["3, 2, 3, 0, 1", "3, 0, 2, 3, 1"],
        "cmp_k": 5,
        "cmp_relevant": 4,
        "conv_k": 5,
    }


@dataclass
class ClassroomState:
    """This browser's place in a live classroom (kept under one session-state key, ``classroom``).

    A teacher's session holds the room's key (never the address bar: a projected screen would show it);
    a student's holds their random id, which is also in their link (``me=``) and the browser's storage.
    """

    room: str | None = None  # the room this session is in
    key: str | None = None  # the teacher's key, when this session controls the room
    keep_link: str | None = None  # the "keep this link" address, shown once after the room starts
    student: str | None = None  # this browser's id in the room
    revision: int = -1  # the room's revision last drawn, so a change redraws the page
    orders: dict[int, list[int]] = field(default_factory=dict)  # Rank it best: activity id -> my current order
    messages: dict[str, str] = field(default_factory=dict)  # a message per place on the page (errors, "saved")
    memory: dict | None = None  # what the browser's storage holds for this room, as last reported
    short_links: dict[str, str] = field(default_factory=dict)  # page link -> its short code, made on request


def classroom() -> ClassroomState:
    """The classroom state of this session (read and changed in place)."""
    return st.session_state["classroom"]


def reset_classroom() -> ClassroomState:
    """Leave the room: a fresh classroom state, kept short links aside."""
    fresh = ClassroomState(short_links=classroom().short_links)
    st.session_state["classroom"] = fresh
    return fresh


def new_link_value(name: str) -> str | None:
    """A URL parameter's value if the link brought a value this session has not applied yet."""
    value = st.query_params.get(name)
    seen = st.session_state["link_seen"]
    if value is None or seen.get(name) == value:
        return None
    st.session_state["link_seen"] = {**seen, name: value}
    return value


def set_link_value(name: str, value: str) -> None:
    """Write a URL parameter (so the address bar is a link to this state) and mark it as applied."""
    st.session_state["link_seen"] = {**st.session_state["link_seen"], name: value}
    if st.query_params.get(name) != value:
        st.query_params[name] = value


def page_url(params: dict[str, str]) -> str:
    """This page's address with ``params`` as its query string (for a link to share)."""
    from urllib.parse import urlencode, urlsplit, urlunsplit

    base = st.context.url or ""
    parts = urlsplit(base)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(params), ""))


def defaults() -> dict[str, Any]:
    """Every state key and its starting value."""
    return {
        "lang": DEFAULT_LANGUAGE,
        "presenter": False,
        "url_seen": None,
        "notice": None,
        "link_seen": {},
        **_playground_defaults(),
        **_evaluate_defaults(),
        **_learn_defaults(),
        **_practice_defaults(),
        **_compare_defaults(),
        "classroom": ClassroomState(),
    }


def init_state() -> None:
    """Create any missing key with its default (called at the top of every page)."""
    for key, value in defaults().items():
        if key not in st.session_state:
            st.session_state[key] = value


def reset_playground() -> None:
    """Every Playground key back to its default."""
    for key, value in _playground_defaults().items():
        st.session_state[key] = value


def _copy_back(widget_key: str, key: str, after: Callable[[], None] | None) -> None:
    st.session_state[key] = st.session_state[widget_key]
    if after is not None:
        after()


def bind(key: str, after: Callable[[], None] | None = None) -> dict[str, Any]:
    """Keyword arguments that bind a widget to the stored value ``key`` (see the module docstring)."""
    widget_key = WIDGET_PREFIX + key
    st.session_state[widget_key] = st.session_state[key]
    return {"key": widget_key, "on_change": _copy_back, "args": (widget_key, key, after)}
