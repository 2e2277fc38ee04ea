"""Learn: a guided walk from graded relevance to NDCG@k, one step at a time, every number live.

Each step explains one idea with the learner's own list (the Playground's sortable list,
with its own state), shows the formula, and ends with a check answered before moving on.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from ndcg_core import DISCOUNTS, breakdown, cg, dcg, idcg, ndcg_at_every_k, ndcg_at_k
from ndcg_core.lists.items import Item
from ndcg_core.lists.moves import ndcg_after_swaps
from ndcg_core.lists.spec import ListSpec, link_number
from ndcg_core.teaching.metrics import reciprocal_rank
from ndcg_core.teaching.mistakes import diagnose
from ndcg_core.validate import reading
from ui import charts
from ui.errors import UiPlace
from ui.format import metric_text, paragraphs
from ui.i18n import Translator
from ui.mistake_text import answer_feedback, parts_of
from ui.state import (
    app_state,
    bind,
    learn_state,
    new_link_value,
    page_url,
    repeated_mistakes,
    set_link_value,
    set_widget_value,
    widget_value,
)
from ui.widgets.short_link import share_box
from ui.widgets.sortable import apply_action, sortable_list

STEPS = 6
K = 5
LIST_KEY = "learn_list"
# Two systems for the travel search "成都旅游攻略": both put the perfect result first.
SYSTEM_A = (4, 2, 2, 2, 1)
SYSTEM_B = (4, 0, 0, 0, 0)
# The judged pools the ideal can come from: the pages the two systems returned, or a larger pool with one
# more useful page that neither returned (the pool the often-quoted 0.95 for A assumes).
POOLS = {"judged": SYSTEM_A + (0, 0, 0, 0), "larger": SYSTEM_A + (2, 0, 0, 0, 0)}
NOT_MONOTONE = (3, 0, 0, 3)


def items() -> list[Item]:
    return list(learn_state().items)


def grades() -> list[float]:
    return [it.grade for it in items()]


def expected_answer(step: int) -> float | str:
    """The right answer to the check of ``step``, from ndcg_core."""
    g = grades()
    answers: dict[int, float | str] = {
        1: "a",
        2: cg(g, K),
        3: float(DISCOUNTS.build("log2")([3])[0]),
        4: dcg(g, 3),
        5: idcg(g, K),
        6: "k1",
    }
    return answers[step]


# The checks whose mistakes the catalogue names: the question as ``mistakes.diagnose`` takes it (metric, k,
# position). The discount factor at position 3 is the term of a grade of 1 there.
QUESTIONS: dict[int, tuple[str, int, int | None]] = {3: ("term", 3, 3), 4: ("dcg", 3, None), 5: ("idcg", K, None)}


def question_spec(step: int) -> ListSpec:
    """The list a diagnosable check asks about, as it is now: the learner's, or for the factor, three grades of 1."""
    if step == 3:
        return ListSpec.from_grades(["1", "2", "3"], [1, 1, 1], 3)
    return ListSpec.from_grades([it.label for it in items()], grades(), QUESTIONS[step][1])


def diagnosed(step: int, entry: dict) -> tuple:
    """The mistakes a wrong answer kept in ``entry`` matches (none for another kind of check)."""
    if entry.get("spec") is None:
        return ()
    metric, _, position = QUESTIONS[step]
    return diagnose(entry["spec"], entry["raw"], metric=metric, position=position)


def on_list_action() -> None:
    action = widget_value(LIST_KEY).get("action")
    if action is None:
        return
    try:
        new, _ = apply_action(items(), action, top=4)
    except ValueError:
        return  # a malformed action from the browser changes nothing
    # Step 4 marks the terms its own last move changed: a move on another step is not "the last move" there.
    learn_state().prev = items() if learn_state().step == 4 else None
    learn_state().items = new


def go(step: int) -> None:
    learn_state().step = max(1, min(STEPS, step))
    learn_state().prev = None  # a step opens with no move made on it yet


def answer_key(step: int) -> str:
    return f"_w_learn_answer_{step}"


def store_answer(step: int) -> None:
    """Keep the learner's answer to ``step`` (so it survives a redraw in another language)."""
    raw = widget_value(answer_key(step))
    learn_state().answers = {**learn_state().answers, step: raw}


def _keep_feedback(step: int, entry: dict) -> None:
    learn_state().feedback = {**learn_state().feedback, step: entry}


