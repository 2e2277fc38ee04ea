"""Learn: a guided walk from graded relevance to NDCG@k on one running example, every number live.

Every step works on the same list (``EXAMPLE``: grades 3, 2, 3, 0, 1), which no step changes. Each step explains one
idea, shows the formula and ends with a check answered before moving on; step 6 has the learner work the whole NDCG
out by hand, cell by cell (``ndcg_core.teaching.worksheet``); steps 7 and 8 ask for a prediction before they show a
change (``ndcg_core.teaching.predict``); step 9 brings the other conventions Practice asks about. After the last
step, "Read on" holds what goes beyond NDCG itself: reciprocal rank, figures often quoted, learning to rank.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from ndcg_core import DISCOUNTS, GAINS, cg, dcg, idcg, ndcg_at_every_k, ndcg_at_k
from ndcg_core.lists.items import move
from ndcg_core.lists.moves import ndcg_after_swaps
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.spec import ListSpec, link_number
from ndcg_core.teaching.metrics import reciprocal_rank
from ndcg_core.teaching.mistakes import diagnose
from ndcg_core.teaching.predict import BANDS, DIRECTIONS, Guess, reveal
from ndcg_core.teaching.worksheet import Cell, Worksheet, check_cell
from ndcg_core.validate import reading
from ui import charts
from ui.errors import UiPlace
from ui.format import md_escape, metric_text, paragraphs
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
from ui.worksheet_text import cell_name, cell_text, guess_mistake_text, number

STEPS = 9
K = 5
# The running example: the seeds' list of five results graded 0 to 3, scored at k = 5 (linear gain, 1/log2(i + 1),
# the ideal from the list's own grades: the convention Learn and Practice use).
EXAMPLE: ListSpec = PRESETS.build("five").spec()
# Steps 7 and 8 predict a change of the example: doc D (grade 0) moved from position 4 to the top, and k cut to 3.
MOVE_FROM, MOVE_TO = 4, 1
CUT = 3
# Step 9: a judged result the list missed, graded 3 (for the ideal from the pool).
MISSED = (3,)
# Read on: two systems for the travel search "成都旅游攻略": both put the perfect result first.
SYSTEM_A = (4, 2, 2, 2, 1)
SYSTEM_B = (4, 0, 0, 0, 0)
# The judged pools the ideal can come from: the pages the two systems returned, or a larger pool with one
# more useful page that neither returned (the pool the often-quoted 0.95 for A assumes).
POOLS = {"judged": SYSTEM_A + (0, 0, 0, 0), "larger": SYSTEM_A + (2, 0, 0, 0, 0)}


def grades() -> list[float]:
    return list(EXAMPLE.grades)


def labels() -> list[str]:
    return list(EXAMPLE.labels)


def changed(step: int) -> ListSpec:
    """The example after the change step 7 or 8 asks about."""
    if step == 7:
        return EXAMPLE.with_items(move(list(EXAMPLE.items), MOVE_FROM - 1, MOVE_TO - 1))
    return EXAMPLE.with_k(CUT)


def expected_answer(step: int) -> float | str:
    """The right answer to the check of ``step``, from ndcg_core (the worksheet and the predictions check
    themselves)."""
    g = grades()
    answers: dict[int, float | str] = {
        1: "c",
        2: cg(g, K),
        3: float(DISCOUNTS.build("log2")([3])[0]),
        4: dcg(g, 3),
        5: idcg(g, K),
        9: float(GAINS.build("exponential")([3])[0]),
    }
    return answers[step]


CHECKED = (1, 2, 3, 4, 5, 9)  # the steps that end with a check (``expected_answer``)
PREDICTED = (7, 8)  # the steps that ask for a prediction (``changed``)
# The checks whose mistakes the catalogue names: the question as ``mistakes.diagnose`` takes it (metric, k,
# position). The discount factor at position 3 is the term of a grade of 1 there.
QUESTIONS: dict[int, tuple[str, int, int | None]] = {3: ("term", 3, 3), 4: ("dcg", 3, None), 5: ("idcg", K, None)}


def question_spec(step: int) -> ListSpec:
    """The list a diagnosable check asks about: the example cut at the question's k, or for the factor, three
    grades of 1."""
    if step == 3:
        return ListSpec.from_grades(["1", "2", "3"], [1, 1, 1], 3)
    return EXAMPLE.with_k(QUESTIONS[step][1])


def diagnosed(step: int, entry: dict) -> tuple:
    """The mistakes a wrong answer kept in ``entry`` matches (none for another kind of check)."""
    if entry.get("spec") is None:
        return ()
    metric, _, position = QUESTIONS[step]
    return diagnose(entry["spec"], entry["raw"], metric=metric, position=position)


def go(step: int) -> None:
    learn_state().step = max(1, min(STEPS, step))


def answer_key(step: int) -> str:
    return f"_w_learn_answer_{step}"


def store_answer(step: int) -> None:
    """Keep the learner's answer to ``step`` (so it survives a redraw in another language)."""
    raw = widget_value(answer_key(step))
    learn_state().answers = {**learn_state().answers, step: raw}


