"""The swap map is linked to the Playground's other views: its parameter ``point`` is bound to the page's document
(the event the components send), and the pointed position's row and column are outlined. (The four figure charts are
one component of their own: tests/ui/test_the_figure_charts_carry_ndcg_core_s_numbers.py.)"""

import numpy as np

from ndcg_core.lists.items import list_breakdown, make_items
from support import playground_list
from ui import charts

ITEMS = make_items(list("ABCDE"), [3, 2, 3, 0, 1])
BEFORE = playground_list(ITEMS)


def test_the_swap_map_outlines_the_pointed_row_and_column():
    spec, _ = charts.swap_map_spec(list("ABCDE"), np.zeros((5, 5)), 5, linked=True)
    params = {p["name"]: p for p in spec["params"]}
    assert set(params) == {"swap", "point"}
    assert params["point"]["bind"] == {"element": "body", "event": charts.POINT_EVENT}
    assert spec["encoding"]["stroke"]["condition"]["test"] == "datum.i + 1 == point || datum.j + 1 == point"


def test_the_downloads_and_an_unlinked_swap_map_draw_no_signal():
    spec, _ = charts.swap_map_spec(list("ABCDE"), np.zeros((5, 5)), 5)
    assert {p["name"] for p in spec["params"]} == {"swap"}
    frame = list_breakdown(BEFORE.items, BEFORE.scoring, BEFORE.extra)
    for kind in ("contribution", "cumulative", "order", "every_k"):
        every_k = frame["ndcg"].tolist() if kind == "every_k" else ()
        assert "params" not in charts.chart_spec(kind, frame, top=3, k=5, every_k=every_k)
