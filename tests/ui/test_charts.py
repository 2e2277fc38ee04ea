"""Chart specs through ``to_dict()``: named layers, data from the breakdown, one colour per grade, k marked."""

import re
from math import log2

import altair as alt
import pytest

from ndcg_core.lists.items import list_breakdown, make_items, ndcg_for_every_k
from ndcg_core.lists.scoring import Scoring
from ui import charts


def frame_of(grades, k, extra=(), **scoring):
    items = make_items([f"doc {i}" for i in range(1, len(grades) + 1)], grades)
    return items, list_breakdown(items, Scoring(k=k, **scoring), extra)


def layer_names(spec):
    # Altair may suffix a nested layer's name (gain -> gain_0) to keep names unique.
    return [re.sub(r"_\d+$", "", layer.get("name", "")) for layer in spec["layer"]]


def values(spec, layer=None):
    """The data rows of a layer (the page's specs keep their data in top-level named datasets)."""
    data = (layer or spec).get("data") or spec.get("data")
    return spec["datasets"][data["name"]]


def spec_of(kind, frame, top, k, every=(), texts=None):
    """The spec the page draws, checked against the Vega-Lite schema by Altair on the way."""
    spec = charts.chart_spec(kind, frame, top=top, k=k, every_k=every, texts=texts)
    alt.LayerChart.from_dict(spec)  # raises ValidationError if the spec is not valid Vega-Lite
    return spec


def test_contribution_chart_layers_and_tooltips():
    _, frame = frame_of([3, 2, 3, 0, 1], k=3)
    spec = spec_of("contribution", frame, top=4, k=3)
    assert layer_names(spec) == ["bars", "discount"]
    assert layer_names(spec["layer"][0]) == ["gain", "contribution", "grade_labels"]
    assert spec["resolve"]["scale"]["y"] == "independent"
    rows = values(spec)
    idcg = 3 + 3 / log2(3) + 2 / log2(4)
    assert [r["contribution"] for r in rows] == pytest.approx([3, 2 / log2(3), 3 / log2(4), 0, 1 / log2(6)])
    assert sum(r["contribution"] for r in rows if r["in_top_k"]) / idcg == pytest.approx(
        (3 + 2 / log2(3) + 3 / log2(4)) / idcg
    )
    assert [r["in_top_k"] for r in rows] == [True, True, True, False, False]
    assert [r["grade_key"] for r in rows] == ["3", "2", "3", "0", "1"]
    tooltip = {t["field"] for t in spec["layer"][0]["layer"][1]["encoding"]["tooltip"]}  # hovering a bar
    assert tooltip == {"position", "item", "grade", "gain", "discount", "contribution"}
    discount = spec["layer"][1]["encoding"]["y"]
    assert discount["field"] == "discount" and discount["scale"]["domain"] == [0, 1]


def test_grade_colours_are_the_same_in_every_chart_and_in_the_list():
    _, frame = frame_of([4, 0, 2], k=3)
    scale = spec_of("contribution", frame, top=4, k=3)["layer"][0]["layer"][0]["encoding"]["color"]["scale"]
    tiles = spec_of("order", frame, top=4, k=3)["layer"][0]["encoding"]["color"]["scale"]
    assert scale == tiles
    assert scale["domain"] == ["0", "1", "2", "3", "4"]
    assert scale["range"] == [charts.grade_color(g, 4) for g in range(5)]
    assert len(set(scale["range"])) == 5
    assert scale["range"][0] == charts.ZERO_COLOR


def test_grade_colours_get_darker_as_the_grade_rises():
    def luminance(color):
        r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    lum = [luminance(charts.grade_color(g, 4)) for g in range(1, 5)]
    assert lum == sorted(lum, reverse=True)
    assert charts.grade_text_color(4, 4) == "#ffffff" and charts.grade_text_color(1, 4) == "#000000"


def test_cumulative_chart_has_both_series_and_a_rule_at_k():
    _, frame = frame_of([3, 2, 3, 0, 1], k=4)
    spec = spec_of("cumulative", frame, top=3, k=4)
    assert layer_names(spec) == ["lines", "k_rule", "k_label"]
    rows = values(spec, spec["layer"][0])
    this = [r["value"] for r in rows if r["series"] == "This order"]
    ideal = [r["value"] for r in rows if r["series"] == "Ideal order"]
    third = 3 + 2 / log2(3) + 3 / log2(4)
    assert this == pytest.approx([3, 3 + 2 / log2(3), third, third, third + 1 / log2(6)])
    fourth = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
    assert ideal == pytest.approx([3, 3 + 3 / log2(3), 3 + 3 / log2(3) + 2 / log2(4), fourth, fourth])
    assert values(spec, spec["layer"][1]) == [{"k": 4, "label": "k = 4"}]


def test_order_chart_puts_the_ideal_grades_beside_the_current_ones():
    _, frame = frame_of([0, 3, 1], k=3)
    spec = spec_of("order", frame, top=3, k=3)
    assert layer_names(spec) == ["tiles", "grade_labels"]
    rows = values(spec, spec["layer"][0])
    assert [r["grade_key"] for r in rows if r["row"] == "This order"] == ["0", "3", "1"]
    assert [r["grade_key"] for r in rows if r["row"] == "Ideal order"] == ["3", "1", "0"]


