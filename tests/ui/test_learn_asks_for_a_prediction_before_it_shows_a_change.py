"""Learn's steps 7 and 8 ask which way NDCG@5 of the running example (3, 2, 3, 0, 1) goes, and roughly how far,
before they show a change (doc D to the top; the cut at k = 3); the reveal puts the guess beside the truth, the
change term by term, and names the mistake behind a wrong direction. Expected numbers are written from the
formula."""

from math import log2

import pytest
from streamlit.testing.v1 import AppTest

from support import ROOT, plain, seed_state
from ui.i18n import Translator


def dcg(grades):
    return sum(g / log2(i + 2) for i, g in enumerate(grades))


NDCG5 = dcg([3, 2, 3, 0, 1]) / dcg([3, 3, 2, 1, 0])
MOVED = dcg([0, 3, 2, 3, 1]) / dcg([3, 3, 2, 1, 0])
NDCG3 = dcg([3, 2, 3]) / dcg([3, 3, 2])


def open_step(step, lang="en"):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/3_Learn.py")
    seed_state(at, lang=lang, learn_step=step)
    return at.run()


def guess(at, step, direction, band=None):
    at.radio(key=f"_w_learn_guess_direction_{step}").set_value(direction)
    if band is not None:
        at.radio(key=f"_w_learn_guess_band_{step}").set_value(band)
    return at.button(key=f"btn_learn_predict_{step}").click().run()


def shown(at):
    parts = [x.value for x in (*at.markdown, *at.success, *at.error, *at.warning, *at.caption)]
    for table in at.table:
        parts += [str(v) for v in table.value.to_numpy().ravel()]
    return plain(" ".join(parts))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_move_is_shown_only_after_the_guess_and_no_change_is_named_as_no_discount(lang):
    at = open_step(7, lang)
    assert len(at.table) == 1 and f"{MOVED:.4f}" not in shown(at)  # the list before; nothing after yet
    at = guess(at, 7, "same")
    text = shown(at)
    assert len(at.table) == 3  # before, after, and the guess beside the truth
    assert f"{NDCG5:.4f} → {MOVED:.4f} ({MOVED - NDCG5:+.4f})" in text
    t = Translator(lang)
    assert t("mistake.no_discount.label") in text and t("learn.predict.verdict.wrong") in text
    assert 7 in at.session_state["learn"].done


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cut_at_3_raises_ndcg_a_little_and_a_guess_of_down_meets_dcg_for_ndcg(lang):
    assert 0 < NDCG3 - NDCG5 < 0.01
    at = guess(open_step(8, lang), 8, "down", "small")
    text = shown(at)
    t = Translator(lang)
    assert f"{NDCG5:.4f} → {NDCG3:.4f} ({NDCG3 - NDCG5:+.4f})" in text
    assert t("mistake.no_normalisation.label") in text and t("mistake.ideal_not_cut.label") in text
    right = guess(open_step(8, lang), 8, "up", "tiny")
    assert t("learn.predict.verdict.right") in shown(right) and not right.warning


def test_a_guess_without_a_direction_is_asked_for_and_nothing_is_revealed():
    at = open_step(7)
    at.button(key="btn_learn_predict_7").click().run()
    assert "choose an answer first" in shown(at).lower() and len(at.table) == 1
    assert 7 not in at.session_state["learn"].done


def test_the_guess_shown_is_the_one_revealed_not_a_later_change_of_mind():
    at = guess(open_step(7), 7, "down", "large")
    assert Translator("en")("learn.predict.verdict.right") in shown(at)
    at.radio(key="_w_learn_guess_direction_7").set_value("up").run()
    assert Translator("en")("learn.predict.verdict.right") in shown(at)
