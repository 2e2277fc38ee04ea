"""One module per kind of activity, each with the kind's words that no Streamlit element draws: what a student's
phone shows and asks (``card``: a ``ui.phones.card.Body``, a model the phone's own page and the Streamlit phone
view each draw) and how the results CSV words its questions and answers (``csv_details``, ``csv_answer``,
``csv_solution``), with the question's wording the projector shares. Each module is a ``KindWords`` of its own
kind's class (mypy checks it at the module's end). ``WORDS`` finds them itself: every module here is the words of
the kind of its name, held in ``ndcg_core.classroom.kinds.KINDS``'s order.

Below the views: the phones' package (``ui.phones``) and the results (``ui.classroom_results``) build on it, and
import no view. A kind's Streamlit drawing (the projector, its form) is its module in ``ui/views/classroom/kinds/``.
Adding a kind: its core module, one module here, one there, its texts; nothing here names a kind."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeVar, cast

from ndcg_core.classroom.kinds import KINDS, KindClass, one_module_per_kind
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.registry import Registry
from ui.i18n import Translator
from ui.phones.card import Body

K = TypeVar("K", contravariant=True)  # a kind's class, such as ``Predict``


class KindWords(Protocol[K]):
    """A kind's words, typed against its own class ``K`` (a words module is one).

    ``card`` gives the phone's question and answer as a ``Body`` (blocks of plain text and inputs: the phone's page
    draws it in the browser, ``ui/widgets/phone_card.js``, or ``phone.draw_card`` with Streamlit where the app runs
    without ``serve.py``'s routes) for the activity ``current`` as stored and the student's own answers ``mine`` by
    part. The results CSV words the kind's questions and answers through ``csv_details`` (what the question was),
    ``csv_answer`` (a given answer as the phone showed it) and ``csv_solution`` (the right answer in the same
    words)."""

    def card(self, t: Translator, activity: K, current: ActivityRow, mine: Mapping[int, Any]) -> Body: ...

    def csv_details(self, t: Translator, activity: K, part: int) -> str: ...

    def csv_answer(self, t: Translator, activity: K, part: int, value: Any) -> str: ...

    def csv_solution(self, t: Translator, activity: K, part: int, solution: Any) -> str: ...


def discover(kinds: Registry[KindClass] = KINDS, path: Iterable[str] | None = None) -> dict[str, KindWords[Any]]:
    """Every words module found on ``path`` (this package's by default) by its name, in ``kinds``' order; an
    ``ImportError`` for a module named as no kind, or a kind with no words module."""
    modules = one_module_per_kind(__name__, __path__ if path is None else path, "words", kinds)
    return {name: cast(KindWords[Any], module) for name, module in modules.items()}


WORDS: Mapping[str, KindWords[Any]] = discover()
