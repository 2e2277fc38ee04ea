"""Learn and Practice test understanding: predict first, then reveal; feedback worded from ndcg_core in the
learner's language, with the words the learner clicked; a guided path for a student alone (AppTest)."""

import re

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import DISCOUNTS, dcg, idcg, ndcg_at_k
from ndcg_core.teaching.exercises import KINDS, exercise
from ndcg_core.teaching.metrics import reciprocal_rank
from support import ROOT, plain, playground_list, seed_state
from ui.i18n import Translator
from ui.state import Removal

FIVE = [3, 2, 3, 0, 1]
NOT_MONOTONE = [3, 0, 0, 3]
SYSTEM_A, SYSTEM_B = [4, 2, 2, 2, 1], [4, 0, 0, 0, 0]


def open_page(page, **state):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(f"pages/{page}.py")
    seed_state(at, **state)
    return at.run()


def feedback(at):
    return plain(" ".join(x.value for x in (*at.success, *at.error)))


def every_text(at):
    texts = [e.value for e in (*at.caption, *at.markdown, *at.success, *at.error, *at.info)]
    texts += [f"{m.label} {m.value}" for m in at.metric]
    texts += [d.value.to_csv() for d in at.dataframe]
    return plain(" ".join(texts))


def charts(at):
    return at.get("vega_lite_chart")


def learn_answer(at, step, value):
    key = f"_w_learn_answer_{step}"
    if step in (1, 6):
        at.radio(key=key).set_value(value)
    else:
        at.text_input(key=key).input(value)
    return at.button(key=f"btn_learn_check_{step}").click().run()


# --- Learn ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_two_systems_and_the_quoted_figures_come_after_the_last_step_with_a_pool_to_switch(lang):
    # Every step works on one list; reciprocal rank, the pool of the classic example and the quoted 0.95 and 0.55
    # are read on after the last step's check.
    for step in (1, 5):
        at = learn_answer(open_page("3_Learn", learn_step=step, lang=lang), step, "c" if step == 1 else "6.32")
        assert all("RR" not in d.value.columns for d in at.dataframe)
        assert "MRR" not in every_text(at) and "0.55" not in every_text(at)
    at = learn_answer(open_page("3_Learn", learn_step=9, lang=lang), 9, "7")
    judged = SYSTEM_A + [0] * 4
    table = at.dataframe[0].value
    assert list(table["RR"]) == [reciprocal_rank(SYSTEM_A), reciprocal_rank(SYSTEM_B)] == [1.0, 1.0]
    assert list(table["NDCG@5"]) == [round(ndcg_at_k(s, 5, pool=judged), 4) for s in (SYSTEM_A, SYSTEM_B)]
    at.radio(key="_w_learn_pool").set_value("larger").run()
    larger = judged + [2]
    table = at.dataframe[0].value
    assert list(table["NDCG@5"]) == [round(ndcg_at_k(s, 5, pool=larger), 4) for s in (SYSTEM_A, SYSTEM_B)]
    assert f"{ndcg_at_k(SYSTEM_A, 5, pool=larger):.3f}" in every_text(at)
    assert round(ndcg_at_k(SYSTEM_A, 5, pool=larger), 2) == 0.95  # the often-quoted figure for A
    assert f"{dcg(SYSTEM_A, 5) / dcg(SYSTEM_B, 5):.2f}" in every_text(at)


def _hidden_before(step, at):
    """What would give the answer to ``step`` away, as found on the page."""
    text = every_text(at)
    return {
        2: any(m.label == "CG@5" for m in at.metric),
        3: bool(charts(at)) or bool(at.dataframe) or bool(re.search(r"position 3 keeps|第 3 位保留", text)),
        5: any(m.label in ("IDCG@5", "NDCG@5") for m in at.metric),
    }[step]


@pytest.mark.parametrize("step, right", [(2, f"{sum(FIVE)}"), (3, "0.5"), (5, f"{idcg(FIVE, 5):.3f}")])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_learn_checks_ask_first_and_reveal_after_an_answer(step, right, lang):
    at = open_page("3_Learn", learn_step=step, lang=lang)
    assert not _hidden_before(step, at)
    at = learn_answer(at, step, right)
    assert _hidden_before(step, at)  # now shown


