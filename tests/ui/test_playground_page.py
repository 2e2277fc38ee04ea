"""The Playground through Streamlit's AppTest.

AppTest cannot render the custom sortable list, so a move is made the way the page makes
it: through the one move function, with the result injected as the stored list. The
component itself is tested in Chromium (test_browser_playground.py).
"""

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import dcg, idcg, ndcg_at_k
from ndcg_core.lists.items import make_items, move
from ndcg_core.lists.presets import PRESETS
from support import ROOT, component_data, plain, playground_list, press_order, seed_state, send_component_action
from ui.state import Change


def open_page(**state):
    """The Playground as the multipage app opens it (app.py is the entry point, as in a browser)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page("pages/1_Playground.py")
    state.setdefault("pg_edit_open", True)  # the editor (and its grades box) is drawn only when open
    seed_state(at, **state)
    return at.run()


def metrics(at):
    return {m.label: (m.value, m.delta) for m in at.metric}


def figures(at):
    """DCG@k and IDCG@k as the headline shows them under NDCG@k: {label: value}, read from their one element."""
    (block,) = [h.proto.body for h in at.html if 'class="pg-dcg-idcg"' in h.proto.body]
    pairs = re.findall(r'idcg-label">([^<]*)</span><span class="pg-dcg-idcg-value">([^<]*)<', block)
    return dict(pairs)


def shown_ndcg(at):
    label, (value, _) = next((k, v) for k, v in metrics(at).items() if k.startswith("NDCG@"))
    return int(label.split("@")[1]), value


def grades_of(at):
    return [it.grade for it in at.session_state["playground"].spec.items]


def test_opens_on_the_five_results_example_with_ndcg_core_figures():
    at = open_page()
    assert not at.exception
    assert metrics(at) == {"NDCG@5": (f"{ndcg_at_k([3, 2, 3, 0, 1], 5):.4f}", "")}
    assert metrics(at)["NDCG@5"][0] == "0.9724"
    # DCG@5 and IDCG@5 side by side in one element (were two metrics in a row of their own).
    assert figures(at) == {"DCG@5": f"{dcg([3, 2, 3, 0, 1], 5):.4f}", "IDCG@5": f"{idcg([3, 2, 3, 0, 1], 5):.4f}"}


def test_a_move_updates_the_headline_with_its_delta():
    items = PRESETS.build("five").items()
    moved = move(items, 2, 1)  # the second 3 above the 2
    last = Change("move", playground_list(items), {"label": "doc C", "src": "3", "dst": "2"})
    at = open_page(pg_spec=playground_list(moved), pg_last=last)
    assert not at.exception
    value, delta = metrics(at)["NDCG@5"]
    after = ndcg_at_k([3, 3, 2, 0, 1], 5)
    assert value == f"{after:.4f}"
    assert delta == f"{after - ndcg_at_k([3, 2, 3, 0, 1], 5):+.4f}"
    assert any("after moving doc C from 3 to 2" in m.value for m in at.markdown)  # the explanation's first line


@pytest.mark.parametrize(
    "button, expected, said",
    [
        ("ideal", [3, 3, 2, 1, 0], "sorting into the ideal order"),
        ("worst", [0, 1, 2, 3, 3], "sorting into the worst order"),
    ],
)
def test_ideal_and_worst_buttons_reorder_win_over_the_list_and_are_named(button, expected, said):
    at = open_page()
    press_order(at, button)
    assert grades_of(at) == expected
    assert shown_ndcg(at)[1] == f"{ndcg_at_k(expected, 5):.4f}"
    # The caption names the reorder, not a change of where the ideal comes from (both were once "ideal").
    page = " ".join(e.value for e in (*at.caption, *at.markdown))
    assert said in page and "taking the ideal ranking from" not in page


def test_shuffle_then_reset_returns_to_the_preset():
    at = open_page()
    press_order(at, "shuffle")
    assert sorted(grades_of(at)) == [0, 1, 2, 3, 3]
    press_order(at, "reset")
    assert grades_of(at) == [3, 2, 3, 0, 1]
    assert shown_ndcg(at) == (5, "0.9724")


@pytest.fixture(scope="module")
def one_page():
    """One Playground for the presets' tests: each loads its preset over whatever the one before it loaded (a page's
    first run is most of such a test's time), so each must come out the same whatever came before."""
    return open_page()


