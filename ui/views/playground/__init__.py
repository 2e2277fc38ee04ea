"""The Playground's controller: callbacks that change the stored list, the sidebar, the list and its editor.

Every number drawn here comes from ``ndcg_core`` (``score``, ``list_breakdown``, ``ndcg_for_every_k``); this
package only reads state, calls the core and renders. What a move changes is worked out through ``ui.live``,
which keeps the core's results for lists and scorings seen before; the headline, charts, swap map, breakdown and
downloads are drawn by ``figures``.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pandas as pd
import streamlit as st

from ndcg_core.lists.discounts import DISCOUNTS
from ndcg_core.lists.gains import GAINS
from ndcg_core.lists.guess import DIRECTIONS, SIZES, judge_guess, read_guess
from ndcg_core.lists.items import MAX_ITEMS, Item, ideal_order, shuffled, swap, worst_order
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.spec import LIST_IDEALS, ListSpec
from ndcg_core.validate import MAX_TOP_GRADE
from ui import live, timing
from ui.editing import (
    GRADE,
    LABEL,
    apply_table_edits,
    grade_text,
    grades_from_text,
    table_rows,
)
from ui.errors import InputError
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.page import show_notice
from ui.state import (
    Change,
    Held,
    Removal,
    Revealed,
    app_state,
    bind,
    bind_scoring,
    new_link_value,
    page_url,
    playground_state,
    set_link_value,
    set_widget_value,
    widget_value,
)
from ui.widgets.short_link import share_box
from ui.widgets.sortable import apply_action, ordering, sortable_list

from .figures import (
    CHART_KINDS,
    SETTING_CHANGES,
    SWAP_MAP_KEY,
    change_text,
    headline,
    last_change,
    render_breakdown,
    render_export,
    render_figure_charts,
    render_formula,
    render_headline,
    render_swap_map,
)

__all__ = ["CHART_KINDS", "SETTING_CHANGES", "render_page"]

LIST_KEY = "pg_list"
SHARE_PARAM = "s"
GRADES_TEXT_KEY = "_w_pg_grades_text"


# --- reading state ---------------------------------------------------------------------------


def spec() -> ListSpec:
    """The list on screen and how it is scored."""
    return playground_state().spec


def items() -> list[Item]:
    return list(spec().items)


# --- changing state (callbacks run before the rerun, so the new list is drawn at once) ---------


def items_before() -> list[Item]:
    """The list before the last change (what Undo puts back after a removal); the list itself if none."""
    last = playground_state().last
    return list(last.before.items) if last else items()


def undo_remove() -> None:
    """Put back the item the learner removed last, where it was."""
    removed = playground_state().removed
    if removed:
        _set_items(list(removed.before), None)


# The changes predict first holds until the learner has guessed: reorders and regrades (a removal or a table's
# edit is made at once).
HELD_KINDS = ("move", "grade", "swap", "ideal_order", "worst_order", "shuffle")


def _set_items(new_items: list[Item], change: str | None, **values: str) -> None:
    """The list becomes ``new_items``; ``change`` is the kind of change (``playground.change.<change>``, filled
    with ``values``), or ``None`` for one the caption does not describe. With predict first on, a reorder or a
    regrade is held instead, until the learner has guessed what it does (``reveal``)."""
    state = playground_state()
    before = state.spec
    if state.predict and change in HELD_KINDS:
        state.held = Held(before.with_items(new_items), Change(change, before, values))
        state.guess_direction = state.guess_size = None
        state.error = None
        state.editor_version += 1  # the list is drawn again in its order before the held move
        return
    state.held = None
    state.removed = None  # Undo is offered only right after a removal
    state.spec = state.spec.with_items(new_items)
    state.error = None
    state.last = Change(change, before, values) if change else None
    state.editor_version += 1


def reveal() -> None:
    """Predict first: judge the guess against the held change, then make it (``ndcg_core.lists.guess``)."""
    state = playground_state()
    held = state.held
    if held is None:
        return
    t = Translator(app_state().lang)
    try:
        guess = read_guess(state.guess_direction, state.guess_size)
    except InputError as err:
        state.error = t.explain(err)
        return
    state.held = None
    state.removed = None
    state.spec = held.after
    state.last = held.change
    state.error = None
    state.editor_version += 1
    state.revealed = Revealed(held.change, judge_guess(guess, held.change.before, held.after))


def cancel_held() -> None:
    """Predict first: drop the held change; the list stays as it is."""
    playground_state().held = None
    playground_state().error = None


# The one-click orderings the list draws under itself (``reorder``), in the order of their buttons.
ORDER_KINDS = ("ideal", "worst", "shuffle", "reset")


def on_list_action() -> None:
    """A move, regrade, removal or one-click ordering reported by the sortable list."""
    action = widget_value(LIST_KEY).get("action")
    if action is None:
        return
    t = Translator(app_state().lang)
    try:
        kind = ordering(action, ORDER_KINDS)
        if kind is not None:
            reorder(kind)
            return
        new_items, moved = apply_action(items(), action, spec().top)
    except ValueError as err:
        playground_state().error = t.explain(err)
        return
    if moved is not None:
        label = md_escape(items()[moved[0]].label)
        _set_items(new_items, "move", label=label, src=str(moved[0] + 1), dst=str(moved[1] + 1))
    elif action.get("type") == "grade":
        old = next((grade_text(it.grade) for it in items() if it.id == action.get("id")), "?")
        _set_items(new_items, "grade", label=_label_of(action.get("id")), old=old, new=grade_text(action["grade"]))
    else:
        removed = next(it.label for it in items() if it.id == action.get("id"))
        _set_items(new_items, "remove", label=md_escape(removed))
        playground_state().removed = Removal(tuple(items_before()), removed)


def _label_of(item_id: Any) -> str:
    """An item's label, escaped for the Markdown caption it goes into."""
    return md_escape(next((it.label for it in items() if it.id == item_id), "?"))


