"""Altair charts of a ranked list, all drawn from ``ndcg_core.breakdown``'s frame.

Each chart is one base chart plus named layers, so tests can find a layer by name. Building an Altair
chart costs tens of milliseconds, too slow to redo after every drag, so the Playground's charts come from
``chart_spec``: the layers are built once per setting over named datasets (cached as JSON), and this list's
rows are put in as plain records. One colour per grade is used everywhere (charts and the sortable list):
grey for 0, then viridis from light to dark as the grade rises, which stays ordered for
the common kinds of colour blindness and in greyscale; the grade is also written as text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypedDict, TypeVar

import altair as alt
import numpy as np
import pandas as pd

from ui.columns import Table
from ui.columns import column as listed

ZERO_COLOR = "#d4d4d4"
# viridis at t = 0.9 ... 0.0 (light yellow-green to dark purple): grade 1 is lightest.
_VIRIDIS = [
    "#bddf26",
    "#7ad151",
    "#44bf70",
    "#22a884",
    "#21918c",
    "#2a788e",
    "#355f8d",
    "#414487",
    "#482475",
    "#440154",
]

# An Altair chart that Streamlit draws; Altair's ``configure`` returns one of the same kind.
AltairChart = TypeVar("AltairChart", bound=alt.TopLevelMixin)

DEFAULT_TEXTS = {
    "swap_item": "Item",
    "swap_with": "Swapped with",
    "swap_change": "Change in NDCG@k",
    "position": "Position",
    "grade": "Grade",
    "gain": "Gain",
    "discount": "Discount factor",
    "contribution": "DCG contribution",
    "item": "Item",
    "cumulative": "Cumulative DCG",
    "this_order": "This order",
    "ideal_order": "Ideal order",
    "series": "Order",
    "k": "k",
    "ndcg": "NDCG@k",
    "cutoff": "Cutoff k",
    "term": "Term",
    "query": "Query",
    "measure": "Measure",
    "difference": "B - A",
    "b_better": "B better",
    "a_better": "A better",
    "same": "Same",
}


def _hex_to_rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _mix(a: str, b: str, t: float) -> str:
    ra, rb = _hex_to_rgb(a), _hex_to_rgb(b)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ra, rb, strict=False))


def grade_color(grade: float, top: float) -> str:
    """The colour of a grade on a 0..top scale (grey for 0 and below).

    Scales up to 0-4 share one palette, so a grade has the same colour on every page.
    """
    top = max(float(top), 4.0)
    if grade <= 0:
        return ZERO_COLOR
    # Grade 1 (or anything between 0 and 1) is the lightest colour, the top grade the darkest.
    t = 1.0 if top <= 1 else (min(max(float(grade), 1.0), float(top)) - 1.0) / (float(top) - 1.0)
    x = t * (len(_VIRIDIS) - 1)
    lo = int(x)
    hi = min(lo + 1, len(_VIRIDIS) - 1)
    return _mix(_VIRIDIS[lo], _VIRIDIS[hi], x - lo)


def grade_text_color(grade: float, top: float) -> str:
    """Black or white, whichever reads better on the grade's colour."""
    r, g, b = _hex_to_rgb(grade_color(grade, top))
    luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
    return "#000000" if luminance > 0.45 else "#ffffff"


def grade_scale(grades: Sequence[float], top: float) -> alt.Scale:
    """An ordinal colour scale holding every grade 0..top plus any other grade shown."""
    domain = sorted({float(g) for g in range(int(top) + 1)} | {float(g) for g in grades})
    return alt.Scale(domain=[_grade_key(g) for g in domain], range=[grade_color(g, top) for g in domain])


def _grade_key(g: float) -> str:
    return f"{g:g}"


# Okabe and Ito's palette, told apart by every kind of colour vision; its grey for answers no mistake explains.
OKABE_ITO = {
    "green": "#009E73",
    "sky": "#56B4E9",
    "vermillion": "#D55E00",
    "orange": "#E69F00",
    "purple": "#CC79A7",
    "blue": "#0072B2",
    "yellow": "#F0E442",
    "grey": "#999999",
}
_MISTAKE_COLOURS = ("vermillion", "orange", "purple", "blue", "yellow")


