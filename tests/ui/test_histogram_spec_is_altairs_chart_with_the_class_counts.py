"""The projector's histogram spec is its form, made by Altair once per language and reveal, with the class's counts
put in: it must be exactly the spec Altair builds from those counts (data, its name, the count axis's top), for
every kind's marker, language, size and count, and one call must never change what the next one gets."""

import random

import pytest

from ndcg_core.classroom.kinds.tally import histogram
from ui.i18n import LANGUAGES, Translator
from ui.projector import PROJECTOR_CHART_HEIGHT, sized
from ui.views.classroom.common import HEADROOM, histogram_chart, histogram_spec

CLASSES = {
    "nobody": [],
    "one": [0.3],
    "a full bin": [0.62] * 40,
    "a lecture hall": [random.Random(7).random() for _ in range(2000)],
    "the edges": [0.0, 1.0, 0.05, 0.95],
}


def altairs(lang, values, truth, marker, screen, height):
    """The spec as Altair builds it from the counts themselves."""
    chart = histogram_chart(Translator(lang), histogram(values), truth, "axis", marker)
    return sized(chart, screen, height).to_dict()


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("marker", ["classroom.truth_label", "classroom.best_label"])
@pytest.mark.parametrize("truth", [None, 0.4, 0.9])
@pytest.mark.parametrize("screen, height", [(True, PROJECTOR_CHART_HEIGHT), (False, None)])
def test_the_filled_form_is_the_spec_altair_builds(lang, marker, truth, screen, height):
    for values in CLASSES.values():
        got = histogram_spec(lang, tuple(histogram(values)), truth, "axis", marker, screen, height)
        assert got == altairs(lang, values, truth, marker, screen, height)


def test_counts_put_in_for_one_call_are_not_in_the_next():
    first = histogram_spec("en", tuple(histogram([0.62] * 40)), None, "axis")
    second = histogram_spec("en", tuple(histogram([0.1])), None, "axis")
    rows = next(iter(second["datasets"].values()))
    assert [r["count"] for r in rows if r["count"]] == [1] and len(second["datasets"]) == 1
    assert second["layer"][0]["encoding"]["y"]["scale"]["domain"] == [0, 3 * HEADROOM]
    assert first["layer"][0]["encoding"]["y"]["scale"]["domain"] == [0, 40 * HEADROOM]
    assert next(iter(first["datasets"].values())) != rows