def load_preset() -> None:
    """Load the preset chosen in the select box: list, extra judgments, k, top grade and ideal."""
    name = playground_state().preset_choice
    playground_state().restore(PRESETS.build(name).spec(), name)


def reorder(kind: str) -> None:
    """Ideal, worst, shuffled, or the preset's own order (reset), made from code."""
    gain = spec().scoring.gain_function()
    if kind == "ideal":
        new = ideal_order(items(), gain)
    elif kind == "worst":
        new = worst_order(items(), gain)
    elif kind == "shuffle":
        playground_state().shuffles += 1
        new = shuffled(items(), seed=playground_state().shuffles)
    else:
        playground_state().restore(playground_state().origin, playground_state().preset)
        return
    # "ideal" alone names the setting of where the ideal comes from (a change of the scoring's field).
    _set_items(new, f"{kind}_order" if kind in ("ideal", "worst") else kind)


def on_table_edit(editor_key: str) -> None:
    """Labels and grades typed into the table, or rows added and deleted."""
    t = Translator(app_state().lang)
    try:
        new = apply_table_edits(items(), widget_value(editor_key), spec().top)
    except ValueError as err:
        playground_state().error = t("playground.rejected", message=t.explain(err))
        playground_state().editor_version += 1
        return
    _set_items(new, "table")


def on_grades_typed() -> None:
    """Grades typed as text ("3, 2, 0") replace the list's grades in order; labels are kept or made up."""
    t = Translator(app_state().lang)
    try:
        new = grades_from_text(items(), widget_value(GRADES_TEXT_KEY), spec().top)
    except ValueError as err:
        playground_state().error = t("playground.rejected", message=t.explain(err))
        return
    _set_items(new, "typed")


def on_extra_edit(editor_key: str) -> None:
    """Judged items that were not retrieved, edited in the pool table."""
    t = Translator(app_state().lang)
    try:
        extra = apply_table_edits(list(spec().extra), widget_value(editor_key), spec().top, allow_empty=True)
    except ValueError as err:
        playground_state().error = t("playground.rejected", message=t.explain(err))
    else:
        taken = {it.id for it in items()}
        base = max(taken | {0}) + 1000  # ids of the pool never collide with the list's
        renumbered = [Item(it.id if it.id not in taken else base + i, it.label, it.grade) for i, it in enumerate(extra)]
        before = spec()
        playground_state().spec = replace(before, extra=tuple(renumbered))
        playground_state().last = Change("pool", before)
        playground_state().error = None
    playground_state().editor_version += 1


def on_top_change() -> None:
    """A new top grade, unless an item already has a higher grade."""
    t = Translator(app_state().lang)
    new_top = int(widget_value("_w_pg_top_input"))
    highest = max((it.grade for it in (*spec().items, *spec().extra)), default=0)
    if highest > new_top:
        playground_state().error = t("playground.top_too_low", top=new_top, grade=grade_text(highest))
        return
    before = spec()
    playground_state().spec = replace(before, top=new_top)
    playground_state().last = Change("top", before) if new_top != before.top else playground_state().last
    playground_state().error = None