def test_switching_language_rewords_learn_feedback_and_keeps_the_answer():
    at = learn_answer(open_page("3_Learn", learn_step=2), 2, "3")
    assert "Not quite." in feedback(at)
    at.selectbox(key="_w_lang").set_value("zh").run()
    assert "不太对" in feedback(at) and "Not quite" not in feedback(at)
    assert at.text_input(key="_w_learn_answer_2").value == "3"
    at = learn_answer(open_page("3_Learn", learn_step=1), 1, "b")
    at.selectbox(key="_w_lang").set_value("zh").run()
    assert "不太对" in feedback(at) and at.radio(key="_w_learn_answer_1").value == "b"


def test_learn_ends_with_a_finish_and_a_full_width_link_onward():
    at = learn_answer(open_page("3_Learn", learn_step=9), 9, "7")
    t = Translator("en")
    assert t("learn.finished", steps=9) in [s.value for s in at.success]
    onward = [p.proto for p in at.main.get("page_link") if p.proto.label == t("learn.to_playground")]
    assert [p.page for p in onward] == ["Playground"]  # full width: the browser test checks it is never cut


def test_the_home_page_offers_learn_then_playground_then_practice():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    main = [p.proto for p in at.main.get("page_link")]
    assert [p.page for p in main][:3] == ["Learn", "Playground", "Practice"]


# --- Practice --------------------------------------------------------------------------------------


def practice_give(at, ex, value):
    key = f"_w_pr_answer_{ex.seed}_{ex.number}"
    if ex.kind in ("dcg_term", "dcg", "ndcg"):
        at.text_input(key=key).input(value)
    else:
        at.radio(key=key).set_value(value)
    return at.button(key="btn_pr_check").click().run()


def wrong_choice(ex):
    options = {"better_order": ["a", "b"], "swap": ["up", "down", "same"], "gap": list(ex.data.get("queries", {}))}
    return next(o for o in options[ex.kind] if o != ex.answer)


@pytest.mark.parametrize("seed", [2026, 7, 11])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_practice_feedback_uses_the_words_the_learner_clicked(seed, lang):
    t = Translator(lang)
    for kind in ("swap", "better_order"):
        ex = exercise(seed, KINDS.index(kind))
        at = practice_give(open_page("6_Practice", pr_seed=seed, pr_number=ex.number, lang=lang), ex, wrong_choice(ex))
        text = feedback(at)
        assert t(f"practice.choice.{ex.answer}") in text, text
        assert not re.search(r"(Answer|答案)[:：] ?(up|down|same)\b", text), text
        assert not re.search(r"\bOrder [ab]\b|顺序 [ab]\b", text), text
        assert "discount is smaller" not in text and "折扣更小" not in text


def test_the_swap_feedback_says_which_gains_moved_to_which_discounts():
    for seed in (2026, 7, 11, 12):
        ex = exercise(seed, KINDS.index("swap"))
        g, k, i, j = ex.data["grades"], ex.data["k"], ex.data["i"], ex.data["j"]
        at = practice_give(open_page("6_Practice", pr_seed=seed, pr_number=ex.number), ex, ex.answer)
        text = feedback(at)
        factor = DISCOUNTS.build("log2")([i, j])
        swapped = list(g)
        swapped[i - 1], swapped[j - 1] = swapped[j - 1], swapped[i - 1]
        assert f"{ndcg_at_k(g, k):.4f}" in text and f"{ndcg_at_k(swapped, k):.4f}" in text, text
        for position, f in zip((i, j), factor, strict=False):
            if position <= k:
                assert f"{f:.3f}" in text, (text, f)


def test_switching_language_rewords_practice_feedback_and_keeps_the_choice():
    ex = exercise(2026, KINDS.index("swap"))
    choice = wrong_choice(ex)
    at = practice_give(open_page("6_Practice", pr_number=ex.number), ex, choice)
    assert "Not this time." in feedback(at)
    at.selectbox(key="_w_lang").set_value("zh").run()
    assert "这次不对" in feedback(at) and "Not this time" not in feedback(at)
    assert Translator("zh")(f"practice.choice.{ex.answer}") in feedback(at)
    assert at.radio(key=f"_w_pr_answer_{ex.seed}_{ex.number}").value == choice


# --- Presenter view --------------------------------------------------------------------------------


