"""Practice: exercises generated from a seed (a class shares one seed), checked with feedback, and scored."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ndcg_core.lists.items import Item, make_items
from ndcg_core.lists.move_count import MoveCount
from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import ListSpec, link_number
from ndcg_core.teaching.exercises import NUMERIC, Exercise, check, check_seed, exercise, reading, reading_note, spec
from ui.errors import UiPlace
from ui.exercise_text import choice_text, explain, prompt
from ui.format import paragraphs
from ui.i18n import Translator
from ui.mistake_text import parts_of, reading_feedback
from ui.state import (
    app_state,
    new_link_value,
    page_url,
    playground_state,
    practice_state,
    repeated_mistakes,
    set_link_value,
    set_widget_value,
    widget_value,
)
from ui.widgets.short_link import share_box
from ui.widgets.sortable import apply_action, sortable_list

LIST_KEY = "pr_list"


def answer_key() -> str:
    """The answer widget's key: one per exercise, so a new exercise starts with an empty answer."""
    return f"_w_pr_answer_{practice_state().seed}_{practice_state().number}"


def current() -> Exercise:
    return exercise(practice_state().seed, practice_state().number)


def start(number: int) -> None:
    practice_state().number = max(0, number)
    practice_state().feedback = None
    ex = current()
    practice_state().items = (
        make_items([f"doc {chr(65 + i)}" for i in range(len(ex.data["grades"]))], ex.data["grades"])
        if ex.kind == "reach"
        else None
    )
    practice_state().moves = MoveCount()


def on_seed_change() -> None:
    try:
        practice_state().seed = check_seed(widget_value("_w_pr_seed"))
    except ValueError as err:
        practice_state().feedback = {"ok": False, "kind": "bad_seed", "error": err}
        return
    start(0)


def store_answer() -> None:
    """Keep the learner's answer to this exercise (so it survives a redraw in another language)."""
    practice_state().answers = {**practice_state().answers, answer_key(): widget_value(answer_key())}


def record(ok: bool, entry: dict) -> None:
    """Feedback for the current exercise (data, worded when drawn); the score counts each exercise once."""
    practice_state().feedback = {"ok": ok, **entry}
    done = (practice_state().seed, practice_state().number)
    if done not in practice_state().answered:
        practice_state().answered = [*practice_state().answered, done]
        score_now = dict(practice_state().score)
        score_now["attempted"] += 1
        score_now["correct"] += int(ok)
        practice_state().score = score_now


def feedback_text(ex: Exercise, entry: dict, t: Translator) -> str:
    """The feedback kept as data, worded in the current language."""
    if entry["kind"] == "bad_seed":
        return t("practice.bad_seed", message=t.explain(entry["error"]))
    if entry["kind"] == "unreadable":
        return t("practice.unreadable", message=t.explain(entry["error"]))
    if entry["kind"] == "reached":
        why = t("practice.reached", moves=entry["moves"], best=entry["best"])
    else:
        why = explain(ex, t)
        if ex.kind in ("better_order", "swap", "gap") and not entry["ok"]:
            why = t("practice.you_chose", chosen=choice_text(ex, entry["chosen"], t)) + " " + why
        read = reading(ex, entry["chosen"]) if ex.kind in NUMERIC and not entry["ok"] else None
        if read is not None:  # a slip located in the working, a mistake named, or the working step by step
            why = reading_feedback(read, t, answer=str(entry["chosen"]).strip(), working=why, again=entry["again"])
    text = t("practice.right" if entry["ok"] else "practice.wrong", why=why)
    if entry.get("note") is not None:  # how the answer was read ("Read 0,62 as 0.62."), before what it got
        text = paragraphs([t("common.read_note", note=t.explain(entry["note"])), text])
    return text


def submit() -> None:
    ex = current()
    raw = widget_value(answer_key())
    store_answer()
    try:
        ok = check(ex, raw)
    except ValueError as err:
        practice_state().feedback = {"ok": False, "kind": "unreadable", "error": err}
        return
    # The mistakes are named again when drawn (the exercise and the answer name them); kept here: a repeat.
    read = None if ok else reading(ex, raw)
    again = repeated_mistakes(practice_state(), parts_of(read.mistakes) if read is not None else ())
    record(ok, {"kind": "answer", "chosen": raw, "again": again, "note": reading_note(ex, raw)})


def on_reach_action() -> None:
    """A move in the reach exercise: counted, and checked against the target."""
    action = widget_value(LIST_KEY).get("action")
    items = practice_state().items
    if action is None or items is None:
        return
    try:
        new, moved = apply_action(items, action, top=4)
    except ValueError:
        return
    if moved is None:
        return  # only moves count here; the list is read-only
    practice_state().items = new
    source, to = moved
    practice_state().moves = practice_state().moves.after(new[to].id, source, to)


def reach_list(items: list[Item], ex: Exercise) -> ListSpec:
    """The reach exercise's list as the learner has ordered it, scored at the exercise's k (grades 0 to 4)."""
    return ListSpec(tuple(items), Scoring(k=min(ex.data["k"], len(items))), top=4)


