"""Predict the NDCG in words: the phone's estimate box and, at the reveal, whether its estimate was right, close, a
known mistake (named, its number rebuilt, the fix) or other; an estimate in the results CSV."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ndcg_core.classroom.kinds.predict import Estimate, Predict
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.teaching.reading import read_answer
from ui.classroom_text import list_details, own_question, query_line, spec_caption, unsent_text
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.mistake_text import answer_feedback, reading_feedback
from ui.phones.card import Block, Body, Note, NumberBox, Text, table_of


def verdict_note(t: Translator, activity: Predict, estimate: Estimate) -> Note:
    """What the phone says of its estimate at the reveal: how far it was (to one decimal more than it was typed
    with, so a wrong one never reads 0), then right, close, the mistakes it matches (one paragraph each, quoting the
    estimate as typed beside the mistake's own number, and the fix), a slip located in the working (the step, its
    right value and the one that gives the estimate), or that no known mistake gives it."""
    result = activity.result(estimate)
    verdict = activity.verdict(estimate)
    said = t(
        "classroom.your_predict_result",
        truth=metric_text(result.detail.truth),
        off=metric_text(result.detail.off, result.detail.places),
        verdict=t({"right": "classroom.exact", "close": "classroom.within"}.get(verdict.group, "classroom.not_within")),
    )
    typed = md_escape(estimate.typed)
    if verdict.right:
        return Note("success", said)
    if verdict.found:
        explained = answer_feedback(verdict.found, t, answer=typed, working="")
        head = t("classroom.predict_mistake")
        space = "" if head.endswith("：") else " "  # no space after a Chinese colon
        return Note("warning", f"{said}\n\n{head}{space}{explained}")
    reading = read_answer(activity.spec, estimate.typed)  # as the verdict read it: a slip is not named a concept
    if reading.slip is not None:  # located, then the working step by step to find it in
        return Note("warning", f"{said}\n\n{reading_feedback(reading, t, answer=typed, working='')}")
    return Note("warning", said + "\n\n" + t("classroom.predict_other", answer=typed))


def card(t: Translator, activity: Predict, current: ActivityRow, mine: Mapping[int, Any]) -> Body:
    """The phone's card (``ui.phones.card``): the question, the list, the estimate box; the reveal."""
    spec = activity.spec
    question = own_question(current.question.get(t.lang), t("classroom.predict_question", k=spec.k))
    blocks: list[Block] = [Text(query_line(t, spec) + question)]
    mine_now = Estimate.of(mine[0]) if 0 in mine else None
    # The box gets back what was typed ("0.625", not 0.62): the phone takes the same text for the same answer.
    saved = None if mine_now is None else mine_now.typed
    # The box right under the question, the list after it: on a phone the box and Send are on the first screen.
    if current.phase != "revealed":
        blocks.append(NumberBox(0, t("classroom.estimate"), "0.75", saved, current.phase != "open"))
    if mine_now is not None:
        blocks.append(Text(t("classroom.your_estimate", value=metric_text(mine_now.value, 2))))
    if current.phase == "revealed":
        # The verdict before the list: on a phone it is the first thing read.
        if mine_now is None:
            blocks.append(Note("info", t("classroom.truth_was", truth=metric_text(activity.truth()))))
        else:
            blocks.append(verdict_note(t, activity, mine_now))
    blocks += [table_of(t, spec.labels, spec.grades), Text(spec_caption(t, spec), small=True)]
    return Body(tuple(blocks), unsent_text(t, "estimate", 0 in mine, value="{value}"), t("classroom.send"))


# --- the results CSV --------------------------------------------------------------------------------------


def csv_details(t: Translator, activity: Predict, part: int) -> str:
    """What the question was: the list (labels:grades), k, gain and ideal."""
    return list_details(t, activity.spec)


def csv_answer(t: Translator, activity: Predict, part: int, value: Any) -> str:
    """An estimate to the decimals the student typed it with, with a decimal point ("0,70" is 0.70)."""
    return Estimate.of(value).text


def csv_solution(t: Translator, activity: Predict, part: int, solution: Any) -> str:
    """The true NDCG@k."""
    return metric_text(float(solution))


if TYPE_CHECKING:
    from ui.kinds import KindWords
    from ui.kinds import predict as _this

    _WORDS: KindWords[Predict] = _this  # mypy checks here this module is the words of its own kind
