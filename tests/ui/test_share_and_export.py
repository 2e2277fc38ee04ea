"""Shareable links on the pages (the codec itself: tests/core/test_list_spec.py) and the Playground's export files."""

import base64
import io
import json

import pandas as pd
import pytest
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from ndcg_core import ndcg_at_k
from ndcg_core.lists.items import make_items
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import MAX_LINK_LENGTH, ListSpec
from support import ROOT, press_order, seed_state
from ui import charts, export
from ui.i18n import Translator

labels = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20).filter(str.strip)


def link(items, top=4, **scoring):
    return ListSpec(tuple(items), Scoring(**{"k": min(5, len(items)), **scoring}), top).to_link()


def raw(state):
    return base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")


GOOD = {"v": 1, "l": ["a", "b"], "g": [3, 0], "k": 2, "t": 4, "gain": "linear", "d": "log2", "i": "list"}


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
    assert [it.label for it in at.session_state["playground"].spec.items] == ["x", "y", "z"]
    assert shown_ndcg(at) == ("NDCG@2", f"{ndcg_at_k([0, 1, 3], 2, gain='exponential'):.4f}")
    assert at.query_params["s"] == link(items, k=2, gain="exponential", top=3)  # the address bar holds it


def test_an_address_the_browser_sends_late_does_not_undo_a_change_but_back_still_works(monkeypatch):
    """A second click sent before the browser had the new address carries the old one: it is an echo of a
    link this session replaced a moment ago, not a link to open (the list stays as the first click left it).
    Later the old address is a link again: the browser's Back button brings the old state back."""
    at = open_page("1_Playground", {})
    before = at.query_params["s"]
    press_order(at, "worst")
    worst = [it.label for it in at.session_state["playground"].spec.items]
    assert at.query_params["s"] != before and worst != ["doc A", "doc B", "doc C", "doc D", "doc E"]
    at.query_params["s"] = before  # the browser has not yet applied the address the click wrote
    at.run()
    assert [it.label for it in at.session_state["playground"].spec.items] == worst
    assert shown_ndcg(at) == ("NDCG@5", f"{ndcg_at_k([0, 1, 2, 3, 3], 5):.4f}")
    monkeypatch.setattr("ui.state.ECHO_SECONDS", 0.0)  # as if the learner pressed Back much later
    at.query_params["s"] = before
    at.run()
    assert [it.label for it in at.session_state["playground"].spec.items] == list(PRESETS.build("five").labels)
    assert shown_ndcg(at) == ("NDCG@5", "0.9724")


@pytest.mark.parametrize("param", ["garbage", raw({**GOOD, "gain": "cubic"}), "A" * (MAX_LINK_LENGTH + 5)])
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
    assert at.header[0].value.startswith("1.") and "1 to 9" in " ".join(w.value for w in at.warning)
    at = open_page("6_Practice", {"seed": "12", "n": "3"})
    assert (at.session_state["practice"].seed, at.session_state["practice"].number) == (12, 2)
    at = open_page("6_Practice", {"seed": "-5"})
    assert at.session_state["practice"].seed == 2026 and "seed" in " ".join(w.value for w in at.warning)


# --- export ---------------------------------------------------------------------------------------


def wikipedia():
    spec = PRESETS.build("wikipedia").spec().with_k(4)
    assert spec.scoring == Scoring(k=4, ideal="pool") and spec.extra
    return spec.items, spec, spec.breakdown(), spec.scores()


def test_breakdown_csv_holds_the_shown_numbers():
    _, _, frame, scores = wikipedia()
    table = pd.read_csv(io.BytesIO(export.breakdown_csv(frame)))
    assert list(table.columns) == list(frame.columns)
    assert table["cumulative_dcg"].iloc[3] == pytest.approx(scores.dcg)
    assert table["ndcg"].iloc[3] == pytest.approx(scores.ndcg)


def test_worked_markdown_has_every_step_and_the_result():
    _, spec, frame, scores = wikipedia()
    text = export.worked_markdown(frame, spec, scores, Translator("en"))
    assert f"\\mathrm{{NDCG@4}} = \\frac{{{scores.dcg:.4f}}}{{{scores.idcg:.4f}}} = {scores.ndcg:.4f}" in text
    assert r"\frac{3}{\log_{2}(2)} + \frac{2}{\log_{2}(3)}" in text
    assert "| 5 * | D5 |" in text and "after k = 4" in text
    assert "export." not in text  # every text came from the catalogue
    zh = export.worked_markdown(frame, spec, scores, Translator("zh"))
    assert "计算过程" in zh


def test_worked_markdown_escapes_a_hostile_label_and_handles_zero_idcg():
    spec = ListSpec(tuple(make_items(["<b>x</b>|y", "z"], [0, 0])), Scoring(k=2))
    text = export.worked_markdown(spec.breakdown(), spec, spec.scores(), Translator("en"))
    assert "<b>" not in text and "\\<b\\>x\\</b\\>\\|y" in text
    assert "defined as 0" in text


def test_chart_images_are_png_and_svg_with_the_charts_text():
    _, settings, frame, _ = wikipedia()
    spec = charts.chart_spec("cumulative", frame, top=3, k=4)
    png = export.chart_png(spec)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5_000
    svg = export.chart_svg(spec)
    assert svg.startswith("<svg") and "Cumulative DCG" in svg and "k = 4" in svg
