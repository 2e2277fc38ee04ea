"""A student's phone drawn in the browser: the current activity as a card of plain blocks (text, a table, a note,
and the answer's inputs) that ``ui/widgets/phone_card.js`` draws, sent as JSON by ``ui.phones.routes`` with no page run.

Why: when the teacher opens an activity, a whole class's phones need it at once, and a page run costs Streamlit
about 5 ms of one core per phone (and a new session after a server process dies about 35 ms); a card is built once
per room, revision and language in a process and sent as the same bytes to every phone that has not answered yet.
The phone keeps what its student typed in the browser, so a card drawn again loses nothing, and it sends answers to
a route of their own, which works while the page's websocket reconnects to another process.

Every text is built here, in the student's language, by each kind's ``card`` (``ui.kinds.WORDS``); the browser only
places it. Text goes out as runs of plain text (bold or not), never as HTML: a label a teacher typed stays text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ndcg_core.classroom.storage import ActivityRow, Room
from ui.format import metric_text
from ui.i18n import Translator

Runs = list[list[tuple[str, bool]]]  # paragraphs, each a list of (text, bold) runs

_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_BOLD = "**"


def runs(markdown: str) -> Runs:
    """The little Markdown the classroom's texts use (``**bold**``, backslash escapes from ``md_escape``, blank lines
    between paragraphs, line ends) as paragraphs of (text, bold) runs; a line end inside a paragraph is kept as
    ``"\\n"`` in its run's text. Anything else stays as written (nothing here is HTML)."""
    paragraphs: Runs = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        parts: list[tuple[str, bool]] = []
        bold = False
        text = ""
        i = 0
        while i < len(block):
            if block[i] == "\\" and i + 1 < len(block) and block[i + 1] != "\n":
                text += block[i + 1]
                i += 2
                continue
            if block.startswith(_BOLD, i):
                if text:
                    parts.append((text, bold))
                text, bold = "", not bold
                i += 2
                continue
            text += block[i]
            i += 1
        if text:
            parts.append((text, bold))
        cleaned = [(re.sub(r" *\n", "\n", part), b) for part, b in parts]
        if cleaned:
            paragraphs.append(cleaned)
    return paragraphs


def plain(markdown: str) -> str:
    """Markdown (see ``runs``) as the plain text it shows, paragraphs on lines of their own."""
    return "\n".join("".join(text for text, _ in para) for para in runs(markdown))


@dataclass(frozen=True)
class Text:
    """Paragraphs of Markdown (see ``runs``); ``small``: a caption."""

    markdown: str
    small: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"type": "text", "paragraphs": runs(self.markdown), "small": self.small}


@dataclass(frozen=True)
class Note:
    """A coloured box: ``success``, ``warning``, ``info`` or ``error``."""

    level: str
    markdown: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "note", "level": self.level, "paragraphs": runs(self.markdown)}


@dataclass(frozen=True)
class Table:
    """A short table of plain cells; ``numeric`` marks the columns aligned right."""

    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "table",
            "head": list(self.head),
            "rows": [list(r) for r in self.rows],
            "numeric": list(self.numeric),
        }


@dataclass(frozen=True)
class NumberBox:
    """A number typed as text (``saved``: what the store holds, as text)."""

    part: int
    label: str
    placeholder: str
    saved: str | None
    disabled: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "number",
            "part": self.part,
            "label": runs(self.label),
            "placeholder": self.placeholder,
            "saved": self.saved,
            "disabled": self.disabled,
        }


@dataclass(frozen=True)
class Choice:
    """One of a few options as a row of buttons; ``options`` are (value sent, text shown)."""

    part: int
    label: str
    options: tuple[tuple[Any, str], ...]
    saved: Any
    disabled: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "choice",
            "part": self.part,
            "label": runs(self.label),
            "options": [list(o) for o in self.options],
            "saved": self.saved,
            "disabled": self.disabled,
        }


