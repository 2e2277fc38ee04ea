"""Learn, Conventions, Metrics and Practice through AppTest: every step and exercise type, right,
wrong and malformed answers."""

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import dcg, idcg
from ndcg_core.teaching.conventions import CONVENTIONS, WIKIPEDIA, learnt_first
from ndcg_core.teaching.exercises import KINDS, exercise
from ndcg_core.teaching.metrics import all_metrics
from support import ROOT, plain, seed_state

FIVE = [3, 2, 3, 0, 1]


def open_page(page, **state):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(f"pages/{page}.py")
    seed_state(at, **state)
    return at.run()


def feedback(at):
    return plain(" ".join(x.value for x in (*at.success, *at.error)))


# --- Learn -------------------------------------------------------------------------------------

LEARN_ANSWERS = {
    1: "c",
    2: f"{sum(FIVE)}",
    3: "0.5",
    4: f"{dcg(FIVE, 3):.3f}",
    5: f"{idcg(FIVE, 5):.3f}",
    9: "7",
}


def answer(at, step, value):
    key = f"_w_learn_answer_{step}"
    if step == 1:
        at.radio(key=key).set_value(value)
    else:
        at.text_input(key=key).input(value)
    at.button(key=f"btn_learn_check_{step}").click().run()


def test_the_lesson_walks_from_step_1_to_9_with_right_answers():
    at = open_page("3_Learn")
    for step in range(1, 10):
        assert at.session_state["learn"].step == step
        assert at.header[0].value.startswith(f"{step}.")
        assert at.button(key="btn_learn_next").disabled if step < 9 else True  # answer first
        if step == 6:
            at.button(key="btn_learn_sheet_show").click().run()
        elif step in (7, 8):
            at.radio(key=f"_w_learn_guess_direction_{step}").set_value("down")
            at.radio(key=f"_w_learn_guess_band_{step}").set_value("large")
            at.button(key=f"btn_learn_predict_{step}").click().run()
        else:
            answer(at, step, LEARN_ANSWERS[step])
            assert "Right." in feedback(at), (step, feedback(at))
        assert not at.exception
        if step < 9:
            at.button(key="btn_learn_next").click().run()
    assert 9 in at.session_state["learn"].done


@pytest.mark.parametrize(
    "step, wrong, explained",
    [
        (1, "b", "doc C is graded 3 and doc B 2"),
        (2, "3", "plain sum of the top five grades: 9.0000"),
        (3, "0.33", "1/log2(4) = 1/2 = 0.5000"),
        (4, "4", f"{dcg(FIVE, 3):.4f}"),
        (5, "0.5", f"IDCG@5 = {idcg(FIVE, 5):.4f}"),
        (9, "3", "2^3 − 1 = 8 − 1 = 7"),
    ],
)
def test_a_wrong_answer_is_explained(step, wrong, explained):
    at = open_page("3_Learn", learn_step=step)
    answer(at, step, wrong)
    assert "Not quite." in feedback(at) and explained in feedback(at)
    if step < 9:
        assert at.button(key="btn_learn_next").disabled


@pytest.mark.parametrize("text, message", [("abc", "not a number"), ("1,234", "comma"), ("0,6,2", "comma")])
def test_a_malformed_answer_is_a_message(text, message):
    at = open_page("3_Learn", learn_step=2)
    answer(at, 2, text)
    assert not at.exception and message in feedback(at)


@pytest.mark.parametrize(
    "lang, said, verdict",
    [("en", "Read 0,5 as 0.5.\n\nRight.", "Right."), ("zh", "已将 0,5 读作 0.5。\n\n", "")],  # a paragraph each
)
def test_a_decimal_comma_answer_is_read_as_a_point_and_said(lang, said, verdict):
    at = open_page("3_Learn", learn_step=3, lang=lang)  # step 3's answer: 1/log2(4) = 0.5
    answer(at, 3, "0,5")
    assert not at.exception and feedback(at).startswith(said) and verdict in feedback(at)
    assert at.success and not at.error


def test_show_the_answer_unlocks_the_next_step():
    at = open_page("3_Learn", learn_step=3)
    at.button(key="btn_learn_reveal_3").click().run()
    assert "0.5000" in feedback(at)
    assert not at.button(key="btn_learn_next").disabled


def test_learn_step_4_writes_out_every_term_of_the_running_example():
    table = open_page("3_Learn", learn_step=4).table[0].value
    assert table.iloc[:, 1].tolist() == ["doc A", "doc B", "doc C", "doc D", "doc E"] and table.shape == (5, 3)


# --- Conventions and Metrics --------------------------------------------------------------------


def conventions_table(at):
    return next(d.value for d in at.dataframe if "NDCG" in d.value.columns)


def test_conventions_page_shows_every_convention_with_its_number():
    at = open_page("4_Conventions")
    assert not at.exception
    table = conventions_table(at)
    assert len(table) == len(CONVENTIONS.names())
    for entry, value in zip(learnt_first(), table["NDCG"], strict=True):
        assert value == round(entry.build().score(WIKIPEDIA), 4)
    assert any("0.785" in m.value and "0.961" in m.value for m in at.markdown)
    # Negative gains, as trec_eval: (-1 + 1/log2(3)) / 1 = -0.369, not (-1 + 1/log2(3)) / (1 - 1/log2(3)) = -1.
    assert any("**-0.369**" in m.value and "-1.000" in m.value for m in at.markdown)


