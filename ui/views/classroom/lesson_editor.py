"""The lesson editor, on the Classroom page before a room starts: open a lesson (shipped, a file, a code) or start
empty; add activities from a list (the Playground's current list, a worked example, a real result list, a seeded
random one) or from a query and its results typed into a table, or a pair or a Practice set; give each its own
wording (both languages) and a time limit; reorder, remove and preview each as the projector and a phone show it;
save it under a code (``?lesson=CODE``), download it as a TOML file, or start a room with it.

Every check is the core's: the draft is written as a lesson file and read back (``lesson_to_toml``,
``read_lesson``), so a bad value is the same message, naming the activity and the field, as the check command's.
Every widget keeps what was typed when something is refused."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd
import streamlit as st

from ndcg_core.classroom.kinds import KINDS, Activity, kind_class, list_kinds
from ndcg_core.classroom.kinds.lists import ACTIVITY_GAINS, MAX_LIST
from ndcg_core.classroom.lessons import (
    FORMAT,
    MAX_TITLE,
    TIME_LIMITS,
    Lesson,
    Step,
    Wording,
    lesson_from_data,
    lesson_to_toml,
    read_lesson,
)
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.errors import InputError
from ui.database import runtime
from ui.editing import TYPED_COLUMNS
from ui.format import md_escape
from ui.i18n import Translator
from ui.kinds import WORDS
from ui.state import (
    app_state,
    classroom_state,
    evaluate_state,
    page_url,
    reset_classroom,
    set_widget_value,
    widget_value,
)
from ui.views.classroom.commands import REFUSALS, refusal_shown
from ui.views.classroom.common import show_message
from ui.views.classroom.identity import new_room
from ui.views.classroom.kinds import VIEWS
from ui.views.classroom.lesson_run import LESSON_PARAM, lesson_chooser, lesson_from, outline_text
from ui.views.classroom.phone import draw_block

PREFIX = "_w_le_"  # the editor's widget keys
OPEN = "_w_le_open_"  # its "open a lesson" chooser's
LIST_KINDS = list_kinds()  # the kinds whose list may be typed into a table, and turned into one another
FROM = ("list", "table", "evaluate")
TABLE_OPTIONS = ("show_grades",)  # a kind's yes/no lesson fields a typed table offers, where the kind has them
PREVIEW_ID = -1000  # previews draw the phone's view for activity ids below this: no room has them
EXAMPLE_ROWS = [
    {"title": "成都3天游攻略", "grade": 3},
    {"title": "成都美食推荐", "grade": 2},
    {"title": "北京旅游", "grade": 0},
]


def draft_lesson(steps: list[Step] | None = None) -> Lesson:
    """The lesson as the editor holds it: the title and scores typed, and its activities."""
    title = str(widget_value(f"{PREFIX}title") or "").strip()
    return Lesson(
        title, tuple(classroom_state().draft if steps is None else steps), bool(widget_value(f"{PREFIX}scores"))
    )


def checked(lesson: Lesson) -> Lesson:
    """The lesson as its file would be read: every field checked by the core (an ``InputError`` naming it)."""
    return read_lesson(lesson_to_toml(lesson))


@dataclass(frozen=True)
class Checked:
    """The draft as last checked: the lesson the editor held (``draft``), and the lesson its file reads back as with
    that file's text, or why it was refused (``refusal``). Kept in the session, so that the editor checks a draft once
    per change (an activity added, moved or removed, the title or the scores changed), never on every run of the
    page."""

    draft: Lesson
    lesson: Lesson | None
    text: str | None
    refusal: InputError | None = None


def checked_draft() -> Checked:
    """The editor's draft, checked by the core as ``checked`` does, once per change of the draft."""
    cs = classroom_state()
    draft = draft_lesson()
    kept = cs.draft_checked
    if not isinstance(kept, Checked) or kept.draft != draft:
        try:
            lesson = checked(draft)
            kept = Checked(draft, lesson, lesson_to_toml(lesson))
        except InputError as err:
            kept = Checked(draft, None, None, err)
        cs.draft_checked = kept
    return kept


