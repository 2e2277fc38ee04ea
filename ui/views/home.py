"""Home: what NDCG is, in one live example, a box to join a class by its room code, the path for a student
alone, and the command line."""

import streamlit as st

import ndcg_core
from ndcg_core.classroom import rules
from ndcg_core.errors import InputError, StoreUnavailable
from ui.database import runtime
from ui.editing import typed_tokens
from ui.format import metric_text
from ui.i18n import Translator
from ui.projector import worked_table
from ui.widgets.table import cut_at_k, cut_texts


def render_page(t: Translator) -> None:
    st.title("NDCG Lab")
    st.markdown(t("home.intro"))
    render_join(t)
    # A student arriving alone gets one path: learn the idea, play with it, then test it.
    st.subheader(t("home.path"))
    # A link keeps its label on one line (cut short on a phone): a short link, and what it offers below it.
    for page, name, icon in (
        ("pages/3_Learn.py", "learn", "📘"),
        ("pages/1_Playground.py", "playground", "🎛️"),
        ("pages/6_Practice.py", "practice", "✏️"),
    ):
        st.page_link(page, label=t(f"home.path.{name}"), icon=icon, width="stretch")
        st.caption(t(f"home.path.{name}_what"))

    st.subheader(t("home.try"))
    left, right = st.columns([3, 1])
    grades_text = left.text_input(
        t("home.grades"), value="3, 2, 3, 0, 1, 2", key="home_grades", help=t("home.grades_help")
    )
    k = right.number_input(t("home.k"), min_value=1, max_value=100, value=6, step=1, key="home_k")

    try:
        grades = ndcg_core.validate_grades(typed_tokens(grades_text))
    except ValueError as err:
        st.error(t("home.bad_grades", message=t.explain(err)))
    else:
        if len(grades) == 0:
            st.info(t("home.empty"))
        else:
            k = int(k)
            frame = ndcg_core.breakdown(grades, k)
            a, b, c = st.columns(3)
            a.metric(t("playground.ndcg_at", k=k), metric_text(ndcg_core.ndcg_at_k(grades, k)))
            b.metric(t("playground.dcg_at", k=k), metric_text(ndcg_core.dcg(grades, k)))
            c.metric(t("playground.idcg_at", k=k), metric_text(ndcg_core.idcg(grades, k)))
            st.caption(t("home.caption"))
            # Cut at k, grades as typed: a reader takes the totals from the row at k, never from the last row.
            columns = ("position", "grade", "term", "cumulative_dcg", "ideal_grade", "cumulative_idcg")
            rows, kinds = cut_at_k(frame, columns, cut_texts(t, columns, k))
            worked_table(rows, False, kinds)

    st.divider()
    st.markdown(t("home.cli"))
    st.code("ndcg-lab-eval -q -m ndcg_cut.5,10 qrels.txt run.txt", language="bash")


def render_join(t: Translator) -> None:
    """A student in a class types the code on the projector and lands on the room's page (``/Classroom?room=``);
    a code that does not read, or no open room, is a message here.

    A form, so Enter on a phone's keyboard sends it and what was typed stays in the box beside a bad code's message.
    """
    with st.form("home_join", border=True):
        st.subheader(t("home.join"))
        typed = st.text_input(
            t("home.join_code"), key="home_join_code", max_chars=20, placeholder="K7P3QX", help=t("home.join_help")
        )
        sent = st.form_submit_button(t("home.join_go"), type="primary", icon=":material/login:")
        if sent:
            try:
                code = runtime().room(rules.read_code(typed)).code  # forgiving case, spaces, dashes; open now
            except (InputError, StoreUnavailable) as err:
                st.error(t.explain(err))
            else:
                st.switch_page("pages/7_Classroom.py", query_params={"room": code})