def _keep_feedback(step: int, entry: dict) -> None:
    learn_state().feedback = {**learn_state().feedback, step: entry}


def mark_done(step: int) -> None:
    learn_state().done = sorted(set(learn_state().done) | {step})


def check_answer(step: int) -> None:
    """Mark the learner's answer to ``step``; the feedback is kept as data and worded when drawn."""
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
    if not ok and step in QUESTIONS:
        entry.update(spec=question_spec(step), raw=str(raw).strip())
    entry["again"] = repeated_mistakes(learn_state(), parts_of(diagnosed(step, entry)))
    _keep_feedback(step, entry)
    if ok:
        mark_done(step)


def reveal_answer(step: int) -> None:
    _keep_feedback(step, {"kind": "revealed", "answer": expected_answer(step)})
    mark_done(step)


def answered(step: int) -> bool:
    """Whether the learner has answered ``step`` (or asked for its answer): its numbers may be shown."""
    entry = learn_state().feedback.get(step)
    if not entry:
        return False
    return entry["kind"] != "unreadable"


def why(t: Translator, step: int, answer: float | str) -> str:
    """Why the answer to ``step`` is right, every number from ndcg_core."""
    fields: dict = {"answer": answer if isinstance(answer, str) else f"{answer:.4f}"}
    if step == 9:
        fields = {"answer": f"{answer:g}" if isinstance(answer, float) else answer}
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


def render_example(t: Translator, spec: ListSpec = EXAMPLE) -> None:
    """The running example (or a change of it) as a plain table: position, document, grade."""
    table = pd.DataFrame(
        {
            t("table.position"): range(1, len(spec.items) + 1),
            t("learn.document"): spec.labels,
            t("learn.grade"): [f"{g:g}" for g in spec.grades],
        }
    )
    st.table(table, hide_index=True)


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
    b.button(
        t("learn.show_answer"), on_click=reveal_answer, args=(step,), key=f"btn_learn_reveal_{step}", width="stretch"
    )
    entry = learn_state().feedback.get(step)
    if entry:
        good, text = feedback_text(t, step, entry)
        (st.success if good else st.error)(text)


def step_1(t: Translator) -> None:
    """One idea: graded relevance, on the running example."""
    st.markdown(t("learn.body.1"))
    render_example(t)
    render_check(t, 1, {"b": t("learn.choice.b"), "c": t("learn.choice.c"), "same": t("learn.choice.same")})


def step_2(t: Translator) -> None:
    st.markdown(t("learn.body.2"))
    st.latex(r"\mathrm{CG@}k = \sum_{i=1}^{k} \mathrm{rel}_i")
    render_example(t)
    render_check(t, 2)
    if answered(2):
        st.metric("CG@5", metric_text(cg(grades(), K)))


