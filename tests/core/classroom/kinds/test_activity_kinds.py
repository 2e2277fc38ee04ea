"""The classroom's rules and numbers, against formulas and the seeds: room codes and keys, nicknames,
histogram bins, estimates within 0.05, the verdicts on seed 003's two systems, the most common mistake,
practice marking and the results rows."""

import json
import math
import threading
from datetime import UTC, datetime

import pytest

from ndcg_core import InputError, ndcg_at_k
from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds import from_payload
from ndcg_core.classroom.kinds.base import EPS, Answer, Result, Scale
from ndcg_core.classroom.kinds.compare import METRICS, PAIRS, Compare, CompareDetail, Pair, compare_activity
from ndcg_core.classroom.kinds.judge import Judge, JudgeDetail
from ndcg_core.classroom.kinds.lists import (
    activity_list,
    list_from_json,
    list_lesson_data,
    list_to_json,
    preset_list,
    random_list,
    result_list,
)
from ndcg_core.classroom.kinds.practice import ExerciseAnswer, Practice, PracticeDetail, choices, practice_activity
from ndcg_core.classroom.kinds.predict import Predict, PredictDetail
from ndcg_core.classroom.kinds.rank import Rank, RankDetail, rank_activity, twisted
from ndcg_core.classroom.kinds.tally import histogram, within
from ndcg_core.classroom.results import Member, StudentResult, Taken, activity_results
from ndcg_core.errors import Place
from ndcg_core.teaching.exercises import KINDS, Conventions, conventions, exercise
from support import error_of


def log2(x):
    return math.log(x, 2)


def test_codes_use_the_unambiguous_alphabet_and_typed_codes_are_forgiven():
    assert len(rules.ALPHABET) == 31 and not set(rules.ALPHABET) & set("0O1IL")
    codes = {rules.new_code() for _ in range(200)}
    assert all(len(c) == 6 and set(c) <= set(rules.ALPHABET) for c in codes) and len(codes) > 190
    assert rules.read_code(" k7p-3qx ") == "K7P3QX"
    with pytest.raises(InputError, match="0, O"):
        rules.read_code("K7P3Q0")


def test_the_key_is_long_random_and_only_its_hash_matches():
    key = rules.new_key()
    assert len(key) >= 43 and rules.new_key() != key
    stored = rules.key_hash(key)
    assert stored != key and rules.key_matches(key, stored)
    assert not rules.key_matches(key[:-1], stored) and not rules.key_matches(None, stored)
    assert not rules.key_matches("\ud800", stored)


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("  Ana  ", "Ana"),
        ("", None),
        ("   ", None),
        ("a\tb\nc", "a b c"),
        ("<script>x</script>", "<script>x</script>"),
        ("李" * 24, "李" * 24),
    ],
)
def test_nicknames_are_one_trimmed_line_kept_as_text(raw, expected):
    assert rules.read_nickname(raw) == expected


def test_a_long_or_invisible_nickname_is_refused():
    with pytest.raises(InputError, match="25 characters; at most 24"):
        rules.read_nickname("x" * 25)
    with pytest.raises(InputError, match="control character"):
        rules.read_nickname("evil\u202etxt")


def test_join_waits_double_after_the_free_failures():
    limits = rules.Limits(free_join_failures=3, max_join_wait_seconds=60)
    assert [rules.join_wait(n, 0, limits) for n in (0, 3, 4, 5, 6, 20)] == [0, 0, 2, 4, 8, 60]
    assert rules.join_wait(5, 3.5, limits) == 0.5


def test_limits_from_the_environment():
    limits = rules.Limits.from_environment({"NDCG_LAB_ROOM_HOURS": "2", "NDCG_LAB_MAX_STUDENTS": "30"})
    assert (limits.room_hours, limits.max_students, limits.max_open_rooms) == (2.0, 30, 100)
    assert rules.Limits.from_environment({}) == rules.Limits()


def test_histogram_bins_of_width_0_05_with_edges_in_the_upper_bin():
    bins = histogram([0.0, 0.05, 0.15, 0.149, 0.999, 1.0])
    assert len(bins) == 20 and bins[0].low == 0 and bins[-1].high == 1
    counts = {round(b.low, 2): b.count for b in bins if b.count}
    assert counts == {0.0: 1, 0.05: 1, 0.1: 1, 0.15: 1, 0.95: 2}


def test_predict_truth_and_within_0_05():
    activity = Predict(preset_list("five"))  # 3, 2, 3, 0, 1 at k = 5
    dcg = 3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6)
    idcg = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)
    assert activity.truth() == pytest.approx(dcg / idcg)
    assert activity.truth() == pytest.approx(0.972, abs=5e-4)  # the seeds' textbook figure
    answers = [Answer(i, None, 0, g) for i, g in enumerate([0.97, 0.92, 0.923, 0.5, 1.0])]
    summary = activity.summary(answers)
    assert (summary.count, summary.within) == (5, 3)  # 0.97, 0.923 (0.0494 away) and 1.0 (0.0276 away)
    with pytest.raises(InputError):
        activity.check("1.01")


def test_seed_003_systems_mrr_cannot_tell_them_apart_ndcg_and_precision_can():
    compare = compare_activity("seed003", "mrr")
    assert compare.values("mrr") == (1.0, 1.0) and compare.verdict("mrr") == "same"
    assert compare.values("precision") == (1.0, 0.2) and compare.verdict("precision") == "a"
    idcg = 4 + 2 / log2(3) + 2 / 2 + 2 / log2(5) + 1 / log2(6)
    a, b = compare.values("ndcg")
    assert a == pytest.approx(1.0) and b == pytest.approx(4 / idcg)
    votes = [Answer(i, None, 0, v) for i, v in enumerate(["a", "a", "same", "b"])]
    summary = compare.summary(votes)
    assert summary.votes == {"a": 2, "b": 1, "same": 1} and summary.agree == 1
    assert compare_activity("early_or_many", "mrr").verdict("mrr") == "a"
    assert compare_activity("early_or_many", "ndcg").verdict("ndcg") == "b"
    assert compare_activity("same_precision", "precision").verdict("precision") == "same"


def test_rank_it_best_maximum_found_and_most_common_mistake():
    spec = activity_list(("w", "x", "y", "z"), (0, 3, 1, 2), 4)
    rank = rank_activity(spec, "small_k")
    assert rank.spec.k == 3 and rank.spec.labels == ("w", "x", "y", "z")
    assert rank.maximum() == pytest.approx(1.0)
    best = [1, 3, 2, 0]  # x(3) z(2) y(1) w(0)
    slip_at_2 = [1, 2, 3, 0]  # y(1) where the ideal has 2
    slip_at_1 = [3, 1, 2, 0]  # z(2) where the ideal has 3
    answers = [Answer(i, None, 0, o) for i, o in enumerate([best, slip_at_2, slip_at_2, slip_at_1])]
    summary = rank.summary(answers)
    assert (summary.count, summary.found) == (4, 1)
    m = summary.mistake
    assert (m.label, m.position, m.count, m.grade, m.ideal_grade) == ("y", 2, 2, 1, 2)
    dcg = 3 + 1 / log2(3) + 2 / 2
    assert rank.score(slip_at_2) == pytest.approx(dcg / (3 + 2 / log2(3) + 1 / 2))
    with pytest.raises(InputError):
        rank.check([0, 1, 1, 2])


