"""Which is right?: one list, its NDCG@k and three wrong numbers, each made by a named mistake of the catalogue
(chosen by the lesson or the likeliest whose numbers stand apart), in an order shuffled by a seed; a lesson naming
a mistake the list cannot show is a clear lesson-check error."""

from math import log2

import pytest

from ndcg_core.classroom.kinds import from_payload
from ndcg_core.classroom.kinds.base import POINTS, Answer
from ndcg_core.classroom.kinds.choose import CHOOSE_WRONG, Choose, choose_activity
from ndcg_core.classroom.kinds.lists import activity_list, outline_ndcg
from ndcg_core.classroom.kinds.tally import mistake_codes
from ndcg_core.classroom.lessons import lesson_from_data, lesson_to_toml, read_lesson
from ndcg_core.errors import InputError
from ndcg_core.teaching import mistakes as mistake_catalogue
from ndcg_core.validate import MAX_SEED

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


@pytest.mark.parametrize(
    ("grades", "pool", "expected"),
    [
        # Right 0.5; no_normalisation (DCG 1.5) is likelier but above 1, so the three from 0 to 1 come first.
        ((0, 0, 3), (), ("discount_log_i", "discount_shifted", "no_discount")),
        # Right 0.5; no_discount gives exactly 1 (one result, every discount 1), still a plausible NDCG.
        ((0, 0, 1), (), ("discount_log_i", "discount_shifted", "no_discount")),
        # ideal_from_list gives 1/2 / 1, the very number of no_normalisation (DCG 1/log2(4)), chosen just before.
        ((0, 0, 1), (3,), ("no_normalisation", "gain_exponential", "discount_log_i")),
    ],
)
def test_the_chosen_mistakes_are_plausible_first_and_pass_over_a_number_already_taken(grades, pool, expected):
    """The likeliest mistakes whose NDCG lies from 0 to 1 (1 included) come before those above 1, and one whose
    number is within a hundredth of a number already taken is passed over for the next."""
    spec = activity_list(("doc A", "doc B", "doc C"), grades, 3, pool=pool)
    assert choose_activity(spec).mistakes == expected


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


def test_a_letter_not_offered_is_refused_naming_it_and_the_letters_offered():
    activity = choose_activity(SEED000, ["no_normalisation", "gain_exponential", "discount_log_i"])
    with pytest.raises(InputError) as caught:
        activity.check("e")
    assert caught.value.code == "activity.choice"
    assert caught.value.fields == {"value": "'e'", "choices": "A, B, C, D"}


def test_a_marked_choice_shows_its_letter_and_number_and_names_the_right_option():
    activity = choose_activity(SEED000, ["no_normalisation", "gain_exponential", "discount_log_i"], 3)
    wrong = next(o for o in activity.options() if o.mistake == "discount_log_i")
    marked = activity.result(wrong.letter)
    assert marked.answer == f"{wrong.letter.upper()} {(3 + 2 / log2(3)) / (3 + 2 / log2(2)):.2f}"
    assert marked.detail.chosen == wrong and marked.detail.right == activity.right_option()
    assert marked.detail.right.number == pytest.approx(4 / IDEAL)


def test_a_class_where_nobody_chose_the_right_option_has_none_right_not_an_unknown_share():
    activity = choose_activity(SEED000, ["no_normalisation", "gain_exponential", "discount_log_i"], 3)
    wrong = next(o for o in activity.options() if o.mistake is not None)
    summary = activity.summary([Answer(1, None, 0, wrong.letter), Answer(2, None, 0, wrong.letter)])
    assert summary.chose_right == 0 and summary.share_right == 0
    assert summary.votes[summary.right] == 0 and summary.votes[wrong.letter] == 2


def test_the_outline_names_the_query_and_each_option_by_capital_letter_in_order():
    spec = activity_list(("doc A", "doc B", "doc C"), (3, 0, 2), 3, query="jaguar speed")
    activity = choose_activity(spec, ["no_normalisation", "gain_exponential", "discount_log_i"], 3)
    numbers = {  # as in the first test, shown with 2 decimals
        "right": 4 / IDEAL,
        "no_normalisation": 4.0,
        "gain_exponential": (7 + 3 / log2(4)) / (7 + 3 / log2(3)),
        "discount_log_i": (3 + 2 / log2(3)) / (3 + 2 / log2(2)),
    }
    letters = {o.mistake or "right": o.letter.upper() for o in activity.options()}
    in_order = sorted(numbers, key=letters.__getitem__)
    options = ", ".join(f"{letters[name]} {numbers[name]:.2f} ({name})" for name in in_order)
    assert activity.outline() == f'Which is right? "jaguar speed": 3 results, {outline_ndcg(spec)}: {options}'


