"""Judge the results: the projector's grade distribution of each result with its median, the class's agreement
(Krippendorff's alpha, read in plain words) and, at the reveal, NDCG@k under the class's median grades beside the
teacher's; the phone's one row per result with a grade picker on the scale, sent once for all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.judge import Judge, JudgeSummary
from ndcg_core.lists.spec import ListSpec
from ui.charts import category_axis, grade_color
from ui.classroom_text import spec_caption
from ui.format import metric_text
from ui.i18n import Translator
from ui.kinds.judge import question
from ui.projector import PAPER, big_chart, count_axis, count_top, ink_on
from ui.state import widget_value
from ui.views.classroom.sources import chosen_list, list_form

# Krippendorff's own reading of alpha (Content Analysis, 2004, section 11.4.4): rely on data with alpha of 0.800 or
# more, draw only tentative conclusions from 0.667 up to 0.800, and discard data below 0.667.
AGREE_WELL = 0.8
AGREE_TENTATIVE = 0.667


ROUNDS = False  # a round run again is shown alone: ``present`` leaves ``before`` unused


def agreement_reading(t: Translator, alpha: float | None) -> str:
    """Alpha in plain words, with the thresholds Krippendorff suggests."""
    level = verdict(alpha)
    return t(f"classroom.judge_alpha_{level or 'none'}", well=AGREE_WELL, tentative=AGREE_TENTATIVE)


def result_name(spec: ListSpec, part: int) -> str:
    return f"{part + 1}. {spec.labels[part]}"


def distribution_chart(
    t: Translator, activity: Judge, summary: JudgeSummary, revealed: bool, students: int = 0
) -> alt.LayerChart | alt.FacetChart:
    """Per result (one row each, in list order), a bar of the class's grades, one segment per grade in the grade's
    own colour (``grade_colours``) with its count written in it, on a count axis of whole students up to the class's
    size; beside it the median (and the teacher's grade once revealed)."""
    spec, scale = activity.spec, activity.scale
    names = [result_name(spec, i) for i in range(len(spec.grades))]
    colours = dict(zip(scale.grades, grade_colours(scale), strict=True))
    rows = []
    for i, counts in enumerate(summary.counts):
        start = 0
        for j, grade in enumerate(scale.grades):
            if counts[j]:
                end = start + counts[j]
                ink = ink_on(colours[grade])
                rows.append(
                    {"result": names[i], "grade": str(grade), "count": counts[j], "start": start, "end": end}
                    | {"middle": (start + end) / 2, "ink": ink}
                )
                start = end
    frame = pd.DataFrame(rows, columns=["result", "grade", "count", "start", "end", "middle", "ink"])
    totals = [sum(c) for c in summary.counts]
    notes = []
    for i, median in enumerate(summary.medians):
        text = t("classroom.judge_median", median=grade_text(median)) if median is not None else ""
        if revealed:
            text += ("  · " if text else "") + t("classroom.judge_teacher", grade=metric_text(spec.grades[i], 0))
        notes.append({"result": names[i], "total": totals[i], "text": text})
    top = count_top(students, totals)
    y = alt.Y("result:N", sort=names, title=None, axis=category_axis(labelLimit=420))
    grades = [str(g) for g in scale.grades]
    bars = (
        alt.Chart(frame)
        .mark_bar(stroke=PAPER, strokeWidth=1)
        .encode(
            y=y,
            x=alt.X(
                "start:Q",
                axis=count_axis(t("classroom.students"), top),
                # Room beyond a bar as long as the class for its median and the teacher's grade.
                scale=alt.Scale(domain=[0, top * 1.6], nice=False),
            ),
            x2="end:Q",
            color=alt.Color(
                "grade:O",
                sort=grades,
                scale=alt.Scale(domain=grades, range=[colours[g] for g in scale.grades]),
                title=t("classroom.judge_grade_axis"),
            ),
            tooltip=["result:N", "grade:N", "count:Q"],
        )
    )
    counts = (
        alt.Chart(frame)
        .mark_text(fontWeight="bold")
        .encode(y=y, x="middle:Q", text=alt.Text("count:Q", format="d"), color=alt.Color("ink:N", scale=None))
        .properties(name="counts")
    )
    labels = (
        alt.Chart(pd.DataFrame(notes))
        .mark_text(align="left", dx=6, fontWeight="bold")
        .encode(y=y, x="total:Q", text="text:N")
    )
    # Rows of 56 px at 720p: a bar 40 px thick, its count and its median in the projector's 20 px type.
    return alt.layer(bars, counts, labels).properties(height=max(160, 56 * len(names) + 60))


def grade_colours(scale: Scale) -> list[str]:
    """A colour per grade of ``scale``, the app's own (``ui.charts.grade_color``): grey for 0, then viridis from
    light yellow-green through green and blue to dark purple, distinct hues that stay ordered for the common kinds
    of colour blindness and in greyscale."""
    return [grade_color(g, scale.high) for g in scale.grades]


def grade_text(grade: float) -> str:
    """A grade or a median of grades: "2", or "2.5" between two."""
    return metric_text(grade, 0 if float(grade).is_integer() else 1)


def present(
    t: Translator,
    activity: Judge,
    summary: JudgeSummary,
    revealed: bool,
    screen: bool = False,
    own: str = "",
    before: JudgeSummary | None = None,
    round_number: int = 1,
    students: int = 0,
) -> None:
    spec = activity.spec
    st.markdown(question(t, activity, own))
    st.caption(spec_caption(t, spec, revealed))
    chart: Any = distribution_chart(t, activity, summary, revealed, students)
    alpha = "–" if summary.alpha is None else metric_text(summary.alpha, 2)
    ours = "–" if summary.class_ndcg is None else metric_text(summary.class_ndcg)
    theirs = metric_text(summary.teacher_ndcg)
    help_alpha = t("classroom.judge_alpha_help")
    if screen:
        # On a 1280x720 projector the figures sit beside the chart, all above the fold, in few words.
        left, right = st.columns([3, 1], gap="medium")
        with left:
            big_chart(chart, screen)
        level = verdict(summary.alpha)
        right.metric(
            t("classroom.judge_alpha"),
            alpha,
            delta=t(f"classroom.judge_verdict_{level}") if level else None,
            delta_color="off",
            delta_arrow="off",
            border=True,
        )
        if revealed:  # two decimals: both figures fit the column at projector size
            both = " / ".join(
                "–" if v is None else metric_text(v, 2) for v in (summary.class_ndcg, summary.teacher_ndcg)
            )
            right.metric(t("classroom.judge_both_ndcg", k=spec.k), both, border=True)
    else:
        big_chart(chart, screen)
        agree, class_col, teacher_col = st.columns(3)
        agree.metric(t("classroom.judge_alpha"), alpha, border=True, help=help_alpha)
        if revealed:
            class_col.metric(t("classroom.judge_class_ndcg", k=spec.k), ours, border=True)
            teacher_col.metric(t("classroom.judge_teacher_ndcg", k=spec.k), theirs, border=True)
    st.caption(distribution_text(t, activity, summary))
    st.caption(agreement_reading(t, summary.alpha))
    if not revealed:  # the projector's line is for the class; the control page's says what the teacher does
        st.caption(t("classroom.judge_hidden_screen" if screen else "classroom.judge_hidden"))


def verdict(alpha: float | None) -> str | None:
    """How far the judges agree, by Krippendorff's thresholds: ``well``, ``roughly``, ``disagree`` (or ``None``)."""
    if alpha is None:
        return None
    return "well" if alpha >= AGREE_WELL else "roughly" if alpha >= AGREE_TENTATIVE else "disagree"


def distribution_text(t: Translator, activity: Judge, summary: JudgeSummary) -> str:
    """The chart in words: per result, how many gave each grade."""
    parts = []
    for i, counts in enumerate(summary.counts):
        given = [f"{grade}×{count}" for grade, count in zip(activity.scale.grades, counts, strict=True) if count]
        if given:
            parts.append(f"{i + 1}: " + ", ".join(given))
    return t("classroom.judge_counts", counts=" · ".join(parts)) if parts else t("classroom.no_answers")


def form(t: Translator, prefix: str) -> None:
    """A list (its grades hidden from the class: they are the teacher's judgements), its k and the scale."""
    list_form(t, prefix, hidden_by_default=True)
    low, high = st.columns(2)
    low.number_input(t("classroom.scale_low"), min_value=0, max_value=9, value=0, step=1, key=f"{prefix}scale_low")
    high.number_input(t("classroom.scale_high"), min_value=1, max_value=10, value=4, step=1, key=f"{prefix}scale_high")


def build(prefix: str) -> Judge:
    scale = Scale(int(widget_value(f"{prefix}scale_low", 0)), int(widget_value(f"{prefix}scale_high", 4)))
    return Judge(chosen_list(prefix), scale)


if TYPE_CHECKING:
    from ui.views.classroom.kinds import KindViews
    from ui.views.classroom.kinds import judge as _this

    _VIEWS: KindViews[Judge, JudgeSummary] = _this  # mypy checks here this module is the views of its own kind