def test_ndcg_by_k_chart_marks_the_chosen_k_and_shows_a_dip():
    items, _ = frame_of([3, 0, 0, 3], k=2)
    every = ndcg_for_every_k(items, Scoring())
    assert list(every) == pytest.approx(
        [1, 3 / (3 + 3 / log2(3)), 3 / (3 + 3 / log2(3)), (3 + 3 / log2(5)) / (3 + 3 / log2(3))]
    )
    for spec in (
        charts.ndcg_by_k_chart(every, 2).to_dict(),
        spec_of("every_k", frame_of([3, 0, 0, 3], k=2)[1], 3, 2, every),
    ):
        assert layer_names(spec) == ["line", "chosen_k"]
        rows = values(spec, spec["layer"][0])
        assert [r["ndcg"] for r in rows] == pytest.approx(list(every))
        assert [r["k"] for r in rows if r["chosen"]] == [2]
    assert any(b < a for a, b in zip(every, every[1:], strict=False)), "this list's NDCG@k is not monotone"


def test_chart_texts_can_be_translated():
    _, frame = frame_of([1, 2], k=2)
    spec = spec_of("cumulative", frame, 2, 2, texts={"this_order": "本排序", "ideal_order": "理想排序", "k": "k"})
    assert {r["series"] for r in values(spec, spec["layer"][0])} == {"本排序", "理想排序"}
    assert {t.get("title") for t in spec["layer"][0]["encoding"]["tooltip"]} >= {"Cumulative DCG"}


def test_pool_ideal_longer_than_the_list_and_fractional_grades_draw():
    _, frame = frame_of([2.5, 0], k=2, ideal="pool", extra=tuple(make_items(["x", "y"], [3, 3], first_id=3)))
    for kind in ("contribution", "order", "cumulative"):
        spec_of(kind, frame, 3, 2)
    ideal = [r["grade_key"] for r in values(spec_of("order", frame, 3, 2)) if r["row"] == "Ideal order"]
    assert ideal == ["3", "3"]  # the judged pool's best two, not this list's
    scale = charts.grade_scale([2.5], 3).to_dict()
    assert "2.5" in scale["domain"]


def resolved(spec):
    """The spec with every named dataset put in place, so specs with different dataset names compare."""
    datasets = spec.get("datasets", {})

    def walk(node):
        if isinstance(node, dict):
            if set(node) == {"name"} and node["name"] in datasets:
                return datasets[node["name"]]
            out = {k: walk(v) for k, v in node.items() if k != "datasets"}
            if isinstance(out.get("name"), str):
                out["name"] = re.sub(r"_\d+$", "", out["name"])
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(spec)


def test_the_every_k_spec_is_learns_altair_chart():
    items, _ = frame_of([3, 2, 3, 0, 1, 2], k=4)
    every = ndcg_for_every_k(items, Scoring())
    fast = spec_of("every_k", frame_of([3, 2, 3, 0, 1, 2], k=4)[1], 3, 4, every)
    assert _same(resolved(fast), resolved(charts.ndcg_by_k_chart(every, 4).to_dict()))


def test_a_new_setting_reuses_no_stale_template():
    _, frame = frame_of([2, 1], k=2)
    english = spec_of("contribution", frame, 2, 2)
    chinese = spec_of("contribution", frame, 2, 2, texts={"position": "位置"})
    assert english["layer"][0]["layer"][0]["encoding"]["x"]["title"] == "Position"
    assert chinese["layer"][0]["layer"][0]["encoding"]["x"]["title"] == "位置"
    assert spec_of("contribution", frame_of([4, 1], k=2)[1], 4, 2)["layer"][0]["layer"][0]["encoding"]["color"][
        "scale"
    ]["domain"] == ["0", "1", "2", "3", "4"]


def _same(a, b):
    """Equal, with floats equal to 1e-12 (the page's JSON and Altair's may round the last bit apart)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, float) or isinstance(b, float):
        return a == pytest.approx(b, rel=1e-12, abs=1e-12)
    return a == b


def test_the_swap_map_spec_is_its_altair_chart_with_colours_as_deep_for_a_gain_as_for_an_equal_loss():
    items = make_items(["a", "b", "c"], [1, 3, 0])
    from ndcg_core.lists.items import ndcg_after_each_swap

    after = ndcg_after_each_swap(items, Scoring(k=2))
    changes = after - after[0, 0]
    spec, data = charts.swap_map_spec(["a", "b", "c"], changes, 2)
    chart = charts.swap_map_chart(charts.swap_rows(["a", "b", "c"], changes, 2)).to_dict()
    for part in (spec, chart):
        scale = part["encoding"]["color"]["scale"]
        biggest = max(abs(changes.min()), abs(changes.max()))
        assert scale["domain"] == [-biggest, biggest] and scale["domainMid"] == 0
    assert spec["encoding"] == chart["encoding"] and spec["mark"] == chart["mark"]
    alt.Chart.from_dict({**spec, "data": {"values": []}, "datasets": {}})  # a valid Vega-Lite spec
    nothing = charts.swap_map_spec(["a", "b"], changes[:2, :2] * 0, 2)[0]
    assert "domain" not in nothing["encoding"]["color"]["scale"]  # no swap changes anything: no range to fix
