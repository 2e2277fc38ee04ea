"""Learn and Practice name the mistake a wrong number matches (issue 34), in both languages: the mistake's own
words and the learner's number rebuilt; a right answer names none; a number no mistake explains says so and shows
the working; the same mistake twice in a row is pointed out; a reveal never shows the wrong number under another
label. Each mistake's number is written here from its definition, as a formula (never from ``mistakes.py``)."""

from math import log, log2, log10

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core.teaching.exercises import exercise
from support import ROOT, plain, seed_state
from ui.i18n import Translator

LANGS = ["en", "zh"]
FIVE = [3, 2, 3, 0, 1]  # Learn's list


def open_page(page, **state):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(f"pages/{page}.py")
    seed_state(at, **state)
    return at.run()


def feedback(at):
    return plain(" ".join(x.value for x in (*at.success, *at.error)))


def words(code, lang):
    """The mistake's label and what the learner did, as the page words them (its fields left out)."""
    t = Translator(lang)
    did = t(f"mistake.{code}.did").split("{")[0]
    return t(f"mistake.{code}.label"), did


def unexplained(lang):
    return plain(Translator(lang)("mistakes.unexplained", answer="X")).split("X")[0]


def again(lang):
    return Translator(lang)("mistakes.again")


def again_named(lang, label):
    """ "The same mistake as your last answer." and the mistake's name after it, run on as the language does."""
    t = Translator(lang)
    return t("mistakes.both", first=again(lang), second=t("mistakes.named", label=label, text="").strip())


def dcg_of(grades, gain=lambda g: g, discount=lambda i: 1 / log2(i + 1)):
    return sum(gain(g) * discount(i) for i, g in enumerate(grades, start=1))


# --- Practice: set 2026 --------------------------------------------------------------------------------------------

# 0: one DCG term, grades 1, 3, 3, 2, 0 at position 3. 1: DCG@5 of 1, 3, 3, 0, 0. 2: NDCG@3 of 0, 3, 2, 0.
# 8: DCG@5 of 3, 1, 0, 2, 0 with J&K's discount (b = 2). 22: DCG@4 of 0, 1, 3, 3, 2 with the gain 2^grade - 1.
# 23: NDCG@4 of 2, 1, 3, 1, a missed 3 in the ideal. 30: NDCG@3 of 2, 0, 1, a missed 1 left out of the ideal.
# 37: NDCG@3 of 0, 3, 1, 1.
JK = lambda i: 1.0 if i <= 2 else 1 / log2(i)  # noqa: E731
EXP = lambda g: 2**g - 1  # noqa: E731
PRACTICE_MISTAKES = [
    (0, "log_natural", 3 / log(4)),
    (0, "discount_shifted", 3 / log2(5)),
    (0, "log10", 3 / log10(4)),
    (1, "gain_exponential", sum((2**g - 1) / log2(i + 2) for i, g in enumerate([1, 3, 3, 0, 0]))),
    (1, "no_discount", float(sum([1, 3, 3, 0, 0]))),
    (2, "no_normalisation", dcg_of([0, 3, 2])),
    (37, "no_normalisation+list_not_cut", sum(g / log2(i + 2) for i, g in enumerate([0, 3, 1, 1]))),
    (2, "discount_log_i", dcg_of([0, 3, 2], discount=JK) / dcg_of([3, 2, 0], discount=JK)),
    (8, "discount_log_i_plus_1", sum(g / log2(i + 2) for i, g in enumerate([3, 1, 0, 2, 0]))),
    (22, "gain_linear", sum(g / log2(i + 2) for i, g in enumerate([0, 1, 3, 3]))),
    (23, "ideal_from_list", dcg_of([2, 1, 3, 1]) / dcg_of([3, 2, 1, 1])),
    (30, "ideal_from_pool", dcg_of([2, 0, 1]) / dcg_of([2, 1, 1])),
]


def practice(number, **state):
    return open_page("6_Practice", pr_seed=2026, pr_number=number, **state)


