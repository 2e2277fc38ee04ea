"""The Playground's swap map as one small ``st.components.v2`` component: its title, introduction, the map (SVG
drawn by its JavaScript from the change in NDCG@k for every swap, ``ndcg_core``'s ``ndcg_after_each_swap``), the
colour legend, the best swap's reading and the passage on LambdaRank, in one element per move. A click, a tap or
Enter on a cell sends the pair back through the component's trigger ``swap``; the page swaps the two items.

Why not Vega-Lite here: a move redrew the map as an ``st.vega_lite_chart`` between two Markdown elements, three
elements and a Vega-Lite spec with its Arrow data per move, and the chart alone cost Streamlit about 1.6 ms of the
server's CPU before it was sent (``benchmarks/bench_cpu_per_move.py``). Here the server sends one JSON text, cached
per list in ``ui.live``: each cell's change formatted and its colour worked out (Vega's "blueorange" scheme,
reversed, so a gain is blue and a loss orange, as deep for a loss as for an equal gain). The JavaScript only places
them. Learn's swap map and the projector keep their Altair charts (``ui.charts``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st

from ui.charts import swap_reach
from ui.widgets.pointer import LINKED_CSS, POINTER_JS, SVG_JS

_HERE = Path(__file__).parent
_component = st.components.v2.component(
    "ndcg_lab.swap_map",
    html='<section class="ndcg-swap"></section>',
    css=(_HERE / "swap_map.css").read_text(encoding="utf-8") + "\n" + LINKED_CSS,
    js=POINTER_JS + "\n" + SVG_JS + "\n" + (_HERE / "swap_map.js").read_text(encoding="utf-8"),
)

# Vega's "blueorange" scheme (vega-scale), from blue to orange; the map reads it reversed over [-reach, reach] with
# its middle at 0, as the Altair chart does (``ui.charts._swap_scale``), interpolated in RGB as Vega does.
BLUE_ORANGE = (
    "#134b85",
    "#2f78b3",
    "#5da2cb",
    "#9dcae1",
    "#d2e5ef",
    "#f2f0eb",
    "#fce0ba",
    "#fbbf74",
    "#e8932f",
    "#c5690d",
    "#994a07",
)
_STOPS = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in BLUE_ORANGE], dtype=np.float64)
MIDDLE = BLUE_ORANGE[len(BLUE_ORANGE) // 2]
TEXTS = ("title", "intro", "reading", "explain", "item", "with", "change")


def swap_colors(changes: np.ndarray, reach: float | None) -> list[list[str]]:
    """Each cell's colour: +``reach`` the scheme's deepest blue, -``reach`` its deepest orange, 0 its middle (every
    cell the middle when ``reach`` is None: no swap changes anything)."""
    values = np.asarray(changes, dtype=np.float64)
    if reach is None:
        return [[MIDDLE] * values.shape[1] for _ in range(values.shape[0])]
    # Where each value falls along the scheme read from orange (-reach) to blue (+reach), then from its start.
    along = 1.0 - np.clip((values / reach + 1.0) / 2.0, 0.0, 1.0)
    x = along * (len(BLUE_ORANGE) - 1)
    lo = np.minimum(np.floor(x).astype(int), len(BLUE_ORANGE) - 2)
    f = (x - lo)[..., None]
    rgb = np.rint(_STOPS[lo] * (1 - f) + _STOPS[lo + 1] * f).astype(int)
    return [[f"#{r:02x}{g:02x}{b:02x}" for r, g, b in row] for row in rgb.tolist()]


def best_swap(changes: np.ndarray) -> tuple[int, int] | None:
    """The two positions (0-based) whose swap raises NDCG@k most, or ``None`` when no swap raises it."""
    values = np.asarray(changes, dtype=np.float64)
    if not values.size:
        return None
    i, j = np.unravel_index(int(np.argmax(values)), values.shape)
    return (int(i), int(j)) if values[i, j] > 0 else None


def swap_map_data(
    labels: Sequence[str], changes: np.ndarray, k: int, texts: Mapping[str, str], *, large: bool = False
) -> dict:
    """What the browser needs to draw the map of a list with these ``labels`` (in order): ``changes[i, j]``, the
    change in NDCG@``k`` from swapping the items at positions i and j, written to 4 decimals with its colour; the
    legend's colours and ends; ``texts`` (``TEXTS``: the title, introduction, reading, explanation and the three
    axis and tooltip names); ``large``: presenter view."""
    n = len(labels)
    values = np.asarray(changes, dtype=np.float64).reshape(n, n) if n else np.zeros((0, 0))
    reach = swap_reach(values) if n else None
    low, high = (f"{-reach:+.4f}", f"{reach:+.4f}") if reach is not None else ("0", "0")
    return {
        "n": n,
        "k": k,
        "names": [f"{p + 1}. {label}" for p, label in enumerate(labels)],
        "cells": [[f"{v:+.4f}" for v in row] for row in (np.round(values, 4) + 0.0).tolist()],  # + 0.0: no -0
        "colors": swap_colors(values, reach) if n else [],
        "legend": {"colors": list(reversed(BLUE_ORANGE)), "low": low, "high": high},
        "best": best_swap(values),
        "texts": {name: texts[name] for name in TEXTS},
        "large": large,
    }


def show_swap_map(data: str, *, key: str, on_swap: Callable[[], None]) -> Any:
    """Draw the map from ``swap_map_data`` made beforehand, as JSON text (``ui.widgets.as_json``); ``on_swap`` runs
    (before the rerun) when a cell is clicked, tapped or entered: the component's ``swap`` is then ``{"i", "j"}``,
    the two positions (0-based)."""
    return _component(key=key, data=data, on_swap_change=on_swap)
