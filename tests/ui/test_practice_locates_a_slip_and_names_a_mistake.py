"""Practice reads a wrong number as Learn's worksheet does (issue 47): a slip typed (the right working with one value
written wrong) is located with the learner's own working, the wrong step named with its right value and the one
written, and no concept named; a concept mistake typed still gets its mistake named. In English and Chinese, through
Streamlit's AppTest on the Practice page.

Set 2026's exercise 1 asks for DCG@5 of 1, 3, 3, 0, 0: the terms 1/log2(2), 3/log2(3), 3/log2(4), 0, 0 written to
2 decimals are 1.00, 1.89, 1.50, 0.00, 0.00, DCG@5 = 4.39. Position 2's 1.89 written 1.86 gives 4.36; the gain
2^grade - 1 forgotten for the linear one (the exercise is linear) gives (1 + 7/log2(3) + 7/2) = 8.92."""

from math import log2

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core.teaching.exercises import exercise
from support import ROOT, plain, seed_state
from ui.i18n import Translator

LANGS = ["en", "zh"]
NUMBER = 1
TERMS = [1 / log2(2), 3 / log2(3), 3 / log2(4), 0.0, 0.0]
SLIPPED = f"{TERMS[1]:.2f}"[:-1] + "6"  # position 2's term with its last digit slipped: 1.86
ANSWER = f"{sum(round(x, 2) for x in TERMS) - round(TERMS[1], 2) + float(SLIPPED):.2f}"  # 4.36
EXPONENTIAL = f"{(2**1 - 1) + (2**3 - 1) / log2(3) + (2**3 - 1) / log2(4):.2f}"


def practice(lang):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/6_Practice.py")
    seed_state(at, pr_seed=2026, pr_number=NUMBER, lang=lang)
    return at.run()


def answer(lang, value):
    at = practice(lang)
    at.text_input(key=f"_w_pr_answer_2026_{NUMBER}").input(value)
    at = at.button(key="btn_pr_check").click().run()
    assert not at.exception
    return plain(" ".join(x.value for x in (*at.success, *at.error)))


def labels(lang):
    """Every concept mistake's name, as the page words it."""
    from ndcg_core.teaching.mistakes import mistakes

    t = Translator(lang)
    return {t(f"mistake.{part}.label") for m in mistakes() for part in (m.parts or (m.code,))}


def test_the_exercise_and_the_numbers_are_as_written_above():
    ex = exercise(2026, NUMBER)
    assert ex.kind == "dcg" and ex.data == {"grades": [1, 3, 3, 0, 0], "k": 5}
    assert ex.answer == pytest.approx(sum(TERMS))
    assert (SLIPPED, ANSWER, f"{sum(TERMS):.2f}", EXPONENTIAL) == ("1.86", "4.36", "4.39", "8.92")


@pytest.mark.parametrize("lang", LANGS)
def test_a_slip_is_located_in_the_learner_s_working_and_no_concept_is_named(lang):
    t = Translator(lang)
    text = answer(lang, ANSWER)
    assert t("mistakes.slip_head", text="").strip() in text, text
    # "position 2's term is 1.89; your 4.36 comes from 1.86": the wrong step, its right value and the one written
    assert plain(t("mistakes.slip_where.term", position=2)).strip() in text
    assert f"{TERMS[1]:.2f} " in text and SLIPPED in text and ANSWER in text
    assert t("mistakes.working_head") in text and f"= {sum(TERMS):.2f}" in text  # the working, step by step
    assert not [label for label in labels(lang) if label in text]  # no concept named
    assert t("mistakes.unexplained", answer=ANSWER).split(ANSWER)[0] not in text
    assert "mistakes." not in text and "{" not in text  # no raw text key, no field left unfilled


@pytest.mark.parametrize("lang", LANGS)
def test_a_concept_mistake_is_still_named(lang):
    t = Translator(lang)
    text = answer(lang, EXPONENTIAL)
    assert t("mistake.gain_exponential.label") in text and EXPONENTIAL in text
    assert t("mistakes.slip_head", text="").strip() not in text
    assert "mistakes." not in text and "{" not in text