def check_answer(step: int) -> None:
    """Mark the learner's answer to ``step``; the feedback is kept as data and worded when drawn.

    The right answer is kept too: steps 4 and 5 ask about the list as it was when the learner answered.
    """
    right = expected_answer(step)
    raw = widget_value(answer_key(step))
    store_answer(step)
    note = None
    if isinstance(right, str):
        ok = raw == right
    else:
        try:
            read = reading(raw)
        except ValueError as err:
            _keep_feedback(step, {"kind": "unreadable", "error": err})
            return
        ok, note = abs(read.value - right) <= 0.01, read.note
    entry: dict[str, Any] = {"kind": "right" if ok else "wrong", "answer": right, "note": note}
    if not ok and step in QUESTIONS:  # kept as asked: the list may move before the feedback is drawn again
        entry.update(spec=question_spec(step), raw=str(raw).strip())
    entry["again"] = repeated_mistakes(learn_state(), parts_of(diagnosed(step, entry)))
    _keep_feedback(step, entry)
    if ok:
        learn_state().done = sorted(set(learn_state().done) | {step})


def reveal(step: int) -> None:
    _keep_feedback(step, {"kind": "revealed", "answer": expected_answer(step)})
    learn_state().done = sorted(set(learn_state().done) | {step})


def answered(step: int) -> bool:
    """Whether the learner has answered ``step`` (or asked for its answer): its numbers may be shown."""
    entry = learn_state().feedback.get(step)
    if not entry:
        return False
    return entry["kind"] != "unreadable"


def why(t: Translator, step: int, answer: float | str) -> str:
    """Why the answer to ``step`` is right, every number from ndcg_core."""
    fields: dict = {"answer": answer if isinstance(answer, str) else f"{answer:.4f}"}
    if step == 1:
        fields = {"a": grades_text(SYSTEM_A[1:]), "b": grades_text(SYSTEM_B[1:])}
    elif step == 6:
        every = ndcg_at_every_k(NOT_MONOTONE)
        fields = {
            "at1": f"{every[0]:g}",
            "at4": f"{every[3]:.4f}",
            "dcg4": f"{dcg(NOT_MONOTONE, 4):.4f}",
            "idcg4": f"{idcg(NOT_MONOTONE, 4):.4f}",
        }
    return t(f"learn.why.{step}", **fields)


def feedback_text(t: Translator, step: int, entry: dict) -> tuple[bool, str]:
    """The feedback of ``step`` in the current language: (is it good news, the text)."""
    if entry["kind"] == "unreadable":
        return False, t("learn.unreadable", message=t.explain(entry["error"]))
    working = why(t, step, entry["answer"])
    if entry.get("spec") is not None:
        working = answer_feedback(
            diagnosed(step, entry),
            t,
            answer=entry["raw"],
            working=working,
            again=entry["again"],
            frame="factor" if step == 3 else None,
        )
    text = t(
        {"right": "learn.right", "wrong": "learn.wrong", "revealed": "learn.revealed"}[entry["kind"]],
        why=working,
    )
    if entry.get("note") is not None:  # how the answer was read ("Read 0,62 as 0.62."), before what it got
        text = paragraphs([t("common.read_note", note=t.explain(entry["note"])), text])
    return entry["kind"] != "wrong", text


def show_table(table: pd.DataFrame) -> None:
    """A small table: a plain one in presenter view, whose type the projector style enlarges."""
    if app_state().presenter:
        st.table(table, hide_index=True)
    else:
        st.dataframe(table, hide_index=True, width="stretch")


def draw_chart(chart: alt.Chart | alt.LayerChart | alt.FacetChart) -> None:
    """An Altair chart, with the projector's type sizes in presenter view."""
    if app_state().presenter:
        chart = charts.altair_for_projector(chart)
    st.altair_chart(chart, width="stretch")


def render_list(t: Translator) -> None:
    sortable_list(
        items(),
        key=LIST_KEY,
        k=K,
        top=4,
        texts=t.group("sortable"),
        on_action=on_list_action,
        large=app_state().presenter,
        readonly=True,
    )


def render_check(t: Translator, step: int, choices: dict[str, str] | None = None) -> None:
    st.markdown(f"**{t('learn.check')}** {t(f'learn.question.{step}')}")
    key = answer_key(step)
    # The answer is kept under its own key, so a redraw in another language shows what the learner chose.
    if step in learn_state().answers:
        set_widget_value(key, learn_state().answers[step])
    keep: dict[str, Any] = {"key": key, "on_change": store_answer, "args": (step,)}
    if choices:
        st.radio(
            t("learn.your_answer"), list(choices), format_func=choices.__getitem__, index=None, horizontal=True, **keep
        )
    else:
        st.text_input(t("learn.your_answer"), placeholder="0.00", **keep)
    a, b = st.columns(2)
    a.button(
        t("learn.check_button"), on_click=check_answer, args=(step,), key=f"btn_learn_check_{step}", width="stretch"
    )
    b.button(t("learn.show_answer"), on_click=reveal, args=(step,), key=f"btn_learn_reveal_{step}", width="stretch")
    entry = learn_state().feedback.get(step)
    if entry:
        good, text = feedback_text(t, step, entry)
        (st.success if good else st.error)(text)


