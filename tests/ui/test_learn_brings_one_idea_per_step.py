"""Learn as a novice meets it: step 1 brings graded relevance alone (reciprocal rank, the pool and the figures
often quoted come in step 5, where NDCG and its ideal are defined), the Chinese query is translated on the
English page, "discount" is the factor 1/log2(i + 1) in every step and both languages, and step 4 marks only
what a move made on step 4 changed."""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import ndcg_at_k
from ndcg_core.lists.items import move
from ndcg_core.lists.presets import PRESETS
from support import ROOT, plain, seed_state

SYSTEM_A, SYSTEM_B = [4, 2, 2, 2, 1], [4, 0, 0, 0, 0]


def open_step(step, lang="en", **state):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/3_Learn.py")
    seed_state(at, lang=lang, learn_step=step, **state)
    return at.run()


def shown_text(at):
    """Every text on the page: Markdown, captions, alerts, headers, labels, and the tables' headers and cells."""
    parts = [x.value for x in (*at.markdown, *at.caption, *at.success, *at.error, *at.header, *at.subheader)]
    parts += [r.label for r in at.radio] + [o for r in at.radio for o in r.options]
    for table in (*at.dataframe, *at.table):
        parts += [str(c) for c in table.value.columns] + [str(v) for v in table.value.to_numpy().ravel()]
    return plain(" ".join(parts))


def reveal(at, step):
    at.button(key=f"btn_learn_reveal_{step}").click().run()
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_1_brings_graded_relevance_alone_even_after_the_answer(lang):
    at = reveal(open_step(1, lang), 1)
    text = shown_text(at)
    for later in ("MRR", "RR", "0.55", "0.95", "P@1", "NDCG@5", "IDCG"):
        assert later not in text, later
    assert [r.key for r in at.radio] == ["_w_learn_answer_1"]


def test_step_1_asks_which_system_the_grades_favour():
    at = open_step(1)
    at.radio(key="_w_learn_answer_1").set_value("a")
    at.button(key="btn_learn_check_1").click().run()
    assert "Right." in shown_text(at) and "2, 2, 2, 1" in shown_text(at)


def test_the_english_page_translates_the_chinese_query():
    assert "成都旅游攻略 (“Chengdu travel guide”)" in shown_text(open_step(1))


RR_DEFINED = {"en": "Reciprocal rank (RR) is 1 divided by", "zh": "倒数排名（RR）是"}


@pytest.mark.parametrize("lang, definition", RR_DEFINED.items())
def test_step_5_defines_reciprocal_rank_and_the_pool_and_scores_the_two_systems(lang, definition):
    at = open_step(5, lang)
    assert "0.55" not in shown_text(at)  # predict first
    at = reveal(at, 5)
    text = shown_text(at)
    assert definition in text and "0.55" in text
    table = next(t.value for t in at.dataframe if "RR" in t.value.columns)
    assert list(table["RR"]) == [1.0, 1.0]
    assert list(table["NDCG@5"]) == [round(ndcg_at_k(s, 5, pool=SYSTEM_A + [0] * 4), 4) for s in (SYSTEM_A, SYSTEM_B)]
    at.radio(key="_w_learn_pool").set_value("larger").run()
    assert "0.95" in shown_text(at)


# "discount" names the factor 1/log2(i + 1): never the divisor log2(i + 1), and a top position is the least
# discounted one (its factor is the largest), never "strongly discounted".
DIVISOR = {
    "en": ("Gain / discount", "divides the gain at position i by log2", "strongly discounted"),
    "zh": ("增益 / 折扣", "的增益除以 log2", "折扣较小"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("step", [3, 4, 6])  # the steps that speak of it
def test_discount_is_the_factor_in_every_step(lang, step):
    text = shown_text(reveal(open_step(step, lang), step))
    for wording in DIVISOR[lang]:
        assert wording not in text
    if step == 3:
        assert {"en": "a discount, the factor 1/log2(i + 1)", "zh": "乘以折扣，即系数 1/log2(i + 1)"}[lang] in text


def changed_marks(at):
    return at.table[0].value.iloc[:, 3].tolist()


def test_step_4_does_not_count_a_move_made_on_another_step():
    items = PRESETS.build("five").items()
    # A move on step 3 (its list before and after), then on to step 4.
    at = open_step(3, learn_items=move(items, 2, 0), learn_prev=items, learn_done=[1, 2, 3])
    at.button(key="btn_learn_next").click().run()
    assert at.session_state["learn"].step == 4
    assert changed_marks(at) == [""] * 5
