"""A whole NDCG@5 of the seeds' list 3, 2, 3, 0, 1 worked by hand: each cell typed is right (to two decimals),
carried from the learner's own wrong cell (which it names), a catalogued mistake, or a slip located in that cell.
Every expected number is written here from the formula."""

from math import log, log2

import pytest

from ndcg_core.errors import InputError
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.worksheet import Cell, Worksheet, check_cell

GRADES = [3, 2, 3, 0, 1]
IDEAL = [3, 3, 2, 1, 0]
DCG = 3 + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
IDCG = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5) + 0 / log2(6)
SHEET = Worksheet(ListSpec.from_grades([f"doc {c}" for c in "ABCDE"], GRADES, 5))


def right_cells():
    """Every cell of the sheet and its number, from the formula."""
    out = {}
    for i, g in enumerate(GRADES, start=1):
        out[f"gain.{i}"], out[f"discount.{i}"], out[f"term.{i}"] = g, 1 / log2(i + 1), g / log2(i + 1)
    out |= {f"ideal.{i}": g for i, g in enumerate(IDEAL, start=1)}
    return out | {"dcg": DCG, "idcg": IDCG, "ndcg": DCG / IDCG}


def test_the_sheet_asks_for_every_cell_in_the_order_they_are_worked():
    keys = [c.key for c in SHEET.cells()]
    assert keys[:3] == ["gain.1", "discount.1", "term.1"] and keys[-3:] == ["ideal.5", "idcg", "ndcg"]
    assert set(keys) == set(right_cells())


@pytest.mark.parametrize(("key", "value"), sorted(right_cells().items()))
def test_each_right_number_typed_to_two_decimals_is_right(key, value):
    check = check_cell(SHEET, Cell.parse(key), f"{value:.2f}")
    assert check.ok and check.verdict == "right"
    assert check.right == pytest.approx(value)


def test_a_number_rounded_to_one_decimal_is_right_but_a_wrong_digit_is_not():
    assert check_cell(SHEET, Cell("term", 2), "1.3").ok  # 2/log2(3) = 1.26...
    assert not check_cell(SHEET, Cell("term", 2), "1.27").ok  # two decimals, the second one wrong


def test_a_slip_is_located_in_its_cell_with_the_right_number():
    check = check_cell(SHEET, Cell("term", 2), "1.62")
    assert check.verdict == "slip" and not check.mistakes
    assert check.right == pytest.approx(2 / log2(3)) and check.typed == 1.62 and check.text == "1.62"


def test_a_near_ndcg_is_a_slip_not_a_concept():
    check = check_cell(SHEET, Cell("ndcg"), f"{DCG / IDCG - 0.02:.2f}")
    assert check.verdict == "slip" and check.mistakes == ()


def test_a_cell_that_follows_from_the_learner_s_wrong_cell_names_that_cell():
    typed = {"gain.2": "2", "discount.2": "1.58"}  # log2(3), the 1/ forgotten
    check = check_cell(SHEET, Cell("term", 2), f"{2 * 1.58:.2f}", typed)
    assert check.verdict == "carried" and check.carried == (Cell("discount", 2),)


def test_a_dcg_from_the_learner_s_own_rounded_terms_is_right():
    terms = {f"term.{i}": f"{g / log2(i + 1):.1f}" for i, g in enumerate(GRADES, start=1)}
    total = sum(round(g / log2(i + 1), 1) for i, g in enumerate(GRADES, start=1))
    assert abs(total - DCG) > 0.05  # further from DCG than one decimal allows, yet the learner's own sum
    assert check_cell(SHEET, Cell("dcg"), f"{total:.1f}", terms).ok


def test_ndcg_from_a_wrong_dcg_names_the_dcg():
    typed = {"dcg": "6.5", "idcg": f"{IDCG:.2f}"}
    check = check_cell(SHEET, Cell("ndcg"), f"{6.5 / round(IDCG, 2):.2f}", typed)
    assert check.verdict == "carried" and check.carried == (Cell("dcg"),)


@pytest.mark.parametrize(
    ("key", "value", "code"),
    [
        ("gain.1", 2**3 - 1, "gain_exponential"),
        ("discount.3", 1 / log(4), "log_natural"),
        ("term.3", 3 / log2(5), "discount_shifted"),
        ("ideal.1", 0, "ideal_ascending"),
        ("idcg", sum(g / log2(i + 1) for i, g in enumerate(sorted(GRADES), start=1)), "ideal_ascending"),
        ("ndcg", DCG, "no_normalisation"),
    ],
)
def test_a_catalogued_mistake_is_named_where_one_fits(key, value, code):
    check = check_cell(SHEET, Cell.parse(key), f"{value:.2f}")
    assert check.verdict == "mistake" and [d.code for d in check.mistakes] == [code]


def test_an_unreadable_cell_or_an_unknown_cell_is_an_input_error():
    with pytest.raises(InputError):
        check_cell(SHEET, Cell("term", 1), "three")
    for key in ("term.0", "term", "dcg.2", "gains.1"):
        with pytest.raises(InputError) as err:
            Cell.parse(key)
        assert err.value.code == "worksheet.cell"
    with pytest.raises(InputError):
        SHEET.right(Cell("term", 6))


def test_a_decimal_comma_is_read_and_said():
    check = check_cell(SHEET, Cell("term", 3), "1,50")
    assert check.ok and check.note is not None
