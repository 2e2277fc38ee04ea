"""Each mistake's number, written from its definition as a formula on the seeds' worked examples: the list
3, 2, 3, 0, 1 (NDCG@5 = 6.15 / 6.32 = 0.97), the 成都 lists (4, 2, 0, 1, 3 and 4, 1, 3, 4, 0) and 3, 0, 2
(DCG = 4.0)."""

import math

import pytest

from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.mistakes import MISTAKES, PAIRS, numbers, pair, right_number


def ndcg_numbers(spec_):
    """The mistakes' numbers for the question NDCG@k (the catalogue asks each question to name its metric)."""
    return numbers(spec_, metric="ndcg")


L = math.log2


def spec(grades, k, pool=(), **scoring):
    labels = [f"r{i}" for i in range(1, len(grades) + 1)]
    return ListSpec.from_grades(labels, grades, k, pool=pool, scoring=Scoring(**scoring))


A5 = spec([3, 2, 3, 0, 1], 5)  # seed 002
A3 = spec([3, 2, 3, 0, 1], 3)
POOL = spec([3, 2, 3, 0, 1], 5, pool=[3, 2])  # two judged results the list missed: a 3 and a 2
NO_POOL = POOL.with_scoring(ideal="list")  # the same results shown, the ideal from the list's own grades
CHENGDU_TRIP = spec([4, 2, 0, 1, 3], 5)  # seed 003: "成都3天游", DCG@5 = 6.85, IDCG@5 = 7.32
CHENGDU_FOOD_EXP = spec([4, 1, 3, 4, 0], 5, gain="exponential")  # "成都美食推荐" scored with 2^grade - 1
CHENGDU_FOOD_JK = spec([4, 1, 3, 4, 0], 5, discount="jk")
B3 = spec([3, 0, 2], 3)  # seed 000: dcg([3, 0, 2]) = 4.0
B2 = spec([3, 0, 2], 2)

DCG_A5 = 3 + 2 / L(3) + 3 / 2 + 0 + 1 / L(6)
IDCG_A5 = 3 + 3 / L(3) + 2 / 2 + 1 / L(5) + 0
DCG_A3 = 3 + 2 / L(3) + 3 / 2
IDCG_A3 = 3 + 3 / L(3) + 2 / 2
IDCG_POOL = 3 + 3 / L(3) + 3 / 2 + 2 / L(5) + 2 / L(6)  # 3, 3, 3, 2, 2 of 3, 2, 3, 0, 1 and 3, 2

CASES = [
    # (code, list, question, its number as the mistake defines it)
    ("no_normalisation", A5, "ndcg", DCG_A5),
    ("ideal_from_list", POOL, "ndcg", DCG_A5 / IDCG_A5),
    ("ideal_from_list", POOL, "idcg", IDCG_A5),
    ("ideal_from_pool", NO_POOL, "ndcg", DCG_A5 / IDCG_POOL),
    ("ideal_not_cut", A3, "ndcg", DCG_A3 / IDCG_A5),
    ("ideal_not_cut", A3, "idcg", IDCG_A5),
    ("list_not_cut", A3, "ndcg", DCG_A5 / IDCG_A3),
    ("list_not_cut", A3, "dcg", DCG_A5),
    ("nothing_cut", A3, "ndcg", DCG_A5 / IDCG_A5),
    (
        "gain_exponential",
        A5,
        "ndcg",
        (7 + 3 / L(3) + 7 / 2 + 0 + 1 / L(6)) / (7 + 7 / L(3) + 3 / 2 + 1 / L(5)),
    ),
    (
        "gain_exponential",
        CHENGDU_TRIP,
        "ndcg",
        (15 + 3 / L(3) + 0 + 1 / L(5) + 7 / L(6)) / (15 + 7 / L(3) + 3 / 2 + 1 / L(5)),
    ),
    ("gain_exponential", B3, "dcg", 7 + 0 + 3 / 2),
    ("gain_exponential", A5, "term", 3 / L(3)),
    (
        "gain_linear",
        CHENGDU_FOOD_EXP,
        "ndcg",
        (4 + 1 / L(3) + 3 / 2 + 4 / L(5) + 0) / (4 + 4 / L(3) + 3 / 2 + 1 / L(5)),  # the seed's 7.85 / 8.45
    ),
    ("log_natural", B3, "dcg", 3 / math.log(2) + 0 / math.log(3) + 2 / math.log(4)),
    ("log_natural", A5, "idcg", 3 / math.log(2) + 3 / math.log(3) + 2 / math.log(4) + 1 / math.log(5)),
    ("log10", B3, "dcg", 3 / math.log10(2) + 2 / math.log10(4)),
    ("log10", A5, "term", 2 / math.log10(3)),
    (
        "discount_log_i",
        A5,
        "ndcg",
        (3 + 2 / L(2) + 3 / L(3) + 0 / L(4) + 1 / L(5)) / (3 + 3 / L(2) + 2 / L(3) + 1 / L(4) + 0),
    ),
    ("discount_log_i", B3, "dcg", 3 + 0 / L(2) + 2 / L(3)),
    ("discount_log_i", A5, "term", 2 / L(2)),
    (
        "discount_log_i_plus_1",
        CHENGDU_FOOD_JK,
        "ndcg",
        (4 + 1 / L(3) + 3 / L(4) + 4 / L(5) + 0) / (4 + 4 / L(3) + 3 / L(4) + 1 / L(5)),
    ),
    (
        "discount_shifted",
        A5,
        "ndcg",
        (3 / L(3) + 2 / L(4) + 3 / L(5) + 0 + 1 / L(7)) / (3 / L(3) + 3 / L(4) + 2 / L(5) + 1 / L(6)),
    ),
    ("discount_shifted", B3, "dcg", 3 / L(3) + 0 / L(4) + 2 / L(5)),
    ("no_discount", A3, "ndcg", (3 + 2 + 3) / (3 + 3 + 2)),
    ("no_discount", CHENGDU_TRIP, "dcg", 4 + 2 + 0 + 1 + 3),  # the seed's CG@5 = 10
    ("no_discount", A5, "term", 2),
    ("ideal_ascending", A5, "ndcg", DCG_A5 / (0 + 1 / L(3) + 2 / L(4) + 3 / L(5) + 3 / L(6))),
    ("ideal_ascending", A3, "ndcg", DCG_A3 / (0 + 1 / L(3) + 2 / L(4))),
    ("ideal_ascending", CHENGDU_TRIP, "idcg", 0 + 1 / L(3) + 2 / L(4) + 3 / L(5) + 4 / L(6)),
    # The 1/ forgotten: each gain times its log, a discount of 2 at position 3 where it is 1/2.
    ("discount_multiplied", B3, "dcg", 3 * 1 + 0 * L(3) + 2 * 2),
    ("discount_multiplied", A5, "term", 2 * L(3)),
    (
        "discount_multiplied",
        A5,
        "ndcg",
        (3 + 2 * L(3) + 3 * 2 + 0 + 1 * L(6)) / (3 + 3 * L(3) + 2 * 2 + 1 * L(5) + 0),
    ),
    ("discount_multiplied", CHENGDU_FOOD_JK, "dcg", 4 + 1 + 3 * L(3) + 4 * L(4) + 0),  # J&K, b = 2: log2(i) from 2
    ("no_normalisation+list_not_cut", A3, "ndcg", DCG_A5),
    ("no_normalisation+gain_exponential", A5, "ndcg", 7 + 3 / L(3) + 7 / 2 + 0 + 1 / L(6)),
    ("no_normalisation+no_discount", A3, "ndcg", 3 + 2 + 3),
    ("no_normalisation+log_natural", B3, "ndcg", 3 / math.log(2) + 2 / math.log(4)),
    (
        "gain_exponential+discount_log_i",
        A5,
        "ndcg",
        (7 + 3 + 7 / L(3) + 0 / L(4) + 1 / L(5)) / (7 + 7 + 3 / L(3) + 1 / L(4) + 0),
    ),
    ("list_not_cut+gain_exponential", B2, "dcg", 7 + 0 + 3 / 2),
]