def grades_text(grades: tuple[int, ...]) -> str:
    return ", ".join(str(g) for g in grades)


def step_1(t: Translator) -> None:
    """One idea: graded relevance (the metrics that score the two systems come in step 5, where NDCG is whole)."""
    st.markdown(t("learn.body.1"))
    rows = [
        {t("learn.system"): name, t("learn.grades"): grades_text(system)}
        for name, system in (("A", SYSTEM_A), ("B", SYSTEM_B))
    ]
    show_table(pd.DataFrame(rows))
    render_check(t, 1, {"a": t("learn.choice.a"), "b": t("learn.choice.b"), "same": t("learn.choice.same")})


def render_systems(t: Translator) -> None:
    """Step 1's two systems again, now that NDCG is defined: reciprocal rank cannot tell them apart, NDCG@5 can,
    and its ideal comes from the pool: the judged pages, or a larger pool with a page neither system returned."""
    st.subheader(t("learn.systems.title"))
    st.markdown(t("learn.systems.body"))
    st.radio(
        t("learn.pool"),
        list(POOLS),
        format_func=lambda name: t(f"learn.pool.{name}"),
        horizontal=True,
        **bind(learn_state(), "pool"),
    )
    pool = POOLS[learn_state().pool]
    rows = [
        {
            t("learn.system"): name,
            t("learn.grades"): grades_text(system),
            "RR": reciprocal_rank(system),
            "NDCG@5": round(ndcg_at_k(system, K, pool=pool), 4),
        }
        for name, system in (("A", SYSTEM_A), ("B", SYSTEM_B))
    ]
    show_table(pd.DataFrame(rows))
    a, b = (ndcg_at_k(s, K, pool=pool) for s in (SYSTEM_A, SYSTEM_B))
    st.caption(
        t(
            f"learn.systems.{learn_state().pool}",
            pool=", ".join(map(str, pool)),
            a=f"{a:.3f}",
            b=f"{b:.3f}",
            idcg=f"{idcg(pool, K):.3f}",
        )
    )
    st.caption(
        t(
            "learn.systems.ratio",
            ratio=f"{dcg(SYSTEM_A, K) / dcg(SYSTEM_B, K):.2f}",
            dcg_a=f"{dcg(SYSTEM_A, K):.3f}",
            dcg_b=f"{dcg(SYSTEM_B, K):.3f}",
        )
    )


def step_2(t: Translator) -> None:
    st.markdown(t("learn.body.2"))
    st.latex(r"\mathrm{CG@}k = \sum_{i=1}^{k} \mathrm{rel}_i")
    render_list(t)
    render_check(t, 2)
    if answered(2):
        st.metric("CG@5", metric_text(cg(grades(), K)))


def step_3(t: Translator) -> None:
    st.markdown(t("learn.body.3"))
    st.latex(r"\text{discount}(i) = \frac{1}{\log_2(i+1)}")
    render_list(t)
    render_check(t, 3)
    if not answered(3):
        return  # the curve and the table would show the factor the check asks for
    factors = DISCOUNTS.build("log2")(range(1, 21))
    draw_chart(charts.ndcg_by_k_chart(list(factors), 3, {"ndcg": t("chart.discount"), "cutoff": t("chart.position")}))
    st.caption(t("learn.caption.3"))
    mine = breakdown(grades(), K, items=[it.label for it in items()])
    show_table(
        pd.DataFrame(
            {
                t("table.position"): mine["position"],
                t("table.item"): mine["item"],
                t("chart.discount"): mine["discount"].round(4),
            }
        )
    )


