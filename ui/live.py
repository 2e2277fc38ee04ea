"""What a move changes on the Playground, worked out once per list and setting and shared by every session.

Each value here is a pure function of the list (its items, in order, and the judged items it missed) and its
``Scoring``: ndcg_core's breakdown, scores and NDCG after every move and swap, and what the page sends for them
(the figure charts' JSON, the swap map's, the drop preview, the table's cells). A
class working on one example keeps coming back to the same orders (five items have 120), so after a few moves most
reruns find their figures here instead of computing them again; under a class's load the server's CPU per move
decides how soon the new NDCG reaches the screen (``benchmarks/bench_instant.py``). Nothing here holds a session's
state, only results keyed by the list and scoring that made them; they are shared between sessions and must not be
mutated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np
import pandas as pd

from ndcg_core.lists.changes import ChangeExplained, explain_change
from ndcg_core.lists.items import (
    Item,
    Scores,
    list_breakdown,
    ndcg_after_each_move,
    ndcg_after_each_swap,
    score,
)
from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import ListSpec
from ui import charts
from ui.columns import Columns
from ui.widgets import as_json
from ui.widgets.figure_charts import figures_data
from ui.widgets.sortable import preview_data
from ui.widgets.swap_map import swap_map_data
from ui.widgets.table import table_data

# Entries kept: a list's figures are a few kilobytes, so the caches stay within tens of megabytes. A swap map
# grows with the square of the list (about 400 KB at 100 items), so maps of long lists have a smaller cache of
# their own; the short lists a class works on (five items have 120 orders) keep all theirs.
ENTRIES = 512
SWAP_ENTRIES = 64
# What depends on a change (the list before it and the list now) has an entry per pair: five items have 120
# orders and 20 single moves from each. Such entries are small (the charts' templates are shared), and a class
# moving at random kept missing a cache of ENTRIES shared by four charts: each miss cost more than the rest of
# the move's server work (benchmarks/bench_cpu_per_move.py).
CHANGE_ENTRIES = 4096
LONG_LIST = 20


Key = tuple[tuple[Item, ...], Scoring, tuple[Item, ...]]


def _key(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item]) -> Key:
    """The list, its scoring and its unretrieved judged items as a hashable key."""
    return tuple(items), scoring, tuple(extra)


def _texts(texts: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(texts.items()))


def scores(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item]) -> Scores:
    """``ndcg_core.lists.items.score``."""
    return _scores(*_key(items, scoring, extra))


@lru_cache(maxsize=ENTRIES)
def _scores(items: tuple[Item, ...], scoring: Scoring, extra: tuple[Item, ...]) -> Scores:
    return score(items, scoring, extra)


def breakdown(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item]) -> pd.DataFrame:
    """``ndcg_core.lists.items.list_breakdown`` (shared: read it, never change it)."""
    return _breakdown(*_key(items, scoring, extra))


@lru_cache(maxsize=ENTRIES)
def _breakdown(items: tuple[Item, ...], scoring: Scoring, extra: tuple[Item, ...]) -> pd.DataFrame:
    return list_breakdown(items, scoring, extra)


@lru_cache(maxsize=ENTRIES)
def _columns(items: tuple[Item, ...], scoring: Scoring, extra: tuple[Item, ...]) -> Columns:
    """The breakdown's columns as lists: what the charts and the table read."""
    return Columns.of(_breakdown(items, scoring, extra))


def preview(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item], k: int) -> dict:
    """The drop preview: ``ui.sortable.preview_data`` of ndcg_core's NDCG@k after every move."""
    return _preview(*_key(items, scoring, extra), k)


@lru_cache(maxsize=ENTRIES)
def _preview(items: tuple[Item, ...], scoring: Scoring, extra: tuple[Item, ...], k: int) -> dict:
    return preview_data(ndcg_after_each_move(items, scoring, extra), k)


def figures(
    items: Sequence[Item],
    scoring: Scoring,
    extra: Sequence[Item],
    *,
    top: float,
    texts: Mapping[str, str],
    presenter: bool,
    change: tuple[ListSpec, ListSpec] | None = None,
) -> str:
    """``ui.widgets.figure_charts.figures_data`` of this list's breakdown, as the JSON text the component parses
    (``texts``: its chart texts, titles and readings; ``presenter``: a projector's sizes). With ``change``, the list
    before the last change and the list now, the charts keep its old values as faint marks and animate from them."""
    return _figures(*_key(items, scoring, extra), float(top), _texts(texts), presenter, change)