def test_the_pool_twist_caps_the_best_order_below_1_and_exponential_changes_the_value():
    spec = activity_list(("a", "b", "c"), (2, 0, 1), 3)
    pooled = rank_activity(spec, "pool")
    assert pooled.spec.pool == (2.0, 1.0) and pooled.maximum() < 1
    best = 2 + 1 / log2(3)
    ideal = 2 + 2 / log2(3) + 1 / 2
    assert pooled.maximum() == pytest.approx(best / ideal)
    exp = rank_activity(spec, "exponential")
    assert exp.spec.gain == "exponential"
    assert exp.score([0, 1, 2]) == pytest.approx((3 + 1 / 2) / (3 + 1 / log2(3)))


def test_an_already_ideal_list_starts_shuffled_the_same_way_for_everyone():
    spec = activity_list(("a", "b", "c", "d"), (3, 2, 1, 0), 4)
    first, second = rank_activity(spec, "exponential"), rank_activity(spec, "exponential")
    assert first.spec == second.spec and first.spec.ndcg() < 1


def test_practice_together_marks_each_exercise_with_the_practice_rules():
    practice = practice_activity(2026, 7)
    assert len(practice.numbers) == 7 and all(exercise(2026, n).kind != "reach" for n in practice.numbers)
    first = exercise(2026, practice.numbers[0])
    assert practice.check(f"{first.answer:.3f}", 0) == ExerciseAnswer(f"{first.answer:.3f}", True)
    assert practice.check(f"{first.answer + 0.5:.3f}", 0).right is False
    answers = [
        Answer(1, None, 0, ExerciseAnswer("x", True)),
        Answer(2, None, 0, ExerciseAnswer("y", False)),
        Answer(2, None, 1, ExerciseAnswer("z", True)),
    ]
    summary = practice.summary(answers)
    assert summary.count == 2 and summary.parts[:2] == [(2, 1), (1, 1)]


def test_results_rows_mark_each_answer_and_keep_a_row_for_a_student_who_did_not_answer():
    activity = Predict(preset_list("five"))
    truth = ndcg_at_k([3, 2, 3, 0, 1], 5)
    present = (Member(1, "=1+1"), Member(2, None), Member(3, "Cai"))
    answers = (Answer(1, "=1+1", 0, 0.97, 10.0), Answer(2, None, 0, 0.5, 11.0))
    result = activity_results(Taken(1, 1, activity, answers, present))
    assert result.solutions == (pytest.approx(truth),)
    assert [(r.student, r.nickname, r.value, r.right, r.ndcg, r.answered_at) for r in result.rows] == [
        (1, "=1+1", 0.97, abs(0.97 - truth) <= 0.05, None, 10.0),  # the raw nickname: the CSV makes it safe
        (2, None, 0.5, False, None, 11.0),
        (3, "Cai", None, None, None, None),
    ]


@pytest.mark.parametrize("name", list(PAIRS))
def test_every_pair_is_scored_under_every_metric_with_its_judged_pool(name):
    compare = compare_activity(name, "ndcg")
    for metric in METRICS:
        a, b = compare.values(metric)
        assert 0 <= a <= 1 and 0 <= b <= 1


# --- activities that teach: stated conventions, hidden grades, real result lists ---------------------------


def test_predict_and_rank_state_gain_discount_k_and_the_ideal_source():
    food = result_list("chengdu_food")
    assert Predict(food).conventions() == Conventions("ndcg", 5, "linear", "log2", "list")
    exp = rank_activity(food, "exponential")
    assert exp.conventions() == Conventions("ndcg", 5, "exponential", "log2", "list")
    assert rank_activity(food, "small_k").conventions() == Conventions("ndcg", 3, "linear", "log2", "list")
    assert rank_activity(food, "pool").conventions() == Conventions("ndcg", 5, "linear", "log2", "pool")
    # Stated and computed agree: the exponential gain is 2^g - 1 over the log2 discount.
    g = [2**x - 1 for x in (4, 1, 3, 4, 0)]
    dcg = g[0] + g[1] / log2(3) + g[2] / 2 + g[3] / log2(5)
    ideal = g[0] + g[3] / log2(3) + g[2] / 2 + g[1] / log2(5)
    assert exp.spec.ndcg() == pytest.approx(dcg / ideal)


def test_compare_states_its_metric_k_and_for_ndcg_the_gain_and_judged_pool():
    assert compare_activity("seed003", "ndcg").conventions() == Conventions("ndcg", 5, "linear", "log2", "pool")
    assert compare_activity("seed003", "mrr").conventions() == Conventions("mrr", None)
    assert compare_activity("seed003", "precision").conventions() == Conventions("precision", 5)
    # The stated pool is the one scored: B's NDCG@5 against every judged grade of seed 003.
    b = 4 / (4 + 2 / log2(3) + 2 / 2 + 2 / log2(5) + 1 / log2(6))
    assert compare_activity("seed003", "ndcg").values("ndcg")[1] == pytest.approx(b)


@pytest.mark.parametrize("kind", KINDS)
def test_every_exercise_kind_states_linear_gain_and_log2_and_is_scored_so(kind):
    ex = exercise(7, KINDS.index(kind))
    conv = conventions(ex)
    assert (conv.gain, conv.discount) == ("linear", "log2")
    assert conv.metric == ("dcg" if kind in ("dcg_term", "dcg", "gap") else "ndcg")
    assert conv.k == (None if kind == "dcg_term" else ex.data["k"])
    assert conv.ideal == ("list" if conv.metric == "ndcg" else None)
    if kind == "dcg_term":  # the linear answer is right, the exponential one is not
        grade, position = ex.data["grades"][ex.data["position"] - 1], ex.data["position"]
        assert ex.answer == pytest.approx(grade / log2(position + 1))
        if grade > 1:
            assert not practice_activity(7, 1).check(f"{(2**grade - 1) / log2(position + 1):.3f}").right
    if kind == "ndcg":
        assert ex.answer == pytest.approx(ndcg_at_k(ex.data["grades"], ex.data["k"], gain="linear"))


def test_practice_states_each_exercise_s_conventions():
    practice = practice_activity(2026, 5)
    assert [practice.conventions(p) for p in range(5)] == [conventions(ex) for ex in practice.exercises()]
    assert practice.conventions(0) == Conventions("dcg", None, "linear", "log2", None)  # the DCG term


def test_the_rank_payload_keeps_show_grades_and_an_old_payload_reads_as_shown():
    spec = result_list("sourdough")
    hidden = rank_activity(spec, "small_k")
    assert hidden.show_grades is False and hidden.payload()["show_grades"] is False
    assert from_payload("rank", hidden.payload()) == hidden
    drill = rank_activity(spec, "small_k", show_grades=True)
    assert from_payload("rank", drill.payload()) == drill and drill.show_grades
    old = {"list": {k: v for k, v in list_to_json(spec).items() if k != "query"}, "twist": "small_k"}
    again = from_payload("rank", old)
    assert again.show_grades is True and again.spec.query == "" and again.spec.grades == spec.grades


