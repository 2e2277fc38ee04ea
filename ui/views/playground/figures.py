"""The Playground's figures: the headline with what the last change did, the charts, the swap map, the
breakdown table and the downloads.

Each part draws the list it is given (a ``ListSpec``) from ``ui.live``'s shared results of ``ndcg_core``;
nothing here changes the stored list (the swap map's pick goes to the callback it is given).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from html import escape

import numpy as np
import pandas as pd
import streamlit as st

from ndcg_core.lists.changes import ChangeExplained, ItemMove, TermChange
from ndcg_core.lists.discounts import DISCOUNTS
from ndcg_core.lists.gains import GAINS
from ndcg_core.lists.guess import Guess, GuessVerdict
from ndcg_core.lists.items import Scores, ndcg_for_every_k, score
from ndcg_core.lists.spec import ListSpec
from ui import charts, export, live
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.state import Change, app_state, bind, playground_state
from ui.widgets import as_json
from ui.widgets.figure_charts import KINDS as FIGURE_KINDS
from ui.widgets.figure_charts import show_figure_charts
from ui.widgets.formula import MAX_TERMS, show_formula
from ui.widgets.swap_map import best_swap, show_swap_map
from ui.widgets.table import COLUMNS as TABLE_COLUMNS
from ui.widgets.table import show_table

SWAP_MAP_KEY = "pg_swap_map"


def scores_before() -> Scores | None:
    """The scores of the list before the last change, under its own settings then (``None``: no change)."""
    last = playground_state().last
    if not last or not last.before.items:
        return None
    before = last.before
    return live.scores(before.items, before.scoring, before.extra)


def headline(shown: ListSpec) -> tuple[Scores, str | None]:
    """The scores now, and the change in NDCG the last edit caused (text, or None)."""
    now = live.scores(shown.items, shown.scoring, shown.extra)
    before = scores_before()
    delta = f"{now.ndcg - before.ndcg:+.4f}" if before else None
    return now, delta


# The settings a change can name: fields of the list's scoring, and its top grade.
SETTING_CHANGES = ("k", "gain", "discount", "base", "ideal", "top")


def setting_text(t: Translator, name: str, of: ListSpec) -> str:
    """The value of the setting ``name`` of a list, as the sidebar shows it."""
    scoring = of.scoring
    if name == "gain":
        return t.entry("gain", GAINS[scoring.gain], "label")
    if name == "discount":
        return t.entry("discount", DISCOUNTS[scoring.discount], "label")
    if name == "ideal":
        return t(f"playground.ideal.{scoring.ideal}")
    return f"{of.top if name == 'top' else getattr(scoring, name):g}"


def change_text(t: Translator, change: Change, shown: ListSpec) -> str:
    """The last change in words: what changed, and from what to what (``shown``: the list now)."""
    if change.kind in SETTING_CHANGES:
        old, new = setting_text(t, change.kind, change.before), setting_text(t, change.kind, shown)
        return t(f"playground.change.setting.{change.kind}", old=old, new=new)
    return t(f"playground.change.{change.kind}", **change.values)


def why_text(t: Translator, now: Scores) -> str | None:
    """Why NDCG moved when the ideal moved: NDCG = DCG / IDCG, with both before and after (``None`` when the
    ideal's DCG stayed as shown)."""
    before = scores_before()
    if before is None:
        return None
    old, new = metric_text(before.idcg), metric_text(now.idcg)
    if old == new:
        return None
    dcg_old, dcg_new = metric_text(before.dcg), metric_text(now.dcg)
    dcg = (
        t("playground.why.dcg_same", dcg=dcg_new)
        if dcg_old == dcg_new
        else t("playground.why.dcg_moved", old=dcg_old, new=dcg_new)
    )
    ideal = t(f"playground.why.ideal_{'rose' if now.idcg > before.idcg else 'fell'}", old=old, new=new)
    return t("playground.why", ideal=ideal, dcg=dcg)


def dcg_and_idcg_html(t: Translator, now: Scores) -> str:
    """DCG@k and IDCG@k side by side, drawn as the headline's metrics are (``ui.page``'s ``.pg-dcg-idcg`` rules, a
    projector's sizes in presenter view): one element where two metrics in a row were three. Only the catalogue's
    labels and ndcg_core's numbers go in, escaped all the same."""
    figures = "".join(
        f'<div class="pg-dcg-idcg-item"><span class="pg-dcg-idcg-label">{escape(label)}</span>'
        f'<span class="pg-dcg-idcg-value">{escape(metric_text(value))}</span></div>'
        for label, value in ((t("playground.dcg_at", k=now.k), now.dcg), (t("playground.idcg_at", k=now.k), now.idcg))
    )
    return f'<div class="pg-dcg-idcg">{figures}</div>'


def render_headline(t: Translator, shown: ListSpec) -> None:
    """NDCG@k with the change the last edit caused, and DCG@k and IDCG@k beside it."""
    now, delta = headline(shown)
    last = playground_state().last
    # NDCG on a row of its own, so it keeps a projector's type size beside the list; DCG and IDCG below it.
    st.metric(t("playground.ndcg_at", k=now.k), metric_text(now.ndcg), delta=delta)
    st.html(dcg_and_idcg_html(t, now))
    revealed = playground_state().revealed
    if last and revealed and revealed.change is last:
        render_verdict(t, revealed.verdict, shown.k)
    if last:
        change, why = change_text(t, last, shown), why_text(t, now)
        after = {"delta": delta or "+0.0000", "change": change}
        said = t("playground.after_why", **after, why=why) if why else t("playground.after", **after)
        render_explained(t, said, last.before, shown)
    if now.idcg == 0:
        st.info(t("playground.zero_idcg"))


def guess_words(t: Translator, guess: Guess, *, truth: bool = False) -> str:
    """A guess (or the truth, ``truth``) in words: "up, a little (under 0.05)", "stays the same"."""
    side = "truth" if truth else "guess"
    if guess.direction == "same":
        return t(f"playground.predict.{side}.same")
    way, size = t(f"playground.predict.way.{guess.direction}"), t(f"playground.predict.size.{guess.size}")
    return t(f"playground.predict.{side}.move", way=way, size=size)


def verdict_text(t: Translator, verdict: GuessVerdict, k: int) -> str:
    """The guess beside the truth and, for a wrong guess, the mistake behind it where one fits."""
    values = {
        "guess": guess_words(t, verdict.guess),
        "truth": guess_words(t, verdict.truth, truth=True),
        "change": f"{verdict.change:+.4f}",
        "k": k,
    }
    text = t("playground.predict.right" if verdict.right else "playground.predict.wrong", **values)
    if verdict.mistake:
        text += " " + t(f"guess.mistake.{verdict.mistake}", k=k)
    return text


def render_verdict(t: Translator, verdict: GuessVerdict, k: int) -> None:
    """Predict first's reveal, under the headline: the guess beside the truth."""
    if verdict.right:
        st.success(verdict_text(t, verdict, k), icon=":material/check_circle:")
    else:
        st.warning(verdict_text(t, verdict, k), icon=":material/lightbulb:")


MAX_ITEMS_EXPLAINED = 6  # a move of the top item shifts every item below it: the rest are summed in one line


def _side(term: TermChange | None, after: bool) -> dict[str, str]:
    """The gain and discount factor at an item's place on one side, as the explanation writes them."""
    if term is None:
        return {}
    gain, factor = (term.gain_after, term.discount_after) if after else (term.gain_before, term.discount_before)
    key = "new" if after else "old"
    return {f"gain_{key}": f"{gain:g}", f"disc_{key}": metric_text(factor or 0.0)}


def item_line(t: Translator, move: ItemMove, explained: ChangeExplained, cuts: tuple[int, int] | None = None) -> str:
    """One item's term before and after, with its place, gain and discount on each side; ``cuts`` (k before and
    after) tells a place past a cut (its term 0 there) from one inside it."""
    by_position = {term.position: term for term in explained.terms}
    old = by_position.get(move.position_before) if move.position_before else None
    new = by_position.get(move.position_after) if move.position_after else None
    values = {
        "label": md_escape(move.item.label),
        "src": str(move.position_before or ""),
        "dst": str(move.position_after or ""),
        "old": metric_text(move.before),
        "new": metric_text(move.after),
        "change": f"{move.change:+.4f}",
        **_side(old, after=False),
        **_side(new, after=True),
    }
    k_before, k_after = cuts or (len(explained.terms), len(explained.terms))
    if move.position_after is None or move.position_after > k_after:
        kind = "out"
    elif move.position_before is None or move.position_before > k_before:
        kind = "in"
    else:
        kind = "stayed" if move.position_before == move.position_after else "moved"
    return t(f"playground.explained.{kind}", **values)


def explanation_lines(t: Translator, explained: ChangeExplained, k: int, k_before: int | None = None) -> list[str]:
    """The last change, term by term: each item whose term changed, then DCG and IDCG before and after and, when
    the ideal moved, NDCG's change split into the list's share and the ideal's (``k_before``: k before the
    change, when it was another)."""
    moves = explained.items_moved()
    cuts = (k if k_before is None else k_before, k)
    lines = [item_line(t, move, explained, cuts) for move in moves[:MAX_ITEMS_EXPLAINED]]
    rest = moves[MAX_ITEMS_EXPLAINED:]
    if rest:
        lines.append(t("playground.explained.more", count=len(rest), change=f"{sum(m.change for m in rest):+.4f}"))
    if not moves:
        lines.append(t("playground.explained.none", k=k))
    (dcg_old, dcg_new), (idcg_old, idcg_new) = explained.dcg, explained.idcg
    values = {"k": k, "old": metric_text(dcg_old), "new": metric_text(dcg_new), "ndcg": f"{explained.change:+.4f}"}
    if explained.ideal_moved:
        line = t(
            "playground.explained.ideal",
            **values,
            idcg_old=metric_text(idcg_old),
            idcg_new=metric_text(idcg_new),
            from_list=f"{explained.from_list:+.4f}",
            from_ideal=f"{explained.from_ideal:+.4f}",
        )
    else:
        line = t("playground.explained.same", **values, change=f"{dcg_new - dcg_old:+.4f}", idcg=metric_text(idcg_new))
    lines.append(line)
    return lines


def last_change(shown: ListSpec) -> tuple[ListSpec, ListSpec] | None:
    """The list before the last change and the list now (``None``: no change to show, or nothing before it)."""
    last = playground_state().last
    return (last.before, shown) if last and last.before.items else None


def render_explained(t: Translator, said: str, before: ListSpec, shown: ListSpec) -> None:
    """Under the headline, where the eye is after a change, in one element (a move redraws every element): the
    change and what it did to NDCG (``said``), then why NDCG moved from ``before``, term by term
    (``explain_change``)."""
    text = small_print(said)
    if before.items:
        text += "\n\n" + _explanation_text(t.lang, before, shown)
    st.markdown(text)


@lru_cache(maxsize=live.CHANGE_ENTRIES)
def _explanation_text(lang: str, before: ListSpec, shown: ListSpec) -> str:
    """``explanation_lines`` in small print, once per change and language (shared by sessions, as ``ui.live``)."""
    lines = explanation_lines(Translator(lang), live.explained(before, shown), shown.k, before.k)
    return "  \n".join(small_print(line) for line in lines)


def small_print(text: str) -> str:
    """Markdown for text set like a caption (small, grey), to share an element with what it explains."""
    return f":small[:gray[{text}]]"


def chart_texts(t: Translator, k: int) -> dict[str, str]:
    """The figure charts' texts in ``t``'s language: the chart words (``chart.*``), and each chart's title and how to
    read it (``playground.chart.<kind>``, ``playground.chart.<kind>_alt``)."""
    texts = dict(t.group("chart"))
    for kind in FIGURE_KINDS:
        texts[f"title.{kind}"] = t(f"playground.chart.{kind}")
        texts[f"reading.{kind}"] = t(f"playground.chart.{kind}_alt", k=k)
    return texts


def render_figure_charts(t: Translator, shown: ListSpec) -> None:
    """Beside the list, under the headline and the formula: the order beside the ideal one, each position's gain,
    discount and DCG contribution, NDCG at every k, and the running sums of DCG against the ideal, each under its
    title and how to read it (the chart's text alternative too). One element (``ui.widgets.figure_charts``) for the
    four: a move redraws every element here."""
    data = live.figures(
        shown.items,
        shown.scoring,
        shown.extra,
        top=shown.top,
        texts=chart_texts(t, shown.k),
        presenter=app_state().presenter,
        change=last_change(shown),
    )
    show_figure_charts(data, key="pg_figures")


def swap_reading(t: Translator, shown: ListSpec, changes: np.ndarray) -> str:
    """What the swap map shows, in words: the best swap and what it gains, or that none gains (labels as typed: the
    component sets its texts as text)."""
    listed, best = shown.items, best_swap(changes)
    if best is None:
        return t("playground.swap.alt_none", n=len(listed), k=shown.k)
    a, b = listed[best[0]].label, listed[best[1]].label
    return t("playground.swap.alt", n=len(listed), best=f"{changes[best]:+.4f}", a=a, b=b)


def render_swap_map(t: Translator, shown: ListSpec, on_pick: Callable[[], None]) -> None:
    """The change in NDCG@k for every swap of two items, with its title, introduction, reading and a passage on
    what it shows, in one element (``ui.widgets.swap_map``); a click, tap or Enter on a cell calls ``on_pick``,
    which swaps them."""
    changes = live.swap_changes(shown.items, shown.scoring, shown.extra)
    texts = {
        "title": t("playground.swap.title"),
        "intro": t("playground.swap.intro", k=shown.k),
        "reading": swap_reading(t, shown, changes),
        "explain": t("playground.swap.explain"),
        "item": t("chart.swap_item"),
        "with": t("chart.swap_with"),
        "change": t("chart.swap_change"),
    }
    data = live.swap_map(shown.items, shown.scoring, shown.extra, texts=texts, presenter=app_state().presenter)
    show_swap_map(data, key=SWAP_MAP_KEY, on_swap=on_pick)


def render_breakdown(t: Translator, shown: ListSpec) -> None:
    """Every term written out; positions after k greyed."""
    data = live.table(
        shown.items,
        shown.scoring,
        shown.extra,
        headers={c: t(f"table.{c}") for c in TABLE_COLUMNS},
        caption=t("playground.table"),
        beyond=t("playground.beyond_k"),
        large=app_state().presenter,
        change=last_change(shown),
    )
    show_table(data, key="pg_breakdown")


def formula_data(t: Translator, shown: ListSpec, explained: ChangeExplained | None) -> dict:
    """The formula's texts: DCG@k as the sum of this list's terms (each with its old value where the last change
    changed it), each position's own formula (gain, discount, term; its term before the change), NDCG = DCG / IDCG.
    Every figure is ``ndcg_core``'s (the breakdown, ``explain_change``, the scores)."""
    frame = live.breakdown(shown.items, shown.scoring, shown.extra)
    now = live.scores(shown.items, shown.scoring, shown.extra)
    k, discount = shown.k, shown.scoring.discount_function()
    was = {term.position: term for term in explained.changed_terms} if explained else {}
    columns = ("position", "item", "grade", "gain", "discount", "contribution")
    terms: list[dict[str, object]] = []
    details: list[str] = []
    for position, label, grade, gain, factor, term in zip(*(frame[c].tolist() for c in columns), strict=True):
        if position > k:
            details.append(t("playground.formula.past", position=position, label=label, k=k))
            continue
        op = "/" if discount.divides else "×"
        part = f"{gain:g} {op} {discount.formula(position)} = {gain:g} × {metric_text(factor)} = {metric_text(term)}"
        detail = t("playground.formula.term", position=position, label=label, grade=f"{grade:g}", gain=f"{gain:g}")
        old = was.get(position)
        if old is not None:
            before = old.item_before.label if old.item_before else ""
            key = "playground.formula.was" if old.item_before else "playground.formula.was_empty"
            part += " " + t(key, was=metric_text(old.before), label=before)
        details.append(f"{detail} {part}")
        if len(terms) < MAX_TERMS:
            terms.append(
                {
                    "position": position,
                    "text": metric_text(term),
                    "was": metric_text(old.before) if old is not None else "",
                    "changed": old is not None,
                    "detail": details[-1],
                }
            )
    shown_terms = min(k, len(frame))
    values = {"k": k, "dcg": metric_text(now.dcg), "idcg": metric_text(now.idcg), "ndcg": metric_text(now.ndcg)}
    return {
        "lhs": t("playground.formula.lhs", k=k),
        "terms": terms,
        "more": t("playground.formula.more", count=shown_terms - len(terms)) if shown_terms > len(terms) else "",
        "total": metric_text(now.dcg),
        "details": details,
        "idle": t("playground.formula.idle"),
        "ratio": t("playground.formula.ratio" if now.idcg > 0 else "playground.formula.ratio_zero", **values),
    }


def render_formula(t: Translator, shown: ListSpec) -> None:
    """Under the headline: the formula with this list's numbers, linked to every view (``ui.widgets.formula``)."""
    show_formula(_formula_json(t.lang, shown, last_change(shown)), key="pg_formula")


@lru_cache(maxsize=live.CHANGE_ENTRIES)
def _formula_json(lang: str, shown: ListSpec, change: tuple[ListSpec, ListSpec] | None) -> str:
    """``formula_data`` as the JSON text the formula parses, once per change and language (shared by sessions, as
    ``ui.live``: a move's figures are worked out once)."""
    explained = live.explained(*change) if change else None
    return as_json(formula_data(Translator(lang), shown, explained))


def render_export(t: Translator, frame: pd.DataFrame, shown: ListSpec) -> None:
    """Downloads: the breakdown as CSV, the worked calculation as Markdown, each chart as PNG or SVG.

    Charts are drawn to files only when a button is pressed (a callable), so the page stays fast.
    """
    st.toggle(t("export.title"), **bind(playground_state(), "export_open"))
    if not playground_state().export_open:
        return
    # Each file is made only when its button is pressed (a callable), so a rerun pays little for exports.
    current = list(shown.items)
    a, b = st.columns(2)
    a.download_button(
        t("export.csv"),
        lambda: export.breakdown_csv(frame),
        file_name="ndcg_breakdown.csv",
        mime="text/csv",
        key="btn_export_csv",
        width="stretch",
    )
    b.download_button(
        t("export.markdown"),
        lambda: export.worked_markdown(frame, shown, score(current, shown.scoring, shown.extra), t).encode("utf-8"),
        file_name="ndcg_worked.md",
        mime="text/markdown",
        key="btn_export_md",
        width="stretch",
    )
    c, d, e = st.columns([3, 1, 2], vertical_alignment="bottom")
    kind = c.selectbox(
        t("export.chart"), CHART_KINDS, format_func=lambda k: t(f"playground.chart.{k}"), key="_w_pg_export_chart"
    )
    fmt = d.radio(t("export.format"), ("png", "svg"), format_func=str.upper, horizontal=True, key="_w_pg_export_fmt")
    top, texts, k = shown.top, t.group("chart"), shown.k

    def image() -> bytes | str:
        every = ndcg_for_every_k(current, shown.scoring, shown.extra) if kind == "every_k" else ()
        chart = charts.chart_spec(kind, frame, top=top, k=k, every_k=every, texts=texts)
        return export.chart_png(chart) if fmt == "png" else export.chart_svg(chart)

    e.download_button(
        t("export.image", format=fmt.upper()),
        image,
        file_name=f"ndcg_{kind}.{fmt}",
        mime="image/png" if fmt == "png" else "image/svg+xml",
        key="btn_export_image",
        width="stretch",
    )


CHART_KINDS = ("contribution", "cumulative", "order", "every_k")
