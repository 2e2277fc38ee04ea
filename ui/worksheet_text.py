"""How Learn's worksheet and predictions read: a cell's name, what the check of a typed cell says, the mistake
behind a wrong guess. Pure: no Streamlit, every number from ``ndcg_core``."""

from __future__ import annotations

from ndcg_core.errors import InputError
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.mistakes import explain
from ndcg_core.teaching.worksheet import Cell, CellCheck
from ui.format import md_escape
from ui.i18n import Translator
from ui.mistake_text import code_label, figures_text, mistake_label


def number(value: float) -> str:
    """A cell's number as the learner is asked for it: a whole number as it is, else to two decimals."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.2f}"


def cell_name(t: Translator, cell: Cell) -> str:
    """The cell's name (``Position 3's term``, ``DCG@5``)."""
    return t(f"learn.sheet.name.{cell.kind}", position=cell.position or "")


def cell_text(t: Translator, check: CellCheck) -> tuple[bool, str]:
    """What the check of a typed cell says (is it good news, the text): right; carried from the learner's own wrong
    cells (named); a slip located in this cell, with the right number; or that and the catalogue's mistake."""
    if check.ok:
        return True, t("learn.sheet.right")
    if check.verdict == "carried":
        cells = t("learn.sheet.and").join(cell_name(t, c) for c in check.carried)
        return False, t("learn.sheet.carried", cells=cells)
    located = t(
        "learn.sheet.slip", cell=cell_name(t, check.cell), right=number(check.right), typed=md_escape(check.text)
    )
    if check.verdict == "slip":
        return False, located
    named = [
        t("mistakes.named", label=mistake_label(d, t), text=_did(t, d.parts, figures_text(d, check.text)))
        for d in check.mistakes
    ]
    return False, t("mistakes.both", first=located, second=" ".join(named))


def _did(t: Translator, codes: tuple[str, ...], fields: dict[str, str]) -> str:
    texts = [t(f"mistake.{code}.did", **fields) for code in codes]
    return texts[0] if len(texts) == 1 else t("mistakes.both", first=texts[0], second=texts[1])


def guess_mistake_text(t: Translator, code: str, after: ListSpec) -> str:
    """A wrong guess's mistake: its name and what it does (its figures from the list after the change)."""
    try:
        fields = figures_text(explain(after, code, metric="ndcg"))
    except InputError:  # a mistake that shows only before the change says nothing of k there
        fields = {}
    did = t(f"mistake.{code}.did", **fields) if fields else t(f"mistake.{code}.label")
    return t("learn.predict.mistake", label=code_label(code, t), did=did)
