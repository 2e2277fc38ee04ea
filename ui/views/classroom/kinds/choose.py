"""Which is right?: the projector's votes per option and, at the reveal, each wrong number named by its mistake with
its working beside the right one's; the phone's four numbers and, at the reveal, what the chosen mistake did, its
number rebuilt and the fix (``ui.mistake_text``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds.choose import CHOOSE_WRONG, Choose, ChooseOption, ChooseSummary, choose_activity
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.errors import InputError
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.mistakes import Diagnosis, explain, numbers
from ui.charts import category_axis
from ui.i18n import Translator
from ui.mistake_text import figures_text, mistake_label, mistake_text
from ui.projector import big_chart, count_axis, count_top, worked_table
from ui.state import widget_value
from ui.views.classroom.card import Block, Body, Choice, Note, Text, table_of
from ui.views.classroom.common import list_details, list_table, own_question, query_line, spec_caption, unsent_text
from ui.views.classroom.sources import chosen_list, k_key, list_form

RIGHT_COLOUR, WRONG_COLOUR, OPEN_COLOUR = "#2a9d55", "#9aa5b1", "#0b63ce"
NBSP = "\u00a0"


ROUNDS = False  # a round run again is shown alone: ``present`` leaves ``before`` unused


def question(t: Translator, activity: Choose, own: str) -> str:
    return query_line(t, activity.spec) + own_question(own, t("classroom.choose_question", k=activity.spec.k))


def option_text(activity: Choose, option: ChooseOption, button: bool = False) -> str:
    """ "B: 0.94", as the projector, the reveal and the CSV say it; on a phone's ``button`` with a no-break space (a
    button too narrow for it moves to the next row rather than putting its number on a line of its own)."""
    return f"{option.letter.upper()}:{NBSP if button else ' '}{activity.shown(option)}"


def diagnosis(activity: Choose, code: str) -> Diagnosis:
    """A mistake on the activity's list, its figures written with the options' decimals (at least 2)."""
    return replace(explain(activity.spec, code), decimals=activity.decimals())


def right_figures(activity: Choose) -> dict[str, str]:
    """The right working's DCG@k and IDCG@k as written (any option's diagnosis carries the right ones)."""
    return figures_text(diagnosis(activity, activity.mistakes[0]))


def naming(t: Translator, activity: Choose, option: ChooseOption) -> str:
    """What an option is: right, or the mistake that makes it."""
    if option.mistake is None:
        return t("classroom.choose_right")
    return mistake_label(diagnosis(activity, option.mistake), t)


def working(t: Translator, activity: Choose, option: ChooseOption) -> str:
    """How the option's number is worked out: a DCG over an ideal's DCG, or a DCG divided by nothing."""
    if option.mistake is None:
        f = right_figures(activity)
        return f"{f['dcg']} / {f['idcg']}"
    d = diagnosis(activity, option.mistake)
    f = figures_text(d)
    return f"{f['your_dcg']} / {f['your_idcg']}" if d.normalised else t("classroom.choose_undivided", dcg=f["your_dcg"])


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


def card(t: Translator, activity: Choose, current: ActivityRow, mine: Mapping[int, Any]) -> Body:
    """The phone's card: the list and four numbers; at the reveal, the right one, and for a wrong choice what its
    mistake did, the number rebuilt and the fix; then every option named."""
    spec = activity.spec
    blocks: list[Block] = [
        Text(question(t, activity, current.question.get(t.lang))),
        table_of(t, spec.labels, spec.grades),
    ]
    blocks.append(Text(spec_caption(t, spec), small=True))
    options = tuple((o.letter, option_text(activity, o, button=True)) for o in activity.options())
    blocks.append(Choice(0, t("classroom.your_choice"), options, mine.get(0), current.phase != "open"))
    if current.phase == "revealed":
        right = activity.right_option()
        chosen = activity.option(mine[0]) if mine.get(0) in dict(options) else None
        if chosen is None:
            blocks.append(Note("info", t("classroom.choose_right_was", option=option_text(activity, right))))
        elif chosen.mistake is None:
            f = right_figures(activity)
            text = t(
                "classroom.choose_you_right",
                option=option_text(activity, right),
                k=spec.k,
                dcg=f["dcg"],
                idcg=f["idcg"],
            )
            blocks.append(Note("success", text))
        else:
            d = diagnosis(activity, chosen.mistake)
            head = t(
                "classroom.choose_you_wrong",
                option=option_text(activity, chosen),
                label=mistake_label(d, t),
                right=option_text(activity, right),
            )
            blocks.append(Note("warning", head + "\n\n" + mistake_text(d, t)))
        for o in activity.options():
            line = t("classroom.choose_option_line", option=option_text(activity, o), what=naming(t, activity, o))
            blocks.append(Text(line, small=True))
    return Body(tuple(blocks), unsent_text(t, "choice", 0 in mine, value="{value}"), t("classroom.send"))


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
    here = tuple(numbers(spec))
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


# --- the results CSV --------------------------------------------------------------------------------------


def described(t: Translator, activity: Choose, option: ChooseOption) -> str:
    """ "C: 0.66 (The grade as the gain)", or "D: 0.57 (Right)"."""
    return f"{option_text(activity, option)} ({naming(t, activity, option)})"


def csv_details(t: Translator, activity: Choose, part: int) -> str:
    """What the question was: the list, k, gain and ideal, and the four options with what each is."""
    options = "; ".join(described(t, activity, o) for o in activity.options())
    return t("classroom.csv.choose", list=list_details(t, activity.spec), options=options)


def csv_answer(t: Translator, activity: Choose, part: int, value: Any) -> str:
    """The option chosen, with the mistake that makes it."""
    return described(t, activity, activity.option(str(value)))


def csv_solution(t: Translator, activity: Choose, part: int, solution: Any) -> str:
    """The right option."""
    return option_text(activity, activity.option(str(solution)))


if TYPE_CHECKING:
    from ui.views.classroom.kinds import KindViews
    from ui.views.classroom.kinds import choose as _this

    _VIEWS: KindViews[Choose, ChooseSummary] = _this  # mypy checks here this module is the views of its own kind
