"""Shared by the classroom's views: the outage notice, messages, lists as tables and the histogram of the class's
values. The words every screen shares (an activity's title, the conventions caption...) are ``ui.classroom_text``'s.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds.tally import Bin
from ndcg_core.errors import StoreUnavailable
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.projector import PROJECTOR_CHART_HEIGHT, PROJECTOR_FONT, count_axis, count_ticks, sized
from ui.projector import count_top as class_top
from ui.state import (
    ClassroomState,
)

# How often the live part of the projector and the control page runs. An answer waits for the next run, up to this
# long (half of it on average): at 1 s that wait alone made "answer on the projector within 1 s (p95)" impossible
# (benchmarks/load_live_room.py reports the wait apart). A run that heard of no change since the last reads nothing
# (live.py) and costs a few ms of one core, so twice a second costs each open page under 1% of a core. The class's
# phones never run fragments: they are told on a stream (phone_page.py).
PRESENTER_SECONDS = 0.5


# The projector view is the room's address with view=screen, opened from the control page in the teacher's
# browser, which holds the key: the address itself gives nothing away, and any other browser gets a student's page.
VIEW_PARAM, SCREEN = "view", "screen"


# How often a page that could not be drawn for a database outage looks whether the database answers again.
OUTAGE_LOOK_SECONDS = 3.0


def outage_text(t: Translator, err: StoreUnavailable) -> str:
    """A short notice for a page or a part of it that could not be drawn: not answering (it comes back by itself),
    or the error's own words (read-only, full: only whoever runs the server can mend it)."""
    return t("classroom.outage") if err.code == "store.unavailable" else t.explain(err)


@contextmanager
def outage_notice(t: Translator) -> Iterator[None]:
    """Draw a part of the page that reads the store; if the database cannot serve, a short notice ends that part
    instead of a traceback (a fragment that runs every second draws itself again once the database is back)."""
    try:
        yield
    except StoreUnavailable as err:
        st.warning(outage_text(t, err), icon=":material/cloud_off:")


def show_message(cs: ClassroomState, place: str, ok: bool = False) -> None:
    text = cs.messages.get(place)
    if text:
        (st.success if ok else st.error)(text)


def list_table(t: Translator, labels: tuple[str, ...], grades: tuple[float, ...] | None) -> None:
    """A short ranked list as a Markdown table: no toolbar in the way on a phone, and cheap to send every
    time the page is drawn (a whole class draws it at once when an activity opens). Labels are escaped.
    ``grades=None``: positions and labels only (grades hidden until the reveal)."""
    st.markdown(table_markdown(t, labels, grades))


def table_markdown(t: Translator, labels: tuple[str, ...], grades: tuple[float, ...] | None) -> str:
    """``list_table``'s Markdown."""
    if grades is None:
        rows = [f"| {t('table.position')} | {t('table.item')} |", "|---:|:---|"]
        rows += [f"| {i} | {md_escape(label)} |" for i, label in enumerate(labels, start=1)]
    else:
        rows = [f"| {t('table.position')} | {t('table.item')} | {t('table.grade')} |", "|---:|:---|---:|"]
        rows += [
            f"| {i} | {md_escape(label)} | {metric_text(grade, 0)} |"
            for i, (label, grade) in enumerate(zip(labels, grades, strict=False), start=1)
        ]
    return "\n".join(rows)


# The histogram's y axis reaches this many times the class's size: the top quarter holds the marker's label.
HEADROOM = 1.35


def count_top(bins: list[Bin], students: int = 0) -> int:
    """The top of the histogram's count axis: the class's size ``students``, or the tallest bar if taller (at least
    3, so a class of one is not one bar filling the chart)."""
    return class_top(max(3, students), [b.count for b in bins])


def bin_rows(bins: list[Bin]) -> list[dict[str, float]]:
    """The histogram's bars as the chart's data rows."""
    return [{"low": b.low, "high": b.high, "count": b.count} for b in bins]


def rule_rows(t: Translator, truth: float, marker: str) -> list[dict[str, Any]]:
    """The true (or best) value's rule and its label as the chart's data rows."""
    return [{"truth": truth, "label": t(marker, value=metric_text(truth))}]


def histogram_layers(
    t: Translator, bars_data: Any, rule_data: Any, top: int, truth: float | None, axis: str
) -> alt.LayerChart | alt.FacetChart:
    """The histogram's layers over the data given (data frames, or names to fill in): the bars with their counts
    written over them, the count axis in whole students up to ``top`` (the class's size) with headroom over it, and
    once revealed the rule and its label."""
    bars = (
        alt.Chart(bars_data)
        .mark_bar(color="#0b63ce")
        .encode(
            x=alt.X("low:Q", bin="binned", scale=alt.Scale(domain=[0, 1]), title=axis),
            x2="high:Q",
            y=alt.Y(
                "count:Q",
                axis=count_axis(t("classroom.students"), top),
                scale=alt.Scale(domain=[0, top * HEADROOM], nice=False),
            ),
            tooltip=[alt.Tooltip("low:Q", format=".2f"), alt.Tooltip("high:Q", format=".2f"), "count:Q"],
        )
    )
    counts = (
        alt.Chart(bars_data)
        .transform_filter("datum.count > 0")
        .transform_calculate(middle="(datum.low + datum.high) / 2")
        .mark_text(baseline="bottom", dy=-2, fontWeight="bold")
        .encode(x="middle:Q", y="count:Q", text=alt.Text("count:Q", format="d"))
    )
    layers = [bars, counts]
    if truth is not None:
        layers.append(alt.Chart(rule_data).mark_rule(color="#d62728", size=3).encode(x="truth:Q"))
        right = truth > 0.7  # the label on the rule's inner side, so it never runs past the chart's edge
        layers.append(
            alt.Chart(rule_data)
            .mark_text(
                color="#d62728",
                align="right" if right else "left",
                dx=-6 if right else 6,
                baseline="top",
                fontSize=PROJECTOR_FONT,
                fontWeight="bold",
            )
            .encode(x="truth:Q", y=alt.value(4), text="label:N")
        )
    return alt.layer(*layers).properties(height=300)