def check_reached(ex: Exercise, t: Translator) -> None:
    """Once the learner's list reaches the target, mark it: right if in the fewest possible moves."""
    items = practice_state().items
    if practice_state().feedback is not None or items is None:  # render_page calls this only with a list
        return
    if reach_list(items, ex).ndcg() < ex.data["target"] - 1e-12:
        return
    moves = practice_state().moves.count
    record(moves <= ex.answer, {"kind": "reached", "moves": moves, "best": ex.answer})


def show_in_playground() -> None:
    """Open the exercise's list in the Playground."""
    ex = current()
    if ex.data.get("variant"):  # its gain, discount or missed results come with it
        playground_state().restore(spec(ex), keep_scoring=False)
        return
    grades = ex.data.get("grades") or ex.data.get("a") or next(iter(ex.data["queries"].values()))
    items = make_items([f"doc {chr(65 + i)}" for i in range(len(grades))], grades)
    playground_state().restore(ListSpec(tuple(items), Scoring(k=min(ex.data.get("k", 5), len(items))), top=4))


def answer_widget(ex: Exercise, t: Translator) -> None:
    if ex.kind == "reach":
        items = practice_state().items
        if items is None:  # render_page starts a reach exercise (which makes its list) before drawing it
            return
        now = reach_list(items, ex).ndcg()
        sortable_list(
            items,
            key=LIST_KEY,
            k=ex.data["k"],
            top=4,
            texts=t.group("sortable"),
            on_action=on_reach_action,
            readonly=True,
            large=app_state().presenter,
            summary={"label": f"NDCG@{ex.data['k']}", "value": f"{now:.4f}", "delta": ""},
        )
        st.metric(f"NDCG@{ex.data['k']}", f"{now:.4f}", help=t("practice.moves", moves=practice_state().moves.count))
        st.caption(t("practice.moves", moves=practice_state().moves.count))
        return
    # The answer is kept under its own key, so a redraw in another language shows what the learner chose.
    if answer_key() in practice_state().answers:
        set_widget_value(answer_key(), practice_state().answers[answer_key()])
    keep: dict[str, Any] = {"key": answer_key(), "on_change": store_answer}
    if ex.kind in ("dcg_term", "dcg", "ndcg"):
        st.text_input(t("practice.your_answer"), placeholder="0.00", **keep)
    else:
        choices = {
            "better_order": ("a", "b"),
            "swap": ("up", "down", "same"),
            "gap": tuple(ex.data.get("queries", {})),
        }[ex.kind]
        st.radio(
            t("practice.your_answer"),
            choices,
            index=None,
            horizontal=True,
            format_func=lambda c: choice_text(ex, c, t),
            **keep,
        )
    st.button(t("practice.check"), on_click=submit, key="btn_pr_check", type="primary")


def apply_link(t: Translator) -> None:
    """A shared link's set and exercise (?seed=2026&n=3); bad values are a notice and change nothing."""
    seed, number = new_link_value("seed"), new_link_value("n")
    try:
        if seed is not None:
            practice_state().seed = check_seed(seed)
            start(0)
        if number is not None:
            start(link_number(number, UiPlace("link.exercise"), 1, 1000) - 1)
    except ValueError as err:
        st.warning(t("share.bad_link_here", message=t.explain(err)), icon="🔗")


def render_page(t: Translator) -> None:
    apply_link(t)
    set_link_value("seed", str(practice_state().seed))
    set_link_value("n", str(practice_state().number + 1))
    set_link_value("lang", app_state().lang)
    st.title(t("practice.title"))
    st.markdown(t("practice.intro"))
    if current().kind == "reach" and practice_state().items is not None:
        check_reached(current(), t)  # before the score is drawn, so it counts this exercise
    if practice_state().number == 0 and practice_state().items is None and current().kind == "reach":
        start(0)
    left, right = st.columns([2, 1])
    set_widget_value("_w_pr_seed", str(practice_state().seed))
    left.text_input(t("practice.seed"), key="_w_pr_seed", on_change=on_seed_change, help=t("practice.seed_help"))
    score_now = practice_state().score
    right.metric(t("practice.score"), f"{score_now['correct']} / {score_now['attempted']}")
    ex = current()
    if ex.kind == "reach" and practice_state().items is None:
        start(practice_state().number)
    st.subheader(t("practice.heading", number=ex.number + 1, kind=t(f"practice.kind.{ex.kind}")))
    prompt(ex, t)
    answer_widget(ex, t)
    feedback = practice_state().feedback
    if feedback:
        (st.success if feedback["ok"] else st.error)(feedback_text(ex, feedback, t))
    a, b, c = st.columns(3)
    a.button(
        t("practice.previous"),
        on_click=start,
        args=(ex.number - 1,),
        disabled=ex.number == 0,
        key="btn_pr_prev",
        width="stretch",
    )
    b.button(t("practice.next"), on_click=start, args=(ex.number + 1,), key="btn_pr_next", width="stretch")
    if c.button(t("practice.show_me"), key="btn_pr_show", width="stretch"):
        show_in_playground()
        st.switch_page("pages/1_Playground.py")
    params = {"seed": str(practice_state().seed), "n": str(ex.number + 1), "lang": app_state().lang}
    share_box(t, "practice", params, page_url(params))
