"""Which is right?: the projector's votes per option and, at the reveal, each wrong number named by its mistake with
its working beside the right one's; the phone's four numbers and, at the reveal, what the chosen mistake did, its
number rebuilt and the fix (``ui.mistake_text``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import altair as alt
import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds.choose import CHOOSE_WRONG, Choose, ChooseSummary, choose_activity
from ndcg_core.errors import InputError
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.mistakes import explain, numbers
from ui.charts import category_axis
from ui.classroom_text import spec_caption
from ui.i18n import Translator
from ui.kinds.choose import naming, option_text, question, working
from ui.mistake_text import mistake_label
from ui.projector import big_chart, count_axis, count_top, worked_table
from ui.state import widget_value
from ui.views.classroom.common import list_table
from ui.views.classroom.sources import chosen_list, k_key, list_form

RIGHT_COLOUR, WRONG_COLOUR, OPEN_COLOUR = "#2a9d55", "#9aa5b1", "#0b63ce"


ROUNDS = False  # a round run again is shown alone: ``present`` leaves ``before`` unused


def votes_chart(
    t: Translator, activity: Choose, summary: ChooseSummary, revealed: bool, students: int = 0
) -> alt.LayerChart | alt.FacetChart:
    """One bar per option, in the phones' order, its count written over it, on a count axis of whole students up to
    the class's size; once revealed the right one green and the others grey."""
    options = activity.options()
    frame = pd.DataFrame(
        {
            "option": [option_text(activity, o) for o in options],
            "count": [summary.votes.get(o.letter, 0) for o in options],
            "colour": [
                (RIGHT_COLOUR if o.mistake is None else WRONG_COLOUR) if revealed else OPEN_COLOUR for o in options
            ],
        }
    )
    top = count_top(students, [int(c) for c in frame["count"]])
    base = alt.Chart(frame).encode(
        x=alt.X("option:N", sort=None, title=None, axis=category_axis(labelAngle=0)),
        y=alt.Y(
            "count:Q",
            axis=count_axis(t("classroom.students"), top),
            scale=alt.Scale(domain=[0, top * 1.25], nice=False),  # headroom for the count over a full bar
        ),
    )
    bars = base.mark_bar().encode(color=alt.Color("colour:N", scale=None), tooltip=["option:N", "count:Q"])
    counts = base.mark_text(baseline="bottom", dy=-4, fontWeight="bold").encode(text=alt.Text("count:Q", format="d"))
    return alt.layer(bars, counts).properties(height=240)


def reveal_frame(t: Translator, activity: Choose, summary: ChooseSummary) -> pd.DataFrame:
    """Per option: its number, the votes, what it is (right, or its mistake) and its working."""
    rows = [
        {
            t("classroom.choose_option_column"): option_text(activity, o),
            t("classroom.choose_votes_column"): summary.votes.get(o.letter, 0),
            t("classroom.choose_what_column"): naming(t, activity, o),
            t("classroom.choose_working_column"): working(t, activity, o),
        }
        for o in activity.options()
    ]
    return pd.DataFrame(rows)


def present(
    t: Translator,
    activity: Choose,
    summary: ChooseSummary,
    revealed: bool,
    screen: bool = False,
    own: str = "",
    before: ChooseSummary | None = None,
    round_number: int = 1,
    students: int = 0,
) -> None:
    spec = activity.spec
    st.markdown(question(t, activity, own))
    left, right = st.columns([2, 3])
    with left:
        list_table(t, spec.labels, spec.grades)
        st.caption(spec_caption(t, spec))
    below = right if screen else st.container()
    if not (revealed and screen):
        # On the projector the reveal takes the chart's place: its table holds the votes too, and fits above the fold.
        with right:
            big_chart(votes_chart(t, activity, summary, revealed, students), screen)
    if not revealed:
        st.caption(t("classroom.choose_hidden"))
        return
    option = activity.right_option()
    with below:
        st.success(
            t(
                "classroom.choose_reveal",
                option=option_text(activity, option),
                chose=summary.chose_right,
                count=summary.count,
            )
        )
        worked_table(reveal_frame(t, activity, summary), screen)


# --- the live setup and the lesson editor -------------------------------------------------------------------


def options_key(prefix: str, spec: ListSpec) -> str:
    """The mistakes box's key: one per list and k, so another list starts from its own mistakes."""
    return f"{prefix}choose_" + k_key(prefix, spec)[len(prefix) :] + f"_{spec.k}"


def form(t: Translator, prefix: str) -> None:
    """A list and its k, up to three mistakes that show on it (the rest chosen), and the seed of the order."""
    list_form(t, prefix)
    try:
        spec = chosen_list(prefix)
    except InputError:
        return  # the list form has said why
    here = tuple(numbers(spec, metric="ndcg"))
    st.multiselect(
        t("classroom.choose_options"),
        here,
        format_func=lambda code: f"{mistake_label(explain(spec, code), t)} ({code})",
        max_selections=CHOOSE_WRONG,
        key=options_key(prefix, spec),
        help=t("classroom.choose_options_help"),
    )
    st.number_input(
        t("classroom.choose_seed"), min_value=0, max_value=10**9, value=0, step=1, key=f"{prefix}choose_seed"
    )


def build(prefix: str) -> Choose:
    spec = chosen_list(prefix)
    named = widget_value(options_key(prefix, spec)) or []
    return choose_activity(spec, list(named), int(widget_value(f"{prefix}choose_seed") or 0))


if TYPE_CHECKING:
    from ui.views.classroom.kinds import KindViews
    from ui.views.classroom.kinds import choose as _this

    _VIEWS: KindViews[Choose, ChooseSummary] = _this  # mypy checks here this module is the views of its own kind
