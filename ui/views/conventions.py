"""Conventions: one ranking scored under each named convention, side by side, with formulas and snippets."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ndcg_core import dcg, ndcg_at_k, ndcg_from_scores
from ndcg_core.registry import Entry
from ndcg_core.teaching.conventions import LEARNT, WIKIPEDIA, Convention, Example, example_from_rows, learnt_first
from ui import explain_number
from ui.format import metric_text
from ui.i18n import Translator
from ui.state import bind, conventions_state

# Libraries whose snippets the test suite runs, checking they print the number shown here.
TESTED_SNIPPETS = {"scikit-learn", "pytrec_eval", "ndcg_core"}


def example_rows(example: Example) -> tuple[list[dict], list[dict]]:
    retrieved = [
        {"item": i, "score": s, "grade": g}
        for i, s, g in zip(example.items, example.scores, example.grades, strict=False)
    ]
    return retrieved, [{"item": i, "grade": g} for i, g in example.extra]


def read_example(t: Translator) -> Example | None:
    retrieved, extra = example_rows(WIKIPEDIA)
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{t('conv.retrieved')}**")
        edited = st.data_editor(
            pd.DataFrame(retrieved),
            num_rows="dynamic",
            hide_index=True,
            width="stretch",
            key="conv_retrieved",
            column_config={
                "item": st.column_config.TextColumn(t("conv.col.item")),
                "score": st.column_config.NumberColumn(t("conv.col.score"), format="%.3f"),
                "grade": st.column_config.NumberColumn(t("conv.col.grade"), min_value=0),
            },
        )
    with right:
        st.markdown(f"**{t('conv.unretrieved')}**")
        edited_extra = st.data_editor(
            pd.DataFrame(extra),
            num_rows="dynamic",
            hide_index=True,
            width="stretch",
            key="conv_extra",
            column_config={
                "item": st.column_config.TextColumn(t("conv.col.item")),
                "grade": st.column_config.NumberColumn(t("conv.col.grade"), min_value=0),
            },
        )
        st.number_input(t("conv.k"), min_value=1, max_value=100, step=1, **bind(conventions_state(), "k"))
    try:
        return example_from_rows(_records(edited), _records(edited_extra), conventions_state().k)
    except ValueError as err:
        st.error(t("conv.bad_example", message=t.explain(err)))
        return None


def _records(frame: pd.DataFrame) -> list[dict]:
    return frame.astype(object).where(frame.notna(), None).to_dict("records")


def label(t: Translator, entry: Entry[Convention]) -> str:
    """A convention's name, the one Learn and Practice use marked as the learner's own."""
    text = t.entry("convention", entry, "label")
    return t("conv.learnt", label=text) if entry.name == LEARNT else text


def render_page(t: Translator) -> None:
    st.title(t("conv.title"))
    st.markdown(t("conv.intro"))
    example = read_example(t)
    if example is None:
        return
    st.markdown(t("conv.learnt_intro"))
    rows = []
    for entry in learnt_first():
        convention = entry.build()
        rows.append(
            {
                t("conv.col.convention"): label(t, entry),
                "NDCG": round(convention.score(example), 4),
                t("conv.col.library"): convention.library,
            }
        )
    st.dataframe(
        pd.DataFrame(rows),
        hide_index=True,
        width="stretch",
        column_config={"NDCG": st.column_config.NumberColumn(format="%.4f")},
    )
    st.caption(t("conv.table_help"))
    explain_number.render_for_list(t, example)
    for entry in learnt_first():
        convention = entry.build()
        with st.expander(f"{label(t, entry)}: {metric_text(convention.score(example))}"):
            st.markdown(t.entry("convention", entry, "description"))
            st.latex(convention.formula)
            code = convention.snippet(example)
            if code:
                st.code(code, language="python")
                if convention.library not in TESTED_SNIPPETS:
                    st.caption(t("conv.not_run", library=convention.library))
    st.subheader(t("conv.remarks"))
    pool, own = ndcg_at_k([3, 2, 3, 0, 1, 2], 6, pool=[3, 2, 3, 0, 1, 2, 3, 2]), ndcg_at_k([3, 2, 3, 0, 1, 2], 6)
    st.markdown(t("conv.wikipedia", pool=f"{pool:.3f}", own=f"{own:.3f}"))
    linear = ndcg_at_k([2, 3], 2)
    expo = ndcg_at_k([2, 3], 2, gain="exponential")
    st.markdown(t("conv.exponential", linear=f"{linear:.3f}", expo=f"{expo:.3f}"))
    harmful = {2: -1}
    stops = ndcg_at_k([2, 1], gain=harmful)
    ranked_too = dcg([2, 1], gain=harmful) / dcg([1, 2], gain=harmful)  # an ideal that also ranks the harmful item
    st.markdown(t("conv.negative", stops=f"{stops:.3f}", ranked_too=f"{ranked_too:.3f}"))
    near_grades, near_scores, near_items = [1, 0], [1.000000001, 1.0], ["a", "b"]
    st.markdown(
        t(
            "conv.float32",
            double=f"{ndcg_from_scores(near_grades, near_scores, items=near_items):.3f}",
            single=f"{ndcg_from_scores(near_grades, near_scores, items=near_items, float32_scores=True):.3f}",
        )
    )