def checked_draft_lesson() -> Lesson:
    """The editor's draft, checked (``checked_draft``); its refusal raised."""
    kept = checked_draft()
    if kept.lesson is None:
        raise kept.refusal or InputError("lesson.no_activities")
    return kept.lesson


def message(key: str, text: str | None) -> None:
    cs = classroom_state()
    if text is None:
        cs.messages.pop(key, None)
    else:
        cs.messages[key] = text


# --- actions ---------------------------------------------------------------------------------------------------


def typed_activity(kind: str) -> Activity:
    """The query and results typed into the table, with the k and gain set beside it, read as a lesson file's
    activity would be: a missing or bad grade is the core's message naming the field."""
    rows = classroom_state().draft_rows
    kept = [r for r in rows if str(r.get("title") or "").strip() or not pd.isna(r.get("grade"))]
    table: dict[str, Any] = {
        "kind": kind,
        "items": [str(r.get("title") or "").strip() for r in kept],
        "grades": ["" if pd.isna(r.get("grade")) else float(r["grade"]) for r in kept],
        "k": int(widget_value(f"{PREFIX}table_k") or 1),
        "gain": str(widget_value(f"{PREFIX}gain") or "linear"),
    }
    query = str(widget_value(f"{PREFIX}query") or "").strip()
    if query:
        table["query"] = query
    return table_activity(table)


def table_activity(table: dict[str, Any]) -> Activity:
    """The activity a typed table describes, as its lesson file would: with the kind's own table options (the
    fields it has among ``TABLE_OPTIONS``) and without the fields it does not have (a Judge has no missed
    documents)."""
    fields = {field.name for field in kind_class(table["kind"]).lesson_fields()}
    table = {name: value for name, value in table.items() if name in fields or name == "kind"}
    for name in TABLE_OPTIONS:
        if name in fields:
            table[name] = bool(widget_value(f"{PREFIX}{name}", False))
    return lesson_from_data({"format": FORMAT, "title": "-", "activity": [table]}).steps[0].activity


def evaluate_queries() -> list[str]:
    """The queries of the Evaluate page's typed table (this session's), in their order."""
    queries = dict.fromkeys(str(r.get("query") or "").strip() for r in evaluate_state().typed_rows)
    return [q for q in queries if q]


def evaluate_activity(kind: str) -> Activity:
    """One query of the Evaluate page's typed table: the documents the system retrieved in rank order with their
    grades (unjudged: 0) and, for Predict and Rank, the judged documents it missed (the ideal's pool)."""
    query = widget_value(f"{PREFIX}evaluate_query") or next(iter(evaluate_queries()), "")
    rows = [r for r in evaluate_state().typed_rows if str(r.get("query") or "").strip() == query]

    def number(value: Any) -> float | None:
        try:
            return float(str(value).strip())
        except ValueError:
            return None

    position = TYPED_COLUMNS[-1]  # the column of a result's position in the system's list (blank: not retrieved)
    retrieved = sorted((r for r in rows if number(r.get(position)) is not None), key=lambda r: number(r[position]) or 0)
    missed = [number(r.get("grade")) for r in rows if number(r.get(position)) is None and number(r.get("grade"))]
    table: dict[str, Any] = {
        "kind": kind,
        "query": query,
        "items": [str(r.get("document") or "") for r in retrieved],
        "grades": [number(r.get("grade")) or 0.0 for r in retrieved],
        "k": min(int(widget_value(f"{PREFIX}table_k") or 1), max(1, len(retrieved))),
        "gain": str(widget_value(f"{PREFIX}gain") or "linear"),
    }
    if missed:
        table["missed"] = missed
    return table_activity(table)