@dataclass(frozen=True)
class Order:
    """A list to put in order (drag by the handle, or the up and down buttons); the value sent is the order of the
    teacher's positions (0-based). ``grades`` is empty unless the teacher shows them."""

    part: int
    labels: tuple[str, ...]
    grades: tuple[str, ...]
    k: int
    saved: tuple[int, ...] | None
    disabled: bool
    texts: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "order",
            "part": self.part,
            "labels": list(self.labels),
            "grades": list(self.grades),
            "k": self.k,
            "saved": None if self.saved is None else list(self.saved),
            "disabled": self.disabled,
            "texts": dict(self.texts),
        }


Block = Text | Note | Table | NumberBox | Choice | Order


@dataclass(frozen=True)
class Body:
    """What a kind's ``card`` gives: the blocks, in order, and the sentence for answers typed but not sent once
    answers close (with ``{value}``: the first such answer as shown; with ``{numbers}``: their numbers)."""

    blocks: tuple[Block, ...]
    unsent: str = ""
    send: str = ""  # the Send button's label while answers are open


@dataclass(frozen=True)
class PhoneCard:
    """The student's phone at one revision of the room."""

    revision: int
    activity: int | None
    phase: str | None
    ended: bool
    body: Body
    texts: Mapping[str, str]
    left: float | None = None  # seconds left of the activity's time limit, when it has one and is open
    answered: bool = False
    send: str = ""  # the Send button's label; "" when answers are closed
    time_up: bool = False  # answers closed by the time limit (the phase still says open)

    def to_json(self) -> dict[str, Any]:
        return {
            "revision": self.revision,
            "activity": self.activity,
            "phase": self.phase,
            "ended": self.ended,
            "blocks": [b.to_json() for b in self.body.blocks],
            "unsent": self.body.unsent,
            "texts": dict(self.texts),
            "left": self.left,
            "answered": self.answered,
            "send": self.send,
            "time_up": self.time_up,
        }


def table_of(t: Translator, labels: Sequence[str], grades: Sequence[float] | None) -> Table:
    """A ranked list as the phone's table: position, item and (unless hidden) grade."""
    if grades is None:
        return Table(
            (t("table.position"), t("table.item")),
            tuple((str(i), label) for i, label in enumerate(labels, start=1)),
            (True, False),
        )
    return Table(
        (t("table.position"), t("table.item"), t("table.grade")),
        tuple((str(i), label, metric_text(g, 0)) for i, (label, g) in enumerate(zip(labels, grades, strict=False), 1)),
        (True, False, True),
    )


def status_texts(t: Translator) -> dict[str, str]:
    """The status line's sentences, which the phone chooses among by what was typed and sent."""
    return {
        "change": t("classroom.change_until_locked"),
        "locked": t("classroom.locked_student"),
        "time_up": t("classroom.time_up_student"),
        "closed_locked": t("classroom.closed.locked"),
        "closed_time_up": t("classroom.closed.time_up"),
        "time_left": t("classroom.time_left"),
    }


def phone_card(
    t: Translator,
    room: Room,
    current: ActivityRow | None,
    mine: Mapping[int, Any],
    left: float | None,
    heading: str,
    body: Body | None,
    time_up: bool = False,
) -> PhoneCard:
    """The card for a room and its current activity (``current``, already marked locked when its time is up), with
    the kind's ``body`` built by the caller; ``heading`` goes in bold before the body's first block."""
    texts = status_texts(t)
    ended = [Note("info", t("classroom.ended_student"))] if room.ended else []
    if current is None or body is None:
        waiting = () if room.ended else (Note("info", t("classroom.waiting")),)
        return PhoneCard(room.revision, None, None, room.ended, Body((*ended, *waiting)), texts)
    blocks = (*ended, Text(f"**{heading}**"), *body.blocks)
    is_open = current.phase == "open"
    return PhoneCard(
        room.revision,
        current.id,
        current.phase,
        room.ended,
        Body(blocks, body.unsent, body.send),
        texts,
        left=left if is_open else None,
        answered=bool(mine),
        send=body.send if is_open else "",
        time_up=time_up,
    )
