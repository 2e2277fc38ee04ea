"""How a named mistake reads: what the learner did, their number rebuilt beside the right working, the one fix.

``ndcg_core.teaching.mistakes`` gives a ``Diagnosis`` (a code and its figures); this words it in a language
from the keys ``mistake.<code>.label``, ``.did`` and ``.fix`` and the frames under ``mistakes.``. Pure: no
Streamlit, every number from the diagnosis.
"""

from __future__ import annotations

from collections.abc import Sequence

from ndcg_core.errors import number_text
from ndcg_core.teaching.mistakes import Diagnosis
from ndcg_core.teaching.reading import Reading
from ndcg_core.teaching.slips import KINDS as SLIP_KINDS
from ndcg_core.teaching.slips import Line, Slip, Worked, places_for
from ui.format import paragraphs
from ui.i18n import Translator

PARTS = ("label", "did", "fix")  # the keys every mistake has, in both languages
COUNTS = ("k", "n", "m", "base", "position")  # figures written as whole numbers where they are


def figures_text(d: Diagnosis, answer: str | None = None) -> dict[str, str]:
    """The diagnosis's figures as they are written: counts the short way, numbers to the answer's own decimals
    (2 to 4); the answer as the learner typed it (``answer``; else the diagnosis's to its decimals, or their
    mistake's number where there is none)."""
    places = min(max(d.decimals, 2), 4)
    out = {}
    for name, value in d.figures.items():
        if value is None:
            out[name] = ""
        elif name in COUNTS:
            out[name] = number_text(value)
        else:
            out[name] = f"{value:.{places}f}"
    number = d.figures.get("answer")
    if answer is not None:
        out["answer"] = answer
    else:
        out["answer"] = out["yours"] if number is None else f"{number:.{d.decimals}f}"
    out["terms"] = " + ".join(f"{number_text(x.gain)}{'/' if x.divides else '×'}{x.discount}" for x in d.terms)
    return out


def mistake_label(d: Diagnosis, t: Translator) -> str:
    """The mistake's short name (two at once joined)."""
    return _part(d, "label", t, {}, "mistakes.both_label")


def code_label(code: str, t: Translator) -> str:
    """A mistake's short name from its code (``first+second``: the two joined), as ``mistake_label`` words it."""
    names = [t(f"mistake.{part}.label") for part in code.split("+")]
    return names[0] if len(names) == 1 else t("mistakes.both_label", first=names[0], second=names[1])


GROUPS = ("right", "close", "other")  # the groups of a class's answers that are not mistakes


def group_label(code: str, t: Translator) -> str:
    """A group of a class's answers by name: right, close (within 0.05), other, or the mistake's."""
    return t(f"classroom.group.{code}") if code in GROUPS else code_label(code, t)


def mistake_text(d: Diagnosis, t: Translator, frame: str | None = None, answer: str | None = None) -> str:
    """The whole explanation in ``t``'s language: what the learner did, their number (``answer``, as typed) rebuilt
    beside the right working, and the step that fixes it; "Perhaps" first when the answer fits other mistakes too.
    ``frame`` names the rebuilt sentence where the question is not the diagnosis's own (``factor``: a discount
    factor, asked as the term of a grade of 1)."""
    fields = figures_text(d, answer)
    frame = frame or (d.metric if d.metric != "ndcg" or d.normalised else "ndcg_undivided")
    text = t(
        "mistakes.sentence",
        did=_part(d, "did", t, fields, "mistakes.both"),
        rebuilt=t(f"mistakes.rebuilt.{frame}", **fields),
        fix=_part(d, "fix", t, fields, "mistakes.both"),
    )
    return text if d.alone else t("mistakes.possible", text=text)


def _part(d: Diagnosis, part: str, t: Translator, fields: dict[str, str], both: str) -> str:
    texts = [t(f"mistake.{code}.{part}", **fields) if fields else t(f"mistake.{code}.{part}") for code in d.parts]
    if len(texts) == 1:
        return texts[0]
    return t(both, first=texts[0], second=texts[1])


def parts_of(found: Sequence[Diagnosis]) -> tuple[str, ...]:
    """The registry codes of every mistake named for one answer (a pair counts as its two)."""
    return tuple(dict.fromkeys(code for d in found for code in d.parts))