@pytest.mark.parametrize("name", PRESETS.names())
def test_every_preset_loads_in_one_click_with_ndcg_core_figures(one_page, name):
    at = one_page
    at.selectbox(key="_w_pg_preset_choice").select(name).run()
    at.button(key="btn_load_preset").click().run()
    assert not at.exception
    preset = PRESETS.build(name)
    k = preset.k or min(10, len(preset.grades))
    pool = None if preset.ideal == "list" else list(preset.grades) + [g for _, g in preset.extra]
    assert shown_ndcg(at) == (k, f"{ndcg_at_k(preset.grades, k, pool=pool):.4f}")
    assert [it.label for it in at.session_state["playground"].spec.items] == list(preset.labels)


def test_wikipedia_preset_switches_between_pool_and_list():
    at = open_page()
    at.selectbox(key="_w_pg_preset_choice").select("wikipedia").run()
    at.button(key="btn_load_preset").click().run()
    assert shown_ndcg(at) == (6, "0.7850")
    at.radio(key="_w_pg_ideal").set_value("list").run()
    assert shown_ndcg(at) == (6, "0.9608")


def test_k_slider_changes_the_cutoff():
    at = open_page()
    at.slider(key="_w_pg_k").set_value(2).run()
    assert shown_ndcg(at) == (2, f"{ndcg_at_k([3, 2, 3, 0, 1], 2):.4f}")


def test_gain_and_discount_come_from_the_registries():
    at = open_page()
    assert at.selectbox(key="_w_pg_gain").options == ["Linear", "Exponential", "Custom per grade"]
    at.selectbox(key="_w_pg_gain").set_value("exponential").run()
    assert shown_ndcg(at)[1] == f"{ndcg_at_k([3, 2, 3, 0, 1], 5, gain='exponential'):.4f}"
    at.selectbox(key="_w_pg_discount").set_value("jk").run()
    at.number_input(key="_w_pg_base").set_value(3.0).run()
    from ndcg_core import DISCOUNTS

    expected = ndcg_at_k([3, 2, 3, 0, 1], 5, gain="exponential", discount=DISCOUNTS.build("jk", base=3.0))
    assert shown_ndcg(at)[1] == f"{expected:.4f}"


def test_custom_gain_per_grade():
    at = open_page()
    at.selectbox(key="_w_pg_gain").set_value("custom").run()
    at.number_input(key="_w_pg_gain_3").set_value(9.0).run()
    assert shown_ndcg(at)[1] == f"{ndcg_at_k([3, 2, 3, 0, 1], 5, gain={3: 9}):.4f}"


def test_typed_grades_replace_the_list():
    at = open_page()
    at.text_input(key="_w_pg_grades_text").input("0, 1, 2").run()
    assert grades_of(at) == [0, 1, 2]
    assert shown_ndcg(at) == (3, f"{ndcg_at_k([0, 1, 2], 3):.4f}")


@pytest.mark.parametrize(
    "text, message",
    [
        ("3, , x", "grade 2 is 'x': not a number"),
        ("3, 9", "grade 2 is 9: the top grade is 3"),
        ("-1", "grade 1 is '-1': grades cannot be negative"),
        ("   ", "the list cannot be empty"),
    ],
)
def test_bad_typed_grades_show_a_message_and_keep_the_list(text, message):
    at = open_page()
    at.text_input(key="_w_pg_grades_text").input(text).run()
    assert not at.exception
    errors = plain(" ".join(e.value for e in at.error)).lower()
    assert message in errors and "keeps its last valid state" in errors
    assert grades_of(at) == [3, 2, 3, 0, 1]
    assert shown_ndcg(at) == (5, "0.9724")


def test_top_grade_cannot_drop_below_a_grade_in_use():
    at = open_page()
    at.number_input(key="_w_pg_top_input").set_value(2).run()
    assert "an item has grade 3" in " ".join(e.value for e in at.error)
    assert at.session_state["playground"].spec.top == 3
    at.number_input(key="_w_pg_top_input").set_value(5).run()
    assert at.session_state["playground"].spec.top == 5 and not at.error


def test_the_swap_map_s_reading_writes_labels_as_typed_on_screen_and_as_its_accessible_name():
    at = open_page(pg_spec=playground_list(make_items(["a-1*", "b_[2]"], [0, 3])))
    [swap_map] = [e for e in at.get("bidi_component") if e.proto.component_name == "ndcg_lab.swap_map"]
    data = json.loads(swap_map.proto.json)
    while isinstance(data, str):
        data = json.loads(data)
    # The component sets its reading as text, on screen and as the map's accessible name: the labels as typed.
    assert data["texts"]["reading"].endswith("(swapping a-1* and b_[2]).")
    assert data["names"] == ["1. a-1*", "2. b_[2]"]
    assert not any("Heatmap" in m.value for m in at.markdown)  # no longer Markdown that could read them as markup


