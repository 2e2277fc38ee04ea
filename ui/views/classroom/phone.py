"""A student's phone: the language, joining, and the current activity drawn by its kind's phone view
(``ui.kinds.WORDS``, through ``ui.phones.student_card``), with one status line under the answer.
"""

from __future__ import annotations

import time
from typing import Any

import streamlit as st

from ndcg_core.classroom.service import CardState, Submission, seconds_left
from ndcg_core.classroom.storage import Room
from ndcg_core.errors import InputError, StoreUnavailable
from ndcg_core.lists.items import Item
from ui.database import last_room, room_now, runtime
from ui.format import md_escape
from ui.i18n import LANGUAGES, Translator
from ui.live_part import live_part
from ui.phones.card import Block, Choice, Note, NumberBox, Order, PhoneCard, Table, Text, table_of
from ui.phones.phone_page import page_address, pages_served
from ui.phones.student_card import build, reply
from ui.state import (
    ClassroomState,
    app_state,
    classroom_state,
    has_widget_value,
    set_link_value,
    set_widget_value,
    widget_value,
)
from ui.views.classroom.common import outage_text, show_message
from ui.views.classroom.identity import (
    MEMORY_LOOK_SECONDS,
    MEMORY_WAIT_SECONDS,
    join_form,
    memory_reported,
    on_join_here,
)
from ui.widgets.countdown import countdown
from ui.widgets.go_to import go_to
from ui.widgets.sortable import apply_action, sortable_list


def on_student_lang() -> None:
    chosen = widget_value("_w_cr_lang")
    if chosen in LANGUAGES:  # a segmented control can be cleared; the language stays then
        app_state().lang = chosen


def render_student(t: Translator, cs: ClassroomState, room: Room) -> None:
    top, lang = st.columns([3, 2], vertical_alignment="center")
    top.markdown(t("classroom.room_heading_small", code=room.code))
    set_widget_value("_w_cr_lang", app_state().lang)
    lang.segmented_control(
        t("common.language"),
        list(LANGUAGES),
        format_func=LANGUAGES.__getitem__,
        key="_w_cr_lang",
        on_change=on_student_lang,
        label_visibility="collapsed",
    )
    me = runtime().student(room.code, cs.student) if cs.student else None
    if me is None:
        if room.ended:
            st.info(t("classroom.ended_student"))
            return
        if not memory_reported(cs):
            # Not the join form yet: this browser may hold the teacher's key or a student id for the room (a
            # new page, a restarted server). Its report reruns the page; "Join" here would make a teacher a student.
            if cs.memory_wait is None:
                cs.memory_wait = time.monotonic()
            checking_identity(t.lang)
            return
        join_form(t, "cr_join_here", on_join_here, "btn_cr_join_here")
        show_message(cs, "join")
        return
    set_link_value("me", me.id)
    st.caption(
        t("classroom.you_are", name=md_escape(me.nickname))
        if me.nickname
        else t("classroom.you_are_number", number=me.number)
    )
    if pages_served():
        # The phone's own page (ui/phones/phone_page.py) from here on: no session held on this process.
        address = page_address(room.code, me.id, t.lang)
        st.markdown(t("classroom.opening_phone_page", url=address))
        go_to(address)
    else:
        student_room(t.lang, room.code)


@live_part(MEMORY_LOOK_SECONDS)
def checking_identity(lang: str) -> None:
    """A short "Checking who you are…" while the browser's memory has not reported; after
    ``MEMORY_WAIT_SECONDS`` without a report (its script blocked, say), the page offers the join form."""
    cs = classroom_state()
    if memory_reported(cs):
        st.rerun(scope="app")
    if time.monotonic() - (cs.memory_wait or 0.0) >= MEMORY_WAIT_SECONDS:
        cs.memory = {"room": cs.room, "me": None, "key": None}  # as if the browser kept nothing for the room
        st.rerun(scope="app")
    st.info(Translator(lang)("classroom.checking"), icon=":material/hourglass_empty:")


# How often the Streamlit-drawn phone looks at its room. It is drawn only where the app runs without serve.py (whose
# phones have a page of their own, phone_page.py), a lone machine's few phones: a fragment run each time is cheap.
PHONE_LOOK_SECONDS = 2.0


