"""A named mistake reads in both languages from its own keys: every registry code has a label, what the learner
did and the fix, in English and Chinese; no raw key and no unfilled field is ever shown."""

import re
from math import log, log2

import pytest

from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.mistakes import METRICS, MISTAKES, PAIRS, diagnose, explain, mistakes
from ui.i18n import LANGUAGES, Translator, catalogue
from ui.mistake_text import PARTS, mistake_label, mistake_text

LISTS = [
    ListSpec.from_grades(list("abcde"), [3, 2, 3, 0, 1], 3, pool=[3, 2]),
    ListSpec.from_grades(list("abcde"), [3, 2, 3, 0, 1], 3, pool=[3, 2]).with_scoring(ideal="list"),
    ListSpec.from_grades(list("abcde"), [4, 1, 3, 4, 0], 3, scoring=Scoring(gain="exponential", discount="jk")),
]
CHINESE = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("code", MISTAKES.names())
def test_every_mistake_has_every_key_in_both_languages(code, lang):
    for part in PARTS:
        text = catalogue(lang).get(f"mistake.{code}.{part}")
        assert text, (code, part)
        assert lang == "en" or CHINESE.search(text), text


def explained():
    """Every mistake on every question where it shows in the lists above."""
    for listed in LISTS:
        for mistake in mistakes():
            for metric in METRICS:
                if mistake.shows(listed, metric):
                    yield explain(listed, mistake.code, metric=metric, position=2 if metric == "term" else None)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_mistake_reads_without_a_raw_key_or_field_on_every_question(lang):
    t = Translator(lang)
    seen = set()
    for d in explained():
        seen.add(d.code)
        for text in (mistake_label(d, t), mistake_text(d, t)):
            assert "{" not in text and "mistake." not in text and "mistakes." not in text, text
            assert lang == "en" or CHINESE.search(text), text
    assert seen >= set(MISTAKES.names())
    assert {f"{a}+{b}" for a, b, _ in PAIRS} - seen <= {"no_normalisation+gain_exponential"}


def test_the_learners_number_is_rebuilt_beside_the_right_working():
    listed = ListSpec.from_grades(list("abcde"), [3, 2, 3, 0, 1], 3)
    (d,) = diagnose(listed, "6.15")  # NDCG@3 asked; the DCG of all five positions given
    en = mistake_text(d, Translator("en"))
    assert "all 5 positions" in en and "Your 6.15 is the DCG itself (6.15)" in en
    assert "NDCG@3 is DCG@3 / IDCG@3 = 5.76 / 5.89 = 0.98" in en and en.endswith("Add up positions 1 to 3 only.")
    assert mistake_label(d, Translator("en")) == "DCG given for NDCG + List not cut at k"
    zh = mistake_text(d, Translator("zh"))
    assert "你的 6.15 就是 DCG 本身（6.15）" in zh and "全部 5 个位置" in zh


def test_a_possible_mistake_says_perhaps_and_figures_keep_the_answers_decimals():
    listed = ListSpec.from_grades(list("abcde"), [3, 2, 3, 0, 1], 3)
    first, second = diagnose(listed, "0.91")
    assert mistake_text(first, Translator("en")).startswith("Perhaps: You summed the ideal's DCG over all 5 grades")
    assert "Your 0.91 is 5.76 / 6.32 = 0.91" in mistake_text(first, Translator("en"))
    assert mistake_text(second, Translator("zh")).startswith("可能是：")
    (exact,) = diagnose(listed, "0.9112")
    assert "Your 0.9112 is 5.7619 / 6.3235 = 0.9112" in mistake_text(exact, Translator("en"))


@pytest.mark.parametrize(
    "metric, answer, rebuilt",
    [
        # DCG@3 of 3, 2, 3, 0, 1 summed over all five positions: 3/1 + 2/log2(3) + 3/2 + 0 + 1/log2(6).
        (
            "dcg",
            f"{3 + 2 / log2(3) + 3 / 2 + 1 / log2(6):.4f}",
            "3/log2(2) + 2/log2(3) + 3/log2(4) + 0/log2(5) + 1/log2(6)",
        ),
        # Natural logs in the discount.
        ("dcg", f"{3 / log(2) + 2 / log(3) + 3 / log(4):.2f}", "3/ln(2) + 2/ln(3) + 3/ln(4)"),
        # The ideal's DCG@3 with 2^grade - 1 as the gain: the ideal 3, 3, 2 gives 7/1 + 7/log2(3) + 3/2.
        ("idcg", f"{7 + 7 / log2(3) + 3 / 2:.4f}", "7/log2(2) + 7/log2(3) + 3/log2(4)"),
    ],
)
def test_a_mistakes_number_is_rebuilt_from_its_own_terms(metric, answer, rebuilt):
    spec = ListSpec.from_grades(list("abcde"), [3, 2, 3, 0, 1], 3)
    found = diagnose(spec, answer, metric=metric)
    assert found
    assert f"{rebuilt} = {answer}" in mistake_text(found[0], Translator("en"))
    assert f"{rebuilt} = {answer}" in mistake_text(found[0], Translator("zh"))