def test_a_label_with_markup_is_kept_as_text():
    label = "<script>alert('x')</script><img src=x onerror=alert(1)>"
    at = open_page(pg_spec=playground_list(make_items([label, "b"], [1, 0])))
    assert not at.exception
    assert not any(label in m.value for m in (*at.markdown, *at.caption))  # never written as markdown/HTML
    from ndcg_core.lists.items import list_breakdown
    from ndcg_core.lists.scoring import Scoring
    from ui.widgets.table import table_data

    frame = list_breakdown(at.session_state["playground"].spec.items, Scoring(k=2))
    data = table_data(frame, {c: c for c in frame.columns}, "caption", "beyond")
    assert data["rows"][0][1] == label  # the table component sets it as text (textContent)


def test_a_single_item_list_and_all_zeros_are_handled():
    at = open_page(pg_spec=playground_list(make_items(["only"], [0]), k=1))
    assert not at.exception
    assert shown_ndcg(at) == (1, "0.0000")
    assert any("defined as 0" in i.value for i in at.info)


def test_k_is_clamped_when_the_list_becomes_shorter_than_it():
    at = open_page()  # five items, k = 5
    at.text_input(key="_w_pg_grades_text").set_value("1, 2").run()
    assert not at.exception and grades_of(at) == [1, 2]
    assert shown_ndcg(at) == (2, f"{ndcg_at_k([1, 2], 2):.4f}")


def test_language_switch_keeps_the_list_and_translates():
    at = open_page()
    press_order(at, "worst")
    at.selectbox(key="_w_lang").set_value("zh").run()
    assert at.title[0].value == "练习场"
    assert grades_of(at) == [0, 1, 2, 3, 3]
    orders = component_data(at, "pg_list")["orders"]
    assert {o["kind"]: o["label"] for o in orders}["ideal"] == "理想排序"
    worst = [0, 1, 2, 3, 3]
    assert figures(at) == {"DCG@5": f"{dcg(worst, 5):.4f}", "IDCG@5": f"{idcg(worst, 5):.4f}"}  # the same in Chinese


def test_the_editor_and_exports_are_drawn_only_when_opened():
    at = open_page(pg_edit_open=False)
    assert not [w for w in at.text_input if w.key == "_w_pg_grades_text"]
    at.toggle(key="_w_pg_edit_open").set_value(True).run()
    assert at.text_input(key="_w_pg_grades_text").value == "3, 2, 3, 0, 1"
    at.toggle(key="_w_pg_export_open").set_value(True).run()
    assert at.selectbox(key="_w_pg_export_chart").options


def test_no_text_on_the_page_is_a_missing_catalogue_key():
    at = open_page()
    texts = [e.value for e in (*at.caption, *at.markdown, *at.title, *at.header)]
    texts += [w.label for w in (*at.button, *at.selectbox, *at.radio, *at.slider, *at.number_input)]
    assert not [x for x in texts if re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", str(x))]


def test_reset_and_a_new_example_keep_the_learners_gain_and_discount():
    at = open_page()
    at.selectbox(key="_w_pg_gain").set_value("exponential").run()
    press_order(at, "worst")
    press_order(at, "reset")
    assert not at.exception and grades_of(at) == [3, 2, 3, 0, 1]
    assert at.session_state["playground"].spec.gain == "exponential"
    assert shown_ndcg(at) == (5, f"{ndcg_at_k([3, 2, 3, 0, 1], 5, gain='exponential'):.4f}")
    at.selectbox(key="_w_pg_preset_choice").set_value("lesson").run()
    at.button(key="btn_load_preset").click().run()
    assert grades_of(at) == [3, 0, 2] and at.session_state["playground"].spec.gain == "exponential"
    assert shown_ndcg(at) == (3, f"{ndcg_at_k([3, 0, 2], 3, gain='exponential'):.4f}")


def test_an_unknown_ordering_from_the_list_is_a_message_and_the_list_stays():
    at = open_page()
    send_component_action(at, "pg_list", {"type": "order", "kind": "<b>best</b>", "nonce": 1})
    assert not at.exception and grades_of(at) == [3, 2, 3, 0, 1]
    assert [e.value for e in at.error] == [r"Unknown action '\<b\>best\</b\>'"]  # the markup escaped: shown as text