def refuse(err: InputError) -> None:
    """A setting the list's checks refused: say why, above the list."""
    t = Translator(app_state().lang)
    playground_state().error = t("playground.rejected", message=t.explain(err))


# --- drawing -----------------------------------------------------------------------------------


def render_settings(t: Translator) -> None:
    """The sidebar: k, gain, discount, ideal, top grade."""
    n = len(items())
    state = playground_state()
    with st.sidebar:
        st.header(t("playground.settings"))
        if n > 1:
            st.slider(
                t("playground.k"),
                min_value=1,
                max_value=n,
                help=t("playground.k_help"),
                **bind_scoring(state, "k", refuse),
            )
        else:
            st.caption(t("playground.k_single"))
        gain_names = GAINS.names()
        st.selectbox(
            t("playground.gain"),
            gain_names,
            format_func=lambda name: t.entry("gain", GAINS[name], "label"),
            **bind_scoring(state, "gain", refuse),
        )
        st.caption(t.entry("gain", GAINS[state.spec.scoring.gain], "description"))
        if state.spec.scoring.gain == "custom":
            render_custom_gain(t)
        st.selectbox(
            t("playground.discount"),
            DISCOUNTS.names(),
            format_func=lambda name: t.entry("discount", DISCOUNTS[name], "label"),
            **bind_scoring(state, "discount", refuse),
        )
        st.caption(t.entry("discount", DISCOUNTS[state.spec.scoring.discount], "description"))
        if state.spec.scoring.takes_base:
            st.number_input(
                t("playground.jk_base"), min_value=1.1, max_value=20.0, step=1.0, **bind_scoring(state, "base", refuse)
            )
        st.radio(
            t("playground.ideal"),
            LIST_IDEALS,
            format_func=lambda name: t(f"playground.ideal.{name}"),
            **bind_scoring(state, "ideal", refuse),
        )
        set_widget_value("_w_pg_top_input", state.spec.top)
        st.number_input(
            t("playground.top"),
            min_value=1,
            max_value=MAX_TOP_GRADE,
            step=1,
            key="_w_pg_top_input",
            on_change=on_top_change,
        )


def render_custom_gain(t: Translator) -> None:
    """One number per grade: the gain that grade is worth."""
    top = spec().top
    mapping = dict(spec().scoring.gain_table)
    cols = st.columns(min(top + 1, 4))
    for g in range(top + 1):
        key = f"_w_pg_gain_{g}"
        set_widget_value(key, float(mapping.get(g, g)))
        cols[g % len(cols)].number_input(
            t("playground.gain_for", grade=g), step=1.0, key=key, on_change=_store_custom_gain, args=(g, key)
        )


def _store_custom_gain(grade: int, key: str) -> None:
    before = spec()
    try:
        playground_state().spec = before.with_gain_of(grade, float(widget_value(key)))
    except InputError as err:
        refuse(err)
        return
    old = dict(before.scoring.gain_table).get(grade, grade)
    new = dict(spec().scoring.gain_table)[grade]
    if new != old:
        playground_state().last = Change("gain_of", before, {"grade": str(grade), "old": f"{old:g}", "new": f"{new:g}"})


def render_presets(t: Translator) -> None:
    names = PRESETS.names()
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    left.selectbox(
        t("playground.preset"),
        names,
        format_func=lambda name: t.entry("preset", PRESETS[name], "label"),
        **bind(playground_state(), "preset_choice"),
    )
    right.button(t("playground.load"), on_click=load_preset, width="stretch", key="btn_load_preset")


def list_caption(t: Translator) -> str:
    """What the list on screen is: the example as loaded, an example changed since, or a list from elsewhere."""
    name = playground_state().preset
    origin = [(it.label, it.grade) for it in playground_state().origin.items]
    if name is None:
        return t("playground.list_from_elsewhere", n=len(items()))
    if [(it.label, it.grade) for it in items()] == origin:
        return t.entry("preset", PRESETS[name], "description")
    return t("playground.list_changed", label=t.entry("preset", PRESETS[name], "label"))


