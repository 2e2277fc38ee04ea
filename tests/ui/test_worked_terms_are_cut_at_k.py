"""The worked terms (the Predict reveal's table on the projector) are cut at k: positions 1 to k, then the totals
at k, which are the answer, then the positions past k with their term but no running total, each marked "past k = 3,
not counted". A lecturer once read 13.2085 / 21.5954 = 0.6116 off the last row, past k, under a stated 0.6228.
Grades are written as given: 3, not 3.0000."""

from math import log2

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom.kinds.lists import activity_list
from support import ROOT
from ui.i18n import Translator
from ui.widgets.table import cut_at_k

COLUMNS = ("position", "item", "grade", "term", "cumulative_dcg", "cumulative_idcg")


def texts(t, k):
    return {c: t(f"table.{c}") for c in COLUMNS} | {
        "total": t("table.total_at_k", k=k),
        "total_term": t("table.total_term", k=k, dcg="{dcg}", idcg="{idcg}", ndcg="{ndcg}"),
        "past": t("table.past_k", k=k),
    }


def test_rows_past_k_are_set_apart_and_the_totals_at_k_are_the_answer():
    t = Translator("en")
    spec = activity_list(["doc A", "doc B", "doc C", "doc D", "doc E"], [3, 0, 2, 3, 1], 3)
    rows, kinds = cut_at_k(spec.breakdown(), COLUMNS, texts(t, 3))
    assert kinds == ["in", "in", "in", "total", "past", "past"]
    dcg, idcg = 3 + 2 / log2(4), 3 + 3 / log2(3) + 2 / log2(4)
    total = rows.iloc[3].tolist()
    assert total[0] == "At k = 3"
    assert total[4:] == [f"{dcg:.4f}", f"{idcg:.4f}"]
    assert total[3] == f"NDCG@3 = {dcg:.4f} / {idcg:.4f} = {dcg / idcg:.4f}"
    for row in rows.iloc[4:].itertuples(index=False):  # no running total past k, so none to misread as the answer
        assert list(row)[4:] == ["past k = 3, not counted", ""]
    assert rows.iloc[4].tolist()[:4] == ["4", "doc D", "3", f"3 / log2(5) = {3 / log2(5):.3f}"]
    assert rows[t("table.grade")].tolist() == ["3", "0", "2", "", "3", "1"]  # as given, never 3.0000


def test_a_fractional_grade_stays_as_given_and_a_list_no_longer_than_k_has_no_row_past_it():
    t = Translator("zh")
    spec = activity_list(["a", "b"], [2.5, 1], 2)
    rows, kinds = cut_at_k(spec.breakdown(), COLUMNS, texts(t, 2))
    assert kinds == ["in", "in", "total"]
    assert rows.iloc[:2, 2].tolist() == ["2.5", "1"]
    assert rows.iloc[2, 0] == "截至 k = 2"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_text_of_the_cut_is_in_both_languages(lang):
    t = Translator(lang)
    for key in ("table.total_at_k", "table.past_k"):
        assert "{" not in t(key, k=3) and "3" in t(key, k=3)


def test_the_home_pages_example_is_cut_at_k_with_grades_as_typed():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.text_input(key="home_grades").set_value("3, 2, 3, 0, 1, 2.5").run()
    at.number_input(key="home_k").set_value(3).run()
    table = at.dataframe[0].value
    assert list(table.iloc[:, 0]) == ["1", "2", "3", "At k = 3", "4", "5", "6"]
    assert list(table["Grade"]) == ["3", "2", "3", "", "0", "1", "2.5"]
    dcg, idcg = 3 + 2 / log2(3) + 3 / log2(4), 3 + 3 / log2(3) + 2.5 / log2(4)
    assert f"{dcg:.4f} / {idcg:.4f} = {dcg / idcg:.4f}" in table.iloc[3, 2]
    assert set(table["DCG so far"].iloc[4:]) == {"past k = 3, not counted"}