def step_3(t: Translator) -> None:
    st.markdown(t("learn.body.3"))
    st.latex(r"\text{discount}(i) = \frac{1}{\log_2(i+1)}")
    render_check(t, 3)
    if not answered(3):
        return  # the curve and the table would show the factor the check asks for
    factors = DISCOUNTS.build("log2")(range(1, 21))
    draw_chart(charts.ndcg_by_k_chart(list(factors), 3, {"ndcg": t("chart.discount"), "cutoff": t("chart.position")}))
    st.caption(t("learn.caption.3"))
    mine = EXAMPLE.breakdown()
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
    now = EXAMPLE.breakdown()
    # A plain table, whose cells wrap: a grid's last column ran past a phone's edge.
    st.table(
        pd.DataFrame(
            {t("table.position"): now["position"], t("table.item"): now["item"], t("learn.term"): now["term"]}
        ),
        hide_index=True,
    )
    render_check(t, 4)
    if answered(4):  # the number asked for, under its own label (never a learner's wrong number as DCG@5)
        st.metric("DCG@3", metric_text(dcg(grades(), 3)))


def step_5(t: Translator) -> None:
    st.markdown(t("learn.body.5"))
    st.latex(
        r"\mathrm{NDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}, \qquad \mathrm{NDCG@}k = 0 "
        r"\text{ when } \mathrm{IDCG@}k = 0"
    )
    render_example(t)
    g = grades()
    if answered(5):  # the check asks for the ideal's DCG: it and the NDCG it gives come after
        a, b, c = st.columns(3)
        a.metric("DCG@5", metric_text(dcg(g, K)))
        b.metric("IDCG@5", metric_text(idcg(g, K)))
        c.metric("NDCG@5", metric_text(ndcg_at_k(g, K)))
    else:  # alone: two empty columns would stack into a gap under it on a phone
        st.metric("DCG@5", metric_text(dcg(g, K)))
    st.caption(t("learn.caption.5", ideal=", ".join(f"{x:g}" for x in sorted(g, reverse=True))))
    render_check(t, 5)


# --- step 6: the whole NDCG by hand ----------------------------------------------------------------------------------

SHEET = Worksheet(EXAMPLE)
# Fixed CSS, no user text: the worksheet's rows stay rows on a phone (Streamlit stacks columns below 640 px, which
# parted each box from its column's heading), with narrower gaps and the small print wrapping in its own column.
SHEET_CSS = """
<style>
[class*="st-key-learn_sheet"] [data-testid="stHorizontalBlock"] { flex-wrap: nowrap !important; gap: 0.4rem; }
[class*="st-key-learn_sheet"] [data-testid="stColumn"] { min-width: 0 !important; width: auto !important; }
[class*="st-key-learn_sheet"] input { padding-left: 0.4rem; padding-right: 0.2rem; }
</style>
"""


def cell_key(cell: Cell) -> str:
    return f"_w_learn_cell_{cell.key}"


def store_cell(cell: Cell) -> None:
    """Keep what was typed in ``cell`` (checked when drawn; kept across reruns, steps and languages)."""
    text = widget_value(cell_key(cell))
    sheet = {k: v for k, v in learn_state().sheet.items() if k != cell.key}
    if text not in (None, ""):
        sheet[cell.key] = str(text)
    learn_state().sheet = sheet
    if sheet_checks_all_right():
        mark_done(6)


def sheet_checks_all_right() -> bool:
    """Whether every cell of the worksheet is filled in and right."""
    typed = learn_state().sheet
    for cell in SHEET.cells():
        text = typed.get(cell.key)
        if text is None:
            return False
        try:
            if not check_cell(SHEET, cell, text, typed).ok:
                return False
        except ValueError:
            return False
    return True


def show_sheet_answers() -> None:
    """Fill every cell with its right number (the learner asked for the answers)."""
    learn_state().sheet = {cell.key: number(SHEET.right(cell)) for cell in SHEET.cells()}
    learn_state().sheet_shown = True
    mark_done(6)


