"""Learn: a guided walk from graded relevance to NDCG@k, one step at a time, every number live.

Each step explains one idea with the learner's own list (the Playground's sortable list,
with its own state), shows the formula, and ends with a check answered before moving on.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ndcg_core import DISCOUNTS, breakdown, cg, dcg, idcg, ndcg_at_every_k, ndcg_at_k
from ndcg_core.exercises import parse_number
from ndcg_core.metrics import precision_at_k, reciprocal_rank
from ndcg_core.ranked_list import Item
from ui import charts
from ui.format import metric_text
from ui.i18n import Translator
from ndcg_core.errors import Place
from ui.share import whole_number
from ui.sortable import apply_action, sortable_list
from ui.state import new_link_value, set_link_value
from ui.widgets.short_link import short_link_box

STEPS = 6
K = 5
LIST_KEY = "learn_list"
# The seed notes' two systems for "成都旅游攻略": both put the perfect result first.
SYSTEM_A = (4, 2, 2, 2, 1)
SYSTEM_B = (4, 0, 0, 0, 0)
JUDGED = SYSTEM_A + (0, 0, 0, 0)  # every judged document of the query, for the ideal
NOT_MONOTONE = (3, 0, 0, 3)


def items() -> list[Item]:
    return list(st.session_state["learn_items"])


def grades() -> list[float]:
    return [it.grade for it in items()]


def expected_answer(step: int) -> float | str:
    """The right answer to the check of ``step``, from ndcg_core."""
    g = grades()
    return {
        1: "same",
        2: cg(g, K),
        3: float(DISCOUNTS.build("log2")([3])[0]),
        4: dcg(g, 3),
        5: ndcg_at_k(g, K),
        6: "k1",
    }[step]


def on_list_action() -> None:
    action = st.session_state[LIST_KEY].get("action")
    if action is None:
        return
    try:
        new, _ = apply_action(items(), action, top=4)
    except ValueError:
        return  # a malformed action from the browser changes nothing
    st.session_state["learn_prev"] = items()
    st.session_state["learn_items"] = new


def go(step: int) -> None:
    st.session_state["learn_step"] = max(1, min(STEPS, step))


def check_answer(step: int) -> None:
    """Mark the learner's answer to ``step`` and keep feedback that explains the right one."""
    t = Translator(st.session_state["lang"])
    right = expected_answer(step)
    raw = st.session_state.get(f"_w_learn_answer_{step}")
    feedback = dict(st.session_state["learn_feedback"])
    if isinstance(right, str):
        ok = raw == right
    else:
        try:
            ok = abs(parse_number(raw) - right) <= 0.01
        except ValueError as err:
            feedback[step] = {"ok": False, "text": t("learn.unreadable", message=t.explain(err))}
            st.session_state["learn_feedback"] = feedback
            return
    shown = right if isinstance(right, str) else f"{right:.4f}"
    key = "learn.right" if ok else "learn.wrong"
    feedback[step] = {"ok": ok, "text": t(key, why=t(f"learn.why.{step}", answer=shown))}
    st.session_state["learn_feedback"] = feedback
    if ok:
        st.session_state["learn_done"] = sorted(set(st.session_state["learn_done"]) | {step})


def reveal(step: int) -> None:
    t = Translator(st.session_state["lang"])
    right = expected_answer(step)
    shown = right if isinstance(right, str) else f"{right:.4f}"
    feedback = dict(st.session_state["learn_feedback"])
    feedback[step] = {"ok": True, "text": t("learn.revealed", why=t(f"learn.why.{step}", answer=shown))}
    st.session_state["learn_feedback"] = feedback
    st.session_state["learn_done"] = sorted(set(st.session_state["learn_done"]) | {step})


def render_list(t: Translator) -> None:
    sortable_list(items(), key=LIST_KEY, k=K, top=4, texts=t.group("sortable"), on_action=on_list_action,
                  large=st.session_state["presenter"], readonly=True)


def render_check(t: Translator, step: int, choices: dict[str, str] | None = None) -> None:
    st.markdown(f"**{t('learn.check')}** {t(f'learn.question.{step}')}")
    key = f"_w_learn_answer_{step}"
    if choices:
        st.radio(t("learn.your_answer"), list(choices), format_func=choices.__getitem__, key=key, index=None,
                 horizontal=True)
    else:
        st.text_input(t("learn.your_answer"), key=key, placeholder="0.00")
    a, b = st.columns(2)
    a.button(t("learn.check_button"), on_click=check_answer, args=(step,), key=f"btn_learn_check_{step}",
             width="stretch")
    b.button(t("learn.show_answer"), on_click=reveal, args=(step,), key=f"btn_learn_reveal_{step}", width="stretch")
    feedback = st.session_state["learn_feedback"].get(step)
    if feedback:
        (st.success if feedback["ok"] else st.error)(feedback["text"])


def step_1(t: Translator) -> None:
    st.markdown(t("learn.body.1"))
    rows = []
    for name, system in (("A", SYSTEM_A), ("B", SYSTEM_B)):
        rows.append({t("learn.system"): name, t("learn.grades"): ", ".join(str(g) for g in system),
                     "P@1": precision_at_k(system, 1), "MRR": reciprocal_rank(system),
                     "NDCG@5": round(ndcg_at_k(system, K, ideal=JUDGED), 4)})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(t("learn.caption.1"))
    render_check(t, 1, {"a": t("learn.choice.a"), "b": t("learn.choice.b"), "same": t("learn.choice.same")})