def give(at, number, value):
    at.text_input(key=f"_w_pr_answer_2026_{number}").input(value)
    return at.button(key="btn_pr_check").click().run()


def test_the_exercises_above_are_set_2026s():
    shown = {n: exercise(2026, n) for n in (0, 1, 2, 8, 22, 23, 30, 37)}
    assert shown[37].data == {"grades": [0, 3, 1, 1], "k": 3}
    assert shown[0].data == {"grades": [1, 3, 3, 2, 0], "position": 3}
    assert shown[2].data == {"grades": [0, 3, 2, 0], "k": 3}
    assert (shown[8].data["grades"], shown[8].data["variant"]) == ([3, 1, 0, 2, 0], "jk")
    assert (shown[22].data["grades"], shown[22].data["k"]) == ([0, 1, 3, 3, 2], 4)
    assert shown[22].data["variant"] == "exponential"
    assert (shown[23].data["missed"], shown[23].data["variant"], shown[30].data["missed"]) == ([3], "pool", [1])
    assert shown[30].data["variant"] == "list"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("number", "code", "number_"), PRACTICE_MISTAKES, ids=[f"{m[0]}-{m[1]}" for m in PRACTICE_MISTAKES]
)
def test_practice_names_the_mistake_a_wrong_number_matches_and_after_it_the_right_number_names_none(
    number, code, number_, lang
):
    at = give(practice(number, lang=lang), number, f"{number_:.4f}")
    text = feedback(at)
    assert not at.exception
    for part in code.split("+"):
        label, did = words(part, lang)
        assert label in text and did in text, (part, text)
    assert f"{number_:.4f}" in text  # the learner's own number, rebuilt
    assert unexplained(lang) not in text and again(lang) not in text
    assert at.metric[0].value == "0 / 1"
    # The right number next, on the same page: no mistake named, neither the last one nor a new one.
    text = feedback(give(at, number, f"{exercise(2026, number).answer:.4f}"))
    assert Translator(lang)("practice.right", why="").strip() in text
    assert unexplained(lang) not in text and again(lang) not in text and "**" not in text


def test_practice_shows_the_missed_results_and_the_variant_with_the_question():
    at = practice(23)
    question = plain(" ".join(m.value for m in at.markdown))
    assert "missed judged results graded **3**" in question and "every judged result" in question
    assert "2^grade − 1" in plain(" ".join(m.value for m in practice(22).markdown))
    assert "Järvelin" in plain(" ".join(m.value for m in practice(8).markdown))
    assert "only" in plain(" ".join(m.value for m in practice(30).markdown))


@pytest.mark.parametrize("lang", LANGS)
def test_different_mistakes_never_get_the_same_words(lang):
    texts = [give(practice(0, lang=lang), 0, f"{n:.4f}") for n in (3 / log(4), 3 / log2(5))]
    first, second = (feedback(at) for at in texts)
    assert first != second
    assert words("log_natural", lang)[1] in first + second and words("discount_shifted", lang)[1] in first + second


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("number", [0, 1, 2, 23])
def test_a_number_no_mistake_explains_says_so_and_shows_the_working(number, lang):
    ex = exercise(2026, number)
    wrong = f"{ex.answer + 0.3:.4f}"
    text = feedback(give(practice(number, lang=lang), number, wrong))
    assert unexplained(lang) in text and f"{ex.answer:.4f}" in text  # the working, with the right answer
    t = Translator(lang)
    assert t("practice.wrong", why="").strip() in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_same_mistake_twice_in_a_row_is_pointed_out(lang):
    at = give(practice(0, lang=lang), 0, f"{3 / log(4):.4f}")  # ln in the discount
    assert again(lang) not in feedback(at)
    at.button(key="btn_pr_next").click().run()
    for _ in range(6):  # on to exercise 7, the next DCG term: grades 1, 0, 0, 0, 3 at position 5
        at.button(key="btn_pr_next").click().run()
    at = give(at, 7, f"{3 / log(6):.4f}")
    text = feedback(at)
    label, _ = words("log_natural", lang)
    assert again_named(lang, label) in text
    at = give(at, 7, f"{3 / log2(7):.4f}")  # another mistake now: log2(i + 2)
    assert again(lang) not in feedback(at)