@live_part(PHONE_LOOK_SECONDS)
def student_room(lang: str, code: str) -> None:
    """Everything on a student's phone that the teacher changes: the current activity, a lock, a reveal, the end.

    Drawn here only where the app runs without ``serve.py``: this part reruns every ``PHONE_LOOK_SECONDS`` and when
    the student answers, without redrawing the rest of the page.
    """
    t = Translator(lang)
    cs = classroom_state()
    outage: StoreUnavailable | None = None
    try:
        room = room_now(code)
    except InputError as err:
        st.error(t.explain(err))
        return
    except StoreUnavailable as err:
        # The room as last seen stays on the phone, with a notice, so what the student typed stays in its box;
        # the next run draws it afresh once the database answers again.
        outage, known = err, last_room(code)
        st.warning(outage_text(t, err), icon=":material/cloud_off:")
        if known is None:
            return
        room = known
    try:
        state = runtime().card(code, cs.student or "", room)
    except StoreUnavailable as err:
        if outage is None:  # one notice is enough; the next run tries again
            st.warning(outage_text(t, err), icon=":material/cloud_off:")
        current = room.current  # the card says when the room has ended
        left = None if current is None else seconds_left(current, runtime().clock())
        state = CardState(room, current, {}, left, None)
    draw_card(t, cs, code, build(t, state))


def answer_key(activity_id: int | None, part: int) -> str:
    return f"_w_cr_answer_{activity_id}_{part}"


def draw_card(t: Translator, cs: ClassroomState, code: str, card: PhoneCard) -> None:
    """The phone's card drawn with Streamlit, where the app runs without ``serve.py``'s card routes: the same blocks
    the browser draws (``ui/widgets/phone_card.js``), as Streamlit elements and widgets."""
    if card.left is not None:
        countdown(card.left, t("classroom.time_left"), wake=True, key=f"cr_countdown_{card.activity}")
    for block in card.body.blocks:
        draw_block(t, cs, card.activity or 0, block)
    if card.send:
        st.button(
            card.send,
            on_click=send_typed,
            args=(t.lang, code, card),
            type="primary",
            key=f"btn_cr_send_{card.activity}",
            width="stretch",
        )
    status_line(t, cs, card)


def draw_block(t: Translator, cs: ClassroomState, activity_id: int, block: Block) -> None:
    """One block of a card, its inputs under keys of activity ``activity_id``."""
    if isinstance(block, Text):
        (st.caption if block.small else st.markdown)(block.markdown)
    elif isinstance(block, Note):
        {"success": st.success, "info": st.info, "warning": st.warning, "error": st.error}[block.level](block.markdown)
    elif isinstance(block, Table):
        st.markdown(table_markdown(block))
    elif isinstance(block, Order):
        draw_order(t, cs, activity_id, block)
    else:
        key = answer_key(activity_id, block.part)
        if not has_widget_value(key) and block.saved is not None:
            set_widget_value(key, block.saved)
        if isinstance(block, NumberBox):
            st.text_input(block.label, key=key, placeholder=block.placeholder, disabled=block.disabled)
        else:
            texts = dict(block.options)
            st.segmented_control(
                block.label,
                list(texts),
                format_func=texts.__getitem__,
                key=key,
                disabled=block.disabled,
                width="stretch",
            )


def table_markdown(table: Table) -> str:
    """A card's table as Markdown, every cell escaped."""
    rows = ["| " + " | ".join(md_escape(h) for h in table.head) + " |"]
    rows.append("|" + "|".join("---:" if n else ":---" for n in table.numeric) + "|")
    rows += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in table.rows]
    return "\n".join(rows)


def order_items(block: Order, order: list[int]) -> list[Item]:
    """The list in the student's order; an item's id is its place in the teacher's list, plus one."""
    return [Item(i + 1, block.labels[i], float(block.grades[i]) if block.grades else 0.0) for i in order]


def current_order(cs: ClassroomState, activity_id: int, block: Order) -> list[int]:
    return cs.orders.get(activity_id) or list(block.saved or range(len(block.labels)))