def group_colours(codes: Sequence[str]) -> list[str]:
    """A colour per group of a class's answers, from ``OKABE_ITO``: right green, close sky blue, other grey, and
    the mistakes in turn (a chart names each group in text too: never colour alone)."""
    fixed = {"right": "green", "close": "sky", "other": "grey"}
    out, turn = [], 0
    for code in codes:
        if code in fixed:
            out.append(OKABE_ITO[fixed[code]])
        else:
            out.append(OKABE_ITO[_MISTAKE_COLOURS[turn % len(_MISTAKE_COLOURS)]])
            turn += 1
    return out


def category_axis(**properties: Any) -> alt.Axis:
    """An axis of categories (results, exercises, votes, positions, queries) that writes every category's label.

    Streamlit's chart theme sets ``labelOverlap``, which hides every other label as soon as two come close (a
    projected chart named results 1 and 4 only); here no label is ever dropped.
    """
    return alt.Axis(labelOverlap=False, **properties)


def position_axis(title: str | None, n: int) -> alt.Axis:
    """The positions of a list's bars: every one named up to ``WRAP`` positions; a longer list names 1, 5, 10, ...
    (chosen here, never dropped by the browser at random; each bar's tooltip still names its position)."""
    if n <= WRAP:
        return category_axis(title=title, labelAngle=0)
    return category_axis(title=title, labelAngle=0, values=[1, *range(5, n + 1, 5)])


def _texts(texts: Mapping[str, str] | None) -> dict[str, str]:
    return {**DEFAULT_TEXTS, **(texts or {})}


ROWS, CUTOFF = "rows", "cutoff"


def _grade_keys(values: Sequence[float]) -> list[str]:
    return ["" if pd.isna(g) else _grade_key(g) for g in values]


def _source(data: pd.DataFrame | str) -> pd.DataFrame | alt.NamedData:
    return alt.NamedData(data) if isinstance(data, str) else data


# --- linked views: the pointed position ---------------------------------------------------------------------
# The swap map shares one Vega signal with the page's own components (ui/widgets/pointer.js), with no rerun:
# ``point``, the position pointed at in any view, bound to ``document.body`` (its ``value``, announced by the event
# POINT_EVENT). The Playground's four figure charts are drawn by their own component (ui/widgets/figure_charts.py).

POINT_EVENT = "ndcglabpoint"
LINK_COLOR = "#0b63ce"


@dataclass(frozen=True, eq=False)
class Link:
    """What a linked chart shows beyond its list: the list's breakdown before the last change (``None``: none),
    the positions whose DCG@k term the change changed (``explain_change``), and the change's id (< 1e6)."""

    before: Table | None = None
    changed: frozenset[int] = frozenset()
    change: int = 0


def _point_param() -> alt.Parameter:
    return alt.param(name="point", value=0, bind=alt.BindDirect(element="body", event=POINT_EVENT))


# --- per position: gain, discount, contribution ------------------------------------------------


def _contribution_layers(
    rows: str, top: float, domain: tuple[float, ...], t: dict, n: int
) -> alt.LayerChart | alt.FacetChart:
    color = alt.Color(
        "grade_key:O", scale=grade_scale(domain, top), title=t["grade"], legend=alt.Legend(symbolOpacity=1)
    )
    inside = alt.condition("datum.in_top_k", alt.value(1.0), alt.value(0.3))
    base = alt.Chart(_source(rows)).encode(
        x=alt.X("position:O", title=t["position"], axis=position_axis(t["position"], n)),
        tooltip=[
            alt.Tooltip("position:O", title=t["position"]),
            alt.Tooltip("item:N", title=t["item"]),
            alt.Tooltip("grade:Q", title=t["grade"], format="g"),
            alt.Tooltip("gain:Q", title=t["gain"], format=".3f"),
            alt.Tooltip("discount:Q", title=t["discount"], format=".3f"),
            alt.Tooltip("contribution:Q", title=t["contribution"], format=".3f"),
        ],
    )
    gain = (
        base.mark_bar(opacity=0.35, stroke="#555", strokeWidth=0.5)
        .encode(y=alt.Y("gain:Q", title=f"{t['gain']} / {t['contribution']}"), color=color)
        .properties(name="gain")
    )
    contribution = (
        base.mark_bar(width=alt.RelativeBandSize(0.5))
        .encode(y="contribution:Q", color=color, opacity=inside)
        .properties(name="contribution")
    )
    labels = (
        base.mark_text(dy=-6, fontWeight="bold")
        .encode(y="gain:Q", text=alt.Text("grade_key:N"), opacity=inside)
        .properties(name="grade_labels")
    )
    discount = (
        base.mark_line(point=True, color="#222222", strokeDash=[4, 3])
        .encode(y=alt.Y("discount:Q", title=t["discount"], scale=alt.Scale(domain=[0, 1])))
        .properties(name="discount")
    )
    bars = alt.layer(gain, contribution, labels).properties(name="bars")
    return alt.layer(bars, discount).resolve_scale(y="independent").properties(height=260, width="container")


