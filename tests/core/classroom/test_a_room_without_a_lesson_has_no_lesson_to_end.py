"""``lesson_over`` says whether a room's lesson is at its end: the room ended, or its last step revealed. A room
that runs no lesson (no progress) has none to end, whether it is open or ended: no leaderboard of a lesson's end."""

import pytest

from ndcg_core.classroom.service import lesson_over
from ndcg_core.classroom.storage.rows import LessonProgress, LessonStep, Room


def room(ended: bool) -> Room:
    return Room("ABCDEF", 100.0, 200.0, 150.0 if ended else None, False, 3, 1, 0, None)


LESSON = LessonProgress("Two steps", True, (LessonStep("predict", "{}"), LessonStep("rank", "{}")), 0, 1)


@pytest.mark.parametrize("ended", [False, True], ids=["open", "ended"])
def test_a_room_without_a_lesson_has_no_lesson_over(ended):
    assert lesson_over(room(ended), None) is False


def test_a_room_ended_mid_lesson_has_its_lesson_over():
    assert lesson_over(room(ended=True), LESSON) is True
    assert lesson_over(room(ended=False), LESSON) is False
