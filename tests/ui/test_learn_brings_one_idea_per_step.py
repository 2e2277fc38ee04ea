"""Learn as a novice meets it: one running list through every step, which no step changes; step 1 brings graded
relevance alone (reciprocal rank, the pool of the classic example and the figures often quoted are read on after
the last step), the Chinese query is translated on the English page, and "discount" is the factor 1/log2(i + 1)
in every step and both languages."""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import ndcg_at_k
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


def test_step_1_asks_which_result_the_grades_put_second():
    at = open_step(1)
    at.radio(key="_w_learn_answer_1").set_value("c")
    at.button(key="btn_learn_check_1").click().run()
    assert "Right." in shown_text(at) and "doc C is graded 3" in shown_text(at)


def read_on(lang="en"):
    """The page after the last step's check: "Read on" below it."""
    at = open_step(9, lang)
    at.text_input(key="_w_learn_answer_9").input("7")
    return at.button(key="btn_learn_check_9").click().run()


def test_the_english_page_translates_the_chinese_query():
    assert "成都旅游攻略 (“Chengdu travel guide”)" in shown_text(read_on())


RR_DEFINED = {"en": "Reciprocal rank (RR) is 1 divided by", "zh": "倒数排名（RR）是"}


@pytest.mark.parametrize("lang, definition", RR_DEFINED.items())
def test_read_on_defines_reciprocal_rank_and_the_pool_and_scores_the_two_systems(lang, definition):
    # One session walked from step 1 to 9 (a page's first run in a new session is the cost here), then step 9's
    # check answered for "Read on".
    at = open_step(1, lang)
    for step in range(1, 10):
        at.session_state["learn"].step = step
        shown = shown_text(at.run())
        assert not at.exception and at.session_state["learn"].step == step
        assert "0.55" not in shown and definition not in shown
    at.text_input(key="_w_learn_answer_9").input("7")
    text = shown_text(at.button(key="btn_learn_check_9").click().run())
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
@pytest.mark.parametrize("step", [3, 4, 9])  # the steps that speak of it
def test_discount_is_the_factor_in_every_step(lang, step):
    text = shown_text(reveal(open_step(step, lang), step))
    for wording in DIVISOR[lang]:
        assert wording not in text
    if step == 3:
        assert {"en": "a discount, the factor 1/log2(i + 1)", "zh": "乘以折扣，即系数 1/log2(i + 1)"}[lang] in text


@pytest.mark.parametrize("step", range(1, 10))
def test_every_step_shows_the_one_running_list_unchanged(step):
    at = open_step(step, learn_done=list(range(1, 10)))
    grades = [t.value.iloc[:, 2].tolist() for t in at.table if len(t.value.columns) == 3 and "Grade" in t.value.columns]
    if step in (1, 2, 5, 7, 8):
        assert grades and grades[0] == ["3", "2", "3", "0", "1"]
    assert "3, 0, 0, 3" not in shown_text(at) and "System A" not in shown_text(at) or step == 9
