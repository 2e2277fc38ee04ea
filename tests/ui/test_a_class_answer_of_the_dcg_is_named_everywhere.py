"""The commonest mistake of a Predict round, the DCG typed where the NDCG is asked, is taken from a phone (not
refused as out of range), kept as typed, and named: on the phone's card at the reveal, in the projector's groups
and its words under the histogram, in the results CSV's mistake column and in the end-of-class summary, in English
and in Chinese. A number outside 0 to 1 that no mistake gives is still refused with the range, and nothing is kept.

The list: grades 3 2 3 0 1 at k = 5, DCG@5 = 3 + 2/log2(3) + 3/2 + 1/log2(6) = 6.15, IDCG@5 = 3 + 3/log2(3) + 2/2 +
1/log2(5); no mistake gives 7.9 (the others' numbers: ``test_predict_takes_the_number_a_mistake_explains.py``)."""

import csv
import io
import re
from math import log2

import pytest
from test_phone_page_and_its_routes import answer, card, room, text_of  # noqa: F401 (room: the phones' fixture)

from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ui.classroom_results import mistakes_text, results_csv
from ui.i18n import Translator
from ui.views.classroom.kinds.predict import estimates_text, groups_text

FIVE = Predict(activity_list(tuple("abcde"), (3, 2, 3, 0, 1), 5))
DCG = 3 + 2 / log2(3) + 3 / 2 + 1 / log2(6)
IDCG = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)
TYPED = f"{DCG:.2f}"  # 6.15
RANGE = {"en": "is outside 0 to 1: NDCG is between 0 and 1", "zh": "不在 0 到 1 之间：NDCG 总是在 0 和 1 之间"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dcg_typed_for_the_ndcg_is_kept_and_named_on_the_phone_the_projector_and_in_the_csv(room, lang):  # noqa: F811
    t = Translator(lang)
    store, code, key, ana, bo = room
    row = store.rooms.open_activity(code, key, FIVE)
    assert answer(code, ana, row.id, [[0, TYPED]], lang=lang)[1]["ok"] is True
    assert answer(code, bo, row.id, [[0, f"{DCG / IDCG:.2f}"]], lang=lang)[1]["ok"] is True
    assert store.answers.of_student(row.id, ana) == {0: float(TYPED)}
    store.rooms.set_phase(code, key, "revealed")

    label = t("mistake.no_normalisation.label")
    said = text_of(card(code, ana, lang)[1]["blocks"])
    assert t("classroom.predict_mistake") in said and label in said
    rebuilt = t("mistakes.rebuilt.ndcg_undivided", answer=TYPED, yours=TYPED, k=5, dcg="", idcg="", right="")
    assert re.split("[;；]", rebuilt)[0] in said  # "Your 6.15 is the DCG itself (6.15), divided by nothing"

    summary = FIVE.summary(store.answers.for_activity(row.id))
    words = groups_text(t, summary.groups)
    assert t("classroom.group_count", count=1, label=label) in words
    assert t("classroom.group_count", count=1, label=t("classroom.group.right")) in words
    assert t("classroom.estimates_outside", count=1) in estimates_text(t, summary)

    header, *rows = list(csv.reader(io.StringIO(results_csv(t, store.answers.results(code)).decode("utf-8-sig"))))
    column = header.index(t("classroom.csv.mistake"))
    answered = header.index(t("classroom.csv.answer"))
    mine = [r for r in rows if r[answered] == TYPED]
    assert [r[column] for r in mine] == [label]
    (outcome,) = store.answers.class_summary(code)
    assert mistakes_text(t, outcome.mistakes) == t("classroom.summary.mistake_count", label=label, count=1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_number_outside_0_to_1_that_no_mistake_gives_is_refused_with_the_range(room, lang):  # noqa: F811
    store, code, key, ana, _ = room
    row = store.rooms.open_activity(code, key, FIVE)
    _, reply = answer(code, ana, row.id, [[0, "7.9"]], lang=lang)
    assert reply["ok"] is False and RANGE[lang] in reply["message"] and "7.9" in reply["message"]
    assert store.answers.of_student(row.id, ana) == {}
