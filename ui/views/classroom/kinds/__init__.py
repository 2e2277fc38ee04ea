"""One module per kind of activity, each with the kind's views: how the projector (and the control page) shows the
class's answers (``present``), how a student's phone asks and answers (``student``), and the form that sets the
kind up live or in the lesson editor (``form``, ``build``). ``VIEWS`` registers them by the kind's name, as
``ndcg_core.classroom.activities.KINDS`` registers the kinds' classes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ui.views.classroom.kinds import compare, judge, practice, predict, rank


@dataclass(frozen=True)
class KindViews:
    """A kind's views. ``present(t, activity, summary, revealed, screen)`` draws the class's answers;
    ``student(t, cs, row, mine, lead) -> unsent text or None`` draws the phone's question and answer;
    ``form(t, prefix)`` draws the kind's settings under widget keys starting with ``prefix``, and
    ``build(prefix)`` makes the activity from them (an ``InputError`` for a bad setting)."""

    present: Callable[..., None]
    student: Callable[..., str | None]
    form: Callable[..., None]
    build: Callable[[str], Any]


def _views(module: Any) -> KindViews:
    return KindViews(module.present, module.student, module.form, module.build)


VIEWS: Mapping[str, KindViews] = {
    "predict": _views(predict),
    "rank": _views(rank),
    "compare": _views(compare),
    "practice": _views(practice),
    "judge": _views(judge),
}