@pytest.mark.parametrize(("code", "listed", "metric", "expected"), CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_each_mistake_gives_the_number_its_definition_gives(code, listed, metric, expected):
    position = 2 if metric == "term" else None
    assert numbers(listed, metric=metric, position=position)[code] == pytest.approx(expected, rel=1e-12)


def test_the_right_answers_are_the_seeds():
    assert right_number(A5, "ndcg") == pytest.approx(DCG_A5 / IDCG_A5) and round(right_number(A5, "ndcg"), 2) == 0.97
    assert round(right_number(CHENGDU_TRIP, "dcg"), 2) == 6.85 and round(right_number(CHENGDU_TRIP, "idcg"), 2) == 7.32
    assert right_number(B3, "dcg") == 4.0
    assert right_number(A5, "term", 2) == pytest.approx(2 / L(3))


def test_every_registry_code_and_pair_is_rebuilt_somewhere_above():
    assert {c[0] for c in CASES} >= set(MISTAKES.names()) | {pair(*p).code for p in PAIRS} - {
        "no_normalisation+gain_linear",
        "no_normalisation+discount_log_i",
        "no_normalisation+log10",
    }


def test_a_log_base_cancels_in_ndcg_and_is_never_a_candidate_there():
    for listed in (A5, A3, B3, CHENGDU_TRIP):
        assert not {"log_natural", "log10"} & set(ndcg_numbers(listed))


def test_a_mistake_that_changes_nothing_here_has_no_number_of_its_own():
    # 3, 0, 2 at k = 2: the ideal 3, 2, 0 adds nothing past position 2, so not cutting it changes nothing.
    assert "ideal_not_cut" not in numbers(B2, metric="idcg")
    # 3, 2, 3, 0, 1 at k = 5: nothing to cut.
    assert not {"list_not_cut", "ideal_not_cut", "nothing_cut"} & set(ndcg_numbers(A5))
    # 0/1 grades: 2^grade - 1 is the grade.
    assert "gain_exponential" not in ndcg_numbers(spec([1, 0, 1], 3))
    # A pair is named only where its number is not one of its parts': k = n leaves list_not_cut nothing to do.
    assert "no_normalisation+list_not_cut" not in ndcg_numbers(A5)


def test_where_a_mistake_shows_follows_the_question():
    assert "ideal_from_list" in ndcg_numbers(POOL) and "ideal_from_list" not in ndcg_numbers(NO_POOL)
    assert "ideal_from_pool" in ndcg_numbers(NO_POOL) and "ideal_from_pool" not in ndcg_numbers(POOL)
    assert "gain_linear" not in ndcg_numbers(A5) and "gain_exponential" not in ndcg_numbers(CHENGDU_FOOD_EXP)
    assert "discount_log_i" not in ndcg_numbers(CHENGDU_FOOD_JK) and "discount_log_i_plus_1" not in ndcg_numbers(A5)
    assert not {"no_normalisation", "ideal_from_list", "ideal_ascending"} & set(numbers(POOL, metric="dcg"))
    assert not {"list_not_cut", "ideal_not_cut"} & set(numbers(A3, metric="term", position=2))
