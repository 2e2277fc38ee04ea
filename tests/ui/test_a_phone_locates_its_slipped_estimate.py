"""At a Predict's reveal, a phone whose estimate is a slip (the right working with one number written wrong) says
where the slip is, the step's right value and the one that gives the estimate, in the phone's language, and names no
concept; a mistake of the catalogue is still named (issue 47). Through the phone's card, as the phone draws it.

The seeds' list 3, 2, 3, 0, 1 at k = 3: DCG@3 = 3 + 2/log2(3) + 3/2, IDCG@3 = 3 + 3/log2(3) + 2/2. The estimate 0.90
is position 3's term 1.50 written 1.05 (two digits swapped): (3 + 2/log2(3) + 1.05) / IDCG@3, more than 0.05 from
the truth, so neither right nor close."""

from math import log2

import pytest

from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.storage import ActivityRow
from ui.i18n import Translator
from ui.kinds import WORDS
from ui.phones.card import Note
from ui.phones.card import plain as card_plain

SPEC = activity_list(("r1", "r2", "r3", "r4", "r5"), (3, 2, 3, 0, 1), 3)
PREDICT = Predict(SPEC)
DCG = 3 + 2 / log2(3) + 3 / 2
IDCG = 3 + 3 / log2(3) + 2 / 2
SWAPPED = (3 + 2 / log2(3) + 1.05) / IDCG  # position 3's 1.50 written 1.05
NO_NORMALISATION = f"{DCG:.2f}"  # the DCG typed for the NDCG: outside 0 to 1, taken as a mistake's number
LANGS = ["en", "zh"]


def note(lang: str, estimate: str) -> str:
    row = ActivityRow(1, 1, "predict", PREDICT.payload(), "revealed", 0.0)
    body = WORDS["predict"].card(Translator(lang), PREDICT, row, {0: estimate})
    (found,) = [b for b in body.blocks if isinstance(b, Note)]
    assert found.level == "warning"
    return card_plain(found.markdown)


def test_the_estimate_is_a_slip_neither_right_nor_close():
    assert f"{SWAPPED:.2f}" == "0.90" and abs(SWAPPED - DCG / IDCG) > 0.05


@pytest.mark.parametrize("lang", LANGS)
def test_a_slipped_estimate_is_located_in_the_working_and_no_concept_is_named(lang):
    t = Translator(lang)
    said = note(lang, "0.90")
    head = t("mistakes.slip_head", text="").strip()
    where = t("mistakes.slip_where.term", position=3, k=3).strip()
    assert head in said and where in said, said
    assert "1.50" in said and "1.05" in said and "0.90" in said  # the right value, the one written, the estimate
    assert t("mistakes.working_head") in said  # then the working to find it in, step by step
    assert f"{DCG:.2f}" in said and f"{IDCG:.2f}" in said and f"{DCG / IDCG:.2f}" in said
    assert t("classroom.predict_other", answer="0.90").split("0.90")[0] not in said  # not "no mistake we know"
    assert t("classroom.predict_mistake") not in said  # no concept named
    assert "mistakes." not in said and "{" not in said  # no raw text key, no field left unfilled


@pytest.mark.parametrize("lang", LANGS)
def test_a_mistake_of_the_catalogue_is_still_named(lang):
    t = Translator(lang)
    said = note(lang, NO_NORMALISATION)
    assert t("classroom.predict_mistake") in said and t("mistake.no_normalisation.label") in said
    assert t("mistakes.slip_head", text="").strip() not in said