def histogram_chart(
    t: Translator,
    bins: list[Bin],
    truth: float | None,
    axis: str,
    marker: str = "classroom.truth_label",
    students: int = 0,
) -> alt.LayerChart | alt.FacetChart:
    """The class's values as bars of width 0.05 over [0, 1] on a count axis up to the class's size ``students``,
    and the true (or best) value as a rule once revealed."""
    frame = pd.DataFrame(bin_rows(bins), columns=["low", "high", "count"])
    rule = None if truth is None else pd.DataFrame(rule_rows(t, truth, marker))
    return histogram_layers(t, frame, rule, count_top(bins, students), truth, axis)


# The form's data, by name: the bars' and the rule's rows are put in under the names Altair gives them.
BARS, RULE = "bars", "rule"


@st.cache_data(max_entries=256, show_spinner=False)
def histogram_form(
    lang: str, truth: float | None, axis: str, marker: str, screen: bool, height: int | None
) -> dict[str, Any]:
    """``histogram_chart``'s Vega-Lite spec with its data named (``BARS``, ``RULE``), not given, sized for the
    page: made by Altair once per language and reveal, since the class's counts change with every answer and
    building and checking an Altair chart took a projector's live part most of its time (tens of ms, seconds on a
    replica busy with a class's answers). Named data never goes through Altair's data transformer, which another
    session's chart may have set for the whole process meanwhile (Streamlit's own, whose spec has no data), and
    the theme's default view size, which that chart may have turned off, is left out: no chart drawn as wide as its
    column uses it."""
    rule = None if truth is None else alt.NamedData(RULE)
    chart = histogram_layers(Translator(lang), alt.NamedData(BARS), rule, 1, truth, axis)
    spec: dict[str, Any] = sized(chart, screen, height).to_dict()
    spec.get("config", {}).pop("view", None)
    return spec


# The histograms an open activity draws before its reveal, by the text keys of their axis and of their rule's
# label: Predict's estimates and Rank's NDCG reached (``kinds/predict.py``, ``kinds/rank.py``).
OPEN_HISTOGRAMS = (
    ("classroom.guess_axis", "classroom.truth_label"),
    ("classroom.reached_axis", "classroom.best_label"),
)


def opening_forms(languages: Iterable[str]) -> list[tuple[str, None, str, str, bool, int]]:
    """``histogram_form``'s arguments for every histogram an open activity draws, in each language, on the
    teacher's page and on the projector."""
    return [
        (lang, None, Translator(lang)(axis), marker, screen, PROJECTOR_CHART_HEIGHT)
        for lang in languages
        for axis, marker in OPEN_HISTOGRAMS
        for screen in (False, True)
    ]


def make_opening_forms(languages: Iterable[str]) -> None:
    """Make ``opening_forms`` now, as a server starts: a process's first opening otherwise built them on the
    teacher's press while the class's phones waited for their cards (75 ms of a loaded replica's time)."""
    for form in opening_forms(languages):
        histogram_form(*form)


def altair_name(rows: list[dict[str, Any]]) -> str:
    """The name Altair gives a chart's data rows (a hash of them)."""
    return "data-" + hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()[:32]


def histogram_spec(
    lang: str,
    bins: tuple[Bin, ...],
    truth: float | None,
    axis: str,
    marker: str = "classroom.truth_label",
    screen: bool = False,
    height: int | None = None,
    students: int = 0,
) -> dict[str, Any]:
    """``histogram_chart``'s Vega-Lite spec, sized for the page: its form (``histogram_form``) with the bars' and
    the rule's rows and the count axis (up to the class's size ``students``) put in, the spec Altair builds (each
    data named as Altair names it) but for the theme's view size."""
    spec = copy.deepcopy(histogram_form(lang, truth, axis, marker, screen, height))
    rows = {BARS: bin_rows(list(bins))}
    if truth is not None:
        rows[RULE] = rule_rows(Translator(lang), truth, marker)
    names = {key: altair_name(given) for key, given in rows.items()}
    for holder in (spec, *spec["layer"]):  # Altair puts data shared by every layer on top
        data = holder.get("data")
        if data is not None and data.get("name") in names:
            data["name"] = names[data["name"]]
    spec["datasets"] = {names[key]: given for key, given in rows.items()}
    top = count_top(list(bins), students)
    y = spec["layer"][0]["encoding"]["y"]
    y["scale"]["domain"] = [0, top * HEADROOM]
    y["axis"]["values"] = count_ticks(top)
    return spec


def histogram_text(t: Translator, bins: list[Bin]) -> str:
    """The histogram in words, for a screen reader and for anyone who cannot see the bars."""
    filled = [t("classroom.bin", low=f"{b.low:.2f}", high=f"{b.high:.2f}", count=b.count) for b in bins if b.count]
    return t("classroom.bins", bins=" · ".join(filled)) if filled else t("classroom.no_answers")
