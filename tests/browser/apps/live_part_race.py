"""A page for ``test_browser_live_part_keeps_its_place``: a part that reruns by itself, a line of text after it,
and the Streamlit race that ``ui.live_part`` guards against, made to happen on every full run after the first.

In such a run the part asks for a run of its own, as its timer does when it fires just as the page's run begins,
and the server's event loop is kept busy while the part and the line are drawn. The part's own run then begins
before the full run's messages are sent: the race. ``?boxed=0`` in the address draws the part with ``st.fragment``
alone (one server for both pages).
Streamlit's internals are used here on purpose, to make the timing certain."""

import time

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState, get_script_run_ctx

from ui.live_part import live_part


def draw_part() -> None:
    st.session_state.part_runs = st.session_state.get("part_runs", 0) + 1
    if st.session_state.drawing_page and st.session_state.full_runs > 1:  # in a full run, not in the part's own
        ctx = get_script_run_ctx()
        me = ThreadState.get().fragment_id
        ask = RerunData(fragment_id=me, is_auto_rerun=True, page_script_hash=ctx.page_script_hash)
        ctx.script_requests.request_rerun(ask)
        Runtime.instance()._get_async_objs().eventloop.call_soon_threadsafe(time.sleep, 1.0)
        time.sleep(0.1)  # the event loop is asleep by now: nothing drawn from here on is sent before the part's run
    st.markdown(f"The part's run {st.session_state.part_runs}")


part = live_part(0.5)(draw_part) if st.query_params.get("boxed") == "1" else st.fragment(run_every=0.5)(draw_part)

st.session_state.full_runs = st.session_state.get("full_runs", 0) + 1
st.button("Run the page again")
st.session_state.drawing_page = True
part()
st.session_state.drawing_page = False
st.markdown(f"After the part (full run {st.session_state.full_runs})")