@pytest.mark.parametrize(
    "name, query, grades, k, expected",
    [
        # Seed 003: DCG@5 = 4.0 + 0.63 + 1.5 + 1.72 + 0 = 7.85 against 4.0 + 2.52 + 1.5 + 0.43 = 8.45: 0.929.
        (
            "chengdu_food",
            "成都美食推荐",
            (4, 1, 3, 4, 0),
            5,
            (4 + 1 / log2(3) + 3 / 2 + 4 / log2(5)) / (4 + 4 / log2(3) + 3 / 2 + 1 / log2(5)),
        ),
        # Seed 003: 6.85 against 7.32: 0.936.
        (
            "chengdu_trip",
            "成都3天游",
            (4, 2, 0, 1, 3),
            5,
            (4 + 2 / log2(3) + 1 / log2(5) + 3 / log2(6)) / (4 + 3 / log2(3) + 2 / 2 + 1 / log2(5)),
        ),
        (
            "sourdough",
            "how to make a sourdough starter",
            (3, 1, 2, 1, 0, 3, 0, 2),
            5,
            (3 + 1 / log2(3) + 2 / 2 + 1 / log2(5)) / (3 + 3 / log2(3) + 2 / 2 + 2 / log2(5) + 1 / log2(6)),
        ),
        (
            "python_sort",
            "python sort list of dicts by key",
            (2, 3, 1, 1, 0, 2, 0),
            5,
            (2 + 3 / log2(3) + 1 / 2 + 1 / log2(5)) / (3 + 2 / log2(3) + 2 / 2 + 1 / log2(5) + 1 / log2(6)),
        ),
    ],
)
def test_the_real_result_lists_and_their_ndcg(name, query, grades, k, expected):
    spec = result_list(name)
    assert (spec.query, spec.grades, spec.k) == (query, grades, k)
    assert len(set(spec.labels)) == len(spec.labels)
    assert spec.ndcg() == pytest.approx(expected)
    if name == "chengdu_food":
        assert spec.labels == ("成都火锅大全", "重庆火锅", "成都小吃街", "成都美食地图", "北京烤鸭")
        assert round(spec.ndcg(), 3) == 0.929  # the seed's figure


@pytest.mark.parametrize(
    "raw, code",
    [
        ("1,5", "activity.estimate_range"),  # read as 1.5, which is no estimate
        ("1,2,3", "answer.comma"),
        ("1,234", "answer.comma"),
        # Digits str.isdigit takes and float() refuses: a message, never a traceback (a review found "0,²").
        ("0,²", "answer.comma"),
        ("²,5", "answer.comma"),
        ("٣,5", "answer.comma"),
    ],
)
def test_a_comma_estimate_that_is_no_estimate_or_is_ambiguous_is_refused(raw, code):
    with pytest.raises(InputError) as caught:
        Predict(random_list(1)).check(raw)
    assert caught.value.code == code


@pytest.mark.parametrize("raw, value", [("0,75", 0.75), ("0，5", 0.5), ("0,0", 0.0), ("1,0", 1.0)])
def test_a_decimal_comma_estimate_is_read_as_a_point_and_the_student_is_told(raw, value):
    predict = Predict(random_list(1))
    assert predict.check(raw) == value
    assert str(predict.note(raw)) == f"read {raw} as {value:g}"
    assert predict.note("0.75") is None and predict.note("0,6,2") is None


def test_a_practice_sets_number_exercises_read_a_decimal_comma_and_its_choices_do_not():
    practice = Practice(7, (KINDS.index("ndcg"), KINDS.index("better_order")))
    assert exercise(7, practice.numbers[0]).kind == "ndcg"  # the exercise at a kind's index is of that kind
    typed = f"{exercise(7, practice.numbers[0]).answer:.4f}".replace(".", ",")
    assert practice.check(typed, 0).right
    assert str(practice.note(typed, 0)) == f"read {typed} as {float(typed.replace(',', '.')):g}"
    assert practice.note("1,2", 1) is None and practice.note("0.5", 0) is None
    # A part past the set's last exercise is no exercise: nothing to tell, not an error.
    assert practice.note(typed, len(practice.numbers)) is None


# --- activities one by one: lists, answers, aggregates, payloads, error fields --------------------------------------

# Expected NDCGs are DCGs written out term by term; error codes and every field of their messages are checked,
# since the page shows them to a student.


def fields(error):
    return error.code, error.fields


# --- lists ---------------------------------------------------------------------------------------


def test_a_list_names_what_is_wrong_with_it():
    assert fields(error_of(activity_list, ("a",), (1, 2), 1)) == ("count.labels", {"labels": 1, "grades": 2})
    assert fields(error_of(activity_list, (), (), 1)) == ("list.empty", {})
    assert fields(error_of(activity_list, ("a",), (1,), 1, pool=(-1,))) == (
        "grade.negative",
        {"place": Place("pool.grade", position=1), "value": "-1"},
    )
    assert fields(error_of(activity_list, ("a", "b"), (1, 0), 3)) == (
        "k.too_large",
        {"place": Place("k"), "value": "3", "limit": 2},
    )
    assert fields(error_of(activity_list, ("a", "b"), (1, 0), 0)) == (
        "k.too_small",
        {"place": Place("k"), "value": "0", "low": 1},
    )
    assert fields(error_of(activity_list, ("a",), (1,), 1, "log")) == (
        "activity.gain",
        {"value": "'log'", "choices": "linear, exponential"},
    )
    activity_list(("a", "b"), (1, 0), 2, "exponential", (2.5,))  # the largest k, the other gain and a pool are fine


def test_the_ideal_comes_from_the_pool_only_when_there_is_one():
    assert activity_list(("a", "b"), (1, 0), 2).judged_pool() is None
    assert activity_list(("a", "b"), (1, 0), 2, pool=(3,)).judged_pool() == [1, 0, 3]


def test_a_lists_ndcg_is_cut_at_its_k():
    spec = activity_list(("a", "b", "c"), (0, 0, 3), 1)
    assert spec.ndcg() == 0.0  # only the first item counts, and it is not relevant
    assert spec.reordered([2, 0, 1]).ndcg() == 1.0
    two = activity_list(("a", "b", "c"), (1, 0, 3), 2)
    assert two.ndcg() == pytest.approx(1 / (3 + 1 / log2(3)))


def test_the_worked_terms_follow_the_order_given():
    spec = activity_list(("a", "b", "c"), (0, 3, 1), 2, pool=(2,))
    own = spec.breakdown()
    assert own["item"].tolist() == ["a", "b", "c"] and own["grade"].tolist() == [0, 3, 1]
    assert own["in_top_k"].tolist() == [True, True, False]
    assert own["ideal_grade"].tolist() == [3, 2, 1]  # the pool's 2 is in the ideal
    assert own["contribution"].tolist() == pytest.approx([0, 3 / log2(3), 1 / 2])
    assert own["ndcg"].iloc[1] == pytest.approx((3 / log2(3)) / (3 + 2 / log2(3)))
    moved = spec.reordered([1, 2, 0]).breakdown()
    assert moved["item"].tolist() == ["b", "c", "a"] and moved["grade"].tolist() == [3, 1, 0]
    assert moved["ndcg"].iloc[1] == pytest.approx((3 + 1 / log2(3)) / (3 + 2 / log2(3)))
    exponential = activity_list(("a", "b"), (0, 2), 2, "exponential").breakdown()
    assert exponential["gain"].tolist() == [0, 3]


