"""Which is right?: one list, its NDCG@k and three wrong numbers, each made by a named mistake of the catalogue
(chosen by the lesson or the likeliest whose numbers stand apart), in an order shuffled by a seed; a lesson naming
a mistake the list cannot show is a clear lesson-check error."""

from math import log2

import pytest

from ndcg_core.classroom.kinds import from_payload
from ndcg_core.classroom.kinds.base import POINTS, Answer
from ndcg_core.classroom.kinds.choose import Choose, choose_activity
from ndcg_core.classroom.kinds.lists import activity_list
from ndcg_core.classroom.lessons import lesson_from_data, lesson_to_toml, read_lesson
from ndcg_core.errors import InputError

# Seed 000's list: DCG@3 of 3, 0, 2 is 3 + 0 + 2/log2(4) = 4; the ideal 3, 2, 0 has 3 + 2/log2(3).
SEED000 = activity_list(("doc A", "doc B", "doc C"), (3, 0, 2), 3)
IDEAL = 3 + 2 / log2(3)
# With two judged results the list missed (grades 3 and 2), the ideal comes from 3, 3, 2, 2, 0.
POOLED = activity_list(("doc A", "doc B", "doc C"), (3, 0, 2), 3, pool=(3, 2))
POOLED_IDEAL = 3 + 3 / log2(3) + 2 / 2


def by_mistake(activity):
    return {o.mistake: o.number for o in activity.options()}


def test_the_options_are_the_right_ndcg_and_each_named_mistakes_number():
    activity = choose_activity(SEED000, ["no_normalisation", "gain_exponential", "discount_log_i"])
    assert by_mistake(activity) == pytest.approx(
        {
            None: 4 / IDEAL,
            "no_normalisation": 4.0,  # the DCG itself
            "gain_exponential": (7 + 3 / log2(4)) / (7 + 3 / log2(3)),  # 2^g - 1: 7, 0, 3 over 7, 3, 0
            "discount_log_i": (3 + 2 / log2(3)) / (3 + 2 / log2(2)),  # log2(i), position 1 whole
        }
    )
    assert [o.letter for o in activity.options()] == ["a", "b", "c", "d"]


def test_the_ideal_from_the_list_alone_is_an_option_where_judged_results_were_missed():
    activity = choose_activity(POOLED, ["ideal_from_list"])
    numbers = by_mistake(activity)
    assert numbers[None] == pytest.approx(4 / POOLED_IDEAL)
    assert numbers["ideal_from_list"] == pytest.approx(4 / IDEAL)
    assert len(numbers) == 4


def test_the_rest_are_the_likeliest_mistakes_a_hundredth_apart_with_an_ndcg_from_0_to_1_first():
    activity = choose_activity(POOLED)
    numbers = by_mistake(activity)
    # The catalogue's order: no_normalisation (4, above 1) waits; ideal_from_list 0.939 and ideal_not_cut 0.592
    # come first (list_not_cut cannot show: k is the list's length), then gain_exponential 0.658, 0.02 from 0.679.
    assert set(numbers) == {None, "ideal_from_list", "ideal_not_cut", "gain_exponential"}
    values = sorted(numbers.values())
    assert all(b - a >= 0.01 for a, b in zip(values, values[1:], strict=False))
    assert all(0 <= v <= 1 for v in values)


def test_the_seed_shuffles_the_options_the_same_way_everywhere_and_the_right_one_moves():
    codes = ["no_normalisation", "gain_exponential", "discount_log_i"]
    rights = {choose_activity(SEED000, codes, seed).solutions()[0] for seed in range(12)}
    assert len(rights) > 1  # not always first
    one = choose_activity(SEED000, codes, 5)
    again = from_payload("choose", one.payload())
    assert again.options() == one.options() == choose_activity(SEED000, codes, 5).options()