def render_cell(t: Translator, cell: Cell, label_visible: bool = False) -> None:
    """One cell: its input, and under it what the check of the number typed there says."""
    key = cell_key(cell)
    typed = learn_state().sheet
    set_widget_value(key, typed.get(cell.key, ""))
    st.text_input(
        cell_name(t, cell),
        key=key,
        on_change=store_cell,
        args=(cell,),
        placeholder="?",
        label_visibility="visible" if label_visible else "collapsed",
    )
    text = typed.get(cell.key)
    if text is None:
        return
    try:
        check = check_cell(SHEET, cell, text, typed)
    except ValueError as err:
        st.error(t("learn.unreadable", message=t.explain(err)))
        return
    good, message = cell_text(t, check)
    # Small print under the cell it is about: a box per cell would push the table's rows apart.
    st.caption(f":green[{message}]" if good else f":red[{message}]")


def step_6(t: Translator) -> None:
    st.markdown(t("learn.body.6"))
    st.latex(r"\text{term}_i = \text{gain}_i \times \frac{1}{\log_2(i+1)}")
    st.html(SHEET_CSS)
    with st.container(key="learn_sheet"):
        render_sheet_rows(t)
    left, _ = st.columns([1, 2])
    with left:
        render_cell(t, Cell("dcg"), label_visible=True)
    st.markdown(t("learn.sheet.ideal_intro"))
    with st.container(key="learn_sheet_ideal"):
        for position, column in enumerate(st.columns(K), start=1):
            with column:
                render_cell(t, Cell("ideal", position), label_visible=True)
    st.caption(t("learn.sheet.idcg_help"))
    a, b = st.columns(2)
    with a:
        render_cell(t, Cell("idcg"), label_visible=True)
    with b:
        render_cell(t, Cell("ndcg"), label_visible=True)
    st.button(t("learn.sheet.show"), on_click=show_sheet_answers, key="btn_learn_sheet_show")
    if 6 in learn_state().done:
        st.success(t("learn.sheet.shown" if learn_state().sheet_shown else "learn.sheet.done"))


def render_sheet_rows(t: Translator) -> None:
    """The worksheet's table: a heading row, then each position's document and grade with its three cells."""
    widths = [1, 2, 1, 2, 2, 2]
    head = st.columns(widths)
    for column, key in zip(
        head,
        ("table.position", "learn.document", "learn.grade", "learn.sheet.gain", "learn.sheet.discount", "learn.term_"),
        strict=True,
    ):
        column.markdown(f"**{t(key)}**")
    for position, (label, grade) in enumerate(zip(EXAMPLE.labels, EXAMPLE.grades, strict=True), start=1):
        row = st.columns(widths)
        row[0].markdown(str(position))
        row[1].markdown(md_escape(label))
        row[2].markdown(f"{grade:g}")
        for column, kind in zip(row[3:], ("gain", "discount", "term"), strict=True):
            with column:
                render_cell(t, Cell(kind, position))


# --- steps 7 and 8: predict first -----------------------------------------------------------------------------------


def guess_key(step: int, part: str) -> str:
    return f"_w_learn_guess_{part}_{step}"


def store_guess(step: int) -> None:
    guess = {part: widget_value(guess_key(step, part)) for part in ("direction", "band")}
    learn_state().guesses = {**learn_state().guesses, step: guess}


def reveal_change(step: int) -> None:
    """Reveal the change of ``step`` beside the learner's guess (a missing part is said, and nothing shown)."""
    store_guess(step)
    guess = learn_state().guesses[step]
    try:
        Guess(guess["direction"] or "", guess["band"])
    except ValueError as err:
        _keep_feedback(step, {"kind": "unreadable", "error": err})
        return
    _keep_feedback(step, {"kind": "guessed", "guess": dict(guess)})  # as it was when revealed
    mark_done(step)


