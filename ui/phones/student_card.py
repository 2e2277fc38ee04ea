"""A student's card and the reply to what they sent, in their language, from the classroom service's values
(``ndcg_core.classroom.service``): the card as a model of blocks built by each kind's ``card`` (``ui.kinds.WORDS``),
drawn by the phone's own page (``phone_page``, from ``routes``) or by Streamlit (``ui.views.classroom.phone``).

A card for a student with no answer to the current activity is the same for the whole class: the service keeps it
once per room, revision, language and time-up state in its process, and every phone that asks gets it (a class's
phones all fetch it when the teacher opens an activity). A card with the student's own answers (and so their result
at the reveal) is built for that student.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ndcg_core.classroom.service import CardState, ClassroomService, Outcome, Score
from ndcg_core.errors import StoreUnavailable
from ui.classroom_text import activity_heading
from ui.format import paragraphs
from ui.i18n import Translator
from ui.kinds import WORDS
from ui.phones.card import Body, PhoneCard, Text, phone_card, plain


def build(t: Translator, state: CardState) -> PhoneCard:
    """The card of ``state`` (locked once the time limit has run out), without the student's score."""
    current = state.current
    if current is None:
        return phone_card(t, state.room, None, state.mine, None, "", None)
    if state.time_up:
        current = replace(current, phase="locked")
    body: Body = WORDS[current.kind].card(t, current.activity(), current, state.mine)
    return phone_card(t, state.room, current, state.mine, state.left, activity_heading(t, current), body, state.time_up)


def score_block(t: Translator, score: Score) -> Text:
    """The student's own points and place, as the card's first line."""
    if score.place is None:
        return Text(t("classroom.my_score_none", points=score.points), small=True)
    key = "classroom.my_score_final" if score.final else "classroom.my_score"
    return Text(t(key, points=score.points, place=score.place, count=score.count), small=not score.final)


def card_json(service: ClassroomService, state: CardState, lang: str) -> dict[str, Any]:
    """The student's card as JSON-ready data: the class's shared card (with this moment's seconds left) or their
    own, with their score first when the room's lesson keeps scores."""
    t = Translator(lang)
    if state.shared:
        shared = service.shared_card(state, lang, lambda: build(t, state).to_json())
        card = {**shared, "left": state.left if shared["phase"] == "open" else None}
    else:
        card = build(t, state).to_json()
    if state.score is None:
        return card
    return {**card, "blocks": [score_block(t, state.score).to_json(), *card["blocks"]]}


@dataclass(frozen=True)
class Reply:
    """What a submission got, in the student's words: stored or not, the sentence saying so (Markdown), and the card
    after it."""

    ok: bool
    message: str
    card: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": plain(self.message), "card": self.card}


def reply(t: Translator, outcome: Outcome) -> Reply:
    """The sentences for a submission's outcome, each a paragraph of its own: each refused exercise named with its
    problem, each value read one particular way ("Read 0,62 as 0.62."), then saved (or what was saved, or
    nothing); or the refusal."""
    if outcome.error is not None:
        return Reply(False, t.explain(outcome.error))
    read = [t("common.read_note", note=t.explain(e.note)) for e in outcome.stored if e.note is not None]
    if outcome.refused:
        notes = [t("classroom.exercise_note", number=part + 1, text=t.explain(err)) for part, err in outcome.refused]
        after = t("classroom.others_saved" if outcome.stored else "classroom.nothing_saved")
        return Reply(False, paragraphs([*notes, *read, after]))
    return Reply(True, paragraphs([*read, t("classroom.saved")]))


def unavailable(t: Translator) -> Reply:
    """The reply when the database could not even say whether the student is in the room."""
    return Reply(False, t.explain(StoreUnavailable("store.unavailable")))