def step_2(t: Translator) -> None:
    st.markdown(t("learn.body.2"))
    st.latex(r"\mathrm{CG@}k = \sum_{i=1}^{k} \mathrm{rel}_i")
    render_list(t)
    st.metric("CG@5", metric_text(cg(grades(), K)))
    render_check(t, 2)


def step_3(t: Translator) -> None:
    st.markdown(t("learn.body.3"))
    st.latex(r"\text{discount}(i) = \frac{1}{\log_2(i+1)}")
    factors = DISCOUNTS.build("log2")(range(1, 21))
    st.altair_chart(charts.ndcg_by_k_chart(list(factors), 3, {"ndcg": t("chart.discount"),
                                                             "cutoff": t("chart.position")}), width="stretch")
    st.caption(t("learn.caption.3"))
    render_list(t)
    mine = breakdown(grades(), K, items=[it.label for it in items()])
    st.dataframe(pd.DataFrame({t("table.position"): mine["position"], t("table.item"): mine["item"],
                               t("chart.discount"): mine["discount"].round(4)}), hide_index=True, width="stretch")
    render_check(t, 3)


def step_4(t: Translator) -> None:
    st.markdown(t("learn.body.4"))
    st.latex(r"\mathrm{DCG@}k = \sum_{i=1}^{k} \frac{\mathrm{rel}_i}{\log_2(i+1)}")
    render_list(t)
    now = breakdown(grades(), K, items=[it.label for it in items()])
    prev = st.session_state["learn_prev"]
    changed = [False] * len(now)
    if prev:
        before = breakdown([it.grade for it in prev], K)
        changed = [abs(a - b) > 1e-12 for a, b in zip(now["contribution"], before["contribution"])]
    table = pd.DataFrame({t("table.position"): now["position"], t("table.item"): now["item"],
                          t("table.term"): now["term"],
                          t("learn.changed"): [t("learn.changed_yes") if c else "" for c in changed]})
    st.dataframe(table, hide_index=True, width="stretch")
    st.metric("DCG@5", metric_text(dcg(grades(), K)))
    st.caption(t("learn.caption.4"))
    render_check(t, 4)


def step_5(t: Translator) -> None:
    st.markdown(t("learn.body.5"))
    st.latex(r"\mathrm{NDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}, \qquad \mathrm{NDCG@}k = 0 "
             r"\text{ when } \mathrm{IDCG@}k = 0")
    render_list(t)
    g = grades()
    a, b, c = st.columns(3)
    a.metric("DCG@5", metric_text(dcg(g, K)))
    b.metric("IDCG@5", metric_text(idcg(g, K)))
    c.metric("NDCG@5", metric_text(ndcg_at_k(g, K)))
    st.caption(t("learn.caption.5", ideal=", ".join(f"{x:g}" for x in sorted(g, reverse=True))))
    render_check(t, 5)


def step_6(t: Translator) -> None:
    st.markdown(t("learn.body.6"))
    every = ndcg_at_every_k(NOT_MONOTONE)
    st.altair_chart(charts.ndcg_by_k_chart(list(every), 1, t.group("chart")), width="stretch")
    st.caption(t("learn.caption.6", values=", ".join(f"NDCG@{i + 1} = {v:.3f}" for i, v in enumerate(every))))
    render_check(t, 6, {"k1": "NDCG@1", "k4": "NDCG@4", "same": t("learn.choice.equal")})


STEP_VIEWS = {1: step_1, 2: step_2, 3: step_3, 4: step_4, 5: step_5, 6: step_6}


def apply_link(t: Translator) -> None:
    """A shared link's step (?step=3); a bad one is a notice and step 1 stays."""
    value = new_link_value("step")
    if value is None:
        return
    try:
        st.session_state["learn_step"] = whole_number(value, Place("link.step"), 1, STEPS)
    except ValueError as err:
        st.warning(t("share.bad_link_here", message=t.explain(err)), icon="🔗")


def render_page(t: Translator) -> None:
    apply_link(t)
    st.title(t("learn.title"))
    step = st.session_state["learn_step"]
    set_link_value("step", str(step))
    set_link_value("lang", st.session_state["lang"])
    st.progress(step / STEPS, text=t("learn.progress", step=step, steps=STEPS))
    st.header(t(f"learn.step.{step}"))
    STEP_VIEWS[step](t)
    st.divider()
    back, _, forward = st.columns([1, 2, 1])
    back.button(t("learn.back"), on_click=go, args=(step - 1,), disabled=step == 1, key="btn_learn_back",
                width="stretch")
    done = step in st.session_state["learn_done"]
    if step < STEPS:
        forward.button(t("learn.next"), on_click=go, args=(step + 1,), disabled=not done, key="btn_learn_next",
                       type="primary", width="stretch")
        if not done:
            st.caption(t("learn.answer_first"))
    else:
        forward.page_link("pages/1_Playground.py", label=t("learn.to_playground"), icon=":material/tune:")
    with st.expander(t("share.heading"), expanded=st.session_state["presenter"]):
        short_link_box(t, "learn", {"step": str(step), "lang": st.session_state["lang"]},
                       large=st.session_state["presenter"])
