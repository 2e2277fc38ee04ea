"""A Which-is-better? activity is written into a lesson file with each side's items and grades, and the grades
of judged results neither side retrieved (``missed``). A pair whose side has an item without a grade, or a grade
without an item (a stored payload edited by hand, a ``Pair`` made in code), has no such lesson: the lesson reader
refuses a side whose items and grades differ in number (``lesson.count``), so writing one raises instead of giving
a file that cannot be read back, or one whose ``missed`` holds a grade the side retrieved."""

import pytest

from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.compare import Compare, Pair

SCALE = Scale(0, 3)


def pair(side: str, labels: int, grades: int) -> Pair:
    """Side ``side`` with ``labels`` items and ``grades`` grades (3, 2, 1, ...), the other side whole; every grade
    of either side judged, and one judged result neither retrieved (grade 3)."""
    mine = (tuple(f"{side} {i}" for i in range(labels)), tuple(float(3 - i) for i in range(grades)))
    other_side = "b" if side == "a" else "a"
    other = ((f"{other_side} 0", f"{other_side} 1"), (1.0, 0.0))
    (labels_a, a), (labels_b, b) = (mine, other) if side == "a" else (other, mine)
    return Pair(labels_a, a, labels_b, b, (*a, *b, 3.0), k=1)


def test_a_whole_pair_is_written_with_its_missed_grade():
    data = Compare(pair("a", 2, 2), "ndcg").lesson_data(SCALE)
    assert data == {
        "a": {"items": ["a 0", "a 1"], "grades": [3, 2]},
        "b": {"items": ["b 0", "b 1"], "grades": [1, 0]},
        "missed": [3],
        "metric": "ndcg",
        "k": 1,
    }


@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize(("labels", "grades"), [(3, 2), (2, 3)], ids=["item_without_grade", "grade_without_item"])
def test_a_side_whose_items_and_grades_differ_in_number_is_not_written(side, labels, grades):
    compare = Compare(pair(side, labels, grades), "ndcg")
    with pytest.raises(ValueError):
        compare.lesson_data(SCALE)


@pytest.mark.parametrize("side", ["a", "b"])
def test_a_stored_payload_with_a_grade_missing_is_not_written(side):
    payload = Compare(pair("a", 2, 2), "ndcg").payload()
    payload[side] = payload[side][:-1]
    with pytest.raises(ValueError):
        Compare.from_payload(payload).lesson_data(SCALE)