def step_4(t: Translator) -> None:
    st.markdown(t("learn.body.4"))
    st.latex(r"\mathrm{DCG@}k = \sum_{i=1}^{k} \frac{\mathrm{rel}_i}{\log_2(i+1)}")
    render_list(t)
    now = breakdown(grades(), K, items=[it.label for it in items()])
    prev = learn_state().prev
    changed = [False] * len(now)
    if prev:
        before = breakdown([it.grade for it in prev], K)
        changed = [abs(a - b) > 1e-12 for a, b in zip(now["contribution"], before["contribution"], strict=False)]
    table = pd.DataFrame(
        {
            t("table.position"): now["position"],
            t("table.item"): now["item"],
            t("learn.term"): now["term"],
            t("learn.changed"): [t("learn.changed_yes") if c else "" for c in changed],
        }
    )
    # A plain table, whose cells wrap: a grid's fourth column ran past a phone's edge.
    st.table(table, hide_index=True)
    st.caption(t("learn.caption.4"))
    render_check(t, 4)
    if answered(4):  # the number asked for, under its own label (never a learner's wrong number as DCG@5)
        st.metric("DCG@3", metric_text(dcg(grades(), 3)))


def step_5(t: Translator) -> None:
    st.markdown(t("learn.body.5"))
    st.latex(
        r"\mathrm{NDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}, \qquad \mathrm{NDCG@}k = 0 "
        r"\text{ when } \mathrm{IDCG@}k = 0"
    )
    render_list(t)
    g = grades()
    a, b, c = st.columns(3)
    a.metric("DCG@5", metric_text(dcg(g, K)))
    st.caption(t("learn.caption.5", ideal=", ".join(f"{x:g}" for x in sorted(g, reverse=True))))
    render_check(t, 5)
    if answered(5):  # the check asks for the ideal's DCG: it and the NDCG it gives come after
        b.metric("IDCG@5", metric_text(idcg(g, K)))
        c.metric("NDCG@5", metric_text(ndcg_at_k(g, K)))
        render_systems(t)


def step_6(t: Translator) -> None:
    st.markdown(t("learn.body.6"))
    render_check(t, 6, {"k1": "NDCG@1", "k4": "NDCG@4", "same": t("learn.choice.equal")})
    if not answered(6):
        return  # the chart and its values are the answer
    every = ndcg_at_every_k(NOT_MONOTONE)
    draw_chart(charts.ndcg_by_k_chart(list(every), 1, t.group("chart")))
    st.caption(t("learn.caption.6", values=", ".join(f"NDCG@{i + 1} = {v:.3f}" for i, v in enumerate(every))))
    render_swap_map(t)


def render_swap_map(t: Translator) -> None:
    """Every swap of the learner's list at once, with what the map shows and why it matters for learning to rank."""
    g = grades()
    after = ndcg_after_swaps(g, K)
    changes = after - np.diag(after)[:, None]
    st.subheader(t("learn.swap.title"))
    st.markdown(t("learn.swap.intro", k=K))
    chart = charts.swap_map_chart(
        charts.swap_rows([it.label for it in items()], changes, K),
        t.group("chart"),
        large=app_state().presenter,
    )
    draw_chart(chart)
    st.markdown(t("playground.swap.explain"))


STEP_VIEWS = {1: step_1, 2: step_2, 3: step_3, 4: step_4, 5: step_5, 6: step_6}


def apply_link(t: Translator) -> None:
    """A shared link's step (?step=3); a bad one is a notice and step 1 stays."""
    value = new_link_value("step")
    if value is None:
        return
    try:
        learn_state().step = link_number(value, UiPlace("link.step"), 1, STEPS)
    except ValueError as err:
        st.warning(t("share.bad_link_here", message=t.explain(err)), icon="🔗")


def render_page(t: Translator) -> None:
    apply_link(t)
    st.title(t("learn.title"))
    step = learn_state().step
    set_link_value("step", str(step))
    set_link_value("lang", app_state().lang)
    st.progress(step / STEPS, text=t("learn.progress", step=step, steps=STEPS))
    st.header(t(f"learn.step.{step}"))
    STEP_VIEWS[step](t)
    st.divider()
    back, _, forward = st.columns([1, 2, 1])
    back.button(
        t("learn.back"), on_click=go, args=(step - 1,), disabled=step == 1, key="btn_learn_back", width="stretch"
    )
    done = step in learn_state().done
    if step < STEPS:
        forward.button(
            t("learn.next"),
            on_click=go,
            args=(step + 1,),
            disabled=not done,
            key="btn_learn_next",
            type="primary",
            width="stretch",
        )
        if not done:
            st.caption(t("learn.answer_first"))
    elif done:
        # A clear finish, and the way on as a full-width link that is never cut short.
        st.success(t("learn.finished", steps=STEPS), icon="🎓")
        st.page_link("pages/1_Playground.py", label=t("learn.to_playground"), icon=":material/tune:", width="stretch")
    else:
        st.caption(t("learn.answer_first"))
    params = {"step": str(step), "lang": app_state().lang}
    share_box(t, "learn", params, page_url(params))