# --- cumulative DCG against the ideal ------------------------------------------------------------


def _cumulative_layers(rows: str, cutoff: str, t: dict) -> alt.LayerChart | alt.FacetChart:
    series = [t["this_order"], t["ideal_order"]]
    base = alt.Chart(_source(rows)).encode(
        x=alt.X("position:Q", title=t["position"], axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("value:Q", title=t["cumulative"]),
        color=alt.Color("series:N", title=t["series"], scale=alt.Scale(domain=series, range=["#0b63ce", "#e66100"])),
        strokeDash=alt.StrokeDash("series:N", scale=alt.Scale(domain=series, range=[[1, 0], [6, 4]]), legend=None),
        tooltip=[
            alt.Tooltip("series:N", title=t["series"]),
            alt.Tooltip("position:Q", title=t["position"]),
            alt.Tooltip("value:Q", title=t["cumulative"], format=".3f"),
        ],
    )
    lines = base.mark_line(point=True).properties(name="lines")
    marker = alt.Chart(_source(cutoff)).encode(x="k:Q")
    rule = marker.mark_rule(color="#b00020", strokeWidth=2).properties(name="k_rule")
    label = (
        marker.mark_text(align="left", dx=4, dy=-6, color="#b00020", fontWeight="bold")
        .encode(text="label:N", y=alt.value(8))
        .properties(name="k_label")
    )
    return alt.layer(lines, rule, label).properties(height=260, width="container")


# --- this order beside the ideal order -----------------------------------------------------------

WRAP = 20  # positions per line of tiles: a longer list wraps, so 100 positions stay 100 readable tiles


def order_lane(row: str, position: int, n: int) -> str:
    """The chart line a tile is on: the order's name, with the positions it holds once the list wraps."""
    if n <= WRAP:
        return row
    start = (position - 1) // WRAP * WRAP + 1
    return f"{row} {start}–{min(start + WRAP - 1, n)}"


def order_lanes(n: int, t: Mapping[str, str]) -> list[str]:
    """Every line of tiles, top to bottom: each stretch of positions shows this order above the ideal."""
    starts = range(1, n + 1, WRAP) if n > WRAP else [1]
    return [order_lane(row, p, n) for p in starts for row in (t["this_order"], t["ideal_order"])]


def _order_layers(rows: str, top: float, domain: tuple[float, ...], t: dict, n: int) -> alt.LayerChart | alt.FacetChart:
    wrapped = n > WRAP
    lanes = order_lanes(n, t)
    base = alt.Chart(_source(rows)).encode(
        x=alt.X(
            "column:O",
            title=None if wrapped else t["position"],
            axis=category_axis(labelAngle=0, labels=not wrapped, ticks=not wrapped),
        ),
        y=alt.Y("lane:N", title=None, sort=lanes, axis=category_axis()),
        tooltip=[
            alt.Tooltip("row:N", title=t["series"]),
            alt.Tooltip("position:O", title=t["position"]),
            alt.Tooltip("item:N", title=t["item"]),
            alt.Tooltip("grade_key:N", title=t["grade"]),
        ],
    )
    tiles = (
        base.mark_rect(stroke="white", strokeWidth=2)
        .encode(
            color=alt.Color("grade_key:O", scale=grade_scale(domain, top), legend=None),
            opacity=alt.condition("datum.in_top_k", alt.value(1.0), alt.value(0.35)),
        )
        .properties(name="tiles")
    )
    light_text = [_grade_key(g) for g in domain if grade_text_color(g, top) == "#ffffff"]
    text_color = alt.condition(
        alt.FieldOneOfPredicate(field="grade_key", oneOf=light_text), alt.value("#ffffff"), alt.value("#000000")
    )
    labels = (
        base.mark_text(fontWeight="bold").encode(text="grade_key:N", color=text_color).properties(name="grade_labels")
    )
    # Tall enough that the two lanes' labels never touch (at 110 px, Chinese labels overlapped).
    return alt.layer(tiles, labels).properties(height=140 if not wrapped else 28 * len(lanes), width="container")


# --- NDCG at every k -----------------------------------------------------------------------------


def every_k_rows(values: Sequence[float], k: int) -> pd.DataFrame:
    data = pd.DataFrame({"k": range(1, len(values) + 1), "ndcg": list(values)})
    data["chosen"] = data["k"] == k
    return data


def _every_k_layers(rows: pd.DataFrame | str, t: dict) -> alt.LayerChart | alt.FacetChart:
    base = alt.Chart(_source(rows)).encode(
        x=alt.X("k:Q", title=t["cutoff"], axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("ndcg:Q", title=t["ndcg"], scale=alt.Scale(domain=[0, 1])),
        tooltip=[alt.Tooltip("k:Q", title=t["cutoff"]), alt.Tooltip("ndcg:Q", title=t["ndcg"], format=".4f")],
    )
    line = base.mark_line(point=True, color="#0b63ce").properties(name="line")
    chosen = (
        base.transform_filter("datum.chosen")
        .mark_point(size=180, color="#b00020", filled=True, shape="diamond")
        .properties(name="chosen_k")
    )
    return alt.layer(line, chosen).properties(height=220, width="container")


def ndcg_by_k_chart(
    values: Sequence[float], k: int, texts: Mapping[str, str] | None = None
) -> alt.LayerChart | alt.FacetChart:
    """NDCG@k for every k from 1 to n, the chosen k highlighted: it need not rise with k."""
    return _every_k_layers(every_k_rows(values, k), _texts(texts))


# --- the fast path the page uses -----------------------------------------------------------------


def _domain(grades: Sequence[float]) -> tuple[float, ...]:
    return tuple(sorted({float(g) for g in grades if not pd.isna(g)}))


@lru_cache(maxsize=512)
def _template(kind: str, top: float, domain: tuple[float, ...], texts: tuple[tuple[str, str], ...], n: int) -> str:
    """A chart's spec over named datasets, as JSON (cached: it depends on settings, not on the order)."""
    t = dict(texts)
    builders: dict[str, Callable[[], alt.LayerChart | alt.FacetChart]] = {
        "contribution": lambda: _contribution_layers(ROWS, top, domain, t, n),
        "cumulative": lambda: _cumulative_layers(ROWS, CUTOFF, t),
        "order": lambda: _order_layers(ROWS, top, domain, t, n),
        "every_k": lambda: _every_k_layers(ROWS, t),
    }
    return json.dumps(builders[kind]().to_dict())


@lru_cache(maxsize=512)
def _template_spec(
    kind: str, top: float, domain: tuple[float, ...], texts: tuple[tuple[str, str], ...], n: int
) -> dict:
    """``_template`` parsed (shared: copy the top level before changing it). Parsing it again after every move
    cost as much as the rows."""
    return json.loads(_template(kind, top, domain, texts, n))


def _columns(frame: Table, *names: str) -> list[list]:
    return [listed(frame, name) for name in names]


def _fast_rows(kind: str, frame: Table, t: Mapping[str, str], k: int, every_k: Sequence[float]) -> dict:
    """The datasets of chart ``kind`` as plain records, built without pandas (a few hundred microseconds
    instead of milliseconds; the page builds them after every move)."""
    if kind == "every_k":
        return {ROWS: [{"k": i + 1, "ndcg": float(v), "chosen": i + 1 == k} for i, v in enumerate(every_k)]}
    position, item, grade, in_top_k = _columns(frame, "position", "item", "grade", "in_top_k")
    if kind == "contribution":
        gain, discount, contribution = _columns(frame, "gain", "discount", "contribution")
        return {
            ROWS: [
                {
                    "position": p,
                    "item": it,
                    "grade": g,
                    "gain": ga,
                    "discount": d,
                    "contribution": c,
                    "in_top_k": ik,
                    "grade_key": _grade_key(g),
                }
                for p, it, g, ga, d, c, ik in zip(
                    position, item, grade, gain, discount, contribution, in_top_k, strict=False
                )
            ]
        }
    if kind == "cumulative":
        dcg, idcg = _columns(frame, "cumulative_dcg", "cumulative_idcg")
        rows = [{"position": p, "value": v, "series": t["this_order"]} for p, v in zip(position, dcg, strict=False)]
        rows += [{"position": p, "value": v, "series": t["ideal_order"]} for p, v in zip(position, idcg, strict=False)]
        return {ROWS: rows, CUTOFF: [{"k": k, "label": f"{t['k']} = {k}"}]}
    ideal = listed(frame, "ideal_grade")
    n = len(position)

    def column(p: int) -> int:
        return (p - 1) % WRAP + 1 if n > WRAP else p

    this, best = t["this_order"], t["ideal_order"]
    rows = [
        {
            "position": p,
            "row": this,
            "grade_key": _grade_key(g),
            "item": it,
            "in_top_k": ik,
            "column": column(p),
            "lane": order_lane(this, p, n),
        }
        for p, g, it, ik in zip(position, grade, item, in_top_k, strict=False)
    ]
    rows += [
        {
            "position": p,
            "row": best,
            "grade_key": _grade_key(g),
            "item": "",
            "in_top_k": ik,
            "column": column(p),
            "lane": order_lane(best, p, n),
        }
        for p, g, ik in zip(position, ideal, in_top_k, strict=False)
        if g == g
    ]  # g == g: not NaN
    return {ROWS: rows}


def chart_spec(
    kind: str,
    frame: Table,
    *,
    top: float,
    k: int,
    every_k: Sequence[float] = (),
    texts: Mapping[str, str] | None = None,
) -> dict:
    """The Vega-Lite spec of chart ``kind`` for this breakdown (the Playground's image downloads), built from a
    cached template. The spec's nested parts are shared with other calls: change only its top level."""
    t = _texts(texts)
    grades = listed(frame, "grade") + (listed(frame, "ideal_grade") if kind == "order" else [])
    # Only the tiles' layout and the positions' labels depend on the list's length.
    n = len(frame) if kind in ("order", "contribution") else 0
    template = _template_spec(kind, float(top), _domain(grades), tuple(sorted(t.items())), n)
    return {**template, "datasets": _fast_rows(kind, frame, t, k, every_k)}


PROJECTOR_FONT = 18  # px: the smallest chart text a projected room can read


class ProjectorConfig(TypedDict):
    """Vega-Lite config sections (each a keyword of Altair's ``configure``)."""

    axis: dict[str, int]
    legend: dict[str, int]
    text: dict[str, int]


PROJECTOR_CONFIG: ProjectorConfig = {
    "axis": {"labelFontSize": PROJECTOR_FONT, "titleFontSize": PROJECTOR_FONT + 2},
    "legend": {"labelFontSize": PROJECTOR_FONT, "titleFontSize": PROJECTOR_FONT + 2, "symbolSize": 200},
    "text": {"fontSize": PROJECTOR_FONT},
}


def altair_for_projector(chart: AltairChart) -> AltairChart:
    """An Altair chart with the projector's type sizes (presenter view)."""
    return chart.configure(**PROJECTOR_CONFIG)


def for_projector(spec: dict) -> dict:
    """The same chart with larger type and a taller plot, for presenter view."""
    out = {**spec, "config": {**spec.get("config", {}), **PROJECTOR_CONFIG}}
    if isinstance(out.get("height"), (int, float)):
        out["height"] = int(out["height"] * 1.4)
    return out


# --- Evaluate: many queries ----------------------------------------------------------------------


def distribution_chart(values: pd.DataFrame, texts: Mapping[str, str] | None = None) -> alt.LayerChart | alt.FacetChart:
    """NDCG over queries for each measure: a box plot with every query as a tick.

    ``values`` has columns qid, measure (a label such as "NDCG@10") and value.
    """
    t = _texts(texts)
    order = list(dict.fromkeys(values["measure"]))
    base = alt.Chart(values).encode(
        x=alt.X("value:Q", title=t["ndcg"], scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("measure:N", title=None, sort=order, axis=category_axis()),
    )
    box = base.mark_boxplot(extent="min-max", size=26, color="#9ecae1", opacity=0.8).properties(name="box")
    ticks = (
        base.mark_tick(color="#08519c", opacity=0.5, thickness=1.5)
        .encode(
            tooltip=[
                alt.Tooltip("qid:N", title=t["query"]),
                alt.Tooltip("measure:N", title=t["measure"]),
                alt.Tooltip("value:Q", title=t["ndcg"], format=".4f"),
            ]
        )
        .properties(name="queries")
    )
    return alt.layer(box, ticks).properties(height=max(120, 60 * len(order)), width="container")


def by_k_chart(values: pd.DataFrame, texts: Mapping[str, str] | None = None) -> alt.LayerChart | alt.FacetChart:
    """NDCG@k against k for a few queries (columns qid, k, value)."""
    t = _texts(texts)
    base = alt.Chart(values).encode(
        x=alt.X("k:Q", title=t["cutoff"], scale=alt.Scale(type="log"), axis=alt.Axis(format="d")),
        y=alt.Y("value:Q", title=t["ndcg"], scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("qid:N", title=t["query"]),
        tooltip=[
            alt.Tooltip("qid:N", title=t["query"]),
            alt.Tooltip("k:Q", title=t["cutoff"]),
            alt.Tooltip("value:Q", title=t["ndcg"], format=".4f"),
        ],
    )
    return alt.layer(base.mark_line(point=True).properties(name="lines")).properties(height=280, width="container")


def difference_chart(values: pd.DataFrame, texts: Mapping[str, str] | None = None) -> alt.LayerChart | alt.FacetChart:
    """Per-query difference B - A, sorted, blue for B better and orange for A better (columns qid, difference)."""
    t = _texts(texts)
    data = values.sort_values("difference", ascending=False, kind="stable").reset_index(drop=True)
    data["outcome"] = [t["b_better"] if d > 0 else t["a_better"] if d < 0 else t["same"] for d in data["difference"]]
    base = alt.Chart(data).encode(
        x=alt.X("qid:N", sort=list(data["qid"]), title=t["query"], axis=category_axis(labels=len(data) <= 60)),
        y=alt.Y("difference:Q", title=t["difference"]),
        tooltip=[
            alt.Tooltip("qid:N", title=t["query"]),
            alt.Tooltip("difference:Q", title=t["difference"], format="+.4f"),
        ],
    )
    bars = (
        base.mark_bar()
        .encode(
            color=alt.Color(
                "outcome:N",
                title=None,
                scale=alt.Scale(
                    domain=[t["b_better"], t["same"], t["a_better"]], range=["#0b63ce", "#999999", "#e66100"]
                ),
            )
        )
        .properties(name="bars")
    )
    zero = alt.Chart(pd.DataFrame({"y": [0]})).mark_rule(color="#333").encode(y="y:Q").properties(name="zero")
    return alt.layer(bars, zero).properties(height=260, width="container")


# --- the swap map ------------------------------------------------------------------------------------


def swap_columns(labels: Sequence[str], changes: np.ndarray, k: int) -> dict[str, np.ndarray | list[str]]:
    """One row per pair of positions (i, j): the change in NDCG@k if their items were swapped, as columns."""
    n = len(labels)
    names = [f"{p + 1}. {label}" for p, label in enumerate(labels)]
    i, j = np.repeat(np.arange(n), n), np.tile(np.arange(n), n)
    return {
        "i": i,
        "j": j,
        "row": [names[a] for a in i.tolist()],
        "column": [names[b] for b in j.tolist()],
        "change": np.asarray(changes, dtype=np.float64).reshape(-1) if n else np.empty(0),
        "in_top_k": (i < k) | (j < k),
    }


def swap_rows(labels: Sequence[str], changes: np.ndarray, k: int) -> pd.DataFrame:
    """``swap_columns`` as a frame (for an Altair chart drawn with its data, as on the Learn page)."""
    return pd.DataFrame(swap_columns(labels, changes, k))


def swap_reach(changes: Any) -> float | None:
    """How far the swap map's colours reach on either side of 0: the largest change either way, so a gain and a
    loss of the same size are the same depth of blue and orange (None when no swap changes anything)."""
    values = np.abs(np.asarray(changes, dtype=np.float64))
    reach = float(values.max()) if values.size else 0.0
    return reach if reach > 0 else None


def _swap_layers(
    data: pd.DataFrame | str,
    t: Mapping[str, str],
    n: int,
    large: bool,
    reach: float | None = None,
    linked: bool = False,
) -> alt.Chart:
    # Rows tall enough to read a label on each up to 30 items; beyond that the map is a picture of the list.
    # (The height covers the axis labels and the legend below too: about 180 px of it.)
    height = min((56 if large else 38) * n + 180, 970) if n <= 30 else min(8 * n + 130, 970)
    labels = n <= 30
    pick = alt.selection_point(name="swap", fields=["i", "j"], on="click", clear=False)
    chart = (
        alt.Chart(_source(data))
        .mark_rect(stroke="#ffffff", strokeWidth=0.5 if labels else 0)
        .encode(
            x=alt.X(
                "column:N",
                sort=alt.EncodingSortField("j"),
                title=t["swap_with"],
                axis=alt.Axis(labels=labels, labelAngle=-45, labelLimit=140),
            ),
            y=alt.Y(
                "row:N",
                sort=alt.EncodingSortField("i"),
                title=t["swap_item"],
                axis=alt.Axis(labels=labels, labelLimit=140),
            ),
            # The legend below the map, so a phone gives the map its whole width.
            color=alt.Color(
                "change:Q", title=t["swap_change"], scale=_swap_scale(reach), legend=alt.Legend(orient="bottom")
            ),
            opacity=alt.condition(alt.datum.in_top_k, alt.value(1.0), alt.value(0.85)),
            tooltip=[
                alt.Tooltip("row:N", title=t["swap_item"]),
                alt.Tooltip("column:N", title=t["swap_with"]),
                alt.Tooltip("change:Q", title=t["swap_change"], format="+.4f"),
            ],
        )
        .add_params(pick)
        .properties(width="container", height=height)
    )
    if not linked:
        return chart
    # The pointed position's row and column outlined: every swap that would move its item.
    pointed = "datum.i + 1 == point || datum.j + 1 == point"
    return chart.encode(
        stroke={"condition": {"test": pointed, "value": LINK_COLOR}, "value": "#ffffff"},
        strokeWidth={"condition": {"test": pointed, "value": 2}, "value": 0.5 if labels else 0},
    ).add_params(_point_param())


def _swap_scale(reach: float | None) -> alt.Scale:
    if reach is None:
        return alt.Scale(scheme="blueorange", reverse=True, domainMid=0)
    return alt.Scale(scheme="blueorange", reverse=True, domainMid=0, domain=[-reach, reach])


def swap_map_chart(rows: pd.DataFrame, texts: Mapping[str, str] | None = None, *, large: bool = False) -> alt.Chart:
    """A heatmap of the change in NDCG@k for swapping the items at two positions, the list's order on both
    axes; blue where a swap raises NDCG, orange where it lowers it, white where it changes nothing. A click on a
    cell selects the pair (the page performs that swap)."""
    n = int(round(np.sqrt(len(rows))))
    return _swap_layers(rows, _texts(texts), n, large, swap_reach(rows["change"]))


@lru_cache(maxsize=64)
def _swap_template(texts: tuple[tuple[str, str], ...], n: int, large: bool, linked: bool = False) -> str:
    return json.dumps(_swap_layers(ROWS, dict(texts), n, large, linked=linked).to_dict())


def swap_map_spec(
    labels: Sequence[str],
    changes: np.ndarray,
    k: int,
    texts: Mapping[str, str] | None = None,
    *,
    large: bool = False,
    linked: bool = False,
) -> tuple[dict, dict[str, dict[str, Any]]]:
    """``swap_map_chart`` as a Vega-Lite spec built once per setting, and its data as columns (for Arrow bytes):
    100 items make 10,000 cells, too many to build an Altair chart from after every move. ``linked``: the
    Playground's, whose pointed position's row and column are outlined (``POINT_EVENT``)."""
    spec = json.loads(_swap_template(tuple(sorted(_texts(texts).items())), len(labels), large, linked))
    reach = swap_reach(changes)
    if reach is not None:  # the one part of the spec that depends on the list, so it is not in the template
        spec["encoding"]["color"]["scale"]["domain"] = [-reach, reach]
    return spec, {ROWS: swap_columns(labels, changes, k)}