def new_activity() -> Activity:
    """The activity the "add" form describes."""
    kind = widget_value(f"{PREFIX}kind", KINDS.names()[0])
    source = widget_value(f"{PREFIX}from", "list") if kind in LIST_KINDS else "list"
    if source == "table":
        return typed_activity(kind)
    if source == "evaluate":
        return evaluate_activity(kind)
    return VIEWS[kind].build(PREFIX)


def add_step() -> None:
    """Add the activity described, with its own wording and time limit, at the end of the lesson."""
    t = Translator(app_state().lang)
    cs = classroom_state()
    limit = int(widget_value(f"{PREFIX}time_limit") or 0)
    try:
        step = Step(
            new_activity(),
            Wording(str(widget_value(f"{PREFIX}en") or "").strip(), str(widget_value(f"{PREFIX}zh") or "").strip()),
            limit or None,
        )
        steps = [*cs.draft, step]
        checked(replace(draft_lesson(steps), title=draft_lesson().title or "-"))
    except InputError as err:
        message("editor", t.explain(err))
        return
    cs.draft = steps
    cs.draft_code = None
    message("editor", None)


def move(index: int, by: int) -> None:
    cs = classroom_state()
    steps = list(cs.draft)
    other = index + by
    if 0 <= other < len(steps):
        steps[index], steps[other] = steps[other], steps[index]
        cs.draft, cs.draft_code = steps, None


def remove(index: int) -> None:
    cs = classroom_state()
    cs.draft, cs.draft_code = [s for i, s in enumerate(cs.draft) if i != index], None


def as_kind(activity: Activity, kind: str) -> Activity:
    """The same list as another list kind (Predict, Rank, Judge, Which is right?); an ``InputError`` if that kind
    refuses it (a grade off the judging scale, a list that gives too few mistaken numbers)."""
    spec = activity.ranked_list()
    if spec is None or kind == activity.kind:
        return activity
    # A Judge keeps the judged documents the list missed in the draft (its file drops them): turning it back into
    # Predict or Rank finds them again.
    return kind_class(kind).from_list(spec)


def change_kind(index: int) -> None:
    """Make a list activity of the draft another list kind, as its kind box says."""
    t = Translator(app_state().lang)
    cs = classroom_state()
    step = cs.draft[index]
    try:
        activity = as_kind(step.activity, str(widget_value(f"{PREFIX}step_kind_{index}")))
    except InputError as err:
        message("editor_steps", t.explain(err))
        return
    cs.draft = [replace(step, activity=activity) if i == index else s for i, s in enumerate(cs.draft)]
    cs.draft_code = None
    message("editor_steps", None)


def open_lesson() -> None:
    """Open the chosen lesson in the editor (its activities replace the draft's)."""
    t = Translator(app_state().lang)
    try:
        lesson = lesson_from(OPEN, t.lang)
    except REFUSALS as err:
        message("editor_open", t.explain(err))
        return
    if lesson is None:
        return
    cs = classroom_state()
    cs.draft, cs.draft_code = list(lesson.steps), None
    set_widget_value(f"{PREFIX}title", lesson.title)
    set_widget_value(f"{PREFIX}scores", lesson.scores)
    message("editor_open", None)


def empty_lesson() -> None:
    cs = classroom_state()
    cs.draft, cs.draft_code = [], None


def save() -> None:
    """Save the lesson under a code (the same lesson, the same code)."""
    cs = classroom_state()
    with refusal_shown("editor_save"):
        cs.draft_code = runtime().save_lesson(checked_draft_lesson())


def start_with_draft() -> None:
    """Start a room that runs the lesson being built."""
    with refusal_shown("editor_save") as attempt:
        room, key = new_room(checked_draft_lesson())
    if attempt.refused:
        return
    cs = reset_classroom()
    cs.room, cs.key = room.code, key


def file_name(title: str) -> str:
    slug = re.sub(r"[^\w-]+", "-", title.lower(), flags=re.UNICODE).strip("-")[:60]
    return f"{slug or 'lesson'}.toml"


# --- drawing ---------------------------------------------------------------------------------------------------


