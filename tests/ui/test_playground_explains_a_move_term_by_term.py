"""Under the Playground's headline, a change is explained term by term: each item whose DCG term changed, its gain
and discount before and after, then DCG, IDCG and NDCG's two shares (from ``explain_change``). Expected figures are
written from the formula."""

import re
from math import log2

from streamlit.testing.v1 import AppTest

from ndcg_core.lists.items import make_items, move
from support import ROOT, playground_list, seed_state
from ui.state import Change

ITEMS = make_items(list("ABCDE"), [1, 2, 3, 3, 0])  # D, a 3 at position 4


def explained(at):
    """The lines of the explanation under the headline (Markdown, as sent): the block that ends on DCG@k."""
    found = [m.value for m in at.markdown if re.search(r"DCG@5[:：].*→", m.value)]
    assert len(found) == 1, [m.value for m in at.markdown]
    return found[0].split("\n\n", 1)[-1].split("  \n")  # after its first paragraph: the change, and NDCG's


def open_after_a_move(lang="en"):
    before = playground_list(ITEMS)
    after = playground_list(move(ITEMS, 3, 0))  # D from 4 to 1
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page("pages/1_Playground.py")
    seed_state(at, pg_spec=after, pg_last=Change("move", before, {"label": "D", "src": "4", "dst": "1"}), lang=lang)
    return at.run()


def test_a_move_names_each_changed_term_before_and_after():
    lines = explained(open_after_a_move())
    # D: 3 x 1/log2(5) at 4, then 3 x 1 at 1; A, B, C one place down each; E (grade 0) changes nothing.
    d_old, d_new = 3 / log2(5), 3.0
    assert (
        f"**D**, 4 → 1: 3 × {1 / log2(5):.4f} = {d_old:.4f} → 3 × 1.0000 = {d_new:.4f} ({d_new - d_old:+.4f})"
        in (lines[0])
    )
    assert any(f"**A**, 1 → 2: 1 × 1.0000 = 1.0000 → 1 × {1 / log2(3):.4f}" in line for line in lines)
    assert any(f"**C**, 3 → 4: 3 × 0.5000 = 1.5000 → 3 × {1 / log2(5):.4f}" in line for line in lines)
    assert not any("**E**" in line for line in lines)
    dcg_old = 1 + 2 / log2(3) + 3 / 2 + 3 / log2(5)
    dcg_new = 3 + 1 / log2(3) + 2 / 2 + 3 / log2(5)
    idcg = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)
    assert lines[-1] == (
        f":small[:gray[DCG@5: {dcg_old:.4f} → {dcg_new:.4f} ({dcg_new - dcg_old:+.4f}) over the same IDCG@5, "
        f"{idcg:.4f}: NDCG {(dcg_new - dcg_old) / idcg:+.4f}]]"
    )


def test_a_grade_edited_splits_ndcg_s_change_between_the_list_and_the_ideal():
    # E's grade 0 -> 3 at position 5: its term 0 -> 3/log2(6), and the ideal 3, 3, 3, 2, 1 now.
    before = playground_list(ITEMS)
    after = playground_list(make_items(list("ABCDE"), [1, 2, 3, 3, 3]))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page("pages/1_Playground.py")
    seed_state(at, pg_spec=after, pg_last=Change("grade", before, {"label": "E", "old": "0", "new": "3"}))
    lines = explained(at.run())
    assert lines[0] == f":small[:gray[**E**, at 5: 0 × {1 / log2(6):.4f} = 0.0000 → 3 × {1 / log2(6):.4f} = " + (
        f"{3 / log2(6):.4f} (+{3 / log2(6):.4f})]]"
    )
    dcg_old = 1 + 2 / log2(3) + 3 / 2 + 3 / log2(5)
    dcg_new = dcg_old + 3 / log2(6)
    idcg_old = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)
    idcg_new = 3 + 3 / log2(3) + 3 / 2 + 2 / log2(5) + 1 / log2(6)
    from_list = (dcg_new - dcg_old) / idcg_new
    change = dcg_new / idcg_new - dcg_old / idcg_old
    assert f"IDCG@5: {idcg_old:.4f} → {idcg_new:.4f}, the ideal moved." in lines[-1]
    assert f"NDCG {change:+.4f} = {from_list:+.4f} from the list's terms (ΔDCG / new IDCG) " in lines[-1]
    assert lines[-1].endswith(f"{change - from_list:+.4f} from the ideal]]")


def test_the_explanation_speaks_chinese():
    lines = explained(open_after_a_move("zh"))
    assert "IDCG@5 不变" in lines[-1]
    assert not any("playground." in line for line in lines)


def test_an_item_moved_past_k_counts_nothing_there_and_one_moved_in_counts_its_term():
    from ndcg_core.lists.changes import explain_change
    from ui.i18n import Translator
    from ui.views.playground.figures import explanation_lines

    before = playground_list(ITEMS, k=3)
    after = playground_list(move(ITEMS, 1, 4), k=3)  # B (a 2) from 2 to 5, past k; D (a 3) up from 4 to 3
    lines = explanation_lines(Translator("en"), explain_change(before, after), 3)
    assert f"**B**, 2 → past k: 2 × {1 / log2(3):.4f} = {2 / log2(3):.4f} → 0 (" in lines[2]
    assert lines[1] == "**D**, past k → 3: 0 → 3 × 0.5000 = 1.5000 (+1.5000)"
    assert lines[0].startswith("**C**, 3 → 2: 3 × 0.5000 = 1.5000 → ")


def test_a_long_shift_sums_the_items_beyond_six_in_one_line():
    from ndcg_core.lists.changes import explain_change
    from ui.i18n import Translator
    from ui.views.playground.figures import explanation_lines

    many = make_items([f"d{i}" for i in range(10)], [1] * 9 + [3])
    before, after = playground_list(many, k=10), playground_list(move(many, 9, 0), k=10)
    explained = explain_change(before, after)
    lines = explanation_lines(Translator("en"), explained, 10)
    # d9 to the top and d0..d8 one place down: 10 items changed, 6 named, 4 summed.
    shifted = sum(1 / log2(p + 2) - 1 / log2(p + 1) for p in range(6, 10))  # d5..d8 from 6..9 to 7..10, 1-based
    assert lines[6] == f"… and 4 more items, {shifted:+.4f} together"