def answer_feedback(
    found: Sequence[Diagnosis],
    t: Translator,
    *,
    answer: str,
    working: str,
    again: Sequence[str] = (),
    frame: str | None = None,
) -> str:
    """What a wrong number gets: each mistake it matches by name, with the learner's number (``answer``, as they
    typed it) rebuilt and the fix, one paragraph per mistake; or, when none does, that no known mistake explains
    ``answer``, then the ``working``. A mistake of the answer before (``again``: registry codes) is pointed out
    first. ``frame`` as for ``mistake_text``."""
    if not found:
        return _then(t, [t("mistakes.unexplained", answer=answer), working])
    named = [t("mistakes.named", label=mistake_label(d, t), text=mistake_text(d, t, frame, answer)) for d in found]
    if again:
        named[0] = _then(t, [t("mistakes.again"), named[0]])
    return paragraphs(named)


def _then(t: Translator, sentences: Sequence[str]) -> str:
    """Sentences one after the other as the language runs them on (a space in English, none after a Chinese
    full stop or colon)."""
    text = sentences[0]
    for sentence in sentences[1:]:
        text = t("mistakes.both", first=text, second=sentence)
    return text


def working_text(work: Worked, t: Translator, places: int = 2) -> str:
    """The right working with every value a learner writes, to ``places`` decimals, one step a line (Markdown):
    each term (gain / log), DCG@k and IDCG@k as their terms added up, then NDCG@k; for a term question, its gain
    over its log."""

    def n(x: float) -> str:
        return f"{x:.{places}f}"

    def summed(lines: Sequence[Line]) -> dict[str, str]:
        return {
            "formula": " + ".join(f"{number_text(x.gain)}/{x.log_formula}" for x in lines) or "0",
            "terms": " + ".join(n(x.term) for x in lines) or "0",
        }

    if work.metric == "term":
        x = work.lines[0]
        return t(
            "mistakes.working.term",
            position=x.position,
            gain=number_text(x.gain),
            log=x.log_formula,
            log_value=n(x.log),
            value=n(x.term),
        )
    steps = []
    if work.metric in ("ndcg", "dcg"):
        steps.append(t("mistakes.working.dcg", k=work.k, value=n(work.dcg), **summed(work.lines)))
    if work.metric in ("ndcg", "idcg"):
        steps.append(t("mistakes.working.idcg", k=work.k, value=n(work.idcg), **summed(work.ideal)))
    if work.metric == "ndcg":
        steps.append(t("mistakes.working.ndcg", k=work.k, dcg=n(work.dcg), idcg=n(work.idcg), value=n(work.value)))
    return "\n".join(f"- {step}" for step in steps)


SLIP_TEXTS = (*SLIP_KINDS, "digit_answer", "swap_answer")  # a digit or two slipped in the answer itself


def slip_text(slip: Slip, t: Translator, answer: str, k: int) -> str:
    """Where the slip is, in ``t``'s language: the step's right value and the one that gives ``answer``."""
    where = t(f"mistakes.slip_where.{slip.step}", position=slip.position or "", k=k)
    key = f"{slip.kind}_answer" if slip.step == "answer" and slip.kind in ("digit", "swap") else slip.kind
    return t(
        f"mistakes.slip.{key}",
        where=where,
        right=f"{slip.right:.{slip.places}f}" if slip.kind != "rounded" else f"{slip.right:.4f}",
        written=f"{slip.written:.{slip.places}f}",
        places=slip.places,
        answer=answer,
        rounded=f"{slip.right:.{slip.places}f}",
    )


def reading_feedback(
    reading: Reading,
    t: Translator,
    *,
    answer: str,
    working: str,
    again: Sequence[str] = (),
    frame: str | None = None,
) -> str:
    """What a wrong number gets, from its ``Reading``: a catalogued mistake by name (``answer_feedback``); a slip
    located, then the right working step by step, to find it in; or that no known mistake gives it, then the
    ``working`` sentence and the working step by step."""
    steps = working_text(reading.worked, t, places_for(reading.decimals))
    if reading.verdict == "mistake":
        return answer_feedback(reading.mistakes, t, answer=answer, working=working, again=again, frame=frame)
    if reading.slip is not None:
        located = t("mistakes.slip_head", text=slip_text(reading.slip, t, answer, reading.worked.k))
        return paragraphs([located, t("mistakes.working_head"), steps])
    return paragraphs([_then(t, [t("mistakes.unexplained", answer=answer), working]), steps])