def test_a_list_as_json_and_back():
    spec = activity_list(("a", "b"), (3, 2.5), 2, "exponential", (1, 0.5))
    data = list_to_json(spec)
    assert json.dumps(data) == (
        '{"labels": ["a", "b"], "grades": [3, 2.5], "k": 2, "gain": "exponential", "pool": [1, 0.5], "query": ""}'
    )
    assert list_from_json(data) == spec
    bare = list_from_json({"labels": [1, "b"], "grades": ["2", 0], "k": "1"})
    assert bare == activity_list(("1", "b"), (2.0, 0.0), 1, "linear", ())


def test_a_preset_as_a_class_list():
    long = preset_list("long")  # 50 results at k = 10: a phone shows the first 12
    assert len(long.labels) == 12 and long.k == 10 and long.labels[0] == "result 1"
    wikipedia = preset_list("wikipedia")  # D7 (3) and D8 (2) are judged and not retrieved
    assert wikipedia.pool == (3.0, 2.0) and wikipedia.k == 6
    assert preset_list("five").pool == ()


def test_a_seeded_random_list_is_the_same_for_everyone():
    # Written out: a seed names the same list for the whole class.
    assert random_list(0) == activity_list(
        ("doc A", "doc B", "doc C", "doc D", "doc E", "doc F", "doc G"), (1, 1, 1, 1, 0, 1, 0), 6
    )
    assert random_list("1") == activity_list(
        ("doc A", "doc B", "doc C", "doc D", "doc E", "doc F"), (3, 0, 1, 1, 0, 0), 4
    )
    assert random_list(2026) == activity_list(
        ("doc A", "doc B", "doc C", "doc D", "doc E", "doc F"), (0, 1, 2, 0, 0, 0), 4
    )
    # Seed 114 first draws 3, 3, 2, 1, 1, already in the best order: it draws again.
    assert random_list(114) == activity_list(("doc A", "doc B", "doc C", "doc D", "doc E"), (1, 0, 1, 1, 3), 3)
    made = [random_list(seed) for seed in range(80)]
    assert {len(s.grades) for s in made} == {5, 6, 7, 8}
    assert {g for s in made for g in s.grades} == {0, 1, 2, 3}
    assert {s.k for s in made} == {3, 4, 5, 6, 7, 8}
    for s in made:
        assert s.labels == tuple(f"doc {letter}" for letter in "ABCDEFGH"[: len(s.grades)])
        assert sum(s.grades) > 0 and sorted(s.grades, reverse=True) != list(s.grades)
        assert 3 <= s.k <= len(s.grades)


def test_within_0_05_counts_the_edge():
    assert within(0.0, 0.05) and within(0.5, 0.45)
    assert within(0.0, 0.05 + 1e-9)  # the tolerance of rounding
    assert not within(0.0, 0.0501)


# --- predict -----------------------------------------------------------------------------------------


def test_an_estimate_is_a_number_from_0_to_1():
    """From 0 to 1, or outside them only as a known mistake's number: on "five" (3 2 3 0 1 at k = 5) none gives
    1.2 or -0.1 (the ideal sorted worst first gives 1.51, the subject of
    ``test_predict_takes_the_number_a_mistake_explains.py``)."""
    predict = Predict(preset_list("five"))
    assert predict.check("0") == 0.0 and predict.check(" 1 ") == 1.0 and predict.check("0.5", 0) == 0.5
    assert fields(error_of(predict.check, " 1.2 ")) == ("activity.estimate_range", {"value": "'1.2'"})
    assert fields(error_of(predict.check, "-0.1")) == ("activity.estimate_range", {"value": "'-0.1'"})
    long = "2.000000000000000000001"  # quoted up to 20 characters
    assert fields(error_of(predict.check, long)) == ("activity.estimate_range", {"value": "'2.000000000000000000'"})


def test_the_predict_summary_and_one_result():
    spec = activity_list(("a", "b"), (0, 1), 2)
    truth = (1 / log2(3)) / 1  # 0.6309
    predict = Predict(spec)
    summary = predict.summary([Answer(i, None, 0, g) for i, g in enumerate([0.2, 0.9, 0.6, 0.62])])
    assert summary.count == 4 and summary.truth == pytest.approx(truth)
    assert [b.count for b in summary.bins] == [0] * 4 + [1] + [0] * 7 + [2] + [0] * 5 + [1] + [0]
    assert summary.within == 2 and summary.median == pytest.approx((0.6 + 0.62) / 2)
    empty = predict.summary([])
    assert (empty.count, empty.within, empty.median) == (0, 0, None)
    result = predict.result(0.25)
    assert result == Result(
        right=False,
        ndcg=pytest.approx(truth),
        answer="0.25",
        detail=PredictDetail(0.25, pytest.approx(truth), pytest.approx(truth - 0.25)),
        points=round(100 * (1 - (truth - 0.25) / 0.5)),
    )
    assert predict.result(0.6).right and predict.result(0.6).answer == "0.6"


# --- rank ----------------------------------------------------------------------------------------------


def test_an_order_is_every_index_once():
    rank = Rank(activity_list(("a", "b"), (0, 1), 2), "small_k")
    assert rank.check([1, 0]) == [1, 0] and rank.check((0, 1)) == [0, 1]
    for raw in ([0, True], [0, 1, "x"], [0], "01", None, [0, 0], [1, 2]):
        assert fields(error_of(rank.check, raw)) == ("activity.order", {"value": repr(raw), "count": 2})


def test_the_rank_payload_and_one_result():
    spec = activity_list(("x", "y", "z"), (1, 3, 0), 3)
    rank = Rank(spec, "pool")
    assert rank.payload() == {"list": list_to_json(spec), "twist": "pool", "show_grades": False}
    best = 3 + 1 / log2(3)
    worse = 1 + 3 / log2(3)
    result = rank.result([0, 1, 2])
    assert result == Result(
        right=False,
        ndcg=pytest.approx(worse / best),
        answer="x > y > z",
        detail=RankDetail(pytest.approx(worse / best), pytest.approx(1.0)),
        points=round(100 * worse / best),
    )
    top = rank.result([1, 0, 2], 2)
    assert top.right and top.ndcg == pytest.approx(1.0) and top.answer == "y > x > z"


def test_the_rank_summary():
    spec = activity_list(("w", "x", "y", "z"), (0, 3, 1, 2), 3, pool=(3,))  # the pool's 3 caps the best below 1
    rank = Rank(spec, "pool")
    best = (3 + 2 / log2(3) + 1 / 2) / (3 + 3 / log2(3) + 2 / 2)
    slip = (2 + 3 / log2(3) + 1 / 2) / (3 + 3 / log2(3) + 2 / 2)  # z, x, y
    summary = rank.summary([Answer(1, None, 0, [1, 3, 2, 0]), Answer(2, None, 0, [3, 1, 2, 0])])
    assert (summary.count, summary.found) == (2, 1)
    assert summary.maximum == pytest.approx(best) and summary.scores == pytest.approx([best, slip])
    assert [b.count for b in summary.bins] == [0] * 14 + [1, 0, 1] + [0] * 3  # 0.745 and 0.808
    m = summary.mistake
    assert (m.label, m.position, m.count, m.grade, m.ideal_grade) == ("z", 1, 1, 2, 3)