def render_prediction(t: Translator, step: int) -> None:
    """Ask which way NDCG@k goes and roughly how far, then show the change beside the guess."""
    st.markdown(f"**{t('learn.predict.ask')}**")
    kept = learn_state().guesses.get(step, {})
    directions = {d: t(f"learn.predict.direction.{d}") for d in DIRECTIONS}
    bands = {name: t(f"learn.predict.band.{name}") for name, _, _ in BANDS}
    for part, choices in (("direction", directions), ("band", bands)):
        key = guess_key(step, part)
        set_widget_value(key, kept.get(part))
        st.radio(
            t(f"learn.predict.{part}"),
            list(choices),
            format_func=choices.__getitem__,
            index=None,
            horizontal=True,
            key=key,
            on_change=store_guess,
            args=(step,),
        )
    st.button(t("learn.predict.reveal"), on_click=reveal_change, args=(step,), key=f"btn_learn_predict_{step}")
    entry = learn_state().feedback.get(step)
    if not entry:
        return
    if entry["kind"] == "unreadable":
        st.error(t("learn.unreadable", message=t.explain(entry["error"])))
        return
    said = entry["guess"]
    shown = reveal(Guess(said["direction"] or "", said.get("band")), EXAMPLE, changed(step))
    render_revealed(t, step, shown)


def render_revealed(t: Translator, step: int, shown: Any) -> None:
    """The guess beside the truth, the change term by term (``explain_change``), and the mistake behind a wrong
    direction."""
    ex = shown.explained
    k_before, k_after = EXAMPLE.k, changed(step).k

    def said(direction: str, band: str | None) -> str:
        text = t(f"learn.predict.direction.{direction}")
        return text if band is None else t("learn.predict.said", direction=text, band=t(f"learn.predict.band.{band}"))

    table = pd.DataFrame(
        {
            "": [t("learn.predict.yours"), t("learn.predict.truth")],
            t("learn.predict.direction"): [
                said(shown.guess.direction, shown.guess.band),
                said(shown.direction, shown.band),
            ],
            "NDCG": ["", f"{ex.ndcg[0]:.4f} → {ex.ndcg[1]:.4f} ({ex.change:+.4f})"],
        }
    )
    st.table(table, hide_index=True)
    verdict = "right" if shown.right else "half" if shown.direction_right else "wrong"
    (st.success if shown.direction_right else st.error)(t(f"learn.predict.verdict.{verdict}"))
    lines = [
        t("learn.predict.dcg", before=f"{ex.dcg[0]:.4f}", after=f"{ex.dcg[1]:.4f}", k=k_before, k2=k_after),
        t("learn.predict.idcg", before=f"{ex.idcg[0]:.4f}", after=f"{ex.idcg[1]:.4f}", k=k_before, k2=k_after),
    ]
    terms = [
        t(
            "learn.predict.term",
            position=term.position,
            before=f"{term.before:.4f}",
            after=f"{term.after:.4f}",
            item=md_escape(term.item_after.label if term.item_after else "–"),
        )
        for term in ex.changed_terms
    ]
    st.markdown(paragraphs(lines))
    if terms:
        st.markdown("\n".join(f"- {line}" for line in terms))
    st.markdown(
        t(
            "learn.predict.parts",
            from_list=f"{ex.from_list:+.4f}",
            from_ideal=f"{ex.from_ideal:+.4f}",
            change=f"{ex.change:+.4f}",
        )
    )
    for code in shown.mistakes:
        st.warning(guess_mistake_text(t, code, changed(step)))
    st.caption(t(f"learn.predict.after.{step}"))


def step_7(t: Translator) -> None:
    st.markdown(t("learn.body.7"))
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('learn.before')}**")
        render_example(t)
    if not answered(7):
        render_prediction(t, 7)
        return
    with right:
        st.markdown(f"**{t('learn.after')}**")
        render_example(t, changed(7))
    render_prediction(t, 7)