# --- Learn ---------------------------------------------------------------------------------------------------------


def learn(step, **state):
    return open_page("3_Learn", learn_step=step, **state)


def answer(at, step, value):
    at.text_input(key=f"_w_learn_answer_{step}").input(value)
    return at.button(key=f"btn_learn_check_{step}").click().run()


IDEAL = sorted(FIVE, reverse=True)
LEARN_MISTAKES = [
    (3, "log_natural", 1 / log(4)),
    (3, "discount_shifted", 1 / log2(5)),
    (4, "list_not_cut", sum(g / log2(i + 2) for i, g in enumerate(FIVE[:5]))),
    (4, "gain_exponential", sum((2**g - 1) / log2(i + 2) for i, g in enumerate(FIVE[:3]))),
    (5, "ideal_ascending", sum(g / log2(i + 2) for i, g in enumerate(sorted(FIVE)))),
    (5, "log10", sum(g / log10(i + 2) for i, g in enumerate(IDEAL))),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("step", "code", "number"), LEARN_MISTAKES, ids=[f"{m[0]}-{m[1]}" for m in LEARN_MISTAKES])
def test_learn_names_the_mistake_a_wrong_number_matches(step, code, number, lang):
    at = answer(learn(step, lang=lang), step, f"{number:.4f}")
    text = feedback(at)
    label, did = words(code, lang)
    assert label in text and did in text and f"{number:.4f}" in text, text
    assert unexplained(lang) not in text
    # A reveal never shows the learner's wrong number as a figure under another label.
    assert all(m.value != f"{number:.4f}" for m in at.metric), [(m.label, m.value) for m in at.metric]


def test_learn_step_3_rebuilds_the_number_as_a_discount_factor():
    text = feedback(answer(learn(3), 3, f"{1 / log(4):.4f}"))
    assert "the discount factor at position 3 is 0.5000" in text


def test_learn_step_4_after_the_dcg_of_every_row_shows_dcg_at_3_not_that_number_as_dcg_at_5():
    every_row = sum(g / log2(i + 2) for i, g in enumerate(FIVE))
    at = answer(learn(4), 4, f"{every_row:.4f}")
    assert [(m.label, m.value) for m in at.metric] == [("DCG@3", f"{3 + 2 / log2(3) + 3 / 2:.4f}")]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("step", "right"), [(3, 0.5), (4, 3 + 2 / log2(3) + 3 / 2), (5, dcg_of(IDEAL))])
def test_learn_a_right_number_names_no_mistake_and_a_stray_one_shows_the_working(step, right, lang):
    text = feedback(answer(learn(step, lang=lang), step, f"{right:.4f}"))
    assert Translator(lang)("learn.right", why="").strip() in text and unexplained(lang) not in text
    text = feedback(answer(learn(step, lang=lang), step, f"{right + 0.37:.4f}"))
    assert unexplained(lang) in text and f"{right:.4f}" in text


@pytest.mark.parametrize("lang", LANGS)
def test_learn_points_out_the_same_mistake_twice_in_a_row(lang):
    wrong = f"{sum(g / log2(i + 2) for i, g in enumerate(FIVE)):.4f}"  # the list not cut at 3
    at = answer(learn(4, lang=lang), 4, wrong)
    assert again(lang) not in feedback(at)
    at = answer(at, 4, wrong)
    assert again_named(lang, words("list_not_cut", lang)[0]) in feedback(at)
    at = answer(at, 4, f"{3 + 2 / log2(3) + 3 / 2:.4f}")
    assert again(lang) not in feedback(at)


def test_learn_asks_for_the_ideal_dcg_once():
    at = learn(5)
    assert "IDCG@5" in " ".join(m.value for m in at.markdown) and not any(m.label == "IDCG@5" for m in at.metric)
