"""The Playground's four figure charts (the order beside the ideal one, each position's gain, discount and DCG
contribution, NDCG at every k, the running DCG against the ideal) as one small ``st.components.v2`` component: SVG
drawn by its JavaScript from the numbers ``ndcg_core``'s breakdown gives, one element per move.

Why not Vega-Lite here: a move redrew four ``st.vega_lite_chart`` elements, and each cost Streamlit about 1.6 ms
of the server's CPU before it was sent (the spec dumped to JSON, parsed again, searched, put in its message), plus
its share of the run's messages through the event loop (``benchmarks/bench_cpu_per_move.py``); the browser then ran
the Vega runtime four times. Here the server sends one JSON text of the figures, cached per change in
``ui.live``. The charts take part in the linked views (``ui.widgets.pointer``): a position pointed at anywhere is
marked on every chart, a bar or point pointed at here points at its position everywhere, the last change's old
values stay as faint marks until the next change, and the change animates (none under prefers-reduced-motion).
The projector and the other pages keep their Altair charts (``ui.charts``), as do the downloads.

Every number drawn is ``ndcg_core``'s (the breakdown's columns), formatted here; the JavaScript only places them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import streamlit as st

from ui.charts import WRAP, Link, grade_color, grade_text_color, order_lane, order_lanes
from ui.columns import Table
from ui.columns import column as listed
from ui.widgets.pointer import LINKED_CSS, POINTER_JS, SVG_JS

_HERE = Path(__file__).parent
_component = st.components.v2.component(
    "ndcg_lab.figure_charts",
    html='<div class="ndcg-figures"></div>',
    css=(_HERE / "figure_charts.css").read_text(encoding="utf-8") + "\n" + LINKED_CSS,
    js=POINTER_JS + "\n" + SVG_JS + "\n" + (_HERE / "figure_charts.js").read_text(encoding="utf-8"),
)

KINDS = ("order", "contribution", "every_k", "cumulative")  # top to bottom, or two by two on a wide screen
THIS_COLOR, IDEAL_COLOR = "#0b63ce", "#e66100"  # the running sums' lines, as the Altair chart's


def axis_ticks(top: float, count: int = 5) -> list[tuple[float, str]]:
    """Round values from 0 to at least ``top``, about ``count`` steps apart, each with its label."""
    top = top if top > 0 else 1.0
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * (1 - 1e-9))
    steps = math.ceil(top / step - 1e-9)
    return [(round(i * step, 10), f"{round(i * step, 10):g}") for i in range(steps + 1)]


def _key(grade: Any) -> str:
    return "" if grade is None or grade != grade else f"{grade:g}"  # grade != grade: NaN


def _tip(pairs: list[tuple[str, str]]) -> str:
    return "\n".join(f"{name}: {value}" for name, value in pairs)


def _by_position(frame: Table | None, name: str) -> dict[int, Any]:
    return {} if frame is None else dict(zip(listed(frame, "position"), listed(frame, name), strict=True))


def _order(frame: Table, top: float, t: Mapping[str, str], link: Link) -> dict:
    position, item, grade, ideal, inside = (
        listed(frame, c) for c in ("position", "item", "grade", "ideal_grade", "in_top_k")
    )
    n = len(position)
    old_grade, old_item, old_ideal = (_by_position(link.before, c) for c in ("grade", "item", "ideal_grade"))
    tiles = []
    for this, grades in ((True, grade), (False, ideal)):
        row = t["this_order"] if this else t["ideal_order"]
        for p, g, label, ik in zip(position, grades, item, inside, strict=True):
            if g != g:  # NaN: the ideal is shorter than the list
                continue
            old = (old_grade if this else old_ideal).get(p)
            was = _key(old)
            moved = this and old_item.get(p, label) != label
            changed = link.before is not None and (was != _key(g) or moved)
            tiles.append(
                {
                    "p": p,
                    "lane": order_lane(row, p, n),
                    "column": (p - 1) % WRAP + 1 if n > WRAP else p,
                    "key": _key(g),
                    "color": grade_color(g, top),
                    "ink": grade_text_color(g, top),
                    "inside": bool(ik),
                    "changed": changed,
                    "was": f"{was}→" if changed and was else "",
                    "tip": _tip(
                        [(t["series"], row), (t["position"], str(p))]
                        + ([(t["item"], str(label))] if this else [])
                        + [(t["grade"], _key(g))]
                    ),
                }
            )
    return {"lanes": order_lanes(n, t), "columns": min(n, WRAP), "wrapped": n > WRAP, "tiles": tiles}


def _contribution(frame: Table, top: float, t: Mapping[str, str], link: Link) -> dict:
    columns = ("position", "item", "grade", "gain", "discount", "contribution", "in_top_k")
    position, item, grade, gain, discount, term, inside = (listed(frame, c) for c in columns)
    was = _by_position(link.before, "contribution")
    ticks = axis_ticks(max([*gain, *term, 0.0]))
    bars = []
    for p, label, g, ga, d, c, ik in zip(position, item, grade, gain, discount, term, inside, strict=True):
        old = was.get(p, c)
        bars.append(
            {
                "p": p,
                "key": _key(g),
                "color": grade_color(g, top),
                "gain": ga,
                "discount": d,
                "term": c,
                "was": old,
                "changed": link.before is not None and (p in link.changed or old != c),
                "inside": bool(ik),
                "tip": _tip(
                    [
                        (t["position"], str(p)),
                        (t["item"], str(label)),
                        (t["grade"], _key(g)),
                        (t["gain"], f"{ga:.3f}"),
                        (t["discount"], f"{d:.3f}"),
                        (t["contribution"], f"{c:.3f}"),
                    ]
                ),
            }
        )
    keys = sorted({float(g) for g in grade if g == g} | {float(g) for g in range(int(top) + 1)})
    return {
        "bars": bars,
        "ticks": ticks,
        "ticks2": axis_ticks(1.0, 4),
        "y_title": f"{t['gain']} / {t['contribution']}",
        "y2_title": t["discount"],
        "legend_title": t["grade"],
        "legend": [{"key": _key(g), "color": grade_color(g, top)} for g in keys],
    }


def _every_k(frame: Table, k: int, t: Mapping[str, str], link: Link) -> dict:
    ndcg = listed(frame, "ndcg")  # the running NDCG at position i is NDCG@i: ndcg_for_every_k's numbers
    was = _by_position(link.before, "ndcg")
    points = [
        {
            "p": i + 1,
            "v": v,
            "was": was.get(i + 1, v),
            "chosen": i + 1 == k,
            "tip": _tip([(t["cutoff"], str(i + 1)), (t["ndcg"], f"{v:.4f}")]),
        }
        for i, v in enumerate(ndcg)
    ]
    return {"points": points, "ticks": axis_ticks(1.0), "x_title": t["cutoff"], "y_title": t["ndcg"]}


def _cumulative(frame: Table, k: int, t: Mapping[str, str], link: Link) -> dict:
    position = listed(frame, "position")
    series: list[dict[str, Any]] = []
    values_shown: list[float] = []
    for name, column, color, dash in (
        (t["this_order"], "cumulative_dcg", THIS_COLOR, ""),
        (t["ideal_order"], "cumulative_idcg", IDEAL_COLOR, "6 4"),
    ):
        values, was = listed(frame, column), _by_position(link.before, column)
        points = [
            {
                "p": p,
                "v": v,
                "was": was.get(p, v),
                "tip": _tip([(t["series"], name), (t["position"], str(p)), (t["cumulative"], f"{v:.3f}")]),
            }
            for p, v in zip(position, values, strict=True)
            if v == v
        ]
        series.append({"name": name, "color": color, "dash": dash, "points": points})
        values_shown += [v for v in values if v == v]
    top = max([*values_shown, 0.0])
    return {
        "series": series,
        "ticks": axis_ticks(top),
        "k": k,
        "k_label": f"{t['k']} = {k}",
        "y_title": t["cumulative"],
        "legend_title": t["series"],
    }


def figures_data(
    frame: Table,
    *,
    top: float,
    k: int,
    texts: Mapping[str, str],
    large: bool = False,
    link: Link | None = None,
) -> dict:
    """What the browser needs to draw the four charts of a list's breakdown (``frame``, or its ``Columns``), cut at
    ``k``, grades on a 0..``top`` scale. ``texts``: the chart texts (``chart.*``) and each chart's title and reading
    (``title.<kind>``, ``reading.<kind>``); ``large``: presenter view; ``link``: the list before the last change, the
    positions whose term it changed and its id (its old values kept, its animation started by the table)."""
    link = link or Link()
    kinds: dict[str, dict] = {
        "order": _order(frame, top, texts, link),
        "contribution": _contribution(frame, top, texts, link),
        "every_k": _every_k(frame, k, texts, link),
        "cumulative": _cumulative(frame, k, texts, link),
    }
    charts = [
        {
            "kind": kind,
            "title": texts[f"title.{kind}"],
            "reading": texts[f"reading.{kind}"],
            **kinds[kind],
        }
        for kind in KINDS
    ]
    return {
        "charts": charts,
        "n": len(frame),
        "position": texts["position"],
        "changed": link.before is not None,
        "change": link.change if link.before is not None else None,
        "large": large,
    }


def show_figure_charts(data: str, *, key: str) -> None:
    """Draw the charts from ``figures_data`` made beforehand, as JSON text (``ui.widgets.as_json``)."""
    _component(key=key, data=data)
