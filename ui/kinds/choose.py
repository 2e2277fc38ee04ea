"""Which is right? in words: each option as "B: 0.94" and what makes it (right, or its mistake), the phone's four
numbers and, at the reveal, what the chosen mistake did, its number rebuilt and the fix; an option in the results
CSV."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ndcg_core.classroom.kinds.choose import Choose, ChooseOption
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.teaching.mistakes import Diagnosis, explain
from ui.classroom_text import list_details, own_question, query_line, spec_caption, unsent_text
from ui.i18n import Translator
from ui.mistake_text import figures_text, mistake_label, mistake_text
from ui.phones.card import Block, Body, Choice, Note, Text, table_of

NBSP = "\u00a0"


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


def described(t: Translator, activity: Choose, option: ChooseOption) -> str:
    """ "C: 0.66 (The grade as the gain)", or "D: 0.57 (Right)"."""
    return f"{option_text(activity, option)} ({naming(t, activity, option)})"


# --- the results CSV --------------------------------------------------------------------------------------


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
    from ui.kinds import KindWords
    from ui.kinds import choose as _this

    _WORDS: KindWords[Choose] = _this  # mypy checks here this module is the words of its own kind
