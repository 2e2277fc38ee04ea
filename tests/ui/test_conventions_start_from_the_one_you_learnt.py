"""The Conventions page starts from the convention Learn and Practice use, marked as the learner's own, then the
others; Järvelin-Kekäläinen's discount is said to be 1/log_b(i) from position b on, of i itself, not i + 1."""

from math import log2

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core.teaching.conventions import CONVENTIONS, LEARNT, Example
from ndcg_core.teaching.exercises import Exercise, conventions
from support import ROOT, seed_state

MARK = {"en": ": the one you learnt", "zh": "：你学过的那种"}


def open_page(lang):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/4_Conventions.py")
    seed_state(at, lang=lang)
    return at.run()


def test_the_learnt_convention_scores_a_list_as_learn_and_practice_do():
    # Grades 3, 2, 3, 0, 1 in this order (distinct scores): linear gain, 1/log2(i + 1), the list's own ideal.
    example = Example(("a", "b", "c", "d", "e"), (5, 4, 3, 2, 1), (3, 2, 3, 0, 1), k=5)
    dcg5 = 3 + 2 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6)
    ideal5 = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0
    assert CONVENTIONS.build(LEARNT).score(example) == pytest.approx(dcg5 / ideal5, abs=1e-12)
    practice = conventions(Exercise("ndcg", 1, 0, {"grades": [3, 2, 3, 0, 1], "k": 5}))
    assert (practice.gain, practice.discount, practice.ideal) == ("linear", "log2", "list")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_starts_from_the_learnt_convention_marked_as_the_learners(lang):
    at = open_page(lang)
    assert not at.exception
    table = next(d.value for d in at.dataframe if "NDCG" in d.value.columns)
    labels = list(table.iloc[:, 0])
    assert labels[0].endswith(MARK[lang])
    assert sum(MARK[lang] in x for x in labels) == 1
    assert at.expander[0].label.split(MARK[lang])[0] == labels[0].split(MARK[lang])[0]
    assert MARK[lang] in at.expander[0].label and not any(MARK[lang] in e.label for e in at.expander[1:])


JK = {
    "en": ("from position b on the discount is 1/log_b(i)", "not i + 1", "positions before b are not discounted"),
    "zh": ("从第 b 位起，折扣是 1/log_b(i)", "而不是你学过的 1/log2(i + 1) 中的 i + 1", "排名 b 之前的位置不打折"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_jk_says_its_discount_is_of_the_position_itself_from_b_on(lang):
    at = open_page(lang)
    jk = next(e for e in at.expander if "Järvelin" in e.label)
    text = " ".join(m.value for m in jk.markdown)
    for part in JK[lang]:
        assert part in text