def change_id(before: ListSpec, after: ListSpec) -> int:
    """A number naming the change from ``before`` to ``after`` (under 1e6), the same in every view of the page."""
    return hash((_key(before.items, before.scoring, before.extra), _key(after.items, after.scoring, after.extra))) % (
        10**6
    )


def explained(before: ListSpec, after: ListSpec) -> ChangeExplained:
    """``ndcg_core.lists.changes.explain_change`` (shared: read it, never change it)."""
    return _explained(before, after)


@lru_cache(maxsize=CHANGE_ENTRIES)
def _explained(before: ListSpec, after: ListSpec) -> ChangeExplained:
    return explain_change(before, after)


def _link(change: tuple[ListSpec, ListSpec] | None) -> charts.Link:
    if change is None or not change[0].items:
        return charts.Link()
    before, after = change
    changed = frozenset(t.position for t in _explained(before, after).changed_terms)
    return charts.Link(_columns(before.items, before.scoring, before.extra), changed, change_id(before, after))


@lru_cache(maxsize=CHANGE_ENTRIES)
def _figures(
    items: tuple[Item, ...],
    scoring: Scoring,
    extra: tuple[Item, ...],
    top: float,
    texts: tuple[tuple[str, str], ...],
    presenter: bool,
    change: tuple[ListSpec, ListSpec] | None = None,
) -> str:
    frame = _columns(items, scoring, extra)
    data = figures_data(
        frame, top=top, k=scoring.cutoff(len(items)), texts=dict(texts), large=presenter, link=_link(change)
    )
    return as_json(data)


def swap_changes(items: Sequence[Item], scoring: Scoring, extra: Sequence[Item]) -> np.ndarray:
    """The change in NDCG@k for every swap (i, j) of two positions, from ndcg_core's NDCG after each swap (shared:
    read it, never change it)."""
    made = _swap_changes if len(items) <= LONG_LIST else _long_swap_changes
    return made(*_key(items, scoring, extra))


def _make_swap_changes(items: tuple[Item, ...], scoring: Scoring, extra: tuple[Item, ...]) -> np.ndarray:
    after = ndcg_after_each_swap(items, scoring, extra)
    changes = after - np.diag(after)[:, None] if len(items) else after
    changes.setflags(write=False)
    return changes


def swap_map(
    items: Sequence[Item], scoring: Scoring, extra: Sequence[Item], *, texts: Mapping[str, str], presenter: bool
) -> str:
    """``ui.widgets.swap_map.swap_map_data`` of this list's ``swap_changes``, as the JSON text the component parses
    (``texts``: its title, introduction, reading, explanation and axis names; ``presenter``: a projector's sizes)."""
    made = _swap_map if len(items) <= LONG_LIST else _long_swap_map
    return made(*_key(items, scoring, extra), _texts(texts), presenter)


def _make_swap_map(
    items: tuple[Item, ...],
    scoring: Scoring,
    extra: tuple[Item, ...],
    texts: tuple[tuple[str, str], ...],
    presenter: bool,
) -> str:
    changes = swap_changes(items, scoring, extra)
    labels = [it.label for it in items]
    return as_json(swap_map_data(labels, changes, scoring.cutoff(len(items)), dict(texts), large=presenter))


_swap_changes = lru_cache(maxsize=ENTRIES)(_make_swap_changes)
_long_swap_changes = lru_cache(maxsize=SWAP_ENTRIES)(_make_swap_changes)
_swap_map = lru_cache(maxsize=ENTRIES)(_make_swap_map)
_long_swap_map = lru_cache(maxsize=SWAP_ENTRIES)(_make_swap_map)


def table(
    items: Sequence[Item],
    scoring: Scoring,
    extra: Sequence[Item],
    *,
    headers: Mapping[str, str],
    caption: str,
    beyond: str,
    large: bool,
    change: tuple[ListSpec, ListSpec] | None = None,
) -> dict:
    """``ui.table.table_data`` of this list's breakdown; with ``change`` (the list before the last change and the
    list now), the rows it changed keep their old terms."""
    return _table(*_key(items, scoring, extra), _texts(headers), caption, beyond, large, change)


@lru_cache(maxsize=CHANGE_ENTRIES)
def _table(
    items: tuple[Item, ...],
    scoring: Scoring,
    extra: tuple[Item, ...],
    headers: tuple[tuple[str, str], ...],
    caption: str,
    beyond: str,
    large: bool,
    change: tuple[ListSpec, ListSpec] | None = None,
) -> dict:
    link = _link(change)
    return table_data(
        _columns(items, scoring, extra),
        dict(headers),
        caption,
        beyond,
        large=large,
        before=link.before,
        changed=link.changed,
        change=link.change if link.before is not None else None,
    )