def render_editor(t: Translator) -> None:
    """The "Lessons" area: open or start a lesson, its activities, the "add" form, and save, download, start."""
    cs = classroom_state()
    with st.expander(t("editor.open_heading"), expanded=not cs.draft):
        lesson_chooser(t, OPEN)
        a, b = st.columns(2)
        a.button(t("editor.open"), on_click=open_lesson, key="btn_le_open", width="stretch")
        b.button(t("editor.empty"), on_click=empty_lesson, key="btn_le_empty", width="stretch")
        show_message(cs, "editor_open")
    st.text_input(t("editor.title"), key=f"{PREFIX}title", max_chars=MAX_TITLE)
    st.checkbox(t("editor.scores"), key=f"{PREFIX}scores", help=t("editor.scores_help"))
    render_steps(t)
    with st.expander(t("editor.add_heading"), expanded=not cs.draft):
        render_add_form(t)
    render_keep(t)


def step_line(t: Translator, number: int, step: Step) -> str:
    """ "3. Judge the results · “Chengdu in 3 days” · 5 results, k = 5 · 60 s" (text as typed, escaped)."""
    a: Any = step.activity
    parts = [f"{number}. {t(f'classroom.kind.{a.kind}')}"]
    spec = getattr(a, "spec", None)
    if spec is not None:
        if spec.query:
            parts.append(f"“{md_escape(spec.query)}”")
        parts.append(t("editor.list_line", count=len(spec.grades), k=spec.k))
    own = step.question.get(t.lang)
    if own:
        parts.append(f"“{md_escape(own)}”")
    if step.time_limit:
        parts.append(t("editor.seconds", seconds=step.time_limit))
    return " · ".join(parts)


def render_steps(t: Translator) -> None:
    """The lesson's activities in order, each with up, down, remove and a preview."""
    cs = classroom_state()
    if not cs.draft:
        st.info(t("editor.no_steps"))
        return
    st.markdown(t("editor.steps", count=len(cs.draft)))
    for i, step in enumerate(cs.draft):
        text, kind, up, down, cut = st.columns([5, 3, 1, 1, 1], vertical_alignment="center")
        text.markdown(step_line(t, i + 1, step))
        if step.activity.kind in LIST_KINDS:
            # The box shows the step's kind, not what it last held: a step moved or removed shifts the indices.
            set_widget_value(f"{PREFIX}step_kind_{i}", step.activity.kind)
            kind.selectbox(
                t("editor.step_kind", number=i + 1),
                LIST_KINDS,
                format_func=lambda k: t(f"classroom.kind.{k}"),
                key=f"{PREFIX}step_kind_{i}",
                on_change=change_kind,
                args=(i,),
                label_visibility="collapsed",
            )
        up.button("↑", on_click=move, args=(i, -1), key=f"btn_le_up_{i}", disabled=i == 0, help=t("editor.up"))
        down.button(
            "↓",
            on_click=move,
            args=(i, 1),
            key=f"btn_le_down_{i}",
            disabled=i == len(cs.draft) - 1,
            help=t("editor.down"),
        )
        cut.button("✕", on_click=remove, args=(i,), key=f"btn_le_del_{i}", help=t("editor.remove"))
        with st.expander(t("editor.preview", number=i + 1)):
            preview(t, i, step)
    show_message(cs, "editor_steps")


def preview(t: Translator, index: int, step: Step) -> None:
    """The activity as the projector and a phone would show it, before anyone answers (read-only)."""
    activity = step.activity
    row = ActivityRow(PREVIEW_ID - index, index + 1, activity.kind, activity.payload(), "locked", 0.0)
    screen, phone = st.columns([3, 2], gap="large")
    with screen:
        st.caption(t("editor.preview_screen"))
        VIEWS[activity.kind].present(t, activity, activity.summary([]), False, False, own=step.question.get(t.lang))
    with phone, st.container(border=True):
        st.caption(t("editor.preview_phone"))
        for block in WORDS[activity.kind].card(t, activity, row, {}).blocks:
            draw_block(t, classroom_state(), row.id, block)