def test_conventions_k_change_recomputes():
    at = open_page("4_Conventions")
    at.number_input(key="_w_conv_k").set_value(3).run()
    first = learnt_first()[0].build().score  # the table starts from the convention Learn and Practice use
    from dataclasses import replace

    assert conventions_table(at)["NDCG"].iloc[0] == round(first(replace(WIKIPEDIA, k=3)), 4)


def test_metrics_page_scores_each_ranking_with_ndcg_core():
    at = open_page("5_Metrics")
    assert not at.exception
    table = at.dataframe[0].value
    expected = all_metrics(FIVE, 5, n_relevant=4, max_grade=4)
    assert list(table["A"]) == pytest.approx(list(expected.values()))


def test_metrics_page_add_remove_and_bad_rankings():
    at = open_page("5_Metrics")
    at.button(key="btn_cmp_add").click().run()
    assert "C" in at.dataframe[0].value.columns
    at.text_input(key="_w_cmp_ranking_1").input("3, x").run()
    assert "ranking b: grade at position 2 is 'x': not a number" in plain(" ".join(e.value for e in at.error)).lower()
    at.text_input(key="_w_cmp_ranking_1").input("1 1 1 1 1").run()
    assert "holds 5 relevant items" in " ".join(e.value for e in at.error)


# --- Practice ------------------------------------------------------------------------------------


def exercise_page(number, seed=2026):
    return open_page("6_Practice", pr_seed=seed, pr_number=number)


def give(at, ex, value):
    key = f"_w_pr_answer_{ex.seed}_{ex.number}"
    if ex.kind in ("dcg_term", "dcg", "ndcg"):
        at.text_input(key=key).input(value)
    else:
        at.radio(key=key).set_value(value)
    at.button(key="btn_pr_check").click().run()


def wrong_choice(ex):
    options = {"better_order": ["a", "b"], "swap": ["up", "down", "same"], "gap": list(ex.data.get("queries", {}))}
    return next(o for o in options[ex.kind] if o != ex.answer)


@pytest.mark.parametrize("number", [n for n in range(len(KINDS)) if KINDS[n] != "reach"])
def test_every_exercise_type_accepts_the_right_answer_and_explains_a_wrong_one(number):
    ex = exercise(2026, number)
    right = f"{ex.answer:.4f}" if isinstance(ex.answer, float) else ex.answer
    wrong = f"{ex.answer + 0.5:.4f}" if isinstance(ex.answer, float) else wrong_choice(ex)
    at = exercise_page(number)
    give(at, ex, wrong)
    assert "Not this time." in feedback(at)
    assert at.metric[0].value == "0 / 1"
    at = exercise_page(number)
    give(at, ex, right)
    assert "Right." in feedback(at) and at.metric[0].value == "1 / 1"


@pytest.mark.parametrize("text, message", [("abc", "not a number"), ("1,234", "comma"), ("1.000,5", "comma")])
def test_practice_malformed_numbers_are_messages_and_not_scored(text, message):
    number = KINDS.index("ndcg")
    ex = exercise(2026, number)
    at = exercise_page(number)
    give(at, ex, text)
    assert message in feedback(at) and at.metric[0].value == "0 / 0"


def test_practice_reads_a_decimal_comma_as_a_point_says_so_and_scores_it():
    number = KINDS.index("ndcg")
    ex = exercise(2026, number)
    typed = f"{ex.answer:.4f}".replace(".", ",")
    at = exercise_page(number)
    give(at, ex, typed)
    assert feedback(at).startswith(f"Read {typed} as {float(typed.replace(',', '.')):g}.\n\nRight.")
    assert at.metric[0].value == "1 / 1"


@pytest.mark.parametrize("extra_moves, verdict", [(0, "Right."), (2, "Not this time.")])
def test_the_reach_exercise_is_right_in_the_fewest_moves_and_explained_otherwise(extra_moves, verdict):
    from ndcg_core.lists.items import ideal_order, make_items
    from ndcg_core.lists.move_count import MoveCount

    number = KINDS.index("reach")
    ex = exercise(2026, number)
    at = exercise_page(number)
    assert not at.exception and at.session_state["practice"].moves.count == 0 and not feedback(at)
    # The component cannot render in AppTest: inject the learner's finished order and move count.
    items = ideal_order(make_items([f"doc {chr(65 + i)}" for i in range(6)], ex.data["grades"]))
    at = open_page(
        "6_Practice", pr_seed=2026, pr_number=number, pr_items=items, pr_moves=MoveCount(ex.answer + extra_moves)
    )
    assert at.metric[1].value == "1.0000"
    assert verdict in feedback(at)
    assert f"the fewest possible is {ex.answer}" in feedback(at)
    assert at.metric[0].value == ("1 / 1" if extra_moves == 0 else "0 / 1")


def test_a_new_seed_gives_a_new_set_and_a_bad_seed_a_message():
    at = exercise_page(0)
    at.text_input(key="_w_pr_seed").input("12").run()
    assert at.session_state["practice"].seed == 12 and at.session_state["practice"].number == 0
    at.text_input(key="_w_pr_seed").input("twelve").run()
    assert "the seed must be a whole number" in feedback(at).lower()
    assert at.session_state["practice"].seed == 12


def test_show_me_opens_the_exercise_in_the_playground():
    number = KINDS.index("dcg")
    ex = exercise(2026, number)
    at = exercise_page(number)
    at.button(key="btn_pr_show").click().run()
    assert not at.exception
    assert [it.grade for it in at.session_state["playground"].spec.items] == ex.data["grades"]