def draw_order(t: Translator, cs: ClassroomState, activity_id: int, block: Order) -> None:
    order = current_order(cs, activity_id, block)
    cs.orders[activity_id] = order
    if block.disabled:
        labels = [block.labels[i] for i in order]
        grades = [float(block.grades[i]) for i in order] if block.grades else None
        st.markdown(table_markdown(table_of(t, labels, grades)))
        return
    sortable_list(
        order_items(block, order),
        key=f"cr_rank_{activity_id}",
        k=block.k,
        top=int(max([4.0, *(float(g) for g in block.grades)])),
        texts=t.group("sortable"),
        on_action=lambda: on_order_action(activity_id, block),
        readonly=True,
        show_grades=bool(block.grades),
    )


def on_order_action(activity_id: int, block: Order) -> None:
    """A move on the student's list (drag, buttons or keys), kept in this session until sent."""
    cs = classroom_state()
    action = widget_value(f"cr_rank_{activity_id}").get("action")
    if action is None:
        return
    try:
        moved, _ = apply_action(order_items(block, current_order(cs, activity_id, block)), action, top=4)
    except InputError:
        return  # a malformed action from the browser changes nothing
    cs.orders[activity_id] = [it.id - 1 for it in moved]


Input = NumberBox | Choice | Order


def typed_values(cs: ClassroomState, card: PhoneCard) -> list[tuple[Input, Any]]:
    """Each answer input of the card with what it holds now (typed or chosen, not necessarily sent)."""
    values: list[tuple[Input, Any]] = []
    for block in card.body.blocks:
        if isinstance(block, Order):
            values.append((block, current_order(cs, card.activity or 0, block)))
        elif isinstance(block, (NumberBox, Choice)):
            value = widget_value(answer_key(card.activity, block.part))
            values.append((block, value.strip() if isinstance(value, str) else value))
    return values


def send_typed(lang: str, code: str, card: PhoneCard) -> None:
    """Send what the card's inputs hold; the message says saved or what is wrong, in this student's language."""
    cs = classroom_state()
    values = tuple((block.part, value) for block, value in typed_values(cs, card))
    outcome = runtime().answer(code, cs.student or "", Submission(card.activity or 0, values))
    cs.messages[f"answer-{card.activity}"] = reply(Translator(lang), outcome).message


def unsent(cs: ClassroomState, card: PhoneCard, closed: str = "") -> str | None:
    """The card's sentence for answers typed or chosen but not sent, filled in (``closed``: why answers closed),
    or ``None``."""
    changed = [(b, v) for b, v in typed_values(cs, card) if not same_as_saved(b, v)]
    if not changed or not card.body.unsent:
        return None
    block, value = changed[0]
    if isinstance(block, Choice):
        value = dict(block.options).get(value, value)
    numbers = ", ".join(str(b.part + 1) for b, _ in changed)
    return card.body.unsent.format(value=md_escape(str(value)[:20]), numbers=numbers, closed=closed)


def same_as_saved(block: Input, value: Any) -> bool:
    if isinstance(block, Order):
        return list(value) == list(block.saved or range(len(block.labels)))
    if isinstance(block, NumberBox):
        if block.saved is None:
            return value in (None, "")
        try:
            return float(value) == float(block.saved)
        except (TypeError, ValueError):
            return False
    return bool(value == block.saved)


def status_line(t: Translator, cs: ClassroomState, card: PhoneCard) -> None:
    """One status line at a time under the answer: while open, the last send's message (saved, or what was
    wrong), else "you can change it" once something is saved; once locked (or the time is up), what was typed but
    not sent, else that answers are locked."""
    if card.activity is None:
        return
    place = f"answer-{card.activity}"
    if card.phase != "open" or card.time_up:
        cs.messages.pop(place, None)  # "saved, you can change it" and an old error are no longer true
        closed = t("classroom.closed.time_up" if card.time_up else "classroom.closed.locked")
        text = unsent(cs, card, closed) if card.phase != "revealed" else None
        if text:  # one sentence: why answers closed, and what was not sent
            st.warning(text)
        elif card.time_up:
            st.warning(t("classroom.time_up_student"))
        elif card.phase == "locked":
            st.info(t("classroom.locked_student"))
    elif cs.messages.get(place):
        show_message(cs, place, ok=cs.messages[place].endswith(t("classroom.saved")))  # after a "read as" note
    elif card.answered:
        st.caption(t("classroom.change_until_locked"))