def test_presenter_view_comes_from_the_link_and_goes_into_it():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/1_Playground.py")
    at.query_params["present"] = "1"
    at.run()
    assert at.session_state["app"].presenter and at.query_params["present"] in ("1", ["1"])
    assert at.get("image")  # the QR code of the link
    at.toggle(key="_w_presenter").set_value(False).run()
    assert "present" not in at.query_params and not at.get("image")


def test_the_qr_code_is_the_links_and_small_enough_to_scan_from_afar():
    import segno

    from ui.widgets.qr import qr_svg

    link = "http://localhost:8501/Playground?s=eyJ2IjoxfQ&lang=en"
    code = segno.make(link, error="m", micro=False)
    svg = qr_svg(link)
    side = (len(code.matrix) + 8) * 10  # modules, the quiet zone of 4 on each side, 10 px a module
    assert f'width="{side}"' in svg and f'height="{side}"' in svg
    assert svg != qr_svg(link + "x")
    assert code.version <= 10  # a code a phone reads from across a room


def test_users_see_no_developer_controls():
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["toolbarMode"] == "viewer"


# --- Playground ------------------------------------------------------------------------------------


def test_the_playground_caption_describes_the_list_opened_from_evaluate():
    from ndcg_core.lists.presets import PRESETS

    at = open_page("2_Evaluate")
    at.button(key="btn_ev_open_playground").click().run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    t = Translator("en")
    assert t.entry("preset", PRESETS["five"], "description") not in captions
    assert t("playground.list_from_elsewhere", n=len(at.session_state["playground"].spec.items)) in captions


def test_the_playground_caption_follows_a_change_to_the_example():
    from ndcg_core.lists.items import move
    from ndcg_core.lists.presets import PRESETS

    t = Translator("en")
    five = PRESETS.build("five").items()
    at = open_page("1_Playground", pg_spec=playground_list(move(five, 4, 0)))
    captions = [c.value for c in at.caption]
    assert t.entry("preset", PRESETS["five"], "description") not in captions
    assert t("playground.list_changed", label=t.entry("preset", PRESETS["five"], "label")) in captions


def test_the_tile_chart_wraps_a_long_list_into_readable_lines():
    import altair as alt

    from ndcg_core.lists.items import list_breakdown, make_items
    from ndcg_core.lists.scoring import Scoring
    from ui import charts as ui_charts

    items = make_items([f"doc {i}" for i in range(100)], [(i * 7) % 4 for i in range(100)])
    frame = list_breakdown(items, Scoring(k=10))
    spec = ui_charts.chart_spec("order", frame, top=3, k=10)
    rows = spec["datasets"]["rows"]
    assert max(r["column"] for r in rows) <= 20  # at most 20 tiles a line, each wide enough for its grade
    assert len({(r["lane"], r["column"]) for r in rows}) == len(rows) == 200  # every tile its own place
    assert len({r["lane"] for r in rows}) == 10 and spec["height"] >= 10 * 24
    lanes = spec["layer"][0]["encoding"]["y"]["sort"]
    assert lanes[:4] == ["This order 1–20", "Ideal order 1–20", "This order 21–40", "Ideal order 21–40"]
    alt.LayerChart.from_dict(spec)  # valid Vega-Lite


def test_a_removal_offers_undo_that_puts_the_item_back_where_it_was():
    from ndcg_core.lists.items import without
    from ndcg_core.lists.presets import PRESETS

    five = PRESETS.build("five").items()
    at = open_page("1_Playground", pg_spec=playground_list(without(five, 3)), pg_removed=Removal(tuple(five), "doc C"))
    undo = at.button(key="btn_undo_remove")
    assert undo.label == Translator("en")("playground.undo_remove", label="doc C")
    undo.click().run()
    assert list(at.session_state["playground"].spec.items) == five and at.session_state["playground"].removed is None


def test_the_metrics_chart_is_one_responsive_chart_with_no_empty_panel():
    import json

    at = open_page("5_Metrics")
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert "facet" not in spec and spec["width"] == "container"
    rows = spec["layer"][0]["encoding"]["y"]["sort"]  # one row per metric, each with its bars: none empty
    assert len(rows) == 6 and not any(r.startswith("DCG") for r in rows)  # DCG, unbounded, is in the table
