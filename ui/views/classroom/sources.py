"""Where a list activity's list comes from (a real result list, a worked example, a seeded random list, the
Playground's current list), drawn as part of a kind's form with the k box; every widget key starts with the form's
prefix (``_w_cr_`` live on the control page, another in the lesson editor)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ndcg_core.classroom.kinds.lists import ACTIVITY_GAINS, activity_list, preset_list, random_list, result_list
from ndcg_core.errors import InputError, shown
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.results import RESULTS
from ndcg_core.lists.spec import ListSpec
from ui.format import metric_text
from ui.i18n import Translator
from ui.state import playground_state, widget_value

SOURCES = ("results", "preset", "random", "playground")


def list_form(t: Translator, prefix: str, grades_box: bool = False, hidden_by_default: bool = False) -> None:
    """The list's source and its options, a "show grades" box when ``grades_box``, the list's grades (unless they
    are hidden from the class: the teacher's screen is often the projector's) and k."""
    source = st.radio(
        t("classroom.source"),
        SOURCES,
        format_func=lambda s: t(f"classroom.source.{s}"),
        horizontal=True,
        key=f"{prefix}source",
    )
    if source in ("results", "preset"):  # a named list from a registry: real results, or a worked example
        registry: Any = RESULTS if source == "results" else PRESETS
        st.selectbox(
            t(f"classroom.{source}"),
            registry.names(),
            format_func=lambda name: t.entry(source, registry[name], "label"),
            key=f"{prefix}{source}",
        )
    elif source == "random":
        st.number_input(t("classroom.seed"), min_value=0, max_value=10**9, value=16, step=1, key=f"{prefix}seed")
    if grades_box:
        st.checkbox(t("classroom.show_grades"), key=f"{prefix}show_grades", help=t("classroom.show_grades_help"))
    try:
        spec = base_list(prefix)
    except InputError as err:
        st.error(t.explain(err))  # for example a Playground list longer than a phone shows
        return
    hidden = hidden_by_default and not widget_value(f"{prefix}show_grades", False)
    st.caption(
        t("classroom.setup_hidden")
        if hidden
        else t("classroom.setup_list", grades=", ".join(metric_text(g, 0) for g in spec.grades))
    )
    if len(spec.grades) > 1:
        st.number_input(
            t("classroom.k"), min_value=1, max_value=len(spec.grades), value=spec.k, step=1, key=k_key(prefix, spec)
        )


def playground_list() -> ListSpec:
    """The Playground's current list, k, gain and ideal (this session's) as a class list (the log2 discount)."""
    spec = playground_state().spec
    # The gain first: a custom gain is the reason to name, whatever else the class list would refuse.
    if spec.gain not in ACTIVITY_GAINS:
        raise InputError("activity.gain", value=shown(spec.gain), choices=", ".join(ACTIVITY_GAINS))
    return activity_list(spec.labels, spec.grades, spec.k, spec.gain, spec.pool)


def base_list(prefix: str) -> ListSpec:
    """The list the form's choices point at, with its own k."""
    source = widget_value(f"{prefix}source", "preset")
    if source == "playground":
        return playground_list()
    if source == "random":
        return random_list(widget_value(f"{prefix}seed", 16))
    if source == "results":
        return result_list(widget_value(f"{prefix}results") or RESULTS.names()[0])
    return preset_list(widget_value(f"{prefix}preset") or PRESETS.names()[0])


def k_key(prefix: str, spec: ListSpec) -> str:
    """The k box's key: one per list, so choosing another list starts from that list's k."""
    return f"{prefix}k_" + "_".join(metric_text(g, 0) for g in spec.grades) + f"_{len(spec.labels)}"


def chosen_list(prefix: str) -> ListSpec:
    """The list with the k the form set."""
    spec = base_list(prefix)
    return spec.with_k(int(widget_value(k_key(prefix, spec)) or spec.k))
