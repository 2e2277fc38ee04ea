"""Shareable links (round trip and tampering) and the Playground's export files."""

import base64
import io
import json

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from ndcg_core import ndcg_at_k
from ndcg_core.lists.items import ListSettings as Settings
from ndcg_core.lists.items import list_breakdown, make_items, score
from ndcg_core.lists.presets import PRESETS
from support import ROOT, seed_state
from ui import charts, export
from ui.i18n import Translator
from ui.share import MAX_PARAM_LENGTH, decode_playground, encode_playground

labels = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20).filter(str.strip)


def link(items, **overrides):
    options = {
        "extra": [],
        "k": min(5, len(items)),
        "top": 4,
        "gain": "linear",
        "gain_map": {},
        "discount": "log2",
        "jk_base": 2.0,
        "ideal": "list",
        **overrides,
    }
    return encode_playground(items, **options)


def raw(state):
    return base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")


GOOD = {"v": 1, "l": ["a", "b"], "g": [3, 0], "k": 2, "t": 4, "gain": "linear", "d": "log2", "i": "list"}


@given(st.lists(st.tuples(labels, st.integers(0, 4)), min_size=1, max_size=30), st.data())
def test_a_link_restores_exactly_the_state_it_was_made_from(rows, data):
    items = make_items([label.strip() for label, _ in rows], [g for _, g in rows])
    k = data.draw(st.integers(1, len(items)))
    gain = data.draw(st.sampled_from(["linear", "exponential", "custom"]))
    discount = data.draw(st.sampled_from(["log2", "jk"]))
    extra = make_items(["x", "y"], [4, 1], first_id=len(items) + 1)
    state = decode_playground(
        link(
            items, k=k, gain=gain, gain_map={0: 0.0, 3: 9.0}, discount=discount, jk_base=3.0, ideal="pool", extra=extra
        )
    )
    assert [(it.label, it.grade) for it in state["items"]] == [(it.label, it.grade) for it in items]
    assert (state["k"], state["gain"], state["discount"], state["ideal"]) == (k, gain, discount, "pool")
    assert [(it.label, it.grade) for it in state["extra"]] == [("x", 4), ("y", 1)]
    if gain == "custom":
        assert state["gain_map"] == {0: 0.0, 3: 9.0}
    if discount == "jk":
        assert state["jk_base"] == 3.0


@pytest.mark.parametrize(
    "param, message",
    [
        ("", "holds no state"),
        ("%%%", "damaged"),
        (link(make_items(["a"], [1]))[:-6], "damaged"),
        ("x" * (MAX_PARAM_LENGTH + 1), "at most 20000"),
        (raw([1, 2]), "not a set of settings"),
        (raw({**GOOD, "v": 9}), "version 9"),
        (raw({**GOOD, "gain": "cubic"}), "unknown gain 'cubic'"),
        (raw({**GOOD, "d": "log10"}), "unknown discount"),
        (raw({**GOOD, "g": [3, 7]}), "grade 2 is 7: the top grade is 4"),
        (raw({**GOOD, "g": [3, -1]}), "negative"),
        (raw({**GOOD, "g": ["x", 1]}), "not a number"),
        (raw({**GOOD, "k": 3}), "k is 3"),
        (raw({**GOOD, "k": True}), "not the expected kind"),
        (raw({**GOOD, "t": 99}), "top grade must be 1 to 10"),
        (raw({**GOOD, "l": ["a"]}), "1 labels for 2 grades"),
        (raw({**GOOD, "l": ["a", "  "]}), "label 2 is blank"),
        (raw({**GOOD, "l": ["a" * 61, "b"]}), "at most 60"),
        (raw({**GOOD, "l": [], "g": []}), "empty"),
        (raw({**GOOD, "l": ["a"] * 101, "g": [1] * 101, "k": 1}), "at most 100"),
        (raw({**{k: v for k, v in GOOD.items() if k != "k"}}), "lacks its 'k' part"),
        (raw({**GOOD, "gain": "custom", "m": {"x": 1}}), "not a whole number"),
        (raw({**GOOD, "d": "jk", "b": 1}), "above 1"),
        (raw({**GOOD, "x": [["a"]]}), r"not a \(label, grade\) pair"),
        (raw({**GOOD, "i": "judges"}), "unknown ideal"),
    ],
)
def test_a_tampered_link_is_a_clear_value_error(param, message):
    with pytest.raises(ValueError, match=message):
        decode_playground(param)


def open_page(page, query=None, **state):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(f"pages/{page}.py")
    for key, value in (query or {}).items():
        at.query_params[key] = value
    seed_state(at, **state)
    return at.run()


def shown_ndcg(at):
    return next((m.label, m.value) for m in at.metric if m.label.startswith("NDCG@"))


def test_opening_a_link_restores_the_playground():
    items = make_items(["x", "y", "z"], [0, 1, 3])
    at = open_page("1_Playground", {"s": link(items, k=2, gain="exponential", top=3)})
    assert not at.exception and not at.warning
    assert [it.label for it in at.session_state["playground"].items] == ["x", "y", "z"]
    assert shown_ndcg(at) == ("NDCG@2", f"{ndcg_at_k([0, 1, 3], 2, gain='exponential'):.4f}")
    assert at.query_params["s"] == link(items, k=2, gain="exponential", top=3)  # the address bar holds it


