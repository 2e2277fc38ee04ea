"""One module per kind of activity, each with the kind's Streamlit views: how the projector (and the control page)
shows the class's answers (``present``) and the form that sets the kind up live or in the lesson editor (``form``,
``build``). Each module is a ``KindViews`` of its own kind's class and summary (mypy checks it at the module's end).
``VIEWS`` finds them itself: every module here is the views of the kind of its name, held in
``ndcg_core.classroom.kinds.KINDS``'s order. What a phone shows (the card) and the results CSV's words are the
kind's module in ``ui.kinds``, below the views. Adding a kind: its core module, one module here, one in
``ui/kinds/``, its texts; nothing here names a kind."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeVar, cast

from ndcg_core.classroom.kinds import KINDS, KindClass, one_module_per_kind
from ndcg_core.registry import Registry
from ui.i18n import Translator

K = TypeVar("K")  # a kind's class, such as ``Predict``
S = TypeVar("S", contravariant=True)  # its class summary, such as ``PredictSummary``


class KindViews(Protocol[K, S]):
    """A kind's views, typed against its own class ``K`` and summary ``S`` (a views module is one).

    ``present`` draws the class's answers (``before``: the round before's summary, given at a repeat's reveal
    when ``ROUNDS``; ``students``: how many are in the room, where its count axes end); ``form`` draws the kind's
    settings under widget keys starting with ``prefix``, and ``build`` makes the activity from them (an
    ``InputError`` for a bad setting)."""

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
        students: int = 0,
    ) -> None: ...

    def form(self, t: Translator, prefix: str) -> None: ...

    def build(self, prefix: str) -> K: ...


def discover(kinds: Registry[KindClass] = KINDS, path: Iterable[str] | None = None) -> dict[str, KindViews[Any, Any]]:
    """Every views module found on ``path`` (this package's by default) by its name, in ``kinds``' order; an
    ``ImportError`` for a module named as no kind, or a kind with no views module. Each module is checked against
    ``KindViews`` of its own kind by mypy, at its end (the caller picks a kind's views by its activity's ``kind``,
    so the activity it passes is that kind's)."""
    modules = one_module_per_kind(__name__, __path__ if path is None else path, "views", kinds)
    return {name: cast(KindViews[Any, Any], module) for name, module in modules.items()}


VIEWS: Mapping[str, KindViews[Any, Any]] = discover()