def render_add_form(t: Translator) -> None:
    """The next activity to add: its kind, its content, its own wording and time limit."""
    kind = st.radio(
        t("classroom.kind"),
        KINDS.names(),
        format_func=lambda k: t(f"classroom.kind.{k}"),
        horizontal=True,
        key=f"{PREFIX}kind",
    )
    if kind in LIST_KINDS:
        source = st.radio(
            t("editor.from"), FROM, format_func=lambda f: t(f"editor.from.{f}"), horizontal=True, key=f"{PREFIX}from"
        )
    else:
        source = "list"
    if source == "table":
        st.text_input(t("editor.query"), key=f"{PREFIX}query")
        edited = st.data_editor(
            pd.DataFrame(EXAMPLE_ROWS),
            num_rows="dynamic",
            key=f"{PREFIX}rows",
            column_config={
                "title": st.column_config.TextColumn(t("editor.col_title"), max_chars=120),
                "grade": st.column_config.NumberColumn(t("editor.col_grade"), min_value=0, max_value=10, step=1),
            },
            width="stretch",
        )
        classroom_state().draft_rows = edited.to_dict("records")
    if source == "evaluate":
        st.selectbox(t("editor.evaluate_query"), evaluate_queries(), key=f"{PREFIX}evaluate_query")
        st.caption(t("editor.evaluate_help"))
    if source in ("table", "evaluate"):
        k, gain = st.columns(2)
        k.number_input(t("classroom.k"), min_value=1, max_value=MAX_LIST, value=3, step=1, key=f"{PREFIX}table_k")
        gain.radio(t("editor.gain"), ACTIVITY_GAINS, horizontal=True, key=f"{PREFIX}gain")
        fields = {field.name for field in kind_class(kind).lesson_fields()}
        for name in TABLE_OPTIONS:
            if name in fields:
                st.checkbox(t(f"classroom.{name}"), key=f"{PREFIX}{name}")
    else:
        VIEWS[kind].form(t, PREFIX)
    en, zh = st.columns(2)
    en.text_input(t("editor.wording_en"), key=f"{PREFIX}en", help=t("editor.wording_help"))
    zh.text_input(t("editor.wording_zh"), key=f"{PREFIX}zh", help=t("editor.wording_help"))
    st.number_input(
        t("editor.time_limit", low=TIME_LIMITS[0], high=TIME_LIMITS[1]),
        min_value=0,
        max_value=TIME_LIMITS[1],
        value=0,
        step=5,
        key=f"{PREFIX}time_limit",
    )
    st.button(t("editor.add"), on_click=add_step, key="btn_le_add", type="primary", icon=":material/add:")
    show_message(classroom_state(), "editor")


def render_keep(t: Translator) -> None:
    """Save (a code and its link), download the file, or start a room with the lesson."""
    cs = classroom_state()
    if not cs.draft:
        return
    kept = checked_draft()
    text = kept.text
    if kept.refusal is not None:
        st.warning(t.explain(kept.refusal))
    save_col, down_col, start_col = st.columns(3)
    save_col.button(t("editor.save"), on_click=save, key="btn_le_save", width="stretch", icon=":material/save:")
    down_col.download_button(
        t("editor.download"),
        text or "",
        file_name=file_name(draft_lesson().title),
        mime="application/toml",
        key="btn_le_download",
        disabled=text is None,
        width="stretch",
        icon=":material/download:",
    )
    start_col.button(
        t("classroom.lesson_start"), on_click=start_with_draft, key="btn_le_start", width="stretch", type="primary"
    )
    show_message(cs, "editor_save")
    if cs.draft_code:
        st.success(t("editor.saved", code=cs.draft_code))
        st.code(page_url({LESSON_PARAM: cs.draft_code}), language=None, wrap_lines=True)
    if kept.lesson is not None:
        st.caption(outline_text(t, kept.lesson))
