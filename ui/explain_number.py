"""Explain a number: the Conventions page's and Evaluate's box for the number another tool printed, and the table of
the conventions and tools that give it (``ndcg_core.teaching.explain``), in the user's language."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from ndcg_core import validate
from ndcg_core.errors import InputError
from ndcg_core.teaching.catalogue import CHANGES, LIBRARIES
from ndcg_core.teaching.conventions import Example
from ndcg_core.teaching.explain import Explanation, Match, explain_list, explain_run, tolerance_text
from ndcg_core.trec.measures import Measure
from ndcg_core.trec.readers import Qrels, read_run
from ui.cache import ResultCache
from ui.format import metric_text
from ui.i18n import Translator
from ui.state import bind, conventions_state, evaluate_state

MAX_ROWS = 20  # matches shown; the rest are counted


@st.cache_resource(show_spinner=False)
def _explanations() -> ResultCache:
    """Explanations shared by every session, keyed by the files' contents, the measure and the number typed."""
    return ResultCache(max_entries=16, ttl=3600)


def render_for_list(t: Translator, example: Example) -> None:
    """The Conventions page's box: the number typed, explained on the example shown."""
    st.subheader(t("explain.title"))
    typed = st.text_input(
        t("explain.input"), placeholder="0.5371", help=t("explain.help"), **bind(conventions_state(), "explain")
    )
    if not typed.strip():
        st.caption(t("explain.empty"))
        return
    try:
        explanation = explain_list(example, typed)
    except InputError as err:
        st.error(t("explain.bad", message=t.explain(err)))
        return
    _comma_note(t, typed)
    render_explanation(t, explanation)


def render_for_run(
    t: Translator,
    qrels: Qrels,
    qrels_key: str,
    run_key: str,
    run_name: str,
    run_data: bytes,
    measures: tuple[Measure, ...],
) -> None:
    """Evaluate's box under the summary: the number typed, explained on the files for the measure chosen."""
    st.subheader(t("explain.title"))
    state = evaluate_state()
    names = {m.name: m for m in measures}
    if state.explain_measure not in names:
        state.explain_measure = next((m.name for m in measures if m.cutoff is not None), measures[0].name)
    left, right = st.columns([1, 2])
    with left:
        chosen = st.selectbox(
            t("explain.measure"), list(names), format_func=lambda n: names[n].label, **bind(state, "explain_measure")
        )
    with right:
        typed = st.text_input(
            t("explain.input"), placeholder="0.5371", help=t("explain.help"), **bind(state, "explain")
        )
    if not typed.strip():
        st.caption(t("explain.empty"))
        return
    key = (qrels_key, run_key, chosen, typed.strip())
    try:
        explanation = _explanations().get(key)
        if explanation is None:
            with st.spinner(t("explain.working")):
                explanation = explain_run(qrels, read_run(run_data, name=run_name), names[chosen], typed)
            _explanations().put(key, explanation)
    except InputError as err:
        st.error(t("explain.bad", message=t.explain(err)))
        return
    _comma_note(t, typed)
    render_explanation(t, explanation)


def _comma_note(t: Translator, typed: str) -> None:
    note = validate.reading(typed).note
    if note is not None:
        st.caption(t.explain(note))


def render_explanation(t: Translator, explanation: Explanation) -> None:
    """The heading (how many conventions give the number, this project's own), the table, and the notes."""
    e = explanation
    places = e.decimals + 2
    fields = {
        "value": metric_text(e.value, e.decimals),
        "tolerance": tolerance_text(e.tolerance, e.decimals),
        "default": metric_text(e.default, places),
        "searched": e.searched,
        "measure": e.measure.label,
    }
    if e.matches:
        count = sum(1 + m.alike for m in e.matches)
        st.markdown(t("explain.found", count=count, **fields))
        shown = e.matches[:MAX_ROWS]
    else:
        st.warning(t("explain.none", **fields))
        shown = e.nearest
    # A table, not a grid: the sentences wrap and are read whole (a handful of rows, all of them the app's text).
    st.table(pd.DataFrame([_row(t, m, places) for m in shown]), hide_index=True, border="horizontal")
    if len(e.matches) > MAX_ROWS:
        st.caption(t("explain.more_rows", n=len(e.matches) - MAX_ROWS))
    for m in e.near:
        tools = ", ".join(
            t.entry("explain_library", LIBRARIES[n], "label") for n in m.libraries if LIBRARIES[n].build().unstable
        )
        difference = f"{m.difference:+.1e}"
        st.caption(t("explain.near", tools=tools, value=metric_text(m.value, places), difference=difference))
    if e.idle:
        st.caption(t("explain.idle", axes=", ".join(t(f"explain.idle.{axis}") for axis in e.idle)))
    for name in e.also:
        entry = CHANGES[name]
        st.caption(f"{t.entry('explain_change', entry, 'label')}: {t.entry('explain_change', entry, 'description')}")


def _label(t: Translator, change: str, match: Match) -> str:
    """A change's label in the user's language; -M's with the variant's N in place of "N"."""
    label = t.entry("explain_change", CHANGES[change], "label")
    return label.replace("N", str(match.variant.max_docs)) if change == "depth.M" else label


def _row(t: Translator, match: Match, places: int) -> Mapping[str, str]:
    changes = "; ".join(_label(t, c, match) for c in match.changes) or t("explain.default")
    if match.alike:
        changes += " " + t("explain.alike", n=match.alike)
    if match.libraries:
        why = t.entry("explain_library", LIBRARIES[match.libraries[0]], "description")
    elif match.changes:
        why = t.entry("explain_change", CHANGES[match.changes[0]], "description")
    else:
        why = ""
    mistakes = [CHANGES[c].build().mistake for c in match.changes]
    named = [m for m in mistakes if m is not None]
    if named:
        why += " " + t("explain.also_a_mistake", label=t(f"mistake.{named[0]}.label"))
    return {
        t("explain.col.value"): metric_text(match.value, places),
        t("explain.col.changes"): changes,
        t("explain.col.tools"): ", ".join(t.entry("explain_library", LIBRARIES[n], "label") for n in match.libraries),
        t("explain.col.why"): why.strip(),
    }
