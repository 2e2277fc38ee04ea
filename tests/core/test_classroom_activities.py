"""The classroom's rules and numbers, against formulas and the seeds: room codes and keys, nicknames,
histogram bins, estimates within 0.05, the verdicts on seed 003's two systems, the most common mistake,
practice marking and the results rows."""

import math

import pytest

from ndcg_core import InputError, ndcg_at_k
from ndcg_core.classroom import activities as acts
from ndcg_core.classroom import rules
from ndcg_core.teaching.exercises import exercise


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
    bins = acts.histogram([0.0, 0.05, 0.15, 0.149, 0.999, 1.0])
    assert len(bins) == 20 and bins[0].low == 0 and bins[-1].high == 1
    counts = {round(b.low, 2): b.count for b in bins if b.count}
    assert counts == {0.0: 1, 0.05: 1, 0.1: 1, 0.15: 1, 0.95: 2}


def test_predict_truth_and_within_0_05():
    activity = acts.Predict(acts.preset_list("five"))  # 3, 2, 3, 0, 1 at k = 5
    dcg = 3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6)
    idcg = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)
    assert activity.truth() == pytest.approx(dcg / idcg)
    assert activity.truth() == pytest.approx(0.972, abs=5e-4)  # the seeds' textbook figure
    answers = [acts.Answer(i, None, 0, g) for i, g in enumerate([0.97, 0.92, 0.923, 0.5, 1.0])]
    summary = activity.summary(answers)
    assert (summary.count, summary.within) == (5, 3)  # 0.97, 0.923 (0.0494 away) and 1.0 (0.0276 away)
    with pytest.raises(InputError):
        activity.check("1.01")


def test_seed_003_systems_mrr_cannot_tell_them_apart_ndcg_and_precision_can():
    compare = acts.compare_activity("seed003", "mrr")
    assert compare.values("mrr") == (1.0, 1.0) and compare.verdict("mrr") == "same"
    assert compare.values("precision") == (1.0, 0.2) and compare.verdict("precision") == "a"
    idcg = 4 + 2 / log2(3) + 2 / 2 + 2 / log2(5) + 1 / log2(6)
    a, b = compare.values("ndcg")
    assert a == pytest.approx(1.0) and b == pytest.approx(4 / idcg)
    votes = [acts.Answer(i, None, 0, v) for i, v in enumerate(["a", "a", "same", "b"])]
    summary = compare.summary(votes)
    assert summary.votes == {"a": 2, "b": 1, "same": 1} and summary.agree == 1
    assert acts.compare_activity("early_or_many", "mrr").verdict("mrr") == "a"
    assert acts.compare_activity("early_or_many", "ndcg").verdict("ndcg") == "b"
    assert acts.compare_activity("same_precision", "precision").verdict("precision") == "same"


def test_rank_it_best_maximum_found_and_most_common_mistake():
    spec = acts.ListSpec(("w", "x", "y", "z"), (0, 3, 1, 2), 4)
    rank = acts.rank_activity(spec, "small_k")
    assert rank.spec.k == 3 and rank.spec.labels == ("w", "x", "y", "z")
    assert rank.maximum() == pytest.approx(1.0)
    best = [1, 3, 2, 0]  # x(3) z(2) y(1) w(0)
    slip_at_2 = [1, 2, 3, 0]  # y(1) where the ideal has 2
    slip_at_1 = [3, 1, 2, 0]  # z(2) where the ideal has 3
    answers = [acts.Answer(i, None, 0, o) for i, o in enumerate([best, slip_at_2, slip_at_2, slip_at_1])]
    summary = rank.summary(answers)
    assert (summary.count, summary.found) == (4, 1)
    m = summary.mistake
    assert (m.label, m.position, m.count, m.grade, m.ideal_grade) == ("y", 2, 2, 1, 2)
    dcg = 3 + 1 / log2(3) + 2 / 2
    assert rank.score(slip_at_2) == pytest.approx(dcg / (3 + 2 / log2(3) + 1 / 2))
    with pytest.raises(InputError):
        rank.check([0, 1, 1, 2])


def test_the_pool_twist_caps_the_best_order_below_1_and_exponential_changes_the_value():
    spec = acts.ListSpec(("a", "b", "c"), (2, 0, 1), 3)
    pooled = acts.rank_activity(spec, "pool")
    assert pooled.spec.pool == (2.0, 1.0) and pooled.maximum() < 1
    best = 2 + 1 / log2(3)
    ideal = 2 + 2 / log2(3) + 1 / 2
    assert pooled.maximum() == pytest.approx(best / ideal)
    exp = acts.rank_activity(spec, "exponential")
    assert exp.spec.gain == "exponential"
    assert exp.score([0, 1, 2]) == pytest.approx((3 + 1 / 2) / (3 + 1 / log2(3)))


def test_an_already_ideal_list_starts_shuffled_the_same_way_for_everyone():
    spec = acts.ListSpec(("a", "b", "c", "d"), (3, 2, 1, 0), 4)
    first, second = acts.rank_activity(spec, "exponential"), acts.rank_activity(spec, "exponential")
    assert first.spec == second.spec and first.spec.ndcg() < 1


def test_practice_together_marks_each_exercise_with_the_practice_rules():
    practice = acts.practice_activity(2026, 7)
    assert len(practice.numbers) == 7 and all(exercise(2026, n).kind != "reach" for n in practice.numbers)
    first = exercise(2026, practice.numbers[0])
    assert practice.check(f"{first.answer:.3f}", 0) == {"answer": f"{first.answer:.3f}", "right": True}
    assert practice.check(f"{first.answer + 0.5:.3f}", 0)["right"] is False
    answers = [
        acts.Answer(1, None, 0, {"answer": "x", "right": True}),
        acts.Answer(2, None, 0, {"answer": "y", "right": False}),
        acts.Answer(2, None, 1, {"answer": "z", "right": True}),
    ]
    summary = practice.summary(answers)
    assert summary.count == 2 and summary.parts[:2] == [(2, 1), (1, 1)]


def test_results_rows_mark_each_answer_and_keep_a_row_for_a_student_who_did_not_answer():
    activity = acts.Predict(acts.preset_list("five"))
    truth = ndcg_at_k([3, 2, 3, 0, 1], 5)
    present = (acts.Member(1, "=1+1"), acts.Member(2, None), acts.Member(3, "Cai"))
    answers = (acts.Answer(1, "=1+1", 0, 0.97, 10.0), acts.Answer(2, None, 0, 0.5, 11.0))
    result = acts.activity_results(acts.Taken(1, 1, activity, answers, present))
    assert result.solutions == (pytest.approx(truth),)
    assert [(r.student, r.nickname, r.value, r.right, r.ndcg, r.answered_at) for r in result.rows] == [
        (1, "=1+1", 0.97, abs(0.97 - truth) <= 0.05, None, 10.0),  # the raw nickname: the CSV makes it safe
        (2, None, 0.5, False, None, 11.0),
        (3, "Cai", None, None, None, None),
    ]


@pytest.mark.parametrize("name", list(acts.PAIRS))
def test_every_pair_is_scored_under_every_metric_with_its_judged_pool(name):
    compare = acts.compare_activity(name, "ndcg")
    for metric in acts.METRICS:
        a, b = compare.values(metric)
        assert 0 <= a <= 1 and 0 <= b <= 1