def test_an_order_within_1e_9_of_the_best_is_found_and_no_slip():
    # Two grades 1e-6 apart: swapping them costs far less than 1e-9 of NDCG, but their gains differ by more.
    rank = Rank(activity_list(("a", "b"), (1000, 1000.000001), 2), "small_k")
    summary = rank.summary([Answer(1, None, 0, [0, 1])])
    assert summary.found == 1 and summary.mistake is None


def test_a_gain_within_1e_9_of_the_ideals_is_no_slip():
    rank = Rank(activity_list(("a", "b", "c"), (0, 1e-9, 5), 3), "small_k")
    assert rank.common_mistake([[2, 0, 1]]) is None


def test_the_most_common_slip_wins_then_the_earliest_then_the_first_item():
    rank = Rank(activity_list(("w", "x", "y", "z"), (0, 3, 1, 2), 4), "small_k")  # ideal x(3) z(2) y(1) w(0)
    z_first, y_second = [3, 1, 2, 0], [1, 2, 3, 0]
    m = rank.common_mistake([z_first, z_first, y_second])
    assert (m.label, m.position, m.count, m.grade, m.ideal_grade) == ("z", 1, 2, 2, 3)
    m = rank.common_mistake([y_second, z_first])  # once each: the earlier position
    assert (m.label, m.position, m.count) == ("z", 1, 1)
    y_first = [2, 1, 3, 0]
    m = rank.common_mistake([z_first, y_first])  # once each at position 1: the item listed first (y)
    assert (m.label, m.position, m.count, m.grade) == ("y", 1, 1, 1)


def test_twists_keep_the_pool_and_add_one_when_there_is_none():
    spec = activity_list(("a", "b", "c", "d"), (3, 0, 1, 2), 4, pool=(2,))
    assert twisted(spec, "exponential") == activity_list(spec.labels, spec.grades, 4, "exponential", (2,))
    assert twisted(spec, "small_k") == activity_list(spec.labels, spec.grades, 3, "linear", (2,))
    assert twisted(spec, "pool").pool == (2,)
    bare = activity_list(("a", "b", "c", "d"), (3, 0, 1, 2), 4)
    assert twisted(bare, "pool").pool == (3, 2)  # the top grade and the one below it
    assert twisted(activity_list(("a", "b"), (0, 0), 2), "pool").pool == (1,)  # 0 and max(-1, 1): no 0
    assert twisted(activity_list(("a", "b"), (1, 0), 2), "pool").pool == (1, 1)  # 1 and max(0, 1)
    assert fields(error_of(twisted, spec, "swap")) == (
        "activity.twist",
        {"value": "'swap'", "choices": "exponential, small_k, pool"},
    )


def test_a_rank_activity_shuffles_only_a_list_already_in_its_best_order():
    ideal = activity_list(("a", "b", "c"), (1, 1, 0), 3)  # two distinct grades, already best
    shuffled = rank_activity(ideal, "pool")
    assert shuffled.twist == "pool" and shuffled.spec.pool == (1, 1)
    assert sorted(shuffled.spec.grades) == [0, 1, 1] and shuffled.spec.grades != (1, 1, 0)
    assert dict(zip(shuffled.spec.labels, shuffled.spec.grades, strict=True)) == {"a": 1, "b": 1, "c": 0}
    same = activity_list(("a", "b", "c"), (1, 1, 1), 3)  # every order is best: nothing to shuffle
    assert rank_activity(same, "small_k").spec == activity_list(("a", "b", "c"), (1, 1, 1), 3)
    loose = activity_list(("a", "b", "c"), (0, 1, 1), 2)
    assert rank_activity(loose, "exponential").spec == activity_list(("a", "b", "c"), (0, 1, 1), 2, "exponential")


