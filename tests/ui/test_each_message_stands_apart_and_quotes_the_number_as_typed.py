"""What a phone and Practice say about a number, in English and Chinese: one explanation per mistake, each a
paragraph of its own; the student's number quoted as typed beside the mistake's own number; the distance from the
truth shown to one decimal more than the estimate was typed with, so a wrong estimate never reads as 0 away; and
messages that never run together (a decimal comma's note, "your other answers were saved", a verdict).

NEAR: grades 0 3 2 1 at k = 3. NDCG@3 = (3/log2(3) + 2/2) / IDCG, IDCG = 3 + 2/log2(3) + 1/2 = 0.61. The list
summed to position 4 gives (3/log2(3) + 2/2 + 1/log2(5)) / IDCG = 0.698 (``list_not_cut``); log2(i + 2) in the
discount gives (3/log2(4) + 2/log2(5)) / (3/log2(3) + 2/log2(4) + 1/log2(5)) = 0.711 (``discount_shifted``). Typed
"0.7" is both to its one decimal; typed "0.70" is only the first."""

from math import log2

import pytest

from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.service import Entry, Outcome
from ndcg_core.classroom.storage import ActivityRow
from ndcg_core.errors import InputError, shown
from ndcg_core.teaching.exercises import KINDS, exercise
from ndcg_core.validate import reading
from ui.i18n import Translator
from ui.kinds import WORDS
from ui.phones.card import Note, NumberBox, plain, runs
from ui.phones.student_card import reply
from ui.views.practice import feedback_text

NEAR = Predict(activity_list(tuple("abcd"), (0, 3, 2, 1), 3))
IDCG = 3 + 2 / log2(3) + 1 / 2
TRUTH = (3 / log2(3) + 2 / 2) / IDCG
NOT_CUT_DCG = 3 / log2(3) + 2 / 2 + 1 / log2(5)
LANGS = ["en", "zh"]


def verdict(lang, typed):
    """The phone's note at the reveal for an estimate typed as ``typed``, as the store gives it back: its
    paragraphs as plain text."""
    estimate = Predict.answer_from_json(Predict.answer_to_json(NEAR.check(typed)))
    row = ActivityRow(1, 1, "predict", NEAR.payload(), "revealed", 0.0)
    body = WORDS["predict"].card(Translator(lang), NEAR, row, {0: estimate})
    (note,) = [b for b in body.blocks if isinstance(b, Note)]
    return ["".join(text for text, _ in paragraph) for paragraph in runs(note.markdown)]


def test_the_numbers_stand_where_the_docstring_says():
    assert NEAR.truth() == pytest.approx(TRUTH) and abs(TRUTH - 0.7) > 0.05
    assert f"{NOT_CUT_DCG / IDCG:.3f}" == "0.698"


@pytest.mark.parametrize("lang", LANGS)
def test_each_mistake_an_estimate_matches_is_a_paragraph_of_its_own(lang):
    t = Translator(lang)
    paragraphs = verdict(lang, "0.7")
    for code in ("list_not_cut", "discount_shifted"):
        label = t(f"mistake.{code}.label")
        assert len([p for p in paragraphs if label in p]) == 1, paragraphs
    first, second = (
        next(i for i, p in enumerate(paragraphs) if t(f"mistake.{c}.label") in p)
        for c in ("list_not_cut", "discount_shifted")
    )
    assert first != second
    assert paragraphs[second].startswith(t("mistake.discount_shifted.label"))  # the second explanation starts anew


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("typed", ["0.70", "0,70"])
def test_the_estimate_is_quoted_as_typed_beside_the_mistake_s_own_number(lang, typed):
    t = Translator(lang)
    said = "\n".join(verdict(lang, typed))
    rebuilt = t(
        "mistakes.rebuilt.ndcg",
        answer=typed,
        your_dcg=f"{NOT_CUT_DCG:.2f}",
        your_idcg=f"{IDCG:.2f}",
        yours=f"{NOT_CUT_DCG / IDCG:.2f}",
        k=3,
        dcg=f"{3 / log2(3) + 2 / 2:.2f}",
        idcg=f"{IDCG:.2f}",
        right=f"{TRUTH:.2f}",
    )
    assert rebuilt in said  # "Your 0.70 is 3.32 / 4.76 = 0.70; NDCG@3 is DCG@3 / IDCG@3 = 2.89 / 4.76 = 0.61."
    assert t("mistake.list_not_cut.label") in said
    assert t("mistake.discount_shifted.label") not in said  # 0.711 is not 0.70 to two decimals


@pytest.mark.parametrize("lang", LANGS)
def test_the_distance_has_one_decimal_more_than_typed_and_is_not_0_for_a_wrong_estimate(lang):
    t = Translator(lang)
    near = f"{TRUTH + 0.0004:.4f}"  # four decimals, not the truth to four: close, not right
    off = abs(float(near) - TRUTH)
    said = verdict(lang, near)[0]
    assert said == plain(
        t("classroom.your_predict_result", truth=f"{TRUTH:.4f}", off=f"{off:.5f}", verdict=t("classroom.within"))
    )
    assert f"{off:.5f}" != "0.00000" and f"{off:.3f}" == "0.000"  # as it was shown before: as if exact
    right = f"{TRUTH:.2f}"
    assert f"{abs(float(right) - TRUTH):.3f}" in verdict(lang, right)[0]  # two decimals: the distance to three


@pytest.mark.parametrize("lang", LANGS)
def test_a_reply_s_messages_stand_on_lines_of_their_own(lang):
    t = Translator(lang)
    note = reading("0,62").note
    refused = InputError("answer.not_number", value=shown("abc"))
    some = reply(t, Outcome((Entry(0, 0.62, note),), ((1, refused),)))
    assert plain(some.message).split("\n") == [
        plain(t("classroom.exercise_note", number=2, text=t.explain(refused))),
        plain(t("common.read_note", note=t.explain(note))),
        t("classroom.others_saved"),
    ]
    saved = reply(t, Outcome((Entry(0, 0.62, note),)))
    assert plain(saved.message).split("\n") == [
        plain(t("common.read_note", note=t.explain(note))),
        t("classroom.saved"),
    ]
    assert saved.to_json()["message"].startswith({"en": "Read 0,62 as 0.62.\n", "zh": "已将 0,62 读作 0.62。\n"}[lang])


@pytest.mark.parametrize("lang", LANGS)
def test_practice_says_how_it_read_a_comma_apart_from_what_the_answer_got(lang):
    t = Translator(lang)
    ex = exercise(2026, KINDS.index("ndcg"))
    typed = f"{ex.answer:.4f}".replace(".", ",")
    entry = {"kind": "answer", "chosen": typed, "again": (), "note": reading(typed).note, "ok": True}
    note, verdict_text = feedback_text(ex, entry, t).split("\n\n", 1)
    assert plain(note) == plain(t("common.read_note", note=t.explain(entry["note"])))
    assert verdict_text.startswith(t("practice.right", why="").strip())


def test_the_phone_s_box_gets_back_the_estimate_as_typed():
    """Sent as "0.625", the box shows "0.625" again (not 0.62, which the phone took for another answer, not sent)."""
    row = ActivityRow(1, 1, "predict", NEAR.payload(), "open", 0.0)
    estimate = Predict.answer_from_json(Predict.answer_to_json(NEAR.check("0.625")))
    body = WORDS["predict"].card(Translator("en"), NEAR, row, {0: estimate})
    (box,) = [b for b in body.blocks if isinstance(b, NumberBox)]
    assert box.saved == "0.625"
