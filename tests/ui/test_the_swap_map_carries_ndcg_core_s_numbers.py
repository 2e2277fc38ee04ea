"""The Playground's swap map is one component fed with ``ndcg_core``'s numbers: each cell carries the change in
NDCG@k the formula gives for swapping its two items of the seeds' list (3, 2, 3, 0, 1), coloured on Vega's
blue-orange scale as the Altair map was (a loss as deep as an equal gain), with the best swap named, its texts in the
learner's language and the labels as data, never markup."""

import json
from math import log2

import pytest

from ndcg_core.lists.items import make_items
from support import playground_list
from ui import live
from ui.i18n import Translator
from ui.widgets.swap_map import BLUE_ORANGE, swap_colors, swap_map_data

GRADES = [3, 2, 3, 0, 1]
K = 3
LABELS = list("ABCDE")


def ndcg(grades, k):
    dcg = sum(g / log2(p + 1) for p, g in enumerate(grades[:k], start=1))
    ideal = sorted(grades, reverse=True)
    return dcg / sum(g / log2(p + 1) for p, g in enumerate(ideal[:k], start=1))


def swapped(grades, i, j):
    out = list(grades)
    out[i], out[j] = out[j], out[i]
    return out


def texts(lang="en"):
    t = Translator(lang)
    return {
        "title": t("playground.swap.title"),
        "intro": t("playground.swap.intro", k=K),
        "reading": "reading",
        "explain": t("playground.swap.explain"),
        "item": t("chart.swap_item"),
        "with": t("chart.swap_with"),
        "change": t("chart.swap_change"),
    }


def sent(grades=GRADES, labels=LABELS, lang="en"):
    """The map's data as the Playground sends it (``ui.live``'s JSON, from ndcg_core's NDCG after each swap)."""
    spec = playground_list(make_items(labels, grades), k=min(K, len(grades)))
    return json.loads(live.swap_map(spec.items, spec.scoring, spec.extra, texts=texts(lang), presenter=False))


def test_each_cell_is_the_formula_s_change_for_swapping_its_two_items():
    data = sent()
    now = ndcg(GRADES, K)
    expected = [[f"{ndcg(swapped(GRADES, i, j), K) - now + 0.0:+.4f}" for j in range(5)] for i in range(5)]
    expected = [[cell.replace("-0.0000", "+0.0000") for cell in row] for row in expected]
    assert data["cells"] == expected
    assert data["n"] == 5 and data["k"] == K
    assert data["names"] == [f"{p}. {label}" for p, label in enumerate(LABELS, start=1)]
    # The best swap: C (grade 3) up to position 2 over B (grade 2): DCG@3 from 3 + 2/log2 3 + 3/2 to 3 + 3/log2 3 + 2/2,
    # which is IDCG@3 (the ideal 3, 3, 2).
    assert data["best"] == [1, 2]
    gain = (3 + 3 / log2(3) + 2 / 2 - (3 + 2 / log2(3) + 3 / 2)) / (3 + 3 / log2(3) + 2 / 2)
    assert data["cells"][1][2] == f"{gain:+.4f}"


def test_a_gain_is_blue_a_loss_as_deep_orange_and_no_change_the_scale_s_middle():
    changes = [[0.0, 0.2], [-0.2, 0.1]]
    colors = swap_colors(changes, 0.2)
    assert colors[0][1] == BLUE_ORANGE[0] and colors[1][0] == BLUE_ORANGE[-1]  # +reach and -reach: each end
    assert colors[0][0] == BLUE_ORANGE[5]  # 0: the middle
    # +0.1 is half way from the middle to the blue end: the scheme's colour 2.5 of 10, between its 2nd and 3rd.
    low, high = BLUE_ORANGE[2], BLUE_ORANGE[3]
    mixed = "#" + "".join(f"{round((int(low[c : c + 2], 16) + int(high[c : c + 2], 16)) / 2):02x}" for c in (1, 3, 5))
    assert colors[1][1] == mixed
    assert swap_colors([[0.0, 0.0], [0.0, 0.0]], None) == [[BLUE_ORANGE[5]] * 2] * 2  # nothing changes: all middle


def test_the_legend_reaches_the_largest_change_either_way():
    data = sent()
    reach = max(abs(ndcg(swapped(GRADES, i, j), K) - ndcg(GRADES, K)) for i in range(5) for j in range(5))
    assert data["legend"]["low"] == f"{-reach:+.4f}" and data["legend"]["high"] == f"{reach:+.4f}"
    assert data["legend"]["colors"][0] == BLUE_ORANGE[-1] and data["legend"]["colors"][-1] == BLUE_ORANGE[0]


def test_a_list_in_its_best_order_names_no_best_swap():
    data = swap_map_data(list("AB"), [[0.0, -0.3], [-0.3, 0.0]], 2, texts())
    assert data["best"] is None and data["cells"] == [["+0.0000", "-0.3000"], ["-0.3000", "+0.0000"]]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_its_texts_are_in_the_learner_s_language(lang):
    data = sent(lang=lang)
    assert data["texts"] == texts(lang)


def test_a_label_is_data_never_markup():
    hostile = "<img src=x onerror=alert(1)> **b**"
    data = sent(grades=[0, 3], labels=[hostile, "b"])
    assert data["names"][0] == f"1. {hostile}"  # the component sets it as text (textContent)