def render_list(t: Translator, shown: ListSpec, summary: dict[str, str]) -> None:
    """The sortable list (with the headline figure to keep in view on a phone, the NDCG each drop would give,
    and the one-click orderings under it, drawn by the list's component: one element where they were six)."""
    top, k = shown.top, shown.k
    presenter = app_state().presenter
    preview = live.preview(shown.items, shown.scoring, shown.extra, k)
    change = last_change(shown)
    changed = [move.item.id for move in live.explained(*change).items_moved()] if change else []
    sortable_list(
        items(),
        key=LIST_KEY,
        k=k,
        top=top,
        texts=t.group("sortable"),
        on_action=on_list_action,
        large=presenter,
        readonly=presenter,
        summary=summary,
        preview=preview,
        changed=changed,
        version=playground_state().editor_version,
        orders={kind: t(f"playground.order.{kind}") for kind in ORDER_KINDS},
    )
    removed = playground_state().removed
    if removed:
        st.button(
            t("playground.undo_remove", label=removed.label),
            on_click=undo_remove,
            key="btn_undo_remove",
            icon=":material/undo:",
            width="stretch",
        )


def render_predict(t: Translator) -> None:
    """The predict-first switch and, while a change is held, the guess asked before it is made."""
    state = playground_state()
    st.toggle(t("playground.predict"), help=t("playground.predict_help"), **bind(state, "predict", cancel_held))
    held = state.held
    if not state.predict or held is None:
        return
    with st.container(border=True, key="pg_predict"):
        k = held.after.k
        st.markdown(f"**{t('playground.predict.held', change=change_text(t, held.change, held.after), k=k)}**")
        st.radio(
            t("playground.predict.direction", k=k),
            DIRECTIONS,
            format_func=lambda way: t(f"playground.predict.direction.{way}"),
            horizontal=True,
            **bind(state, "guess_direction"),
        )
        st.radio(
            t("playground.predict.size"),
            SIZES,
            format_func=lambda size: t(f"playground.predict.size.{size}"),
            horizontal=True,
            disabled=state.guess_direction == "same",
            **bind(state, "guess_size"),
        )
        with st.container(horizontal=True, gap="small"):
            st.button(t("playground.predict.reveal"), on_click=reveal, type="primary", key="btn_reveal")
            st.button(t("playground.predict.cancel"), on_click=cancel_held, key="btn_cancel_held")


def render_error() -> None:
    if playground_state().error:
        st.error(playground_state().error, icon="⚠️")


# Seconds the rest of the live part waits after the headline of a change (see give_headline_a_head_start).
HEADLINE_HEAD_START = 0.05


def give_headline_a_head_start() -> None:
    """After a change, give the browser a moment to draw the new headline before the rest of the part follows.

    The browser draws what has arrived in one go: sent together, the new NDCG waited behind the list, four charts,
    the swap map and the table (``benchmarks/bench_instant.py``: 60-85 ms from its frame to the screen, and more
    under load); sent alone it is on screen in under 20. The rest arrives ``HEADLINE_HEAD_START`` later; the
    script's thread sleeps meanwhile, so the server's other sessions lose nothing.
    """
    state = playground_state()
    if state.editor_version != state.drawn_version:
        state.drawn_version = state.editor_version
        time.sleep(HEADLINE_HEAD_START)


def on_swap_pick() -> None:
    """A cell of the swap map clicked, tapped or entered: swap the two items (``ndcg_core.lists.items.swap``)."""
    picked = (widget_value(SWAP_MAP_KEY) or {}).get("swap")
    if not picked:
        return
    t = Translator(app_state().lang)
    try:
        i, j = picked["i"], picked["j"]  # from the browser: swap() checks they are indexes into the list
        now = items()
        new = swap(now, i, j)
    except (KeyError, TypeError, ValueError) as err:
        playground_state().error = t("playground.rejected", message=t.explain(err))
        return
    if i == j:
        return
    _set_items(new, "swap", a=md_escape(now[i].label), i=str(i + 1), b=md_escape(now[j].label), j=str(j + 1))


