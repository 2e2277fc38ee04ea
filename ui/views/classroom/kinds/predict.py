"""Predict the NDCG: the projector's histogram of estimates and the worked reveal, with the class's answers grouped
by the mistake each matches (and, for a round run again, the round before beside it); the phone's estimate box and,
at the reveal, whether its estimate was right, close, a known mistake (named, its number rebuilt, the fix) or other."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds.predict import Predict, PredictSummary
from ndcg_core.classroom.kinds.tally import Group, side_by_side
from ui.classroom_text import own_question, query_line, spec_caption
from ui.format import metric_text
from ui.i18n import Translator
from ui.mistake_text import group_label
from ui.projector import PROJECTOR_CHART_HEIGHT, big_chart, group_bars, worked_table
from ui.views.classroom.common import histogram_spec, histogram_text, list_table
from ui.views.classroom.sources import chosen_list, list_form
from ui.widgets.table import cut_at_k, cut_texts

ROUNDS = True  # at a repeat's reveal ``present`` is given the round before (``before``)


def groups_text(t: Translator, groups: Sequence[Group]) -> str:
    """The class's answers by group in words ("2 right · 9 DCG given for NDCG · 3 other"), for everyone who
    cannot tell the bars' colours apart, and for a screen reader."""
    if not groups:
        return t("classroom.no_answers")
    return t(
        "classroom.groups_text",
        groups=" · ".join(t("classroom.group_count", count=g.count, label=group_label(g.code, t)) for g in groups),
    )


def estimates_text(t: Translator, summary: PredictSummary) -> str:
    """The histogram in words, and how many estimates fell outside 0 to 1 and so are not on it (each the number of
    a known mistake, counted by name at the reveal)."""
    text = histogram_text(t, summary.bins)
    if not summary.outside:
        return text
    outside = t("classroom.estimates_outside", count=summary.outside)
    return outside if not any(b.count for b in summary.bins) else text + "  \n" + outside


def groups_chart(t: Translator, summary: PredictSummary, students: int = 0) -> Any:
    """One labelled bar per group of the class's answers, on a count axis up to the class's size."""
    codes = [g.code for g in summary.groups]
    names = [group_label(c, t) for c in codes]
    return group_bars(codes, names, [[g.count] for g in summary.groups], t("classroom.students"), students=students)


def rounds_chart(
    t: Translator, before: PredictSummary, after: PredictSummary, rounds: Sequence[str], students: int = 0
) -> Any:
    """Each group's answers in the round before and in this one, side by side."""
    both = side_by_side(before.groups, after.groups)
    codes = [code for code, _, _ in both]
    names = [group_label(c, t) for c in codes]
    return group_bars(codes, names, [[a, b] for _, a, b in both], t("classroom.students"), rounds, students)


def rounds_text(t: Translator, summaries: Sequence[PredictSummary], rounds: Sequence[str]) -> str:
    """Each round's answers by group in words, one round after the other."""
    return "\n\n".join(f"{name}: {groups_text(t, s.groups)}" for name, s in zip(rounds, summaries, strict=True))


def spread_text(summary: PredictSummary) -> tuple[str, str]:
    """The median and the middle half (the quartiles) as written, or dashes without estimates."""
    if summary.median is None or summary.quartiles is None:
        return "–", "–"
    low, high = summary.quartiles
    return metric_text(summary.median, 2), f"{metric_text(low, 2)}–{metric_text(high, 2)}"


def rounds_frame(t: Translator, summaries: Sequence[PredictSummary], rounds: Sequence[str]) -> pd.DataFrame:
    """Per round: how many answered, the share right (within 0.05), the median and the middle half."""
    rows = []
    for name, summary in zip(rounds, summaries, strict=True):
        median, middle = spread_text(summary)
        share = summary.share_right
        rows.append(
            {
                t("classroom.rounds.round"): name,
                t("classroom.rounds.right"): t(
                    "classroom.rounds.right_value",
                    right=summary.within,
                    count=summary.count,
                    share="–" if share is None else f"{share:.0%}",
                ),
                t("classroom.rounds.median"): median,
                t("classroom.rounds.middle"): middle,
            }
        )
    return pd.DataFrame(rows)


