"""One module per kind of activity, each with the kind's views: how the projector (and the control page) shows the
class's answers (``present``), what a student's phone shows and asks (``card``), the form that sets the kind up live
or in the lesson editor (``form``, ``build``), and how the results CSV words its questions and answers
(``csv_details``, ``csv_answer``, ``csv_solution``). ``VIEWS`` registers them by the kind's name, as
``ndcg_core.classroom.activities.KINDS`` registers the kinds' classes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ui.i18n import Translator
from ui.views.classroom.kinds import choose, compare, judge, practice, predict, rank


@dataclass(frozen=True)
class KindViews:
    """A kind's views. ``present(t, activity, summary, revealed, screen)`` draws the class's answers;
    ``card(t, row, mine)`` gives the phone's question and answer as a ``ui.views.classroom.card.Body`` (the browser
    draws it, or ``phone.draw_card`` with Streamlit where the app runs without ``serve.py``'s routes);
    ``form(t, prefix)`` draws the kind's settings under widget keys starting with ``prefix``, and ``build(prefix)``
    makes the activity from them (an ``InputError`` for a bad setting). The results CSV words the kind's questions
    and answers through ``csv_details(t, activity, part)`` (what the question was), ``csv_answer(t, activity,
    part, value)`` (a given answer as the phone showed it) and ``csv_solution(t, activity, part, solution)`` (the
    right answer in the same words). A kind with ``rounds`` shows, at the reveal of a round run again, the round
    before beside it."""

    present: Callable[..., None]
    form: Callable[..., None]
    build: Callable[[str], Any]
    csv_details: Callable[[Translator, Any, int], str]
    csv_answer: Callable[[Translator, Any, int, Any], str]
    csv_solution: Callable[[Translator, Any, int, Any], str]
    card: Callable[..., Any]
    rounds: bool = False  # ``present`` takes ``before`` (the round before's summary) and ``round_number``


def _views(module: Any, rounds: bool = False) -> KindViews:
    return KindViews(
        module.present,
        module.form,
        module.build,
        module.csv_details,
        module.csv_answer,
        module.csv_solution,
        module.card,
        rounds,
    )


VIEWS: Mapping[str, KindViews] = {
    "predict": _views(predict, rounds=True),
    "rank": _views(rank),
    "compare": _views(compare),
    "practice": _views(practice),
    "judge": _views(judge),
    "choose": _views(choose),
}
