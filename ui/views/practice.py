"""Practice: exercises generated from a seed (a class shares one seed), checked with feedback, and scored."""

from __future__ import annotations

import streamlit as st

from ndcg_core.errors import Place
from ndcg_core.lists.items import ListSettings as Settings
from ndcg_core.lists.items import make_items, score
from ndcg_core.teaching.exercises import Exercise, check, check_seed, exercise
from ui.exercise_text import choice_text, explain, prompt
from ui.i18n import Translator
from ui.share import whole_number
from ui.state import new_link_value, page_url, set_link_value
from ui.views.playground import restore
from ui.widgets.short_link import share_box
from ui.widgets.sortable import apply_action, sortable_list

LIST_KEY = "pr_list"


def answer_key() -> str:
    """The answer widget's key: one per exercise, so a new exercise starts with an empty answer."""
    return f"_w_pr_answer_{st.session_state['pr_seed']}_{st.session_state['pr_number']}"


def current() -> Exercise:
    return exercise(st.session_state["pr_seed"], st.session_state["pr_number"])


def start(number: int) -> None:
    st.session_state["pr_number"] = max(0, number)
    st.session_state["pr_feedback"] = None
    ex = current()
    st.session_state["pr_items"] = (
        make_items([f"doc {chr(65 + i)}" for i in range(len(ex.data["grades"]))], ex.data["grades"])
        if ex.kind == "reach"
        else None
    )
    st.session_state["pr_moves"] = 0


def on_seed_change() -> None:
    try:
        st.session_state["pr_seed"] = check_seed(st.session_state["_w_pr_seed"])
    except ValueError as err:
        st.session_state["pr_feedback"] = {"ok": False, "kind": "bad_seed", "error": err}
        return
    start(0)


def store_answer() -> None:
    """Keep the learner's answer to this exercise (so it survives a redraw in another language)."""
    st.session_state["pr_answers"] = {**st.session_state["pr_answers"], answer_key(): st.session_state[answer_key()]}


def record(ok: bool, entry: dict) -> None:
    """Feedback for the current exercise (data, worded when drawn); the score counts each exercise once."""
    st.session_state["pr_feedback"] = {"ok": ok, **entry}
    done = (st.session_state["pr_seed"], st.session_state["pr_number"])
    if list(done) not in [list(x) for x in st.session_state["pr_answered"]]:
        st.session_state["pr_answered"] = [*st.session_state["pr_answered"], list(done)]
        score_now = dict(st.session_state["pr_score"])
        score_now["attempted"] += 1
        score_now["correct"] += int(ok)
        st.session_state["pr_score"] = score_now


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
    return t("practice.right" if entry["ok"] else "practice.wrong", why=why)


def submit() -> None:
    ex = current()
    raw = st.session_state.get(answer_key())
    store_answer()
    try:
        ok = check(ex, raw)
    except ValueError as err:
        st.session_state["pr_feedback"] = {"ok": False, "kind": "unreadable", "error": err}
        return
    record(ok, {"kind": "answer", "chosen": raw})


def on_reach_action() -> None:
    """A move in the reach exercise: counted, and checked against the target."""
    action = st.session_state[LIST_KEY].get("action")
    if action is None or st.session_state["pr_items"] is None:
        return
    try:
        new, moved = apply_action(st.session_state["pr_items"], action, top=4)
    except ValueError:
        return
    if moved is None:
        return  # only moves count here; the list is read-only
    st.session_state["pr_items"] = new
    st.session_state["pr_moves"] += 1


def check_reached(ex: Exercise, t: Translator) -> None:
    """Once the learner's list reaches the target, mark it: right if in the fewest possible moves."""
    if st.session_state["pr_feedback"] is not None:
        return
    if score(st.session_state["pr_items"], Settings(k=ex.data["k"])).ndcg < ex.data["target"] - 1e-12:
        return
    moves = st.session_state["pr_moves"]
    record(moves <= ex.answer, {"kind": "reached", "moves": moves, "best": ex.answer})


def show_in_playground() -> None:
    """Open the exercise's list in the Playground."""
    ex = current()
    grades = ex.data.get("grades") or ex.data.get("a") or next(iter(ex.data["queries"].values()))
    items = make_items([f"doc {chr(65 + i)}" for i in range(len(grades))], grades)
    restore({"items": items, "extra": [], "k": min(ex.data.get("k", 5), len(items)), "top": 4, "ideal": "list"})


def answer_widget(ex: Exercise, t: Translator) -> None:
    if ex.kind == "reach":
        now = score(st.session_state["pr_items"], Settings(k=ex.data["k"])).ndcg
        sortable_list(
            st.session_state["pr_items"],
            key=LIST_KEY,
            k=ex.data["k"],
            top=4,
            texts=t.group("sortable"),
            on_action=on_reach_action,
            readonly=True,
            large=st.session_state["presenter"],
            summary={"label": f"NDCG@{ex.data['k']}", "value": f"{now:.4f}", "delta": ""},
        )
        st.metric(f"NDCG@{ex.data['k']}", f"{now:.4f}", help=t("practice.moves", moves=st.session_state["pr_moves"]))
        st.caption(t("practice.moves", moves=st.session_state["pr_moves"]))
        return
    # The answer is kept under its own key, so a redraw in another language shows what the learner chose.
    if answer_key() in st.session_state["pr_answers"]:
        st.session_state[answer_key()] = st.session_state["pr_answers"][answer_key()]
    keep = {"key": answer_key(), "on_change": store_answer}
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
            st.session_state["pr_seed"] = check_seed(seed)
            start(0)
        if number is not None:
            start(whole_number(number, Place("link.exercise"), 1, 1000) - 1)
    except ValueError as err:
        st.warning(t("share.bad_link_here", message=t.explain(err)), icon="🔗")


def render_page(t: Translator) -> None:
    apply_link(t)
    set_link_value("seed", str(st.session_state["pr_seed"]))
    set_link_value("n", str(st.session_state["pr_number"] + 1))
    set_link_value("lang", st.session_state["lang"])
    st.title(t("practice.title"))
    st.markdown(t("practice.intro"))
    if current().kind == "reach" and st.session_state["pr_items"] is not None:
        check_reached(current(), t)  # before the score is drawn, so it counts this exercise
    if st.session_state["pr_number"] == 0 and st.session_state["pr_items"] is None and current().kind == "reach":
        start(0)
    left, right = st.columns([2, 1])
    st.session_state["_w_pr_seed"] = str(st.session_state["pr_seed"])
    left.text_input(t("practice.seed"), key="_w_pr_seed", on_change=on_seed_change, help=t("practice.seed_help"))
    score_now = st.session_state["pr_score"]
    right.metric(t("practice.score"), f"{score_now['correct']} / {score_now['attempted']}")
    ex = current()
    if ex.kind == "reach" and st.session_state["pr_items"] is None:
        start(st.session_state["pr_number"])
    st.subheader(t("practice.heading", number=ex.number + 1, kind=t(f"practice.kind.{ex.kind}")))
    prompt(ex, t)
    answer_widget(ex, t)
    feedback = st.session_state["pr_feedback"]
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
    params = {"seed": str(st.session_state["pr_seed"]), "n": str(ex.number + 1), "lang": st.session_state["lang"]}
    share_box(t, "practice", params, page_url(params))