def render_editor(t: Translator) -> None:
    """Labels and grades as a table: edit, add and delete rows."""
    version = playground_state().editor_version
    if playground_state().error:
        playground_state().edit_open = True
    # A toggle rather than an expander: a closed editor is not drawn at all, so moves do not pay for it.
    st.toggle(t("playground.edit"), **bind(playground_state(), "edit_open"))
    if playground_state().edit_open:
        st.caption(t("playground.edit_help", top=spec().top, max=MAX_ITEMS))
        set_widget_value(GRADES_TEXT_KEY, ", ".join(grade_text(it.grade) for it in items()))
        st.text_input(
            t("playground.grades_text"),
            key=GRADES_TEXT_KEY,
            on_change=on_grades_typed,
            help=t("playground.grades_text_help", top=spec().top),
        )
        key = f"pg_editor_{version}"
        st.data_editor(
            pd.DataFrame(table_rows(items()), columns=[LABEL, GRADE]),
            key=key,
            num_rows="dynamic",
            hide_index=True,
            width="stretch",
            column_config={
                LABEL: st.column_config.TextColumn(t("playground.col.label"), required=True),
                GRADE: st.column_config.TextColumn(t("playground.col.grade", top=spec().top), required=True),
            },
            on_change=on_table_edit,
            args=(key,),
        )
    if spec().scoring.ideal == "pool":
        with st.expander(t("playground.pool"), expanded=True):
            st.caption(t("playground.pool_help"))
            pool_key = f"pg_pool_{version}"
            st.data_editor(
                pd.DataFrame(table_rows(list(spec().extra)), columns=[LABEL, GRADE]),
                key=pool_key,
                num_rows="dynamic",
                hide_index=True,
                width="stretch",
                column_config={
                    LABEL: st.column_config.TextColumn(t("playground.col.label")),
                    GRADE: st.column_config.TextColumn(t("playground.col.grade", top=spec().top)),
                },
                on_change=on_extra_edit,
                args=(pool_key,),
            )


def apply_link(t: Translator) -> None:
    """Restore the state a shared link holds (once per link); a bad link leaves a notice and the defaults."""
    param = new_link_value(SHARE_PARAM)
    if not param:
        return
    try:
        linked = ListSpec.from_link(param)
    except ValueError as err:
        app_state().notice = t("share.bad_link", message=t.explain(err))
        return
    playground_state().restore(linked, preset_of(list(linked.items)), keep_scoring=False)


def preset_of(new_items: list[Item]) -> str | None:
    """The example whose list this is (a link to an example names it too), or ``None``."""
    wanted = [(it.label, it.grade) for it in new_items]
    return next(
        (name for name in PRESETS.names() if [(it.label, it.grade) for it in PRESETS.build(name).items()] == wanted),
        None,
    )


def write_link(t: Translator) -> None:
    """Keep the address bar in step with the state, and offer the link to copy."""
    param = spec().to_link()
    set_link_value(SHARE_PARAM, param)
    set_link_value("lang", app_state().lang)
    params = {SHARE_PARAM: param, "lang": app_state().lang}
    share_box(t, "playground", params, page_url(params), title_key="share.title", help_key="share.help")


def render_page(t: Translator) -> None:
    """The whole Playground, top to bottom."""
    apply_link(t)
    show_notice()
    st.title(t("playground.title"))
    st.caption(t("playground.intro"))
    render_settings(t)
    render_presets(t)
    render_live(t.lang)


@st.fragment
def render_live(lang: str) -> None:
    """Everything a move changes. A move, a button or an edit inside reruns only this part, so a class's
    moves do not redraw the sidebar, the page links and the presets (a third of the server's work)."""
    timing.mark("start")
    t = Translator(lang)
    shown = spec()
    frame = live.breakdown(shown.items, shown.scoring, shown.extra)
    st.caption(list_caption(t))  # inside the live part: a move can make the example's description untrue
    left, right = st.columns([1, 1], gap="large")
    with right:
        # The headline is sent first, with a head start, so the new NDCG is on screen before the rest is redrawn.
        render_headline(t, shown)
    timing.mark("headline")
    give_headline_a_head_start()
    with left:
        render_predict(t)
        render_error()
        now, delta = headline(shown)
        render_list(
            t,
            shown,
            {"label": t("playground.ndcg_at", k=now.k), "value": metric_text(now.ndcg), "delta": delta or ""},
        )
        if not app_state().presenter:  # presenter view hides the editing chrome
            render_editor(t)
    with right:
        render_formula(t, shown)
        render_figure_charts(t, shown)  # beside the list, so a pointed row is marked on the charts in view
    render_swap_map(t, shown, on_swap_pick)
    render_breakdown(t, shown)
    render_export(t, frame, shown)
    write_link(t)
    timing.mark("end")