# All of the catalogue's mistakes that give a number of their own on seed 000's list, as the errors list them.
SEED000_HERE = ", ".join(mistake_catalogue.numbers(SEED000, metric="ndcg"))
# Seed 000 with a fourth result, of grade 0, beyond k = 3: not cutting the list at k adds nothing to its DCG.
LONGER = activity_list(("doc A", "doc B", "doc C", "doc D"), (3, 0, 2, 0), 3)
IN_ORDER = activity_list(("a", "b", "c"), (3, 2, 0), 2)  # already in ideal order: its NDCG@2 is 1
NOTHING = activity_list(("a", "b", "c"), (0, 0, 0), 2)  # every NDCG is 0: no mistake gives a number of its own


@pytest.mark.parametrize(
    ("spec", "named", "code", "fields"),
    [
        (
            SEED000,
            ["no_normalisation", "wrong_k"],
            "activity.mistake_unknown",
            {"position": 2, "value": "'wrong_k'", "choices": ", ".join(mistake_codes())},
        ),
        (
            SEED000,
            ["no_normalisation", "ideal_from_list"],  # no judged result was missed: the ideal is the list's
            "activity.mistake_not_here",
            {"position": 2, "value": "'ideal_from_list'", "choices": SEED000_HERE},
        ),
        (
            IN_ORDER,
            ["no_normalisation", "list_not_cut"],  # the third result, of grade 0, adds nothing
            "activity.mistake_right",
            {
                "position": 2,
                "value": "'list_not_cut'",
                "k": 2,
                "number": f"{1:.4f}",
                "choices": ", ".join(mistake_catalogue.numbers(IN_ORDER, metric="ndcg")),
            },
        ),
        (
            NOTHING,
            ["no_normalisation"],  # nothing of its own to offer: the choices are "-"
            "activity.mistake_right",
            {"position": 1, "value": "'no_normalisation'", "k": 2, "number": f"{0:.4f}", "choices": "-"},
        ),
        (
            LONGER,
            ["gain_exponential", "no_normalisation+list_not_cut"],  # the pair gives its part's DCG, 4
            "activity.mistake_same",
            {
                "position": 2,
                "one": "'no_normalisation+list_not_cut'",
                "other": "'no_normalisation'",
                "number": f"{4:.4f}",
            },
        ),
        (
            SEED000,
            ["no_normalisation", "gain_exponential", "gain_exponential"],
            "activity.mistake_same",
            {
                "position": 3,
                "one": "'gain_exponential'",
                "other": "'gain_exponential'",
                "number": f"{(7 + 3 / log2(4)) / (7 + 3 / log2(3)):.4f}",
            },
        ),
        (
            NOTHING,
            [],
            "activity.mistakes_few",
            {"count": 0, "apart": "0.01", "k": 2, "needed": CHOOSE_WRONG},
        ),
    ],
)
def test_a_mistake_that_cannot_be_an_option_is_refused_naming_its_position_and_the_choices(spec, named, code, fields):
    """Each refusal names the option's position (from 1) and the mistake as given, and what to choose instead."""
    with pytest.raises(InputError) as caught:
        choose_activity(spec, named)
    assert caught.value.code == code and caught.value.fields == fields


def test_a_mistake_equal_to_the_right_number_to_the_four_decimals_shown_is_refused_as_the_right_one():
    """A number that differs from the right one only in the fifth decimal would show as the right one."""
    tiny = 0.00005  # a fourth result beyond k = 3 adds tiny / log2(5) to the DCG not cut at k
    spec = activity_list(("doc A", "doc B", "doc C", "doc D"), (3, 0, 2, tiny), 3)
    right = 4 / (IDEAL + tiny / log2(4))  # the ideal's top 3: 3, 2, tiny
    assert f"{(4 + tiny / log2(5)) / (IDEAL + tiny / log2(4)):.5f}" != f"{right:.5f}"
    with pytest.raises(InputError) as caught:
        choose_activity(spec, ["list_not_cut"])
    assert caught.value.code == "activity.mistake_right" and caught.value.fields["number"] == f"{right:.4f}"


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
    assert str(caught.value) == f"activity 1 (choose), field options is 4: it must be 1 to {CHOOSE_WRONG}"


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1])
def test_a_lesson_seed_outside_0_to_the_largest_is_refused_as_the_seed_field(seed):
    with pytest.raises(InputError) as caught:
        choose_lesson(options=["no_normalisation"], seed=seed)
    assert caught.value.code == "lesson.out_of_range"
    assert str(caught.value) == f"activity 1 (choose), field seed is {seed}: it must be 0 to {MAX_SEED}"


def test_without_a_seed_the_options_keep_seed_0_s_order_from_a_lesson_a_list_or_an_old_payload():
    """Seed 0 is the default everywhere, and a lesson written back leaves it out."""
    codes = ["no_normalisation", "gain_exponential", "discount_log_i"]
    lesson = choose_lesson(options=codes)
    activity = lesson.steps[0].activity
    assert activity.seed == 0 and activity == choose_activity(activity.spec, codes)
    assert Choose.from_list(SEED000).seed == 0
    old = {key: value for key, value in activity.payload().items() if key != "seed"}
    assert from_payload("choose", old) == activity
    assert "seed" not in activity.lesson_data(lesson.scale) and "seed" not in lesson_to_toml(lesson)
