"""Exports of the Playground: the breakdown as CSV, a chart as PNG or SVG, and the worked calculation
as Markdown with LaTeX for a handout. No Streamlit here, so the files are unit-tested."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pandas as pd

from ndcg_core.lists.items import Scores
from ndcg_core.lists.spec import ListSpec


def breakdown_csv(frame: pd.DataFrame) -> bytes:
    """The breakdown table as UTF-8 CSV (every column ``ndcg_core.breakdown`` returns)."""
    return frame.to_csv(index=False).encode("utf-8")


def chart_png(spec: dict, scale: float = 2.0) -> bytes:
    """A Vega-Lite spec drawn as PNG by vl-convert (Altair's own exporter)."""
    import vl_convert as vlc

    return vlc.vegalite_to_png(_fixed_width(spec), scale=scale)


def chart_svg(spec: dict) -> str:
    import vl_convert as vlc

    return vlc.vegalite_to_svg(_fixed_width(spec))


def _fixed_width(spec: dict) -> dict:
    # "container" width has no meaning outside a page; a file gets a fixed width.
    return {**spec, "width": 600} if spec.get("width") == "container" else spec


def _latex(expression: str) -> str:
    """A term as written by ndcg_core ("3 / log2(2)", "2^3 - 1", "log_3(4)") in LaTeX."""
    out = re.sub(r"log2\(", "log_2(", expression)
    return re.sub(r"log_([0-9.]+)\(", r"\\log_{\1}(", out)


def _fraction(term: str) -> str:
    """ "3 / log2(2) = 3.000" -> \\frac{3}{\\log_2(2)}; "3 x 1 = 3.000" -> 3 \\cdot 1."""
    left = term.split(" = ")[0]
    if " / " in left:
        num, den = left.split(" / ", 1)
        return rf"\frac{{{_latex(num)}}}{{{_latex(den)}}}"
    return _latex(left.replace(" x ", r" \cdot "))


def worked_markdown(frame: pd.DataFrame, shown: ListSpec, scores: Scores, text: Callable[..., str]) -> str:
    """The calculation of NDCG@k for this list, step by step, as Markdown with LaTeX formulas."""
    k = scores.k
    top = frame[frame["in_top_k"]]
    ideal = frame[frame["in_top_k"] & frame["ideal_grade"].notna()]
    lines = [
        f"# {text('export.md.title', k=k)}",
        "",
        text(
            "export.md.list",
            grades=", ".join(f"{g:g}" for g in frame["grade"]),
            items=", ".join(_md(x) for x in frame["item"]),
        ),
        "",
        text(
            "export.md.settings",
            gain=shown.scoring.gain_function().name,
            discount=shown.scoring.discount_function().name,
            ideal=text(f"playground.ideal.{shown.scoring.ideal}"),
        ),
        "",
        f"| {text('table.position')} | {text('table.item')} | {text('table.grade')} | {text('table.term')} "
        f"| {text('table.cumulative_dcg')} |",
        "|---:|---|---:|---|---:|",
    ]
    for row in frame.itertuples():
        mark = "" if row.in_top_k else " *"
        lines.append(
            f"| {row.position}{mark} | {_md(row.item)} | {row.grade:g} | {row.term} | {row.cumulative_dcg:.4f} |"
        )
    if not frame["in_top_k"].all():
        lines += ["", text("export.md.beyond", k=k)]
    dcg_terms = " + ".join(_fraction(t) for t in top["term"]) or "0"
    idcg_terms = " + ".join(_ideal_term(r, shown) for r in ideal.itertuples()) or "0"
    lines += [
        "",
        f"$$\\mathrm{{DCG@{k}}} = {dcg_terms} = {scores.dcg:.4f}$$",
        "",
        text("export.md.ideal", grades=", ".join(f"{g:g}" for g in ideal["ideal_grade"])),
        "",
        f"$$\\mathrm{{IDCG@{k}}} = {idcg_terms} = {scores.idcg:.4f}$$",
        "",
        (
            f"$$\\mathrm{{NDCG@{k}}} = \\frac{{{scores.dcg:.4f}}}{{{scores.idcg:.4f}}} = {scores.ndcg:.4f}$$"
            if scores.idcg > 0
            else text("export.md.zero", k=k)
        ),
        "",
        text("export.md.footer"),
        "",
    ]
    return "\n".join(lines)


def _ideal_term(row: Any, shown: ListSpec) -> str:
    """One IDCG term, from a row of the ideal frame's ``itertuples()`` (a named tuple of its columns)."""
    gain, discount = shown.scoring.gain_function(), shown.scoring.discount_function()
    numerator = _latex(gain.formula(row.ideal_grade))
    factor = _latex(discount.formula(int(row.position)))
    return rf"\frac{{{numerator}}}{{{factor}}}" if discount.divides else rf"{numerator} \cdot {factor}"


def _md(text: str) -> str:
    """A label as plain Markdown text: characters Markdown or HTML would act on are escaped."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>&])", r"\\\1", str(text))
