"""The classroom's rules and numbers, against formulas and the seeds: room codes and keys, nicknames,
histogram bins, estimates within 0.05, the verdicts on seed 003's two systems, the most common mistake,
practice marking and the results rows."""

import math

import pytest

from ndcg_core import InputError, ndcg_at_k, validate
from ndcg_core.classroom import activities as acts
from ndcg_core.classroom import rules
from ndcg_core.teaching.exercises import KINDS, Conventions, conventions, exercise


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


# --- activities that teach: stated conventions, hidden grades, real result lists ---------------------------


def test_predict_and_rank_state_gain_discount_k_and_the_ideal_source():
    food = acts.result_list("chengdu_food")
    assert acts.Predict(food).conventions() == Conventions("ndcg", 5, "linear", "log2", "list")
    exp = acts.rank_activity(food, "exponential")
    assert exp.conventions() == Conventions("ndcg", 5, "exponential", "log2", "list")
    assert acts.rank_activity(food, "small_k").conventions() == Conventions("ndcg", 3, "linear", "log2", "list")
    assert acts.rank_activity(food, "pool").conventions() == Conventions("ndcg", 5, "linear", "log2", "pool")
    # Stated and computed agree: the exponential gain is 2^g - 1 over the log2 discount.
    g = [2**x - 1 for x in (4, 1, 3, 4, 0)]
    dcg = g[0] + g[1] / log2(3) + g[2] / 2 + g[3] / log2(5)
    ideal = g[0] + g[3] / log2(3) + g[2] / 2 + g[1] / log2(5)
    assert exp.spec.ndcg() == pytest.approx(dcg / ideal)


def test_compare_states_its_metric_k_and_for_ndcg_the_gain_and_judged_pool():
    assert acts.compare_activity("seed003", "ndcg").conventions() == Conventions("ndcg", 5, "linear", "log2", "pool")
    assert acts.compare_activity("seed003", "mrr").conventions() == Conventions("mrr", None)
    assert acts.compare_activity("seed003", "precision").conventions() == Conventions("precision", 5)
    # The stated pool is the one scored: B's NDCG@5 against every judged grade of seed 003.
    b = 4 / (4 + 2 / log2(3) + 2 / 2 + 2 / log2(5) + 1 / log2(6))
    assert acts.compare_activity("seed003", "ndcg").values("ndcg")[1] == pytest.approx(b)


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
            assert not acts.practice_activity(7, 1).check(f"{(2**grade - 1) / log2(position + 1):.3f}")["right"]
    if kind == "ndcg":
        assert ex.answer == pytest.approx(ndcg_at_k(ex.data["grades"], ex.data["k"], gain="linear"))


def test_practice_states_each_exercise_s_conventions():
    practice = acts.practice_activity(2026, 5)
    assert [practice.conventions(p) for p in range(5)] == [conventions(ex) for ex in practice.exercises()]
    assert practice.conventions(0) == Conventions("dcg", None, "linear", "log2", None)  # the DCG term


def test_the_rank_payload_keeps_show_grades_and_an_old_payload_reads_as_shown():
    spec = acts.result_list("sourdough")
    hidden = acts.rank_activity(spec, "small_k")
    assert hidden.show_grades is False and hidden.payload()["show_grades"] is False
    assert acts.from_payload("rank", hidden.payload()) == hidden
    drill = acts.rank_activity(spec, "small_k", show_grades=True)
    assert acts.from_payload("rank", drill.payload()) == drill and drill.show_grades
    old = {"list": {k: v for k, v in spec.to_json().items() if k != "query"}, "twist": "small_k"}
    again = acts.from_payload("rank", old)
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
    spec = acts.result_list(name)
    assert (spec.query, spec.grades, spec.k) == (query, grades, k)
    assert len(set(spec.labels)) == len(spec.labels)
    assert spec.ndcg() == pytest.approx(expected)
    if name == "chengdu_food":
        assert spec.labels == ("成都火锅大全", "重庆火锅", "成都小吃街", "成都美食地图", "北京烤鸭")
        assert round(spec.ndcg(), 3) == 0.929  # the seed's figure


@pytest.mark.parametrize(
    "raw, code, meant",
    [
        ("0,75", "activity.estimate_comma", "0.75"),
        ("0，5", "activity.estimate_comma", "0.5"),
        ("1,5", "activity.estimate_range", None),
        ("1,2,3", "answer.comma", None),
        # Digits str.isdigit takes and float() refuses: a message, never a traceback (a review found "0,²").
        ("0,²", "answer.comma", None),
        ("²,5", "answer.comma", None),
        ("٣,5", "answer.comma", None),
    ],
)
def test_a_comma_estimate_suggests_a_point_only_inside_0_to_1(raw, code, meant):
    with pytest.raises(InputError) as caught:
        acts.Predict(acts.random_list(1)).check(raw)
    assert caught.value.code == code
    assert caught.value.fields.get("meant") == meant
    assert "1.5" not in str(caught.value) or code == "answer.comma"


def test_comma_decimal_reads_one_decimal_comma_only():
    assert validate.comma_decimal("0,75") == 0.75 and validate.comma_decimal(" -0,5 ") == -0.5
    assert validate.comma_decimal(",5") == 0.5
    assert [validate.comma_decimal(x) for x in ("1,2,3", "a,5", "0,", "1,5e3", "0.5", None)] == [None] * 6
