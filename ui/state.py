"""Session state: the only module that creates or reads ``st.session_state``.

Each page keeps its state in one small dataclass below (``PlaygroundState``, ``LearnState``, ...), stored
under one session key and reached through a typed accessor (``playground_state()``), so a reader sees every
piece of state a page holds in one place. Widgets never own a value: a widget is bound to a field through
``bind``: the widget is given the stored value before it is drawn, and copies the learner's change back.
So a change made from code (ideal order, reset, a preset, a link) always wins over a widget's stale value,
and values survive a visit to another page (Streamlit drops the state of widgets a page does not draw).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar
from urllib.parse import urlencode, urlsplit, urlunsplit

import streamlit as st

from ndcg_core.errors import InputError
from ndcg_core.lists.guess import GuessVerdict
from ndcg_core.lists.items import Item
from ndcg_core.lists.move_count import MoveCount
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.spec import ListSpec
from ui.i18n import DEFAULT_LANGUAGE

DEFAULT_PRESET = "five"
WIDGET_PREFIX = "_w_"
PRESENT_PARAM = "present"  # the link parameter for presenter view (present=1)


EXAMPLE_TYPED_ROWS: list[dict[str, str | None]] = [
    {"query": "q1", "document": "d1", "grade": "3", "rank": "2"},
    {"query": "q1", "document": "d2", "grade": "0", "rank": "1"},
    {"query": "q1", "document": "d3", "grade": "2", "rank": "3"},
    {"query": "q1", "document": "d4", "grade": "3", "rank": None},
    {"query": "q2", "document": "d5", "grade": "1", "rank": "1"},
    {"query": "q2", "document": "d6", "grade": "2", "rank": "2"},
    {"query": "q2", "document": "d7", "grade": "0", "rank": "3"},
]


@dataclass
class AppState:
    """What every page shares: the language, presenter view, and which link values were applied."""

    PREFIX: ClassVar[str] = ""
    lang: str = DEFAULT_LANGUAGE
    presenter: bool = False
    notice: str | None = None  # a message for the next page drawn (a bad link, a bad short link)
    link_seen: dict[str, str | None] = field(default_factory=dict)  # URL parameter -> the value applied
    # URL parameter -> {a value this session replaced: when (time.monotonic())}, to tell an echo from a link
    link_replaced: dict[str, dict[str, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class Change:
    """The Playground's last change: what it was and the list before it, with its settings (for the change in
    NDCG and what caused it).

    ``kind`` names its text, ``playground.change.<kind>``: a move, a regrade, ... or a setting (``k``, ``gain``,
    ``discount``, ...; the field of the spec's scoring that changed, or ``top``). ``values`` fill that text
    (labels already escaped for Markdown); it is worded when drawn, so a change of language rewords it.
    """

    kind: str
    before: ListSpec
    values: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Held:
    """A change the Playground holds until the learner has guessed what it does (predict first): the list it
    makes, and the change as it will be recorded."""

    after: ListSpec
    change: Change


@dataclass(frozen=True)
class Revealed:
    """A guess put beside the truth after its change was made: ``change`` is that change (the verdict is shown
    while it is the last one)."""

    change: Change
    verdict: GuessVerdict


@dataclass(frozen=True)
class Removal:
    """An item just removed from the Playground's list: the list before, and the label (for Undo)."""

    before: tuple[Item, ...]
    label: str


@dataclass
class PlaygroundState:
    """The Playground's list and how it is scored (one ``ListSpec``), and what its controls need to remember.

    The sidebar's widgets are bound to the fields of the spec's scoring through ``bind_scoring``: each change
    makes a new spec.
    """

    PREFIX: ClassVar[str] = "pg_"
    spec: ListSpec
    origin: ListSpec  # what Reset returns to: its list, unretrieved judged items, k, top grade and ideal
    preset: str | None  # the example on screen; None for a list from a link, another page or edits
    preset_choice: str
    last: Change | None = None  # the last change, for the change in NDCG it caused
    error: str | None = None  # a message about the last rejected edit
    removed: Removal | None = None  # right after a removal, for Undo
    editor_version: int = 0  # bumped to redraw the data editors from the stored list
    drawn_version: int = 0  # the editor_version last drawn: a newer one is a change, whose headline leads
    shuffles: int = 0
    edit_open: bool = False  # the table editor is drawn only when open
    export_open: bool = False
    predict: bool = False  # predict first: a move is held until the learner guesses what it does
    held: Held | None = None
    guess_direction: str | None = None
    guess_size: str | None = None
    revealed: Revealed | None = None

    @classmethod
    def from_preset(cls, name: str = DEFAULT_PRESET) -> PlaygroundState:
        origin = PRESETS.build(name).spec()
        return cls(spec=origin, origin=origin, preset=name, preset_choice=name)

    def restore(self, origin: ListSpec, preset: str | None = None, *, keep_scoring: bool = True) -> None:
        """Put back a starting point (a preset, a link, or a list opened from another page); Reset returns to it.

        ``keep_scoring``: the learner's gain and discount stay (a preset, Reset, another page's list); a link
        brings its own. ``preset`` names the example it is (``None``: one the caption does not describe).
        """
        self.removed = None
        self.origin = origin
        self.preset = preset
        self.spec = origin.scored_like(self.spec) if keep_scoring else origin
        self.last = None
        self.held = None
        self.error = None
        self.editor_version += 1


@dataclass
class EvaluateState:
    """The Evaluate page's source, settings, and the files it was given."""

    PREFIX: ClassVar[str] = "ev_"
    source: str = "sample"
    cutoffs: str = "5, 10, 20"
    gain: str = "linear"
    ties: str = "trec_eval"
    ideal: str = "qrels"
    complete: bool = False
    judged_only: bool = False
    float32: bool = False
    relevant_only: bool = False
    explain: str = ""  # the number another tool printed, as typed, and the measure it is of (its name)
    explain_measure: str = ""
    upload_hashes: dict[str, str] = field(default_factory=dict)  # upload id -> content hash, hashed once
    uploads: dict[str, Any] = field(default_factory=dict)  # role -> FileInput kept for a visit elsewhere (small)
    typed_rows: list[dict[str, Any]] = field(default_factory=lambda: [dict(row) for row in EXAMPLE_TYPED_ROWS])
    csv: tuple[str, bytes] | None = None  # the per-query CSV as prepared: (which evaluation, its bytes)


@dataclass
class LearnState:
    """Where the learner is in Learn and their answers: the checks, the worksheet's cells and the guesses.

    Every step works on one running example (``ui.views.learn.EXAMPLE``), which no step changes.
    """

    PREFIX: ClassVar[str] = "learn_"
    step: int = 1
    feedback: dict[int, dict[str, Any]] = field(default_factory=dict)  # step -> {"kind": ...}, worded when drawn
    answers: dict[int, Any] = field(default_factory=dict)  # step -> the answer, kept across a change of language
    done: list[int] = field(default_factory=list)  # steps whose check is answered
    pool: str = "judged"  # Read on: the judged pages, or a larger pool (see ui.views.learn.POOLS)
    last_mistakes: tuple[str, ...] = ()  # the mistakes the last checked answer was traced to (registry codes)
    sheet: dict[str, str] = field(default_factory=dict)  # the worksheet: cell key (``term.3``) -> the text typed
    sheet_shown: bool = False  # the worksheet's answers were asked for
    guesses: dict[int, dict[str, str | None]] = field(default_factory=dict)  # step -> {"direction", "band"}


@dataclass
class PracticeState:
    """The Practice seed, the exercise on screen, the learner's answers and score."""

    PREFIX: ClassVar[str] = "pr_"
    seed: int = 2026
    number: int = 0
    feedback: dict[str, Any] | None = None  # {"ok": bool, "kind": ...} for the current exercise, worded when drawn
    answers: dict[str, Any] = field(default_factory=dict)  # answer widget key -> answer, kept across languages
    score: dict[str, int] = field(default_factory=lambda: {"attempted": 0, "correct": 0})
    answered: list[tuple[int, int]] = field(default_factory=list)  # (seed, number) pairs already counted
    items: list[Item] | None = None  # the reach exercise's list as the learner reorders it
    moves: MoveCount = MoveCount()  # the reach exercise's moves (▲▼ taps of one item in a row: one move)
    last_mistakes: tuple[str, ...] = ()  # the mistakes the last checked answer was traced to (registry codes)


def repeated_mistakes(section: LearnState | PracticeState, codes: tuple[str, ...]) -> tuple[str, ...]:
    """The mistakes (registry codes) of a checked answer that the answer before it made too; the answer's become
    the last ones (none for a right answer, a choice or a number no mistake explains)."""
    again = tuple(code for code in codes if code in section.last_mistakes)
    section.last_mistakes = codes
    return again


@dataclass
class MetricsState:
    """The Metrics page's two rankings, k and the number of relevant items."""

    PREFIX: ClassVar[str] = "cmp_"
    rankings: list[str] = field(default_factory=lambda: ["3, 2, 3, 0, 1", "3, 0, 2, 3, 1"])
    k: int = 5
    relevant: int = 4


@dataclass
class ConventionsState:
    """The Conventions page's cutoff and the number typed to explain."""

    PREFIX: ClassVar[str] = "conv_"
    k: int = 5
    explain: str = ""  # the number another tool printed, as typed (explained by ui/explain_number.py)


@dataclass
class ClassroomState:
    """This browser's place in a live classroom (kept under one session-state key, ``classroom``).

    A teacher's session holds the room's key (never the address bar: a projected screen would show it);
    a student's holds their random id, which is also in their link (``me=``) and the browser's storage.
    """

    room: str | None = None  # the room this session is in
    key: str | None = None  # the teacher's key, when this session controls the room
    student: str | None = None  # this browser's id in the room
    control_revision: int | None = None  # the room's revision the teacher's controls were last drawn for
    orders: dict[int, list[int]] = field(default_factory=dict)  # Rank it best: activity id -> my current order
    messages: dict[str, str] = field(default_factory=dict)  # a message per place on the page (errors, "saved")
    memory: dict | None = None  # what the browser's storage holds for this room, as last reported: {room, me, key}
    memory_wait: float | None = None  # when (time.monotonic()) the page began to wait for that report
    short_links: dict[str, str] = field(default_factory=dict)  # page link -> its short code, made on request
    typed: dict[str, Any] = field(default_factory=dict)  # widget values kept through a run the database cut short
    draft: list[Any] = field(default_factory=list)  # the lesson editor's activities (lessons.Step), in order
    draft_code: str | None = None  # the code the editor's lesson was last saved under
    draft_rows: list[dict[str, Any]] = field(default_factory=list)  # the editor's table of results, as last edited
    draft_checked: Any = None  # the draft as last checked (``lesson_editor.Checked``): once per change, not per run
    chosen: dict[str, Any] = field(default_factory=dict)  # a lesson chooser's key prefix -> ``lesson_run.Chosen``
    results_csv: bytes | None = None  # the room's results as last prepared for download
    results_at: float | None = None  # when (seconds since the epoch) they were prepared
    off_plan: bool = False  # the teacher chose to leave the room's lesson plan (its own activities open)
    live_reads: Any = None  # the live part's reads of the room, kept until it changes (``live.LiveReads``)

    def add_to_draft(self, step: Any) -> int:
        """Add an activity (a ``lessons.Step``, checked by the caller) at the end of the lesson being built; its
        number in the lesson."""
        self.draft = [*self.draft, step]
        self.draft_code = None  # the code named the lesson before this activity
        return len(self.draft)


Section = AppState | PlaygroundState | EvaluateState | LearnState | PracticeState | MetricsState | ConventionsState
SECTIONS: dict[str, Callable[[], Any]] = {
    "app": AppState,
    "playground": PlaygroundState.from_preset,
    "evaluate": EvaluateState,
    "learn": LearnState,
    "practice": PracticeState,
    "metrics": MetricsState,
    "conventions": ConventionsState,
    "classroom": ClassroomState,
}


def init_state() -> None:
    """Create any missing section with its defaults (called at the top of every page)."""
    for key, make in SECTIONS.items():
        if key not in st.session_state:
            st.session_state[key] = make()


def app_state() -> AppState:
    """The language, presenter view and link bookkeeping of this session (read and changed in place)."""
    return st.session_state["app"]


def playground_state() -> PlaygroundState:
    """The Playground's state of this session (read and changed in place)."""
    return st.session_state["playground"]


def evaluate_state() -> EvaluateState:
    """The Evaluate page's state of this session (read and changed in place)."""
    return st.session_state["evaluate"]


def learn_state() -> LearnState:
    """Learn's state of this session (read and changed in place)."""
    return st.session_state["learn"]


def practice_state() -> PracticeState:
    """Practice's state of this session (read and changed in place)."""
    return st.session_state["practice"]


def metrics_state() -> MetricsState:
    """The Metrics page's state of this session (read and changed in place)."""
    return st.session_state["metrics"]


def conventions_state() -> ConventionsState:
    """The Conventions page's state of this session (read and changed in place)."""
    return st.session_state["conventions"]


def classroom_state() -> ClassroomState:
    """The classroom state of this session (read and changed in place)."""
    return st.session_state["classroom"]


def reset_playground() -> PlaygroundState:
    """The Playground back to its defaults."""
    fresh = PlaygroundState.from_preset()
    st.session_state["playground"] = fresh
    return fresh


def reset_classroom() -> ClassroomState:
    """Leave the room: a fresh classroom state, kept short links aside."""
    old = classroom_state()
    # A lesson being built is not a room's: it stays when a room is left or started.
    fresh = ClassroomState(
        short_links=old.short_links,
        draft=old.draft,
        draft_code=old.draft_code,
        draft_rows=old.draft_rows,
        draft_checked=old.draft_checked,
        chosen=old.chosen,
    )
    st.session_state["classroom"] = fresh
    return fresh


# Seconds after this session replaced a URL parameter's value during which that value coming back is an echo:
# a rerun the browser asked for (a second key press, a click) before the new address reached it carries the old
# one, which must not undo the change just made. Later, the old value is a link again (the browser's Back button).
ECHO_SECONDS = 5.0


def new_link_value(name: str) -> str | None:
    """A URL parameter's value if the link brought a value this session has not applied yet (and did not just
    replace: see ``ECHO_SECONDS``)."""
    value = st.query_params.get(name)
    state = app_state()
    if value is None or state.link_seen.get(name) == value:
        return None
    replaced = state.link_replaced.get(name, {}).get(value)
    if replaced is not None and time.monotonic() - replaced < ECHO_SECONDS:
        return None
    _seen(state, name, value)
    return value


def set_link_value(name: str, value: str | None) -> None:
    """Write a URL parameter (so the address bar is a link to this state) and mark it as applied."""
    state = app_state()
    _seen(state, name, value)
    if value is not None and st.query_params.get(name) != value:
        st.query_params[name] = value


def _seen(state: AppState, name: str, value: str | None) -> None:
    """Make ``value`` the parameter's current value, noting the one it replaces."""
    now = time.monotonic()
    replaced = {old: at for old, at in state.link_replaced.get(name, {}).items() if now - at < ECHO_SECONDS}
    old = state.link_seen.get(name)
    if old is not None and old != value:
        replaced[old] = now
    if value is not None:
        replaced.pop(value, None)
    state.link_replaced = {**state.link_replaced, name: replaced}
    state.link_seen = {**state.link_seen, name: value}


def page_url(params: dict[str, str]) -> str:
    """This page's address with ``params`` as its query string (for a link to share)."""
    base = st.context.url or ""
    parts = urlsplit(base)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(params), ""))


