"""What ``KindBase`` gives a kind that does not say otherwise: ``read_answer`` is the kind's own ``check`` and its
own ``note`` of the same answer and part; ``read`` is the number a plain-number answer is (a grade), ``None`` for any
other; a part not given is the first (0). And ``part_of``'s refusal quotes the part it was given."""

from dataclasses import dataclass

import pytest
from test_every_kind_follows_one_protocol import EXAMPLES

from ndcg_core.classroom.kinds.base import KindBase, part_of
from ndcg_core.classroom.kinds.compare import Compare
from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.kinds.practice import Practice
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import Rank
from ndcg_core.errors import InputError, Note
from ndcg_core.teaching.exercises import NUMERIC, exercise


@dataclass(frozen=True)
class Tally(KindBase[int]):
    """A kind of two parts that counts letters and notes what it counted, as a new kind might."""

    kind: str = "tally"

    def parts(self) -> int:
        return 2

    def check(self, raw: object, part: int = 0) -> int:
        self.own_part(part)
        return len(str(raw)) * 10 + part

    def note(self, raw: object, part: int = 0) -> Note | None:
        return Note("answer.comma_read", value=str(raw), meant=str(part))


def test_read_answer_is_the_kind_s_own_check_and_note_of_one_answer_and_part():
    assert Tally().read_answer("abc", 1) == (31, Note("answer.comma_read", value="abc", meant="1"))
    assert Tally().read_answer("abcd") == (40, Note("answer.comma_read", value="abcd", meant="0"))  # part 0


def test_read_answer_without_a_part_reads_the_first_part_of_a_one_part_kind():
    for name in ("rank", "compare", "predict"):
        activity = EXAMPLES[name]
        assert activity.parts() == 1
        assert activity.read_answer(*{"rank": ([4, 3, 2, 1, 0],), "compare": ("a",), "predict": ("0,5",)}[name])
    assert isinstance(EXAMPLES["rank"], Rank) and isinstance(EXAMPLES["compare"], Compare)
    predict = EXAMPLES["predict"]
    assert isinstance(predict, Predict)
    estimate, note = predict.read_answer("0,5")
    assert (float(estimate), estimate.typed) == (0.5, "0,5")
    assert note == Note("answer.comma_read", value="0,5", meant="0.5")


def numeric_and_choice(seed):
    """The first number exercise and the first choice exercise of a seed (taken in class)."""
    kinds = {n: exercise(seed, n).kind for n in range(20)}
    number = next(n for n, kind in kinds.items() if kind in NUMERIC)
    choice = next(n for n, kind in kinds.items() if kind not in NUMERIC and kind != "reach")
    return number, choice


def test_a_practice_set_of_one_exercise_reads_its_answer_without_a_part():
    number, choice = numeric_and_choice(2026)
    alone = Practice(2026, (number,))
    value, note = alone.read_answer("0,5")
    assert value.answer == "0,5" and note == Note("answer.comma_read", value="0,5", meant="0.5")
    assert alone.read(value) == 0.5  # part 0: the one exercise
    both = Practice(2026, (choice, number))
    assert both.read(value, 1) == 0.5  # a number exercise's answer as read
    assert both.read(value) is None  # part 0 is a choice: no number


def test_the_usual_read_is_a_plain_number_s_value_and_none_for_anything_else():
    judge = EXAMPLES["judge"]
    assert isinstance(judge, Judge) and type(judge).read is KindBase.read
    assert judge.read(2) == 2.0 and isinstance(judge.read(2), float)
    assert judge.read(1.5) == 1.5
    assert [judge.read(x) for x in (True, "2", [2], None)] == [None] * 4


@pytest.mark.parametrize(
    ("part", "quoted"),
    [(5, "5"), (-1, "-1"), ("1", "'1'"), (True, "True"), (1.0, "1.0"), (None, "None")],
)
def test_a_part_a_question_does_not_have_is_refused_and_quoted(part, quoted):
    with pytest.raises(InputError) as caught:
        part_of(part, 2)
    assert caught.value.code == "answer.part"
    assert caught.value.fields == {"value": quoted, "count": 2}
    assert str(caught.value) == f"there is no part {quoted} to answer; this question has 2"


def test_every_part_a_question_has_is_taken_as_it_is():
    assert [part_of(p, 3) for p in (0, 1, 2)] == [0, 1, 2]


def test_a_practice_set_s_note_and_material_are_of_its_first_exercise_unless_told():
    number, choice = numeric_and_choice(2026)
    both = Practice(2026, (number, choice))
    assert both.note("0,5") == Note("answer.comma_read", value="0,5", meant="0.5")
    assert both.note("0,5", 1) is None  # a choice: nothing read as a number
    assert (both.material().exercise, both.material(1).exercise) == (1, 2)
