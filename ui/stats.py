"""How the Evaluate page reads a p-value aloud: the catalogue key of a plain-language reading (the tests themselves
are ``ndcg_core.trec.compare``'s)."""

from __future__ import annotations


def reading_key(p_value: float) -> str:
    """The catalogue key of a plain-language reading of a p-value."""
    if p_value < 0.01:
        return "evaluate.reading.strong"
    if p_value < 0.05:
        return "evaluate.reading.moderate"
    if p_value < 0.1:
        return "evaluate.reading.weak"
    return "evaluate.reading.none"
