"""A wrong number's feedback runs its sentences on as each language does: in English the mistake's name ends
with a full stop and a space; in Chinese with a Chinese full stop and no space, and no sentence after "。" or "："
starts with a space (the same mistake again, a name after it, an unexplained number's working)."""

from math import log

import pytest

from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.mistakes import diagnose
from ui.i18n import Translator
from ui.mistake_text import answer_feedback, mistake_label

SPEC = ListSpec.from_grades(list("abcde"), [3, 2, 3, 0, 1], 3)
NATURAL = f"{3 / log(2) + 2 / log(3) + 3 / log(4):.2f}"  # DCG@3 with ln in the discount: 8.31


def feedback(lang, answer, again=()):
    found = diagnose(SPEC, answer, metric="dcg")
    return found, answer_feedback(found, Translator(lang), answer=answer, working="WORKING", again=again)


def test_english_names_the_mistake_with_a_full_stop_and_a_space():
    found, text = feedback("en", NATURAL, again=("log_natural",))
    label = mistake_label(found[0], Translator("en"))
    assert text.startswith(f"The same mistake as your last answer. **{label}.** You took natural logs")


def test_chinese_names_the_mistake_with_a_chinese_full_stop_and_no_space():
    found, text = feedback("zh", NATURAL, again=("log_natural",))
    label = mistake_label(found[0], Translator("zh"))
    assert text.startswith(f"这和你上一个答案是同一个错误。**{label}。**你在折扣里")
    assert f"{label}." not in text


@pytest.mark.parametrize("answer", [NATURAL, "1.2345"])
def test_no_chinese_sentence_starts_with_a_space(answer):
    _, text = feedback("zh", answer, again=("log_natural",))
    assert "。 " not in text and "： " not in text and "。** " not in text
