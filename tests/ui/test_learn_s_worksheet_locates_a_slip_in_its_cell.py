"""Learn's step 6: the learner fills the whole NDCG@5 of the running example (3, 2, 3, 0, 1) cell by cell, and each
cell is checked where it is typed: a right cell says so, a slip is located in its cell with the right number, a
catalogued mistake is named; what was typed stays through reruns, other steps and a change of language; with
every cell right the next step opens. Expected numbers are written from the formula."""

from math import log, log2

import pytest
from streamlit.testing.v1 import AppTest

from support import ROOT, plain, seed_state
from ui.i18n import Translator

GRADES = [3, 2, 3, 0, 1]
IDEAL = [3, 3, 2, 1, 0]
DCG = sum(g / log2(i + 1) for i, g in enumerate(GRADES, start=1))
IDCG = sum(g / log2(i + 1) for i, g in enumerate(IDEAL, start=1))
SLIP = {"en": "Position 2's term is 1.26, not 1.62.", "zh": "第 2 位的项是 1.26，不是 1.62。"}


def open_step(step=6, lang="en", **state):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/3_Learn.py")
    seed_state(at, lang=lang, learn_step=step, **state)
    return at.run()


def cell(at, key):
    return at.text_input(key=f"_w_learn_cell_{key}")


def type_in(at, key, text):
    cell(at, key).input(text)
    return at.run()


def said(at):
    return plain(" ".join(c.value for c in at.caption))


def every_right_cell():
    out = {}
    for i, g in enumerate(GRADES, start=1):
        out |= {f"gain.{i}": f"{g}", f"discount.{i}": f"{1 / log2(i + 1):.2f}", f"term.{i}": f"{g / log2(i + 1):.2f}"}
    out |= {f"ideal.{i}": f"{g}" for i, g in enumerate(IDEAL, start=1)}
    return out | {"dcg": f"{DCG:.2f}", "idcg": f"{IDCG:.2f}", "ndcg": f"{DCG / IDCG:.2f}"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_right_cell_says_so_and_a_slip_is_located_in_its_own_cell(lang):
    at = type_in(open_step(lang=lang), "term.1", "3")
    assert Translator(lang)("learn.sheet.right") in said(at)
    at = type_in(at, "term.2", "1.62")  # 2/log2(3) = 1.26, two digits swapped
    assert f"{2 / log2(3):.2f}" == "1.26" and SLIP[lang] in said(at)
    assert not at.exception and not at.error


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_catalogued_mistake_is_named_in_its_cell(lang):
    at = type_in(open_step(lang=lang), "discount.3", f"{1 / log(4):.2f}")  # ln in place of log2
    t = Translator(lang)
    assert t("mistake.log_natural.label") in said(at)
    assert t("learn.sheet.slip", cell=t("learn.sheet.name.discount", position=3), right="0.50", typed="0.72") in said(
        at
    )


def test_a_term_from_the_learner_s_own_wrong_discount_points_back_to_it():
    at = type_in(open_step(), "gain.2", "2")
    at = type_in(at, "discount.2", "1.58")  # log2(3): the 1/ forgotten
    at = type_in(at, "term.2", "3.16")
    assert "This follows from what you typed in Position 2's discount" in said(at)


def test_what_was_typed_stays_through_another_step_and_a_change_of_language():
    at = type_in(open_step(learn_done=[1, 2, 3, 4, 5, 6]), "term.2", "1.62")
    at.button(key="btn_learn_next").click().run()
    assert at.session_state["learn"].step == 7
    at.button(key="btn_learn_back").click().run()
    assert cell(at, "term.2").value == "1.62" and SLIP["en"] in said(at)
    at.selectbox(key="_w_lang").set_value("zh").run()
    assert cell(at, "term.2").value == "1.62" and SLIP["zh"] in said(at)


def test_every_cell_right_opens_the_next_step_and_the_answers_can_be_shown_instead():
    at = open_step()
    assert at.button(key="btn_learn_next").disabled
    for key, text in every_right_cell().items():
        cell(at, key).input(text)
    at.run()
    assert 6 in at.session_state["learn"].done and not at.button(key="btn_learn_next").disabled
    assert "Every cell is right" in plain(" ".join(s.value for s in at.success))
    shown = open_step()
    shown.button(key="btn_learn_sheet_show").click().run()
    assert cell(shown, "ndcg").value == f"{DCG / IDCG:.2f}" and cell(shown, "term.2").value == f"{2 / log2(3):.2f}"
    assert not shown.button(key="btn_learn_next").disabled
