"""The Playground explains a change of k, of the gain, of the discount and of where the ideal comes from as it
explains a move: each changed term before and after, then DCG, IDCG and NDCG's two shares, in both languages; and the
formula beside it is written with the list's own numbers. Expected figures come from the formula."""

import json
import re
from math import log2

from streamlit.testing.v1 import AppTest

from ndcg_core.lists.items import make_items
from ndcg_core.lists.spec import ListSpec
from support import ROOT, playground_list, seed_state
from ui.i18n import Translator
from ui.state import Change
from ui.views.playground.figures import formula_data

ITEMS = make_items(list("ABCDE"), [1, 2, 3, 3, 0])
DCG5 = 1 + 2 / log2(3) + 3 / 2 + 3 / log2(5)
IDCG5 = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)


def explained_after(before, after, kind, lang="en"):
    """The explanation's lines after the change ``kind`` from ``before`` to ``after``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page("pages/1_Playground.py")
    seed_state(at, pg_spec=after, pg_last=Change(kind, before), lang=lang)
    at.run()
    found = [m.value for m in at.markdown if re.search(r"DCG@\d[:：].*→", m.value)]
    assert len(found) == 1, [m.value for m in at.markdown]
    return found[0].split("\n\n", 1)[-1].split("  \n")  # after its first paragraph: the change, and NDCG's


def test_k_lowered_takes_the_terms_past_it_out_and_the_ideal_with_them():
    before = playground_list(ITEMS)
    lines = explained_after(before, before.with_scoring(k=3), "k")
    # D, a 3 at 4, falls past k = 3: its term 3/log2(5) counts 0 now.
    d = 3 / log2(5)
    assert lines[0] == f":small[:gray[**D**, 4 → past k: 3 × {1 / log2(5):.4f} = {d:.4f} → 0 (-{d:.4f})]]"
    dcg3, idcg3 = 1 + 2 / log2(3) + 3 / 2, 3 + 3 / log2(3) + 2 / 2
    assert f"DCG@3: {DCG5:.4f} → {dcg3:.4f}; IDCG@3: {IDCG5:.4f} → {idcg3:.4f}, the ideal moved." in lines[-1]
    from_list = (dcg3 - DCG5) / idcg3
    assert f"NDCG {dcg3 / idcg3 - DCG5 / IDCG5:+.4f} = {from_list:+.4f} from the list's terms" in lines[-1]


def test_the_exponential_gain_rewrites_each_graded_term_and_the_ideal():
    before = playground_list(ITEMS)
    lines = explained_after(before, before.with_scoring(gain="exponential"), "gain")
    # 2^g - 1: a 2 is worth 3, a 3 worth 7; A's 1 stays 1, so A is not named.
    factor = 1 / log2(3)
    assert lines[0] == f":small[:gray[**B**, at 2: 2 × {factor:.4f} = {2 * factor:.4f} → 3 × {factor:.4f} = " + (
        f"{3 * factor:.4f} (+{factor:.4f})]]"
    )
    assert lines[1].startswith(":small[:gray[**C**, at 3: 3 × 0.5000 = 1.5000 → 7 × 0.5000 = 3.5000 (+2.0000)")
    assert not any("**A**" in line for line in lines)
    dcg = 1 + 3 / log2(3) + 7 / 2 + 7 / log2(5)
    idcg = 7 + 7 / log2(3) + 3 / 2 + 1 / log2(5)
    assert f"DCG@5: {DCG5:.4f} → {dcg:.4f}; IDCG@5: {IDCG5:.4f} → {idcg:.4f}" in lines[-1]
    assert lines[-1].endswith(f"{dcg / idcg - DCG5 / IDCG5 - (dcg - DCG5) / idcg:+.4f} from the ideal]]")


def test_the_jk_discount_leaves_position_1_and_divides_by_log2_of_the_position_itself():
    before = playground_list(ITEMS)
    lines = explained_after(before, before.with_scoring(discount="jk", base=2.0), "discount")
    # b = 2: positions before b (only 1) keep their gain; from 2 on, the gain at i is divided by log2(i).
    assert lines[0].startswith(f":small[:gray[**B**, at 2: 2 × {1 / log2(3):.4f} = {2 / log2(3):.4f} → 2 × 1.0000")
    dcg = 1 + 2 / log2(2) + 3 / log2(3) + 3 / log2(4)
    idcg = 3 + 3 / log2(2) + 2 / log2(3) + 1 / log2(4)
    assert f"DCG@5: {DCG5:.4f} → {dcg:.4f}; IDCG@5: {IDCG5:.4f} → {idcg:.4f}" in lines[-1]


def test_the_ideal_taken_from_the_pool_changes_no_term_only_the_ideal():
    before = ListSpec(tuple(ITEMS), playground_list(ITEMS).scoring, 3, tuple(make_items(["X"], [3])))
    lines = explained_after(before, before.with_scoring(ideal="pool"), "ideal")
    assert lines[0] == ":small[:gray[No term of DCG@5 changed.]]"
    idcg = 3 + 3 / log2(3) + 3 / 2 + 2 / log2(5) + 1 / log2(6)  # X's 3 joins the ideal
    change = DCG5 / idcg - DCG5 / IDCG5
    assert f"IDCG@5: {IDCG5:.4f} → {idcg:.4f}, the ideal moved." in lines[-1]
    assert f"NDCG {change:+.4f} = +0.0000 from the list's" in lines[-1]


def test_a_change_of_k_is_explained_in_chinese():
    before = playground_list(ITEMS)
    lines = explained_after(before, before.with_scoring(k=3), "k", lang="zh")
    assert lines[0].startswith(":small[:gray[**D**，4 → k 之后：")
    assert f"IDCG@3：{IDCG5:.4f} → {3 + 3 / log2(3) + 2 / 2:.4f}，理想排序变了" in lines[-1]
    assert not any("playground." in line for line in lines)


def test_the_formula_writes_each_term_and_the_pointed_position_s_own_numbers_with_its_old_term():
    from ndcg_core.lists.changes import explain_change
    from ndcg_core.lists.items import move

    before = playground_list(ITEMS)
    after = before.with_items(move(ITEMS, 3, 0))  # D (a 3) from 4 to 1: D, A, B, C, E
    data = formula_data(Translator("en"), after, explain_change(before, after))
    json.dumps(data)  # what the component is sent
    assert data["lhs"] == "DCG@5 ="
    assert [term["text"] for term in data["terms"]] == [f"{x:.4f}" for x in (3.0, 1 / log2(3), 2 / 2, 3 / log2(5), 0.0)]
    assert [term["was"] for term in data["terms"]] == [
        "1.0000",
        f"{2 / log2(3):.4f}",
        "1.5000",
        "",  # position 4: C's 3 where D's 3 was, the same term
        "",
    ]
    assert data["details"][0] == (
        "Position 1, D: grade 3, gain 3: 3 / log2(2) = 3 × 1.0000 = 3.0000 (before the change: 1.0000, A)"
    )
    dcg = 3 + 1 / log2(3) + 2 / 2 + 3 / log2(5)
    assert data["total"] == f"{dcg:.4f}"
    assert data["ratio"] == f"NDCG@5 = DCG@5 / IDCG@5 = {dcg:.4f} / {IDCG5:.4f} = {dcg / IDCG5:.4f}"
    cut = formula_data(Translator("zh"), after.with_scoring(k=3), None)
    assert len(cut["terms"]) == 3 and cut["details"][4].startswith("第 5 位，E：在 k = 3 之后")
