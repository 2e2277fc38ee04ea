"""A slip (the right method, one number written wrong) is located in the working, not given a concept's name
(issue 47): ``read_answer`` weighs the catalogue's mistakes against the slips that give the answer. Every expected
number is written here from its formula on the seeds' list 3, 2, 3, 0, 1, never from the module under test."""

import math

import pytest

from ndcg_core.errors import InputError
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.mistakes import diagnose
from ndcg_core.teaching.reading import read_answer
from ndcg_core.teaching.slips import digit_variants, find_slips, swap_variants, worked

L = math.log2
A5 = ListSpec.from_grades(["r1", "r2", "r3", "r4", "r5"], [3, 2, 3, 0, 1], 5)  # seed 002: 6.15 / 6.32 = 0.97
A3 = ListSpec.from_grades(["r1", "r2", "r3", "r4", "r5"], [3, 2, 3, 0, 1], 3)
DCG_A5 = 3 + 2 / L(3) + 3 / 2 + 0 + 1 / L(6)
IDCG_A5 = 3 + 3 / L(3) + 2 / 2 + 1 / L(5) + 0
DCG_A3 = 3 + 2 / L(3) + 3 / 2  # 5.76
IDCG_A3 = 3 + 3 / L(3) + 2 / 2  # 5.89


def test_the_working_holds_every_value_a_learner_writes():
    work = worked(A3)
    assert [x.term for x in work.lines] == pytest.approx([3, 2 / L(3), 3 / 2])
    assert [x.log for x in work.lines] == pytest.approx([1, L(3), 2])
    assert [x.log_formula for x in work.lines] == ["log2(2)", "log2(3)", "log2(4)"]
    assert [x.grade for x in work.ideal] == [3, 3, 2]
    assert [x.term for x in work.ideal] == pytest.approx([3, 3 / L(3), 2 / 2])
    assert (work.dcg, work.idcg, work.value) == pytest.approx((DCG_A3, IDCG_A3, DCG_A3 / IDCG_A3))


def test_0_97_for_0_98_is_a_slip_in_the_dcg_not_nothing_cut():
    # 0.97 is 5.72 / 5.89 (DCG 5.76 added up as 5.72); nothing cut gives 6.15 / 6.32 = 0.972 too, a compound
    # mistake and farther: the slip is the reading.
    assert round(DCG_A3 / IDCG_A3, 2) == 0.98 and round(5.72 / IDCG_A3, 2) == 0.97
    assert round(DCG_A5 / IDCG_A5, 2) == 0.97
    assert [d.code for d in diagnose(A3, "0.97")] == ["nothing_cut"]  # the old naming
    reading = read_answer(A3, "0.97")
    assert reading.verdict == "slip" and reading.mistakes == ()
    slip = reading.slip
    assert (slip.kind, slip.step, slip.right, slip.written) == ("digit", "dcg", 5.76, 5.72)
    assert slip.gives == pytest.approx(5.72 / IDCG_A3)


def test_two_digits_swapped_in_one_term_are_located_at_its_position():
    # DCG@5 with position 5's term 0.39 written 0.93: DCG - 1/log2(6) + 0.93.
    answer = DCG_A5 - 1 / L(6) + 0.93
    reading = read_answer(A5, f"{answer:.2f}", metric="dcg")
    assert reading.verdict == "slip"
    assert (reading.slip.kind, reading.slip.step, reading.slip.position) == ("swap", "term", 5)
    assert (reading.slip.right, reading.slip.written) == (0.39, 0.93)


def test_a_rounding_step_missed_is_a_slip():
    # Every log rounded to 1 decimal before dividing: 3/1 + 2/1.6 + 3/2 + 0/2.3 + 1/2.6.
    answer = 3 + 2 / 1.6 + 3 / 2 + 1 / 2.6
    slips = find_slips(A5, f"{answer:.3f}", metric="dcg")
    assert ("rounded", "logs") in [(s.kind, s.step) for s in slips]


def test_a_concept_mistake_is_still_named():
    # The 1/ forgotten: each gain times its log.
    forgot = (3 + 2 * L(3) + 3 * 2 + 0 + 1 * L(6)) / (3 + 3 * L(3) + 2 * 2 + 1 * L(5))
    reading = read_answer(A5, f"{forgot:.2f}")
    assert reading.verdict == "mistake" and reading.mistakes[0].code == "discount_multiplied"
    undivided = read_answer(A5, f"{DCG_A5:.2f}")  # the DCG typed for the NDCG
    assert undivided.verdict == "mistake" and undivided.mistakes[0].code == "no_normalisation"