# Widgets. A widget's own value lives under its key (``_w_...`` for bound widgets); pages read and set it
# through these functions so that this module stays the one place that touches st.session_state.


def widget_value(key: str, default: Any = None) -> Any:
    """The value the widget ``key`` holds, or ``default`` before it is drawn."""
    return st.session_state.get(key, default)


def set_widget_value(key: str, value: Any) -> None:
    """Give the widget ``key`` a value before it is drawn (a change from code)."""
    st.session_state[key] = value


def widget_values(prefix: str) -> dict[str, Any]:
    """Every value held by a widget whose key starts with ``prefix``."""
    return {k: v for k, v in st.session_state.items() if isinstance(k, str) and k.startswith(prefix)}


def has_widget_value(key: str) -> bool:
    """Whether the widget ``key`` holds a value already."""
    return key in st.session_state


def _copy_back(widget_key: str, section: Section, name: str, after: Callable[[], None] | None) -> None:
    setattr(section, name, st.session_state[widget_key])
    if after is not None:
        after()


def bind(section: Section, name: str, after: Callable[[], None] | None = None) -> dict[str, Any]:
    """Keyword arguments that bind a widget to ``section.name`` (see the module docstring)."""
    widget_key = f"{WIDGET_PREFIX}{section.PREFIX}{name}"
    st.session_state[widget_key] = getattr(section, name)
    return {"key": widget_key, "on_change": _copy_back, "args": (widget_key, section, name, after)}


def _copy_back_to_scoring(
    widget_key: str, section: PlaygroundState, name: str, refuse: Callable[[InputError], None] | None
) -> None:
    before = section.spec
    try:
        section.spec = before.with_scoring(**{name: st.session_state[widget_key]})
    except InputError as err:
        if refuse is None:
            raise
        refuse(err)
        return
    if getattr(section.spec.scoring, name) != getattr(before.scoring, name):
        section.last = Change(name, before)  # the caption under the headline names the setting and its change


def bind_scoring(
    section: PlaygroundState, name: str, refuse: Callable[[InputError], None] | None = None
) -> dict[str, Any]:
    """Keyword arguments that bind a widget to the field ``name`` of ``section.spec.scoring``, as ``bind`` does
    for a plain field: a change makes a new spec, recorded as the last change (``refuse`` is told why one the
    spec's checks refuse was refused)."""
    widget_key = f"{WIDGET_PREFIX}{section.PREFIX}{name}"
    st.session_state[widget_key] = getattr(section.spec.scoring, name)
    return {"key": widget_key, "on_change": _copy_back_to_scoring, "args": (widget_key, section, name, refuse)}