def test_a_list_whose_orders_all_score_within_1e_9_of_the_best_is_not_shuffled_and_does_not_hang():
    # 1000.000001 then 1000: the reversed order is within 1e-9 of the best, so no order can count as below it.
    near = activity_list(("a", "b"), (1000.000001, 1000), 2)
    made = []
    worker = threading.Thread(target=lambda: made.append(rank_activity(near, "small_k")), daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert made == [Rank(near, "small_k")]


# --- compare ----------------------------------------------------------------------------------------------


PAIR = Pair(("p", "q", "r"), (0, 0, 3), ("s", "t", "u"), (1, 0, 2), (3, 2, 1, 0, 0), 2)  # both have relevant beyond k


def test_compare_values_are_cut_at_the_pairs_k():
    compare = Compare(PAIR, "ndcg", "mine")
    assert compare.values("ndcg") == pytest.approx((0.0, 1 / (3 + 2 / log2(3))))
    assert compare.values("mrr") == pytest.approx((1 / 3, 1.0))
    assert compare.values("precision") == pytest.approx((0.0, 0.5))
    assert compare.verdict("ndcg") == "b" and compare.verdict("mrr") == "b"
    assert Compare(Pair(("a",), (1,), ("b",), (0,), (1, 0), 1), "ndcg").verdict("ndcg") == "a"


def test_two_rankings_whose_values_are_at_most_1e_9_apart_are_the_same():
    def verdict(gap):
        # k = 1 and an ideal grade of 1: each side's NDCG@1 is its first grade, so the values are gap and 0.
        return Compare(Pair(("a",), (gap,), ("b",), (0.0,), (1.0, gap, 0.0), 1), "ndcg").verdict("ndcg")

    assert verdict(EPS) == "same" and verdict(2 * EPS) == "a"


def test_the_compare_payload_and_back():
    compare = Compare(PAIR, "precision", "mine")
    payload = compare.payload()
    assert payload == {
        "name": "mine",
        "metric": "precision",
        "k": 2,
        "labels_a": ["p", "q", "r"],
        "a": [0, 0, 3],
        "labels_b": ["s", "t", "u"],
        "b": [1, 0, 2],
        "judged": [3, 2, 1, 0, 0],
    }
    assert from_payload("compare", payload) == compare
    del payload["name"]
    assert from_payload("compare", payload) == Compare(PAIR, "precision", "")


def test_a_vote_is_a_b_or_same():
    compare = compare_activity("seed003", "ndcg")
    assert compare.name == "seed003" and compare.metric == "ndcg"
    assert [compare.check(v) for v in ("a", "b", "same")] == ["a", "b", "same"]
    assert fields(error_of(compare.check, "")) == ("answer.no_choice", {})
    assert fields(error_of(compare.check, None)) == ("answer.no_choice", {})
    assert fields(error_of(compare.check, "c")) == ("activity.vote", {"value": "'c'"})


def test_the_compare_summary_and_one_result():
    compare = Compare(PAIR, "precision")  # P@2: 0 against 0.5, so B
    summary = compare.summary([Answer(1, None, 0, "a"), Answer(2, None, 0, "same")])
    assert summary.count == 2 and summary.votes == {"a": 1, "b": 0, "same": 1} and summary.agree == 0
    ndcg_b = 1 / (3 + 2 / log2(3))
    assert summary.verdicts == {
        "ndcg": (0.0, pytest.approx(ndcg_b), "b"),
        "mrr": (pytest.approx(1 / 3), 1.0, "b"),
        "precision": (0.0, 0.5, "b"),
    }
    assert compare.summary([Answer(1, None, 0, "b")]).agree == 1
    assert compare.result("a") == Result(right=False, ndcg=None, answer="a", detail=CompareDetail("b"), points=0)
    assert compare.result("b", 1) == Result(right=True, ndcg=None, answer="b", detail=CompareDetail("b"), points=100)


def test_each_metric_has_its_own_verdict():
    compare = compare_activity("seed003", "mrr")  # MRR cannot tell the systems apart; P@5 and NDCG@5 can
    verdicts = compare.summary([]).verdicts
    assert {m: v[2] for m, v in verdicts.items()} == {"ndcg": "a", "mrr": "same", "precision": "a"}
    assert compare.result("same") == Result(
        right=True, ndcg=None, answer="same", detail=CompareDetail("same"), points=100
    )


def test_an_unknown_pair_or_metric():
    assert fields(error_of(compare_activity, "mine", "ndcg")) == (
        "activity.pair",
        {"value": "'mine'", "choices": "seed003, early_or_many, same_precision"},
    )
    assert fields(error_of(compare_activity, "seed003", "map")) == (
        "activity.metric",
        {"value": "'map'", "choices": "ndcg, mrr, precision"},
    )


# --- practice ---------------------------------------------------------------------------------------------

# Set 2026: 0 dcg_term (1.5), 3 better_order (b), 4 swap (down), 6 gap (q1), 2 ndcg (0.6788).
PRACTICE = Practice(2026, (0, 3, 4, 6, 2))


def test_practice_exercises_are_the_sets():
    assert [(e.seed, e.number, e.kind) for e in PRACTICE.exercises()] == [
        (2026, 0, "dcg_term"),
        (2026, 3, "better_order"),
        (2026, 4, "swap"),
        (2026, 6, "gap"),
        (2026, 2, "ndcg"),
    ]


def test_choices_of_each_kind_of_exercise():
    first, order, swap, gap, ndcg = PRACTICE.exercises()
    assert choices(order) == ("a", "b") and choices(swap) == ("up", "down", "same")
    assert choices(gap) == ("q1", "q2", "q3", "q4") and choices(first) == () and choices(ndcg) == ()


def test_practice_answers_are_checked_by_part():
    assert PRACTICE.check("1.5") == ExerciseAnswer("1.5", True)
    assert PRACTICE.check("b", 1) == ExerciseAnswer("b", True)
    assert PRACTICE.check("up", 2) == ExerciseAnswer("up", False)
    assert PRACTICE.check("q1", 3) == ExerciseAnswer("q1", True)
    assert PRACTICE.check("0.679", 4) == ExerciseAnswer("0.679", True)  # a number, not a choice
    assert fields(error_of(PRACTICE.check, "", 1)) == ("answer.no_choice", {})  # blank: chosen nothing
    assert fields(error_of(PRACTICE.check, "c", 1)) == ("activity.choice", {"value": "'c'", "choices": "a, b"})
    assert fields(error_of(PRACTICE.check, "left", 2)) == (
        "activity.choice",
        {"value": "'left'", "choices": "up, down, same"},
    )
    for part in (5, -1, True, "0", 1.0):
        assert fields(error_of(PRACTICE.check, "1.5", part)) == ("activity.part", {"value": repr(part), "count": 5})


def test_a_practice_result():
    result = PRACTICE.result(ExerciseAnswer("a", False), 1)
    assert result == Result(right=False, ndcg=None, answer="a", detail=PracticeDetail("b"), points=0)
    first = PRACTICE.result(ExerciseAnswer("1.5", True))
    assert first == Result(right=True, ndcg=None, answer="1.5", detail=PracticeDetail(1.5), points=100)


def test_a_practice_activity_leaves_out_reach_exercises():
    # Kinds repeat every 7 exercises and the sixth (5, 12, ...) is reach.
    assert practice_activity(2026, 10) == Practice(2026, (0, 1, 2, 3, 4, 6, 7, 8, 9, 10))
    assert practice_activity("7", 1) == Practice(7, (0,))
    assert fields(error_of(practice_activity, 2026, 11)) == (
        "k.too_large",
        {"place": Place("activity.count"), "value": "11", "limit": 10},
    )
    assert fields(error_of(practice_activity, 2026, 0)) == (
        "k.too_small",
        {"place": Place("activity.count"), "value": "0", "low": 1},
    )


# --- payloads and rows ----------------------------------------------------------------------------------------


def test_every_activity_comes_back_from_its_payload():
    spec = activity_list(("a", "b"), (1, 2.5), 1, "exponential", (3,))
    for activity in (Predict(spec), Rank(spec, "pool"), Compare(PAIR, "mrr", "mine"), PRACTICE):
        again = from_payload(activity.kind, json.loads(json.dumps(activity.payload())))
        assert again == activity
    assert fields(error_of(from_payload, "quiz", {})) == (
        "activity.kind",
        {"value": "'quiz'", "choices": "predict, rank, compare, practice, judge, choose"},
    )


# Payloads as the store on main kept them on 2026-11-24 (commit 1bd1b36, before a class list became an
# ``ndcg_core.lists.ListSpec``), copied from its SQLite file's ``activities`` table. An activity read from one is the
# one made today, writes the very same text back (a round is a repeat of that text), and its figures are those main
# computed from it (the literals) and the formulas.
STORED_BY_MAIN = (
    (
        "predict",
        r'{"list": {"labels": ["\u6210\u90fd\u706b\u9505\u5927\u5168", "\u91cd\u5e86\u706b\u9505", '
        r'"\u6210\u90fd\u5c0f\u5403\u8857", "\u6210\u90fd\u7f8e\u98df\u5730\u56fe", "\u5317\u4eac\u70e4\u9e2d"], '
        r'"grades": [4, 1, 3, 4, 0], "k": 5, "gain": "linear", "pool": [], '
        r'"query": "\u6210\u90fd\u7f8e\u98df\u63a8\u8350"}}',
    ),
    (
        "predict",
        '{"list": {"labels": ["a", "b", "c"], "grades": [2, 0, 1.5], "k": 2, "gain": "exponential", "pool": [3], '
        '"query": "a query", "discount": "jk"}}',
    ),
    (
        "rank",
        '{"list": {"labels": ["D1", "D2", "D3", "D4", "D5", "D6"], "grades": [3, 2, 3, 0, 1, 2], "k": 6, '
        '"gain": "linear", "pool": [3, 2], "query": ""}, "twist": "pool", "show_grades": false}',
    ),
    (
        "rank",
        '{"list": {"labels": ["b", "c", "a"], "grades": [1, 0, 1], "k": 3, "gain": "linear", "pool": [], '
        '"query": ""}, "twist": "small_k", "show_grades": true}',
    ),
    (
        "judge",
        r'{"list": {"labels": ["\u6210\u90fd3\u5929\u653b\u7565", "\u6210\u90fd\u7f8e\u98df\u63a8\u8350", '
        r'"\u5317\u4eac\u65c5\u6e38"], "grades": [4, 2, 0], "k": 2, "gain": "linear", "pool": [], '
        r'"query": "\u6210\u90fd"}, "scale": [0, 4]}',
    ),
)


def test_a_payload_stored_by_main_reads_as_the_same_activity_and_writes_the_same_text():
    read = [from_payload(kind, json.loads(text)) for kind, text in STORED_BY_MAIN]
    assert [json.dumps(activity.payload()) for activity in read] == [text for _, text in STORED_BY_MAIN]
    assert read == [
        Predict(result_list("chengdu_food")),
        Predict(activity_list(("a", "b", "c"), (2, 0, 1.5), 2, "exponential", (3,), "a query", "jk")),
        rank_activity(preset_list("wikipedia"), "pool"),
        rank_activity(activity_list(("a", "b", "c"), (1, 1, 0), 3), "small_k", show_grades=True),
        Judge(activity_list(("成都3天攻略", "成都美食推荐", "北京旅游"), (4, 2, 0), 2, query="成都"), Scale(0, 4)),
    ]


def test_a_payload_stored_by_main_keeps_every_figure_to_the_bit():
    food, jk, wikipedia, three, judge = (from_payload(kind, json.loads(text)) for kind, text in STORED_BY_MAIN)
    assert food.truth() == 0.9289411547694414
    assert food.truth() == pytest.approx(
        (4 + 1 / log2(3) + 3 / 2 + 4 / log2(5)) / (4 + 4 / log2(3) + 3 / 2 + 1 / log2(5))
    )
    terms = food.spec.breakdown()
    assert terms["cumulative_dcg"].tolist() == [4.0, 4.630929753571458, 6.130929753571458] + [7.85363598586503] * 2
    assert terms["cumulative_idcg"].iloc[-1] == 8.454395572359225
    # Exponential gain, Järvelin-Kekäläinen's discount (none before rank 2, then log2(i)), and the pool's 3 in the
    # ideal: (2^2 - 1) / ((2^3 - 1) + (2^2 - 1) / log2(2)).
    assert jk.truth() == 0.3 == pytest.approx(3 / (7 + 3))
    assert jk.conventions() == Conventions("ndcg", 2, "exponential", "jk", "pool", base=2.0)
    # Every judged grade, 3 2 3 0 1 2 and the missed 3 2, is the ideal's: 3 3 3 2 2 2 at k = 6.
    ideal = 3 + 3 / log2(3) + 3 / 2 + 2 / log2(5) + 2 / log2(6) + 2 / log2(7)
    assert wikipedia.score(range(6)) == 0.785002371969948
    assert wikipedia.score(range(6)) == pytest.approx((3 + 2 / log2(3) + 3 / 2 + 1 / log2(6) + 2 / log2(7)) / ideal)
    assert wikipedia.maximum() == 0.8170229777363638
    assert wikipedia.maximum() == pytest.approx((3 + 3 / log2(3) + 2 / 2 + 2 / log2(5) + 1 / log2(6)) / ideal)
    assert wikipedia.spec.best_order() == [0, 2, 1, 5, 4, 3]
    assert three.score([0, 1, 2]) == 0.9197207891481876 == pytest.approx((1 + 1 / 2) / (1 + 1 / log2(3)))
    assert three.maximum() == 1.0 and three.show_grades is True
    answers = [
        Answer(s, None, p, g)
        for s, grades in enumerate([(3, 2, 1), (4, 1, 0), (4, 3, 0)])
        for p, g in enumerate(grades)
    ]
    summary = judge.summary(answers)
    assert summary.medians == (4, 2, 0) and summary.class_ndcg == summary.teacher_ndcg == 1.0
    assert summary.alpha == 0.7739463601532567


def test_results_rows_of_a_practice_and_of_a_compare():
    at = datetime(2027, 1, 15, 8, 30, tzinfo=UTC).timestamp()
    ana, bo = Member(2, "Ana"), Member(4, None)
    taken = Taken(3, 2, PRACTICE, (Answer(2, "Ana", 1, ExerciseAnswer("a", False), at),), (bo, ana))
    result = activity_results(taken)
    assert (result.number, result.round, result.kind) == (3, 2, "practice")
    assert result.solutions == tuple(PRACTICE.exercises()[i].answer for i in range(5))
    assert len(result.rows) == 10  # two students present, five exercises each, in the students' order
    assert result.rows[1] == StudentResult(2, "Ana", 1, "a", False, None, at, 0)
    assert [r.value for r in result.rows if r.student == 4] == [None] * 5
    compare = activity_results(Taken(1, 1, Compare(PAIR, "mrr"), (Answer(4, None, 0, "b", at),), ()))
    assert compare.rows == (StudentResult(4, None, 0, "b", True, None, at, 100),)  # an answer counts them present
    assert compare.solutions == ("b",)
    # A student not counted present who answered one exercise: every row of theirs carries the answer's nickname.
    late = activity_results(Taken(3, 1, PRACTICE, (Answer(7, "Cy", 2, ExerciseAnswer("a", True), at),), ()))
    assert [(r.student, r.nickname, r.part) for r in late.rows] == [(7, "Cy", part) for part in range(5)]


# --- the check command's outline and a lesson file's fields, word for word --------------------------------------

SPEC_EVERY_OPTION = activity_list(("a", "b", "c"), (2, 0, 1.5), 2, "exponential", (3,), "a query", "jk")
SPEC_PLAIN = activity_list(("a", "b", "c"), (2, 0, 1), 3)


def test_each_kind_outlines_its_activity_in_one_line():
    # Exponential gain with the jk discount (no discount at ranks 1 and 2) and the missed 3 in the ideal:
    # (2^2 - 1) / (7 + 3) = 0.3; the best order a c b reaches (3 + (2^1.5 - 1) / 1) / 10.
    best = (3 + (2**1.5 - 1)) / 10
    assert Predict(SPEC_EVERY_OPTION).outline() == (
        'Predict the NDCG "a query": 3 results, grades 2, 0, 1.5; NDCG@2 (exponential gain, jk discount base 2, '
        "ideal from every judged result, with the missed 3) = 0.3000"
    )
    assert Rank(SPEC_EVERY_OPTION, "", True).outline() == (
        'Rank it best "a query": 3 results, grades shown on phones, grades 2, 0, 1.5; NDCG@2 (exponential gain, jk '
        f"discount base 2, ideal from every judged result, with the missed 3) from 0.3000 to at best {best:.4f}"
    )
    missed_two = activity_list(("a", "b"), (2, 0), 2, pool=(3, 1))
    assert "ideal from every judged result, with the missed 3, 1)" in Predict(missed_two).outline()
    plain = (2 + 0 + 1 / 2) / (2 + 1 / log2(3))
    assert Predict(SPEC_PLAIN).outline() == (
        "Predict the NDCG: 3 results, grades 2, 0, 1; NDCG@3 (linear gain, log2 discount, ideal from the list) = "
        f"{plain:.4f}"
    )
    assert Rank(SPEC_PLAIN, "", False).outline() == (
        "Rank it best: 3 results, grades hidden on phones, grades 2, 0, 1; NDCG@3 (linear gain, log2 discount, ideal "
        f"from the list) from {plain:.4f} to at best 1.0000"
    )
    judged = (1 + 2 / log2(3)) / (2 + 1 / log2(3))
    assert Judge(activity_list(("a", "b"), (1, 2), 2, query="q"), Scale(1, 3)).outline() == (
        'Judge the results "q": 2 results on a scale of 1 to 3; grades 1, 2; NDCG@2 (linear gain, log2 discount, '
        f"ideal from the list) under the teacher's grades = {judged:.4f}"
    )
    seed003 = [Compare(PAIRS["seed003"], metric, "seed003", "成都旅游攻略") for metric in METRICS]
    ndcg_b = (4 / log2(2)) / (4 + 2 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6))
    sides = "A (grades 4, 2, 2, 2, 1) or B (grades 4, 0, 0, 0, 0)"
    assert [c.outline() for c in seed003] == [
        f'Which is better? "成都旅游攻略" {sides} under NDCG@5: A 1.0000, B {ndcg_b:.4f}',
        f'Which is better? "成都旅游攻略" {sides} under MRR: A 1.0000, B 1.0000',
        f'Which is better? "成都旅游攻略" {sides} under P@5: A 1.0000, B 0.2000',
    ]
    assert [c.solutions() for c in seed003] == [("a",), ("same",), ("a",)]
    assert (
        Compare(PAIRS["early_or_many"], "mrr").outline()
        == "Which is better? A (grades 3, 0, 0, 0, 0) or B (grades 0, 3, 3, 3, 0) under MRR: A 1.0000, B 0.5000"
    )
    assert Practice(5, (0, 7, 4)).outline() == "Practice together: seed 5, 3 exercises (dcg_term, dcg_term, swap)"


