"""A command sent from a page (a teacher's button, a join, a lesson started or saved): run through the classroom's
runtime (``ui.database.runtime``), and a refusal shown where the user acted, in their language; written once here
for every callback of the classroom's views."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ndcg_core.errors import InputError, StoreUnavailable
from ui.i18n import Translator
from ui.state import app_state, classroom_state

# What a command may answer instead of doing it: bad input, or a database that cannot serve now (down, read-only,
# full). A callback shows either where the user acted; what they typed stays in its widget, to be sent again.
REFUSALS = (InputError, StoreUnavailable)


@dataclass
class Attempt:
    """How a command went: its refusal, or ``None`` once it was done."""

    refused: InputError | StoreUnavailable | None = None


@contextmanager
def refusal_shown(place: str) -> Iterator[Attempt]:
    """Run the commands in the ``with`` block: a refusal ends the block and becomes the page's message at ``place``
    (``attempt.refused`` says so, for the caller to stop); a block that ran through clears that message. As in
    ``with refusal_shown("control") as attempt: runtime().lock(*teacher())``."""
    attempt = Attempt()
    cs = classroom_state()
    try:
        yield attempt
    except REFUSALS as err:
        attempt.refused = err
        cs.messages[place] = Translator(app_state().lang).explain(err)
    else:
        cs.messages.pop(place, None)


def teacher() -> tuple[str, str]:
    """This session's room and teacher key, as the runtime's teacher commands take them (empty when unknown: the
    store refuses them)."""
    cs = classroom_state()
    return cs.room or "", cs.key or ""
