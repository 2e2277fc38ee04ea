"""The classroom's words that every screen shares, drawn by none: an activity's title, a lesson's own question, the
query and conventions lines of a list, the sentence for an answer typed but not sent, and a list as the results CSV
writes it. Below the views: the phones' package (``ui.phones``), each kind's words (``ui.kinds``), the results
(``ui.classroom_results``) and the Streamlit views all word these alike from here.
"""

from __future__ import annotations

from typing import Any

from ndcg_core.classroom.kinds.lists import list_conventions
from ndcg_core.classroom.numbering import Numbered
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.errors import number_text
from ndcg_core.lists.gains import GAINS
from ndcg_core.lists.spec import ListSpec
from ui.exercise_text import conventions_text
from ui.format import md_escape, metric_text
from ui.i18n import Translator


def activity_title(t: Translator, numbered: Numbered, kind: str) -> str:
    """ "Activity 3: Which is better?", "Activity 2 of 5: Predict the NDCG" in a lesson, and "· Round 2" when it is
    run again: the number the core gives (``numbering``), the same on every screen, in the CSV and the summary."""
    name = t(f"classroom.kind.{kind}")
    if numbered.of is None:
        heading = t("classroom.activity_heading", number=numbered.number, kind=name)
    else:
        heading = t("classroom.activity_heading_of", number=numbered.number, count=numbered.of, kind=name)
    return heading + (" · " + t("classroom.round", round=numbered.round) if numbered.round > 1 else "")


def activity_heading(t: Translator, current: ActivityRow) -> str:
    """An activity's title (``activity_title``) as the control page, the projector and the phones show it."""
    return activity_title(t, current.numbered, current.kind)


def own_question(own: str, standard: str) -> str:
    """A lesson's own wording of the question (as typed, never Markdown or HTML), else the app's ``standard``."""
    return md_escape(own) if own else standard


def query_line(t: Translator, spec: ListSpec) -> str:
    """The query the list answers, as a Markdown paragraph (escaped), or nothing for a list without one."""
    return t("classroom.query", query=md_escape(spec.query)) + "\n\n" if spec.query else ""


def spec_caption(t: Translator, spec: ListSpec, grades_shown: bool = True) -> str:
    """The conventions the list's NDCG@k is computed under (gain, discount, k, the ideal's source) and, for a
    judged pool, what it adds: its grades, or only how many items while the grades are hidden."""
    text = conventions_text(list_conventions(spec), t)
    if spec.pool:
        text += ("" if text.endswith("。") else " ") + (
            t("classroom.pool_caption", grades=", ".join(metric_text(g, 0) for g in spec.pool))
            if grades_shown
            else t("classroom.pool_caption_hidden", count=len(spec.pool))
        )
    return text


def unsent_text(t: Translator, key: str, sent_before: bool, **fields: Any) -> str:
    """A value typed but not sent when answers closed, and whether an earlier answer counts instead; ``{closed}``
    is left for the phone to fill with why answers closed (locked, or the time is up)."""
    text = t(f"classroom.unsent.{key}", closed="{closed}", **fields)
    if not sent_before:
        return text
    space = "" if text.endswith(("。", "！", "？")) else " "  # Chinese sentences follow each other with no space
    return text + space + t("classroom.unsent_earlier")


def labelled(labels: tuple[str, ...] | list[str], grades: tuple[float, ...] | list[float]) -> str:
    """A list as ``label:grade`` pairs in order (the results CSV's wording)."""
    return ", ".join(f"{label}:{number_text(float(g))}" for label, g in zip(labels, grades, strict=False))


def list_details(t: Translator, spec: ListSpec) -> str:
    """A list as the results CSV describes it: its items with their grades, k, the gain and the ideal's source."""
    ideal = (
        t("classroom.csv.ideal_pool", grades=", ".join(number_text(g) for g in spec.pool))
        if spec.pool
        else t("classroom.csv.ideal_list")
    )
    return t(
        "classroom.csv.list",
        items=labelled(spec.labels, spec.grades),
        k=spec.k,
        gain=t.entry("gain", GAINS[spec.gain], "label"),
        ideal=ideal,
    )