def test_a_list_writes_only_the_fields_that_differ_from_their_defaults():
    assert list_lesson_data(SPEC_PLAIN) == {"items": ["a", "b", "c"], "grades": [2, 0, 1], "k": 3}
    every = {"query": "a query", "items": ["a", "b", "c"], "grades": [2, 0, 1.5], "k": 2, "gain": "exponential"}
    assert list_lesson_data(SPEC_EVERY_OPTION) == {**every, "discount": "jk", "missed": [3]}
    assert list_lesson_data(SPEC_EVERY_OPTION, pool=False) == {**every, "discount": "jk"}
    # A Judge's list never writes a pool (its lesson fields have none), and its scale only when not the lesson's.
    judge = Judge(activity_list(("a", "b"), (1, 2), 2, pool=(3,)), Scale(0, 4))
    assert judge.lesson_data(Scale(0, 4)) == {"items": ["a", "b"], "grades": [1, 2], "k": 2}
    assert judge.lesson_data(Scale(1, 3)) == {"items": ["a", "b"], "grades": [1, 2], "k": 2, "scale": [0, 4]}
    pair = Pair(("x", "y"), (3, 0), ("z", "x"), (1, 3), (3, 0, 1, 2), 2)
    sides = {"a": {"items": ["x", "y"], "grades": [3, 0]}, "b": {"items": ["z", "x"], "grades": [1, 3]}}
    assert Compare(pair, "precision", "", "q").lesson_data(Scale()) == {
        "query": "q",
        **sides,
        "missed": [2],
        "metric": "precision",
        "k": 2,
    }
    assert Compare(pair, "ndcg").lesson_data(Scale()) == {**sides, "missed": [2], "metric": "ndcg", "k": 2}