def present(
    t: Translator,
    activity: Predict,
    summary: PredictSummary,
    revealed: bool,
    screen: bool = False,
    own: str = "",
    before: PredictSummary | None = None,
    round_number: int = 1,
    students: int = 0,
) -> None:
    """The class's estimates; at the reveal, the truth, the answers by group and the worked terms. ``before``: the
    round before this one (given at a repeat's reveal), shown beside it: share right, spread and groups."""
    spec = activity.spec
    st.markdown(query_line(t, spec) + own_question(own, t("classroom.predict_question", k=spec.k)))
    if screen:  # the conventions are the point of a Predict: under the question, on a 720p projector's first screen
        st.caption(spec_caption(t, spec))
    reveal = t("classroom.predict_reveal", truth=metric_text(summary.truth), within=summary.within, count=summary.count)
    compared = revealed and before is not None
    rounds = [t("classroom.round", round=round_number - 1), t("classroom.round", round=round_number)]
    if revealed and screen:  # the answer first: on the projector it must not fall below the fold
        st.success(reveal)
    height = REVEAL_CHART_HEIGHT if revealed and screen and not compared else PROJECTOR_CHART_HEIGHT
    histogram = histogram_spec(
        t.lang,
        tuple(summary.bins),
        summary.truth if revealed else None,
        t("classroom.guess_axis"),
        screen=screen,
        height=height,
        students=students,
    )
    columns = ("position", "item", "grade", "term", "cumulative_dcg", "cumulative_idcg")
    if compared and screen:
        # Round 2's reveal: both rounds' figures above the fold, the histogram and the working below them.
        assert before is not None
        left, right = st.columns([5, 6])
        with left:
            worked_table(rounds_frame(t, [before, summary], rounds), screen)
        with right:  # under the conventions' line: 280 px at 720p keeps it on the first screen
            big_chart(rounds_chart(t, before, summary, rounds, students), screen, ROUNDS_HEIGHT)
        st.caption(rounds_text(t, [before, summary], rounds))
        big_chart(histogram, screen, PROJECTOR_CHART_HEIGHT)
        st.caption(estimates_text(t, summary))
    elif revealed and screen:
        # The worked terms beside the class's answers by group and the estimates: all on a 720p projector's first
        # screen with the question, its conventions and the truth.
        charts, terms = st.columns([1, 2], gap="medium")
        with charts:
            # A row a group at 720p, and the axis: each group's name and count read whole beside its bar.
            tall = REVEAL_GROUP_HEIGHT * max(len(summary.groups), 1) + REVEAL_AXIS_HEIGHT
            big_chart(groups_chart(t, summary, students), screen, tall)
            big_chart(histogram, screen)
        with terms:
            rows, kinds = cut_at_k(spec.breakdown(), columns, cut_texts(t, columns, spec.k))
            worked_table(rows, screen, kinds)
            st.caption(groups_text(t, summary.groups))
        return
    else:
        # On the control page the list's three columns need half of the narrow column beside the buttons.
        left, right = st.columns([2, 3] if screen else [1, 1])
        with left:
            list_table(t, spec.labels, spec.grades)
            if not screen:
                st.caption(spec_caption(t, spec))
        with right:
            big_chart(histogram, screen, PROJECTOR_CHART_HEIGHT)
            st.caption(estimates_text(t, summary))
    if not revealed:
        # The class reads the projector: a neutral line there; the control page says what the teacher does.
        st.caption(t("classroom.truth_hidden_screen" if screen else "classroom.truth_hidden"))
        return
    if not screen:
        st.success(reveal)
        if before is not None:
            worked_table(rounds_frame(t, [before, summary], rounds), screen)
            big_chart(rounds_chart(t, before, summary, rounds, students), screen)
            st.caption(rounds_text(t, [before, summary], rounds))
        else:
            big_chart(groups_chart(t, summary, students), screen)
            st.caption(groups_text(t, summary.groups))
    rows, kinds = cut_at_k(spec.breakdown(), columns, cut_texts(t, columns, spec.k))
    worked_table(rows, screen, kinds)


# The charts' heights at 720p beside the worked terms at the reveal, under the truth's sentence: the groups' chart
# 32 px a group and its axis, the histogram 165 px (less leaves its bars no room). Up to two groups both fit a 720p
# screen whole; a third pushes the histogram's axis title past its lower edge.
REVEAL_GROUP_HEIGHT, REVEAL_AXIS_HEIGHT, REVEAL_CHART_HEIGHT = 32, 64, 165
ROUNDS_HEIGHT = 280  # both rounds' groups at a repeat's reveal, at 720p


def form(t: Translator, prefix: str) -> None:
    """A list and its k."""
    list_form(t, prefix)


def build(prefix: str) -> Predict:
    return Predict(chosen_list(prefix))


if TYPE_CHECKING:
    from ui.views.classroom.kinds import KindViews
    from ui.views.classroom.kinds import predict as _this

    _VIEWS: KindViews[Predict, PredictSummary] = _this  # mypy checks here this module is the views of its own kind
