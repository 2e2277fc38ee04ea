"""Which is better?: the projector's vote bars and the metrics' verdicts; the phone's vote."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds.compare import METRICS, PAIRS, VOTES, Compare, CompareSummary, Pair, compare_activity
from ui.charts import category_axis
from ui.exercise_text import conventions_text
from ui.format import metric_text
from ui.i18n import Translator
from ui.kinds.compare import question_line
from ui.projector import PROJECTOR_CHART_HEIGHT, big_chart, count_axis, count_top, worked_table
from ui.state import (
    widget_value,
)
from ui.views.classroom.common import list_table

ROUNDS = False  # a round run again is shown alone: ``present`` leaves ``before`` unused


def pair_tables(t: Translator, pair: Pair, columns: Any = None) -> None:
    left, right = columns if columns is not None else st.columns(2)
    for col, name, labels, grades in ((left, "A", pair.labels_a, pair.a), (right, "B", pair.labels_b, pair.b)):
        with col:
            st.markdown(f"**{t('classroom.system', name=name)}**")
            list_table(t, labels, grades)


def vote_chart(
    t: Translator, activity: Compare, summary: CompareSummary, revealed: bool, students: int = 0
) -> alt.LayerChart | alt.FacetChart:
    """One bar per vote, its count written over it, on a count axis of whole students up to the class's size. The
    winners are named in words under their bars, each on its own line of the vote's label, never stacked over a bar
    and never by colour alone: the class's choice (the vote with the most, when one leads) and, once revealed, the
    metric's verdict (that bar also turns orange)."""
    metric = t(f"classroom.metric.{activity.metric}", k=activity.pair.k)
    most = max(summary.votes.values())
    leads = [v for v in VOTES if most and summary.votes[v] == most]
    verdict = activity.verdict(activity.metric) if revealed else None
    choice = [t("classroom.compare_class_pick") if leads == [v] else "" for v in VOTES]
    picks = [t("classroom.compare_metric_pick", metric=metric) if v == verdict else "" for v in VOTES]
    names = [t(f"classroom.vote.{v}") for v in VOTES]
    votes = pd.DataFrame(
        {
            "vote": names,
            "count": [summary.votes[v] for v in VOTES],
            "winner": [v == verdict for v in VOTES],
            "verdict": picks,
            "choice": choice,
            # The axis's label: the vote, then a line for each pick it has (Vega writes a list as lines).
            "label": [LINES.join(w for w in words if w) for words in zip(names, choice, picks, strict=True)],
        }
    )
    top = count_top(students, list(summary.votes.values()))
    base = alt.Chart(votes).encode(
        x=alt.X(
            "label:N",
            sort=None,
            title=None,
            axis=category_axis(
                labelAngle=0, labelExpr=f"split(datum.value, '{LINES}')", labelFontWeight="bold", labelLimit=300
            ),
        ),
        y=alt.Y(
            "count:Q",
            axis=count_axis(t("classroom.students"), top),
            # Headroom over a bar as tall as the class for its count.
            scale=alt.Scale(domain=[0, top * 1.25], nice=False),
        ),
    )
    bars = base.mark_bar().encode(
        color=alt.condition("datum.winner", alt.value("#e66100"), alt.value("#0b63ce")),
        tooltip=["vote:N", "count:Q"],
    )
    counts = base.mark_text(baseline="bottom", dy=-4, fontWeight="bold").encode(text=alt.Text("count:Q", format="d"))
    return alt.layer(bars, counts.properties(name="counts")).properties(height=240)


LINES = "|"  # between the lines of a vote's label: no vote's or metric's name has one


def present(
    t: Translator,
    activity: Compare,
    summary: CompareSummary,
    revealed: bool,
    screen: bool = False,
    own: str = "",
    before: CompareSummary | None = None,
    round_number: int = 1,
    students: int = 0,
) -> None:
    metric = t(f"classroom.metric.{activity.metric}", k=activity.pair.k)
    st.markdown(question_line(t, activity, own))
    st.caption(conventions_text(activity.conventions(), t))
    if screen:
        # Side by side on a projector: the two rankings and the votes all above the fold at 1280x720.
        a_col, b_col, chart_col = st.columns(3, gap="medium")
        pair_tables(t, activity.pair, (a_col, b_col))
    else:
        pair_tables(t, activity.pair)
        chart_col = st.container()
    chart = vote_chart(t, activity, summary, revealed, students)
    agreement = t(
        "classroom.compare_reveal",
        agree=summary.agree,
        count=summary.count,
        metric=metric,
        verdict=t(f"classroom.vote.{activity.verdict(activity.metric)}"),
    )
    with chart_col:
        big_chart(chart, screen, PROJECTOR_CHART_HEIGHT - 70)  # beside the tables, the agreement under it
        if revealed and screen:  # under the votes, above the fold on the projector
            st.success(agreement)
    if not revealed:
        return
    rows = [
        {
            t("classroom.metric_column"): t(f"classroom.metric.{m}", k=activity.pair.k),
            "A": metric_text(va),
            "B": metric_text(vb),
            t("classroom.verdict"): t(f"classroom.vote.{verdict}"),
        }
        for m, (va, vb, verdict) in summary.verdicts.items()
    ]
    worked_table(pd.DataFrame(rows), screen)
    if not screen:
        st.success(agreement)


def form(t: Translator, prefix: str) -> None:
    """Which pair of rankings, and the metric the class votes under."""
    st.selectbox(t("classroom.pair"), list(PAIRS), format_func=lambda p: t(f"classroom.pair.{p}"), key=f"{prefix}pair")
    st.radio(
        t("classroom.metric"),
        METRICS,
        format_func=lambda m: t(f"classroom.metric.{m}", k=5),
        horizontal=True,
        key=f"{prefix}metric",
    )


def build(prefix: str) -> Compare:
    return compare_activity(widget_value(f"{prefix}pair", "seed003"), widget_value(f"{prefix}metric", "ndcg"))


if TYPE_CHECKING:
    from ui.views.classroom.kinds import KindViews
    from ui.views.classroom.kinds import compare as _this

    _VIEWS: KindViews[Compare, CompareSummary] = _this  # mypy checks here this module is the views of its own kind
