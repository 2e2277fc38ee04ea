"""One module per kind of activity, each with the kind's views: how the projector (and the control page) shows the
class's answers (``present``), what a student's phone shows and asks (``card``), the form that sets the kind up live
or in the lesson editor (``form``, ``build``), and how the results CSV words its questions and answers
(``csv_details``, ``csv_answer``, ``csv_solution``). Each module is a ``KindViews`` of its own kind's class and
summary (mypy checks it below); ``VIEWS`` registers them by the kind's name, as ``ndcg_core.classroom.kinds.KINDS``
registers the kinds' classes. Adding a kind: its core module, one module here, one line below, its texts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from ndcg_core.classroom.kinds.choose import Choose, ChooseSummary
from ndcg_core.classroom.kinds.compare import Compare, CompareSummary
from ndcg_core.classroom.kinds.judge import Judge, JudgeSummary
from ndcg_core.classroom.kinds.practice import Practice, PracticeSummary
from ndcg_core.classroom.kinds.predict import Predict, PredictSummary
from ndcg_core.classroom.kinds.rank import Rank, RankSummary
from ndcg_core.classroom.storage import ActivityRow
from ui.i18n import Translator
from ui.views.classroom.card import Body
from ui.views.classroom.kinds import choose, compare, judge, practice, predict, rank

K = TypeVar("K")  # a kind's class, such as ``Predict``
S = TypeVar("S", contravariant=True)  # its class summary, such as ``PredictSummary``


class KindViews(Protocol[K, S]):
    """A kind's views, typed against its own class ``K`` and summary ``S`` (a views module is one).

    ``present`` draws the class's answers (``before``: the round before's summary, given at a repeat's reveal
    when ``ROUNDS``); ``card`` gives the phone's question and answer as a ``ui.views.classroom.card.Body`` (the
    browser draws it, or ``phone.draw_card`` with Streamlit where the app runs without ``serve.py``'s routes);
    ``form`` draws the kind's settings under widget keys starting with ``prefix``, and ``build`` makes the activity
    from them (an ``InputError`` for a bad setting). The results CSV words the kind's questions and answers through
    ``csv_details`` (what the question was), ``csv_answer`` (a given answer as the phone showed it) and
    ``csv_solution`` (the right answer in the same words)."""

    ROUNDS: bool

    def present(
        self,
        t: Translator,
        activity: K,
        summary: S,
        revealed: bool,
        screen: bool = False,
        own: str = "",
        before: S | None = None,
        round_number: int = 1,
    ) -> None: ...

    def card(self, t: Translator, activity: K, current: ActivityRow, mine: Mapping[int, Any]) -> Body: ...

    def form(self, t: Translator, prefix: str) -> None: ...

    def build(self, prefix: str) -> K: ...

    def csv_details(self, t: Translator, activity: K, part: int) -> str: ...

    def csv_answer(self, t: Translator, activity: K, part: int, value: Any) -> str: ...

    def csv_solution(self, t: Translator, activity: K, part: int, solution: Any) -> str: ...


# Each module checked against its own kind; the registry then holds them by name (the caller picks a kind's views
# by its activity's ``kind``, so the activity it passes is that kind's).
_PREDICT: KindViews[Predict, PredictSummary] = predict
_RANK: KindViews[Rank, RankSummary] = rank
_COMPARE: KindViews[Compare, CompareSummary] = compare
_PRACTICE: KindViews[Practice, PracticeSummary] = practice
_JUDGE: KindViews[Judge, JudgeSummary] = judge
_CHOOSE: KindViews[Choose, ChooseSummary] = choose

VIEWS: Mapping[str, KindViews[Any, Any]] = {
    "predict": _PREDICT,
    "rank": _RANK,
    "compare": _COMPARE,
    "practice": _PRACTICE,
    "judge": _JUDGE,
    "choose": _CHOOSE,
}
