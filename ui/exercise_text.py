"""How an exercise reads: its prompt, the words of its choices, and why its answer is right.

Practice and the Classroom's "Practice together" show the same exercises; both word them here. Every number
comes from ndcg_core at render time.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ndcg_core import DISCOUNTS, ndcg_at_k
from ndcg_core.teaching.exercises import Conventions, Exercise, conventions, form
from ui.i18n import Translator


def conventions_text(conv: Conventions, t: Translator) -> str:
    """The sentence that states what a question is scored under, in the reader's language: for NDCG the gain,
    the discount, k and where the ideal comes from; for DCG the gain, the discount and k; for MRR and
    precision what counts as relevant."""
    if conv.metric in ("mrr", "precision"):
        return t(f"conventions.{conv.metric}", k=conv.k)
    fields = {
        "gain": t(f"conventions.gain.{conv.gain}"),
        "discount": t(f"conventions.discount.{conv.discount}", base=f"{conv.base if conv.base is not None else 2:g}"),
        "k": conv.k,
    }
    if conv.metric == "ndcg":
        return t("conventions.ndcg", ideal=t(f"conventions.ideal.{conv.ideal}"), **fields)
    return t("conventions.dcg" if conv.k is not None else "conventions.dcg_term", **fields)


def choice_text(ex: Exercise, choice: str, t: Translator) -> str:
    """A choice as the learner saw it on its button."""
    return choice if ex.kind == "gap" else t(f"practice.choice.{choice}")


def explain(ex: Exercise, t: Translator) -> str:
    """Why the answer is right, in the learner's words and language; every number from ndcg_core."""
    d = ex.data
    if ex.kind == "swap":
        return explain_swap(ex, t)
    if ex.kind == "better_order":
        k = d["k"]
        return t(
            "practice.why.better_order",
            answer=choice_text(ex, ex.answer, t),
            k=k,
            a=f"{ndcg_at_k(d['a'], k):.4f}",
            b=f"{ndcg_at_k(d['b'], k):.4f}",
        )
    answer = ex.answer if isinstance(ex.answer, str) else f"{ex.answer:.4f}"
    if ex.kind == "gap":
        answer = f"{ex.answer} ({d['gaps'][ex.answer]:.3f})"
    return t(f"practice.why.{form(ex)}", answer=answer, **{k: v for k, v in d.items() if k in ("k", "position")})


def explain_swap(ex: Exercise, t: Translator) -> str:
    """Which gain moved to which discount factor, and what that did to NDCG@k."""
    d = ex.data
    grades, k, i, j = d["grades"], d["k"], d["i"], d["j"]
    swapped = list(grades)
    swapped[i - 1], swapped[j - 1] = swapped[j - 1], swapped[i - 1]
    factors = dict(zip((i, j), DISCOUNTS.build("log2")([i, j]), strict=False))

    def factor(position: int) -> str:
        return f"{factors[position]:.3f}" if position <= k else t("practice.past_k", k=k)

    gi, gj = grades[i - 1], grades[j - 1]
    if gi == gj:
        reason = t("practice.swap.equal")
    elif i > k:
        reason = t("practice.swap.past_k", k=k)
    else:
        reason = t("practice.swap.higher_up" if gj > gi else "practice.swap.higher_down", grade=max(gi, gj))
    return t(
        "practice.why.swap",
        answer=choice_text(ex, ex.answer, t),
        i=i,
        j=j,
        gi=gi,
        gj=gj,
        fi=factor(i),
        fj=factor(j),
        reason=reason,
        k=k,
        before=f"{ndcg_at_k(grades, k):.4f}",
        after=f"{ndcg_at_k(swapped, k):.4f}",
    )


def prompt(ex: Exercise, t: Translator) -> None:
    """The exercise's question, then the conventions its answer is checked under (gain, discount, k)."""
    question(ex, t)
    st.caption(conventions_text(conventions(ex), t))


def question_text(ex: Exercise, t: Translator) -> tuple[str, dict[str, list[str]] | None]:
    """The exercise's question as Markdown, and for a "gap" exercise its table of queries and their grades (column
    name -> cells); shared by the Practice page and the classroom's phones."""
    d = ex.data
    if ex.kind in ("dcg_term", "dcg", "ndcg", "swap", "reach"):
        text = t(
            f"practice.prompt.{form(ex)}",
            grades=", ".join(str(g) for g in d["grades"]),
            missed=", ".join(str(g) for g in d.get("missed", ())),
            **{k: v for k, v in d.items() if k in ("k", "position", "i", "j", "target")},
        )
        return text, None
    if ex.kind == "better_order":
        return t(
            "practice.prompt.better_order", a=", ".join(map(str, d["a"])), b=", ".join(map(str, d["b"])), k=d["k"]
        ), None
    table = {
        t("practice.query"): list(d["queries"]),
        t("practice.grades"): [", ".join(map(str, g)) for g in d["queries"].values()],
    }
    return t("practice.prompt.gap", k=d["k"]), table


def question(ex: Exercise, t: Translator) -> None:
    text, table = question_text(ex, t)
    st.markdown(text)
    if table is not None:
        st.dataframe(pd.DataFrame(table), hide_index=True)
