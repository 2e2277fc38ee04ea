"""Which is better?: the projector's vote bars and the metrics' verdicts; the phone's vote."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ndcg_core.classroom import activities as acts
from ndcg_core.classroom.store import ActivityRow
from ndcg_core.errors import number_text
from ui.exercise_text import conventions_text
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.projector import big_chart, worked_table
from ui.state import (
    widget_value,
)
from ui.views.classroom.card import Block, Body, Choice, Note, Text, table_of
from ui.views.classroom.common import labelled, list_table, own_question, unsent_text


def question_line(t: Translator, activity: acts.Compare, own: str) -> str:
    """The query both rankings answer (escaped; nothing when the pair has none), then the question."""
    metric = t(f"classroom.metric.{activity.metric}", k=activity.pair.k)
    query = t("classroom.query", query=md_escape(activity.query)) + "\n\n" if activity.query else ""
    return query + own_question(own, t("classroom.compare_question", metric=metric))


def pair_tables(t: Translator, pair: acts.Pair, columns: Any = None) -> None:
    left, right = columns if columns is not None else st.columns(2)
    for col, name, labels, grades in ((left, "A", pair.labels_a, pair.a), (right, "B", pair.labels_b, pair.b)):
        with col:
            st.markdown(f"**{t('classroom.system', name=name)}**")
            list_table(t, labels, grades)


def present(
    t: Translator,
    activity: acts.Compare,
    summary: acts.CompareSummary,
    revealed: bool,
    screen: bool = False,
    own: str = "",
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
    votes = pd.DataFrame(
        {"vote": [t(f"classroom.vote.{v}") for v in acts.VOTES], "count": [summary.votes[v] for v in acts.VOTES]}
    )
    chart = (
        alt.Chart(votes)
        .mark_bar(color="#0b63ce")
        .encode(
            x=alt.X("vote:N", sort=None, title=None, axis=alt.Axis(labelAngle=0)),
            y=alt.Y(
                "count:Q",
                title=t("classroom.students"),
                axis=alt.Axis(tickMinStep=1, format="d"),
                scale=alt.Scale(domain=[0, max(3, *summary.votes.values())]),
            ),
            tooltip=["vote:N", "count:Q"],
        )
        .properties(height=240)
    )
    with chart_col:
        big_chart(chart, screen)
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
    st.success(
        t(
            "classroom.compare_reveal",
            agree=summary.agree,
            count=summary.count,
            metric=metric,
            verdict=t(f"classroom.vote.{activity.verdict(activity.metric)}"),
        )
    )


def card(t: Translator, current: ActivityRow, mine: Mapping[int, Any]) -> Body:
    """The phone's card: the two rankings, the vote; at the reveal, the verdict and both systems' values."""
    activity = current.activity()
    assert isinstance(activity, acts.Compare)  # the caller chose this view by the activity's kind
    metric = t(f"classroom.metric.{activity.metric}", k=activity.pair.k)
    pair = activity.pair
    blocks: list[Block] = [
        Text(question_line(t, activity, current.question.get(t.lang))),
        Text(conventions_text(activity.conventions(), t), small=True),
    ]
    for name, labels, grades in (("A", pair.labels_a, pair.a), ("B", pair.labels_b, pair.b)):
        blocks += [Text(f"**{t('classroom.system', name=name)}**"), table_of(t, labels, grades)]
    options = tuple((v, t(f"classroom.vote.{v}")) for v in acts.VOTES)
    blocks.append(Choice(0, t("classroom.your_vote"), options, mine.get(0), current.phase != "open"))
    if current.phase == "revealed":
        verdict = activity.verdict(activity.metric)
        text = t("classroom.your_compare_result", metric=metric, verdict=t(f"classroom.vote.{verdict}"))
        blocks.append(Note("success" if mine.get(0) == verdict else "warning", text))
        for m in acts.METRICS:
            va, vb = activity.values(m)
            line = t(
                "classroom.metric_values",
                metric=t(f"classroom.metric.{m}", k=pair.k),
                a=metric_text(va),
                b=metric_text(vb),
            )
            blocks.append(Text(line, small=True))
    return Body(tuple(blocks), unsent_text(t, "vote", 0 in mine, value="{value}"), t("classroom.send"))


def form(t: Translator, prefix: str) -> None:
    """Which pair of rankings, and the metric the class votes under."""
    st.selectbox(
        t("classroom.pair"), list(acts.PAIRS), format_func=lambda p: t(f"classroom.pair.{p}"), key=f"{prefix}pair"
    )
    st.radio(
        t("classroom.metric"),
        acts.METRICS,
        format_func=lambda m: t(f"classroom.metric.{m}", k=5),
        horizontal=True,
        key=f"{prefix}metric",
    )


def build(prefix: str) -> acts.Compare:
    return acts.compare_activity(widget_value(f"{prefix}pair", "seed003"), widget_value(f"{prefix}metric", "ndcg"))


# --- the results CSV --------------------------------------------------------------------------------------


def csv_details(t: Translator, activity: acts.Compare, part: int) -> str:
    """What the question was: the metric, k, both rankings (labels:grades) and every judged grade."""
    pair = activity.pair
    return t(
        "classroom.csv.compare",
        metric=t(f"classroom.metric.{activity.metric}", k=pair.k),
        k=pair.k,
        a=labelled(pair.labels_a, pair.a),
        b=labelled(pair.labels_b, pair.b),
        judged=", ".join(number_text(float(g)) for g in pair.judged),
    )


def csv_answer(t: Translator, activity: acts.Compare, part: int, value: Any) -> str:
    """A vote as the phone offered it."""
    return t(f"classroom.vote.{value}")


def csv_solution(t: Translator, activity: acts.Compare, part: int, solution: Any) -> str:
    """The verdict under the activity's metric, in the votes' words."""
    return t(f"classroom.vote.{solution}")
