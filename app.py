"""NDCG Lab home page: what NDCG is, in one live example (the Playground and other pages come in pages/)."""

import streamlit as st

import ndcg_core
from ui.format import TABLE_COLUMNS, metric_text, sentence

st.set_page_config(page_title="NDCG Lab", page_icon="📐", layout="wide")

st.title("NDCG Lab")
st.markdown(
    "Learn, teach and check **NDCG** (Normalized Discounted Cumulative Gain), the ranking metric "
    "search and recommendation teams report. Every number here comes from `ndcg_core`, which "
    "matches trec_eval to the last printed decimal."
)

st.subheader("Try it")
left, right = st.columns([3, 1])
grades_text = left.text_input(
    "Relevance grades of a ranked list, best position first",
    value="3, 2, 3, 0, 1, 2",
    key="home_grades",
    help="Numbers from 0 (not relevant) upwards, separated by commas or spaces.",
)
k = right.number_input("k (positions counted)", min_value=1, max_value=100, value=6, step=1, key="home_k")

try:
    grades = ndcg_core.validate_grades(grades_text.replace(",", " ").split())
except ValueError as err:
    st.error(f"{sentence(str(err))}. Fix the list above; the figures come back as soon as it reads.")
else:
    if len(grades) == 0:
        st.info("Type at least one grade, for example 3, 2, 0.")
    else:
        frame = ndcg_core.breakdown(grades, int(k))
        ndcg = ndcg_core.ndcg_at_k(grades, int(k))
        dcg_k = ndcg_core.dcg(grades, int(k))
        idcg_k = ndcg_core.dcg(ndcg_core.ideal_grades(grades), int(k))
        a, b, c = st.columns(3)
        a.metric(f"NDCG@{int(k)}", metric_text(ndcg))
        b.metric(f"DCG@{int(k)}", metric_text(dcg_k))
        c.metric(f"IDCG@{int(k)}", metric_text(idcg_k))
        st.caption("Each position's gain is divided by log2(position + 1); NDCG divides the sum by the ideal order's sum.")
        st.dataframe(
            frame[list(TABLE_COLUMNS)].rename(columns=TABLE_COLUMNS),
            hide_index=True,
            width="stretch",
        )

st.divider()
st.markdown(
    "**Check a system from the command line**, with trec_eval's output format:\n\n"
    "```\npython -m ndcg_core -q -m ndcg_cut.5,10 qrels.txt run.txt\n```"
)
