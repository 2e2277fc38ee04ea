"""A lesson's bad ``points`` (issue 45) is said in the reader's language, naming the activity and the field: the
core's codes, worded by the UI's catalogues in English and Chinese."""

import pytest

from ndcg_core.classroom.lessons import read_lesson
from ndcg_core.errors import InputError
from ui.i18n import Translator

LESSON = """\
format = 1
title = "t"
scores = true

[[activity]]
kind = "practice"
seed = 2026
exercises = 3
points = {points}
"""


@pytest.mark.parametrize(
    ("points", "english", "chinese"),
    [
        ("1001", "field points is 1001: it must be 0 to 1000", "字段 points 是 1001：必须在 0 到 1000 之间"),
        ("-1", "field points is -1: it must be 0 to 1000", "字段 points 是 -1：必须在 0 到 1000 之间"),
        ("2.5", "field points is 2.5: write a whole number", "字段 points 是 2.5"),
    ],
)
def test_a_bad_points_value_is_worded_in_english_and_chinese(points, english, chinese):
    with pytest.raises(InputError) as caught:
        read_lesson(LESSON.format(points=points))
    said_en = Translator("en").explain(caught.value).replace("\\", "")
    said_zh = Translator("zh").explain(caught.value).replace("\\", "")
    assert english in said_en and said_en.startswith("Activity 1")
    assert chinese in said_zh and said_zh.startswith("第 1 个活动")
    assert "must" not in said_zh and "whole number" not in said_zh