def step_8(t: Translator) -> None:
    st.markdown(t("learn.body.8"))
    render_example(t)
    render_prediction(t, 8)
    if not answered(8):
        return  # the chart is the answer
    every = ndcg_at_every_k(grades())
    draw_chart(charts.ndcg_by_k_chart(list(every), CUT, t.group("chart")))
    st.caption(t("learn.caption.8", values=", ".join(f"NDCG@{i + 1} = {v:.3f}" for i, v in enumerate(every))))


def step_9(t: Translator) -> None:
    """Three other conventions Practice asks about, each a short aside on the example."""
    g = grades()
    st.markdown(t("learn.body.9"))
    st.subheader(t("learn.aside.exponential.title"))
    st.latex(r"\text{gain} = 2^{\mathrm{rel}} - 1")
    gains = GAINS.build("exponential")(g)
    st.markdown(
        t(
            "learn.aside.exponential.body",
            gains=", ".join(f"{x:g}" for x in gains),
            ndcg=f"{ndcg_at_k(g, K, gain='exponential'):.4f}",
            linear=f"{ndcg_at_k(g, K):.4f}",
        )
    )
    st.subheader(t("learn.aside.pool.title"))
    pool = [*g, *MISSED]
    st.markdown(
        t(
            "learn.aside.pool.body",
            missed=", ".join(f"{x:g}" for x in MISSED),
            ideal=", ".join(f"{x:g}" for x in sorted(pool, reverse=True)[:K]),
            idcg=f"{idcg(g, K, pool=pool):.4f}",
            ndcg=f"{ndcg_at_k(g, K, pool=pool):.4f}",
            own=f"{ndcg_at_k(g, K):.4f}",
        )
    )
    st.subheader(t("learn.aside.jk.title"))
    st.latex(r"\text{discount}(i) = 1 \text{ for } i < 2, \qquad \frac{1}{\log_2 i} \text{ from } i = 2")
    jk = DISCOUNTS.build("jk", base=2.0)
    st.markdown(
        t(
            "learn.aside.jk.body",
            factors=", ".join(f"{x:.3f}" for x in jk(range(1, K + 1))),
            dcg=f"{dcg(g, K, discount=jk):.4f}",
            usual=f"{dcg(g, K):.4f}",
        )
    )
    render_check(t, 9)


STEP_VIEWS = {
    1: step_1,
    2: step_2,
    3: step_3,
    4: step_4,
    5: step_5,
    6: step_6,
    7: step_7,
    8: step_8,
    9: step_9,
}


# --- Read on --------------------------------------------------------------------------------------------------------


def grades_text(grades: tuple[int, ...]) -> str:
    return ", ".join(str(g) for g in grades)


def render_read_on(t: Translator) -> None:
    """After the last step: what goes beyond NDCG itself (reciprocal rank, quoted figures, learning to rank)."""
    st.header(t("learn.read_on.title"))
    render_systems(t)
    render_swap_map(t)


def render_systems(t: Translator) -> None:
    """Two systems for one search: reciprocal rank cannot tell them apart, NDCG@5 can; the figures often quoted for
    them come from an ideal taken from a judged pool."""
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


def render_swap_map(t: Translator) -> None:
    """Every swap of the example at once, with what the map shows and why it matters for learning to rank."""
    after = ndcg_after_swaps(grades(), K)
    changes = after - np.diag(after)[:, None]
    st.subheader(t("learn.swap.title"))
    st.markdown(t("learn.swap.intro", k=K))
    chart = charts.swap_map_chart(charts.swap_rows(labels(), changes, K), t.group("chart"), large=app_state().presenter)
    draw_chart(chart)
    st.markdown(t("playground.swap.explain"))


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
        render_read_on(t)
    else:
        st.caption(t("learn.answer_first"))
    params = {"step": str(step), "lang": app_state().lang}
    share_box(t, "learn", params, page_url(params))
