"""Under a list whose ideal takes in judged results it missed, the caption says so once: the conventions already
say the ideal comes "from every judged result, including those the list missed", so the sentence after them only
adds the missed grades (or, while grades are hidden, how many were missed). In Chinese the two sentences join
without a space after the full stop."""

import pytest

from ndcg_core.classroom.kinds.lists import activity_list
from ui.classroom_text import spec_caption
from ui.i18n import Translator

SPEC = activity_list(["doc A", "doc B", "doc C"], [3, 2, 3], 3, pool=[3, 2])


@pytest.mark.parametrize("shown", [True, False])
def test_the_english_caption_says_missed_once_and_adds_the_grades_or_the_count(shown):
    text = spec_caption(Translator("en"), SPEC, grades_shown=shown)
    assert text.count("missed") == 2  # the conventions' "including those the list missed" and the added sentence
    assert text.lower().count("ideal") == 1
    added = "The results the list missed are graded 3, 2." if shown else "The list missed 2 judged results."
    assert text.endswith(added)


@pytest.mark.parametrize("shown", [True, False])
def test_the_chinese_caption_adds_one_sentence_with_no_space_after_the_full_stop(shown):
    text = spec_caption(Translator("zh"), SPEC, grades_shown=shown)
    assert "。 " not in text
    assert text.count("理想排序") == 1
    assert text.endswith("列表漏掉的结果等级为 3, 2。" if shown else "列表漏掉了 2 个已标注结果。")