def test_an_address_the_browser_sends_late_does_not_undo_a_change_but_back_still_works(monkeypatch):
    """A second click sent before the browser had the new address carries the old one: it is an echo of a
    link this session replaced a moment ago, not a link to open (the list stays as the first click left it).
    Later the old address is a link again: the browser's Back button brings the old state back."""
    at = open_page("1_Playground", {})
    before = at.query_params["s"]
    next(b for b in at.button if b.key == "btn_order_worst").click().run()
    worst = [it.label for it in at.session_state["playground"].items]
    assert at.query_params["s"] != before and worst != ["doc A", "doc B", "doc C", "doc D", "doc E"]
    at.query_params["s"] = before  # the browser has not yet applied the address the click wrote
    at.run()
    assert [it.label for it in at.session_state["playground"].items] == worst
    assert shown_ndcg(at) == ("NDCG@5", f"{ndcg_at_k([0, 1, 2, 3, 3], 5):.4f}")
    monkeypatch.setattr("ui.state.ECHO_SECONDS", 0.0)  # as if the learner pressed Back much later
    at.query_params["s"] = before
    at.run()
    assert [it.label for it in at.session_state["playground"].items] == ["doc A", "doc B", "doc C", "doc D", "doc E"]
    assert shown_ndcg(at) == ("NDCG@5", "0.9724")


@pytest.mark.parametrize("param", ["garbage", raw({**GOOD, "gain": "cubic"}), "A" * (MAX_PARAM_LENGTH + 5)])
def test_a_tampered_link_opens_the_default_example_with_a_notice(param):
    at = open_page("1_Playground", {"s": param})
    assert not at.exception
    assert "could not be read" in " ".join(w.value for w in at.warning)
    assert shown_ndcg(at) == ("NDCG@5", "0.9724")


def test_language_link_and_a_bad_language():
    at = open_page("1_Playground", {"lang": "zh"})
    assert at.title[0].value == "练习场"
    at = open_page("1_Playground", {"lang": "klingon"})
    assert at.title[0].value == "Playground" and "klingon" in " ".join(w.value for w in at.warning)


def test_learn_and_practice_links():
    at = open_page("3_Learn", {"step": "4"})
    assert at.header[0].value.startswith("4.")
    assert at.query_params["step"] == "4"
    at = open_page("3_Learn", {"step": "99"})
    assert at.header[0].value.startswith("1.") and "1 to 6" in " ".join(w.value for w in at.warning)
    at = open_page("6_Practice", {"seed": "12", "n": "3"})
    assert (at.session_state["practice"].seed, at.session_state["practice"].number) == (12, 2)
    at = open_page("6_Practice", {"seed": "-5"})
    assert at.session_state["practice"].seed == 2026 and "seed" in " ".join(w.value for w in at.warning)


# --- export ---------------------------------------------------------------------------------------


def wikipedia():
    preset = PRESETS.build("wikipedia")
    settings = Settings(k=4, ideal="pool", extra=tuple(preset.extra_items()))
    items = preset.items()
    return items, settings, list_breakdown(items, settings), score(items, settings)


def test_breakdown_csv_holds_the_shown_numbers():
    _, _, frame, scores = wikipedia()
    table = pd.read_csv(io.BytesIO(export.breakdown_csv(frame)))
    assert list(table.columns) == list(frame.columns)
    assert table["cumulative_dcg"].iloc[3] == pytest.approx(scores.dcg)
    assert table["ndcg"].iloc[3] == pytest.approx(scores.ndcg)


def test_worked_markdown_has_every_step_and_the_result():
    _, settings, frame, scores = wikipedia()
    text = export.worked_markdown(frame, settings, scores, Translator("en"))
    assert f"\\mathrm{{NDCG@4}} = \\frac{{{scores.dcg:.4f}}}{{{scores.idcg:.4f}}} = {scores.ndcg:.4f}" in text
    assert r"\frac{3}{\log_{2}(2)} + \frac{2}{\log_{2}(3)}" in text
    assert "| 5 * | D5 |" in text and "after k = 4" in text
    assert "export." not in text  # every text came from the catalogue
    zh = export.worked_markdown(frame, settings, scores, Translator("zh"))
    assert "计算过程" in zh


def test_worked_markdown_escapes_a_hostile_label_and_handles_zero_idcg():
    items = make_items(["<b>x</b>|y", "z"], [0, 0])
    settings = Settings(k=2)
    text = export.worked_markdown(list_breakdown(items, settings), settings, score(items, settings), Translator("en"))
    assert "<b>" not in text and "\\<b\\>x\\</b\\>\\|y" in text
    assert "defined as 0" in text


def test_chart_images_are_png_and_svg_with_the_charts_text():
    _, settings, frame, _ = wikipedia()
    spec = charts.chart_spec("cumulative", frame, top=3, k=4)
    png = export.chart_png(spec)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5_000
    svg = export.chart_svg(spec)
    assert svg.startswith("<svg") and "Cumulative DCG" in svg and "k = 4" in svg