def test_right_and_unknown_answers_carry_the_working():
    right = read_answer(A5, f"{DCG_A5 / IDCG_A5:.4f}")
    assert right.verdict == "right" and right.right
    unknown = read_answer(A5, "0.13")
    assert unknown.verdict == "unknown" and unknown.slips == () and unknown.mistakes == ()
    assert unknown.worked.dcg == pytest.approx(DCG_A5) and unknown.worked.idcg == pytest.approx(IDCG_A5)


def test_digits_are_slipped_as_written():
    assert sorted(digit_variants(1.2619, 2)) == [1.20, 1.21, 1.22, 1.23, 1.24, 1.25, 1.27, 1.28, 1.29]
    assert sorted(swap_variants(6.39, 2)) == [3.69, 6.93]
    assert list(swap_variants(0.84, 2)) == [0.48]  # a leading 0 stays where it is


def test_a_bad_answer_or_question_is_an_input_error():
    with pytest.raises(InputError):
        read_answer(A5, "abc")
    with pytest.raises(InputError):
        read_answer(A5, "0.5", metric="term")


def test_an_answer_to_one_decimal_is_too_coarse_to_locate_a_slip():
    # Read to 0.05 either side, 0.3 would be DCG 6.15 written 1.65 (1.65 / IDCG = 0.26), 0.5 the ideal's 1.89
    # written 8.19, 0.8 the first term divided by the second log: any step explains a number so coarse.
    assert round(1.65 / IDCG_A5, 2) == 0.26 and abs(DCG_A5 / (IDCG_A5 - 3 / L(3) + 8.19) - 0.5) < 0.05
    for answer in ("0.3", "0.5", "0.8"):
        assert find_slips(A5, answer) == ()
        assert read_answer(A5, answer).verdict == "unknown"
    assert find_slips(A5, "0.26") != ()  # the same slip, written to 2 decimals, is found


EXPONENTIAL_A3 = (7 + 3 / L(3) + 7 / 2) / (7 + 7 / L(3) + 3 / 2)  # the gain 2^grade - 1: 12.39 / 12.92 = 0.9595


def test_an_answer_many_slips_give_is_a_slip_though_one_mistake_gives_it_too():
    # 0.96 on NDCG@3 is the exponential gain's number, and also the right working with a last digit of the ideal's
    # terms slipped (3.00 written 3.09: 5.76 / 5.98 = 0.963), or of IDCG, or of DCG: the slips together outweigh
    # the one mistake.
    assert round(EXPONENTIAL_A3, 2) == 0.96 and round(DCG_A3 / IDCG_A3, 2) == 0.98
    assert [d.code for d in diagnose(A3, "0.96")] == ["gain_exponential"]
    reading = read_answer(A3, "0.96")
    assert reading.verdict == "slip" and reading.mistakes == () and len(reading.slips) > 1
    assert (reading.slip.kind, reading.slip.step, reading.slip.written) == ("digit", "ideal_term", 3.09)
    assert reading.slip.gives == pytest.approx(DCG_A3 / (IDCG_A3 + 0.09))
    # To 4 decimals the slips no longer give it: the mistake is named.
    precise = read_answer(A3, f"{EXPONENTIAL_A3:.4f}")
    assert precise.verdict == "mistake" and precise.mistakes[0].code == "gain_exponential"


def test_an_answer_only_far_slips_give_is_the_mistake():
    # 0.91 on NDCG@5 is the exponential gain with each gain divided by log2(i) (1 at position 1): 0.906; a slip
    # gives it only by leaving out position 5's term (6.15 - 0.39) / 6.32 = 0.911, or by the answer's last digit.
    jk = [1, 1, 1 / L(3), 1 / L(4), 1 / L(5)]
    both = sum((2**g - 1) * d for g, d in zip([3, 2, 3, 0, 1], jk, strict=True)) / sum(
        (2**g - 1) * d for g, d in zip([3, 3, 2, 1, 0], jk, strict=True)
    )
    assert round(both, 2) == 0.91 and round((DCG_A5 - 1 / L(6)) / IDCG_A5, 2) == 0.91
    reading = read_answer(A5, "0.91")
    assert reading.verdict == "mistake" and reading.mistakes[0].code == "gain_exponential+discount_log_i"
    assert ("dropped", "term", 5) in [(s.kind, s.step, s.position) for s in reading.slips]  # weighed, and lighter
