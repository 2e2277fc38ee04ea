"""The next activity, set up live on the control page: its kind, the kind's own form (``kinds.VIEWS``), and the
button that opens it."""

from __future__ import annotations

import streamlit as st

from ndcg_core.classroom.kinds import KINDS, Activity
from ui.database import runtime
from ui.i18n import Translator
from ui.state import classroom_state, widget_value
from ui.views.classroom.commands import refusal_shown, teacher
from ui.views.classroom.common import show_message
from ui.views.classroom.kinds import VIEWS

PREFIX = "_w_cr_"  # the live form's widget keys


@st.fragment
def setup_part(lang: str) -> None:
    """``render_setup`` as a part of the control page of its own. Choosing a kind or an option, or pressing "Open
    for the class", reruns only this part: the press's run is this part's, not the whole page's, while the class's
    phones fetch the activity (on the same process, a full run of the page competed with them for the
    interpreter). The rest of the page follows at the live part's next run, which sees the room's new revision
    and runs the page again (``live.draw_live``)."""
    render_setup(Translator(lang))


def render_setup(t: Translator) -> None:
    """The next activity: its kind and its options, and the button that opens it for the class."""
    kind = st.radio(
        t("classroom.kind"),
        KINDS.names(),
        format_func=lambda k: t(f"classroom.kind.{k}"),
        horizontal=True,
        key=f"{PREFIX}kind",
    )
    st.caption(t(f"classroom.kind_help.{kind}"))
    VIEWS[kind].form(t, PREFIX)
    st.button(
        t("classroom.open"), on_click=open_activity, key="btn_cr_open", type="primary", icon=":material/play_arrow:"
    )
    show_message(classroom_state(), "open")


def build_activity() -> Activity:
    return VIEWS[widget_value(f"{PREFIX}kind", "predict")].build(PREFIX)


def open_activity() -> None:
    """Open the activity set up, as of the revision the page showed (a retry, or a second click, opens it once)."""
    with refusal_shown("open"):
        runtime().open(*teacher(), build_activity(), after=classroom_state().control_revision)
