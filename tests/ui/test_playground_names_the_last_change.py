"""The line under the Playground's headline names the last change, from what to what, and, when the ideal
moved with it, why NDCG moved (NDCG = DCG / IDCG, both before and after, from ndcg_core)."""

import re

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import DISCOUNTS, dcg, idcg, ndcg_at_k
from ndcg_core.lists.presets import PRESETS
from support import ROOT, playground_list, seed_state
from ui.state import Change

FIVE = [3, 2, 3, 0, 1]  # the example the Playground opens on, k = 5


def open_page(**state):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page("pages/1_Playground.py")
    seed_state(at, **state)
    return at.run()


def change_caption(at):
    """The line under the headline that starts with the change in NDCG (``+0.1234 after ...``, or ``...后变化
    +0.1234``): the first paragraph of the explanation's element, in small grey type."""
    firsts = [m.value.split("\n\n")[0].removeprefix(":small[:gray[").removesuffix("]]") for m in at.markdown]
    found = [line for line in firsts if re.match(r"[+-]\d\.\d{4} after ", line) or "后变化 " in line]
    assert len(found) == 1, [m.value for m in at.markdown]
    return found[0]


def test_a_new_k_is_named_with_both_values_and_the_ideal_that_moved_with_it():
    at = open_page()
    at.slider(key="_w_pg_k").set_value(3).run()
    delta = ndcg_at_k(FIVE, 3) - ndcg_at_k(FIVE, 5)
    assert change_caption(at) == (
        f"{delta:+.4f} after changing k from 5 to 3. NDCG = DCG / IDCG: the ideal's DCG (IDCG) fell from "
        f"{idcg(FIVE, 5):.4f} to {idcg(FIVE, 3):.4f}, and DCG went from {dcg(FIVE, 5):.4f} to {dcg(FIVE, 3):.4f}."
    )


def test_a_new_gain_is_named_by_its_labels_in_chinese_too():
    at = open_page(lang="zh")
    at.selectbox(key="_w_pg_gain").set_value("exponential").run()
    delta = ndcg_at_k(FIVE, 5, gain="exponential") - ndcg_at_k(FIVE, 5)
    ideal_old, ideal_new = idcg(FIVE, 5), idcg(FIVE, 5, gain="exponential")
    dcg_old, dcg_new = dcg(FIVE, 5), dcg(FIVE, 5, gain="exponential")
    gain = {name: at.selectbox(key="_w_pg_gain").format_func(name) for name in ("linear", "exponential")}
    assert change_caption(at) == (
        f"把增益从“{gain['linear']}”改为“{gain['exponential']}” 后变化 {delta:+.4f}。NDCG = DCG / IDCG："
        f"理想排序的 DCG（IDCG）从 {ideal_old:.4f} 升到 {ideal_new:.4f}，DCG 从 {dcg_old:.4f} 变为 {dcg_new:.4f}。"
    )


def test_a_new_discount_is_named_and_the_old_move_is_no_longer_claimed():
    items = PRESETS.build("five").items()
    before = playground_list(items[::-1])
    at = open_page(pg_last=Change("move", before, {"label": "doc E", "src": "5", "dst": "1"}))
    assert "after moving doc E from 5 to 1" in change_caption(at)
    at.selectbox(key="_w_pg_discount").set_value("jk").run()
    jk = DISCOUNTS.build("jk", base=2.0)
    text = change_caption(at)
    assert "moving" not in text
    labels = {name: at.selectbox(key="_w_pg_discount").format_func(name) for name in ("log2", "jk")}
    assert text.startswith(
        f"{ndcg_at_k(FIVE, 5, discount=jk) - ndcg_at_k(FIVE, 5):+.4f} after changing the discount from "
        f"{labels['log2']} to {labels['jk']}. "
    )
    assert f"from {idcg(FIVE, 5):.4f} to {idcg(FIVE, 5, discount=jk):.4f}" in text


def test_a_move_changes_no_ideal_and_gives_no_reason():
    items = PRESETS.build("five").items()
    before = playground_list([items[0], items[2], items[1], *items[3:]])
    at = open_page(pg_last=Change("move", before, {"label": "doc B", "src": "3", "dst": "2"}))
    delta = ndcg_at_k(FIVE, 5) - ndcg_at_k([3, 3, 2, 0, 1], 5)
    assert change_caption(at) == f"{delta:+.4f} after moving doc B from 3 to 2"


REGRADED = {"en": "regrading doc D from 0 to 3", "zh": "把 doc D 的等级从 0 改为 3"}


@pytest.mark.parametrize("lang, expected", REGRADED.items())
def test_a_regrade_says_from_what_to_what_and_why_ndcg_moved(lang, expected):
    items = PRESETS.build("five").items()
    regraded = [*items[:3], items[3].__class__(items[3].id, items[3].label, 3), items[4]]
    at = open_page(
        lang=lang,
        pg_spec=playground_list(regraded),
        pg_last=Change("grade", playground_list(items), {"label": "doc D", "old": "0", "new": "3"}),
    )
    text = change_caption(at)
    assert expected in text
    assert f"{idcg(FIVE, 5):.4f}" in text and f"{idcg([3, 2, 3, 3, 1], 5):.4f}" in text
