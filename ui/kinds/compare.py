"""Which is better? in words: the question, the phone's two rankings and its vote, the verdict at the reveal; a vote in
the results CSV."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ndcg_core.classroom.kinds.compare import METRICS, VOTES, Compare
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.errors import number_text
from ui.classroom_text import labelled, own_question, unsent_text
from ui.exercise_text import conventions_text
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.phones.card import Block, Body, Choice, Note, Text, table_of


def question_line(t: Translator, activity: Compare, own: str) -> str:
    """The query both rankings answer (escaped; nothing when the pair has none), then the question."""
    metric = t(f"classroom.metric.{activity.metric}", k=activity.pair.k)
    query = t("classroom.query", query=md_escape(activity.query)) + "\n\n" if activity.query else ""
    return query + own_question(own, t("classroom.compare_question", metric=metric))


def card(t: Translator, activity: Compare, current: ActivityRow, mine: Mapping[int, Any]) -> Body:
    """The phone's card: the two rankings, the vote; at the reveal, the verdict and both systems' values."""
    metric = t(f"classroom.metric.{activity.metric}", k=activity.pair.k)
    pair = activity.pair
    blocks: list[Block] = [
        Text(question_line(t, activity, current.question.get(t.lang))),
        Text(conventions_text(activity.conventions(), t), small=True),
    ]
    for name, labels, grades in (("A", pair.labels_a, pair.a), ("B", pair.labels_b, pair.b)):
        blocks += [Text(f"**{t('classroom.system', name=name)}**"), table_of(t, labels, grades)]
    options = tuple((v, t(f"classroom.vote.{v}")) for v in VOTES)
    blocks.append(Choice(0, t("classroom.your_vote"), options, mine.get(0), current.phase != "open"))
    if current.phase == "revealed":
        verdict = activity.verdict(activity.metric)
        text = t("classroom.your_compare_result", metric=metric, verdict=t(f"classroom.vote.{verdict}"))
        blocks.append(Note("success" if mine.get(0) == verdict else "warning", text))
        for m in METRICS:
            va, vb = activity.values(m)
            line = t(
                "classroom.metric_values",
                metric=t(f"classroom.metric.{m}", k=pair.k),
                a=metric_text(va),
                b=metric_text(vb),
            )
            blocks.append(Text(line, small=True))
    return Body(tuple(blocks), unsent_text(t, "vote", 0 in mine, value="{value}"), t("classroom.send"))


# --- the results CSV --------------------------------------------------------------------------------------


def csv_details(t: Translator, activity: Compare, part: int) -> str:
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


def csv_answer(t: Translator, activity: Compare, part: int, value: Any) -> str:
    """A vote as the phone offered it."""
    return t(f"classroom.vote.{value}")


def csv_solution(t: Translator, activity: Compare, part: int, solution: Any) -> str:
    """The verdict under the activity's metric, in the votes' words."""
    return t(f"classroom.vote.{solution}")


if TYPE_CHECKING:
    from ui.kinds import KindWords
    from ui.kinds import compare as _this

    _WORDS: KindWords[Compare] = _this  # mypy checks here this module is the words of its own kind