def test_a_compare_keeps_its_query_in_its_payload_only_when_it_has_one():
    asked = Compare(PAIRS["seed003"], "ndcg", "seed003", "成都旅游攻略")
    assert asked.payload()["query"] == "成都旅游攻略"
    assert from_payload("compare", json.loads(json.dumps(asked.payload()))) == asked
    assert "query" not in compare_activity("seed003", "ndcg").payload()


def test_twists_and_the_shuffle_keep_the_lists_discount():
    jk = activity_list(("a", "b", "c"), (2, 0, 1), 3, discount="jk")
    assert twisted(jk, "pool").discount == "jk" and twisted(jk, "pool").pool == (2, 1)
    best_first = activity_list(("a", "b", "c"), (2, 1, 0), 3, discount="jk")  # already best: shuffled
    shuffled = rank_activity(best_first, "small_k")
    assert shuffled.spec.grades != (2, 1, 0) and shuffled.spec.discount == "jk"


def test_a_judge_names_a_bad_grade_and_a_bad_result_with_every_field():
    judge = Judge(activity_list(("a", "b", "c"), (1, 2, 0), 2), Scale(0, 2))
    assert fields(error_of(judge.check, "x", 1)) == ("activity.grade", {"value": "'x'", "low": 0, "high": 2})
    assert fields(error_of(judge.check, "3", 1)) == ("activity.grade", {"value": "'3'", "low": 0, "high": 2})
    assert fields(error_of(judge.check, "1", 3)) == ("activity.result", {"value": "3", "count": 3})
    assert fields(error_of(Judge, activity_list(("a", "b"), (1, 3), 2), Scale(0, 2))) == (
        "activity.off_scale",
        {"position": 2, "value": "3", "low": 0, "high": 2},
    )
    one = Judge(activity_list(("a",), (2,), 1), Scale(0, 2))
    assert one.check("2") == 2  # the first result unless told
    assert judge.result(1).detail == JudgeDetail(1, 0) and judge.result(1).answer == "1"


def test_a_judges_class_ndcg_is_under_the_lists_own_discount():
    judge = Judge(activity_list(("a", "b", "c"), (0, 1, 2), 3, discount="jk"), Scale(0, 2))
    answers = [Answer(1, None, part, grade) for part, grade in enumerate((0, 1, 2))]
    # Järvelin-Kekäläinen at base 2: ranks 1 and 2 undiscounted, rank 3 divided by log2(3).
    assert judge.summary(answers).class_ndcg == pytest.approx((0 + 1 + 2 / log2(3)) / (2 + 1 + 0))


def test_a_practice_states_the_conventions_of_its_first_exercise_unless_told():
    practice = Practice(5, (0, 1, 2))
    assert practice.conventions() == conventions(exercise(5, 0)) != practice.conventions(1)


def test_a_class_lists_and_a_scales_own_checks_name_every_field():
    assert fields(error_of(activity_list, ("a",), (1,), 1, discount="log10")) == (
        "discount.unknown",
        {"value": "'log10'", "choices": "log2, jk"},
    )
    assert fields(error_of(Scale, 3, 2)) == ("activity.scale", {"low": 3, "high": 2, "steps": 10})


def test_a_comma_estimate_above_one_is_named_as_typed():
    assert fields(error_of(Predict(random_list(1)).check, "1,5")) == ("activity.estimate_range", {"value": "'1,5'"})
