"""``live_part``: a part of a page that reruns by itself (``st.fragment(run_every=...)``), drawn in a container of
its own so that a Streamlit race cannot make it overwrite what follows it on the page.

The race (Streamlit 1.67): a full run of the page ends, and a run of the part, asked for meanwhile by its timer,
starts before the server has sent the full run's messages (a busy event loop sends them late). The part's run
begins by dropping the part's messages still waiting to be sent, the full run's among them, but keeps that run's
"finished". The browser then sees a full run that never drew the part and removes it; the elements after it move up
one place, and the part's next run, addressed to its old place, replaces the element that moved there. On the
teacher's control page that was "Open the next activity": gone until a reload, with a class waiting. It was seen
in parallel test runs on two cores, the messages recorded from the websocket
(``tests/browser/test_browser_live_part_keeps_its_place.py`` makes it happen on purpose).

In a container of its own, the part is that container's only child: when the browser removes it, nothing moves,
and its next run draws it back in the same place.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec

import streamlit as st

P = ParamSpec("P")


def live_part(run_every: float) -> Callable[[Callable[P, None]], Callable[P, None]]:
    """``@st.fragment(run_every=run_every)``, called inside a container of its own (see the module's docstring)."""

    def decorate(draw: Callable[P, None]) -> Callable[P, None]:
        part: Callable[..., Any] = st.fragment(run_every=run_every)(draw)

        @functools.wraps(draw)
        def placed(*args: P.args, **kwargs: P.kwargs) -> None:
            with st.container():
                part(*args, **kwargs)

        return placed

    return decorate