def test_the_options_are_shown_with_the_fewest_decimals_that_tell_them_apart():
    apart = choose_activity(SEED000, ["no_normalisation", "gain_exponential", "discount_log_i"])
    assert apart.decimals() == 2
    # With the missed results: the ideal not cut (0.592) and the log2(i) discount (0.587) share 0.59.
    close = choose_activity(POOLED, ["ideal_not_cut", "discount_log_i", "no_normalisation"])
    assert close.decimals() == 3
    expected = (
        4 / POOLED_IDEAL,
        4 / (POOLED_IDEAL + 2 / log2(5)),  # the ideal 3, 3, 2, 2, 0 summed to the end
        (3 + 2 / log2(3)) / (3 + 3 / log2(2) + 2 / log2(3)),
        4.0,
    )
    assert sorted(close.shown(o) for o in close.options()) == sorted(f"{x:.3f}" for x in expected)


def test_a_student_picks_a_letter_and_the_class_sees_the_votes_and_who_was_right():
    activity = choose_activity(SEED000, ["no_normalisation", "gain_exponential", "discount_log_i"], 3)
    right = activity.solutions()[0]
    wrong = next(o for o in activity.options() if o.mistake == "gain_exponential")
    assert activity.check(right) == right
    for raw, code in (("e", "activity.choice"), ("", "answer.no_choice"), (None, "answer.no_choice")):
        with pytest.raises(InputError) as caught:
            activity.check(raw)
        assert caught.value.code == code
    answers = [Answer(1, None, 0, right), Answer(2, None, 0, wrong.letter), Answer(3, None, 0, wrong.letter)]
    summary = activity.summary(answers)
    assert summary.count == 3 and summary.right == right and summary.chose_right == 1
    assert summary.votes[wrong.letter] == 2 and sum(summary.votes.values()) == 3
    marked = activity.result(wrong.letter)
    assert not marked.right and marked.points == 0 and marked.detail.chosen.mistake == "gain_exponential"
    assert activity.result(right).right and activity.result(right).points == POINTS


LESSON = {"format": 1, "title": "t"}


def choose_lesson(**fields):
    table = {"kind": "choose", "items": ["a", "b", "c"], "grades": [3, 0, 2], "k": 3, **fields}
    return lesson_from_data({**LESSON, "activity": [table]})


def test_a_lesson_names_its_mistakes_and_seed_and_reads_back_from_its_file():
    lesson = choose_lesson(options=["no_normalisation", "gain_exponential"], seed=4)
    activity = lesson.steps[0].activity
    assert isinstance(activity, Choose) and activity.mistakes[:2] == ("no_normalisation", "gain_exponential")
    assert len(activity.mistakes) == 3 and activity.seed == 4
    again = read_lesson(lesson_to_toml(lesson)).steps[0].activity
    assert again == activity
    line = activity.outline()
    assert "no_normalisation" in line and "(right)" in line


@pytest.mark.parametrize(
    ("fields", "problem", "says"),
    [
        ({"options": ["ideal_from_list"]}, "activity.mistake_not_here", "cannot be made on this list"),
        ({"k": 2, "grades": [3, 2, 0], "options": ["list_not_cut"]}, "activity.mistake_right", "right NDCG@2"),
        ({"options": ["gain_exponential", "gain_exponential"]}, "activity.mistake_same", "same number"),
        ({"options": ["wrong_k"]}, "activity.mistake_unknown", "not a mistake"),
        ({"grades": [0, 0, 0]}, "activity.mistakes_few", "only 0 wrong numbers"),
    ],
)
def test_a_lesson_naming_a_mistake_its_list_cannot_show_is_refused_naming_the_field(fields, problem, says):
    with pytest.raises(InputError) as caught:
        choose_lesson(**fields)
    error = caught.value
    assert error.code == "lesson.problem" and error.fields["problem"].code == problem
    assert str(error).startswith("activity 1 (choose), field options: ") and says in str(error)


def test_a_lesson_names_three_mistakes_at_most():
    with pytest.raises(InputError) as caught:
        choose_lesson(options=["no_normalisation", "gain_exponential", "discount_log_i", "no_discount"])
    assert caught.value.code == "lesson.out_of_range"
