"""The projector's histogram spec is its form, made by Altair once per language and reveal, with the class's counts
put in: it must be the spec Altair builds from those counts (data, their names, the count axis's top; all but the
default theme's view size), for every kind's marker, language, size and count; one call must never change what the
next one gets; and a form made while another session's chart has set Altair's process-wide data transformer and
theme (as Streamlit's ``st.altair_chart`` does) must be the same."""

import random
from itertools import product

import altair as alt
import pytest

from ndcg_core.classroom.kinds.tally import histogram
from ui.i18n import LANGUAGES, Translator
from ui.projector import PROJECTOR_CHART_HEIGHT, sized
from ui.views.classroom.common import HEADROOM, histogram_chart, histogram_form, histogram_spec

CLASSES = {
    "nobody": [],
    "one": [0.3],
    "a full bin": [0.62] * 40,
    "a lecture hall": [random.Random(7).random() for _ in range(2000)],
    "the edges": [0.0, 1.0, 0.05, 0.95],
}


def altairs(lang, values, truth, marker, screen, height):
    """The spec as Altair builds it from the counts themselves, without the default theme's view size."""
    chart = histogram_chart(Translator(lang), histogram(values), truth, "axis", marker)
    spec = sized(chart, screen, height).to_dict()
    del spec["config"]["view"]
    return spec


SETTINGS = list(
    product(
        [(True, PROJECTOR_CHART_HEIGHT), (False, None)],
        [None, 0.4, 0.9],
        ["classroom.truth_label", "classroom.best_label"],
        sorted(LANGUAGES),
    )
)
# Each setting with the empty class and one other in turn, not all five (Altair's build of the expected spec is most
# of the time): the turn is chosen so that every class meets every size, truth, marker and language.
OTHERS = [name for name in CLASSES if name != "nobody"]
CASES = [(*setting, OTHERS[(i + i // 4) % len(OTHERS)]) for i, setting in enumerate(SETTINGS)]


def test_every_class_meets_every_size_truth_marker_and_language():
    for name in OTHERS:
        met = [setting for *setting, other in CASES if other == name]
        for axis, levels in enumerate(zip(*SETTINGS, strict=True)):
            assert {setting[axis] for setting in met} == set(levels), (name, axis)


@pytest.mark.parametrize(("size", "truth", "marker", "lang", "other"), CASES)
def test_the_filled_form_is_the_spec_altair_builds(size, truth, marker, lang, other):
    screen, height = size
    for values in (CLASSES["nobody"], CLASSES[other]):
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


def test_a_form_made_while_another_sessions_chart_holds_altairs_globals_is_the_same():
    # Streamlit's st.altair_chart sets a data transformer that keeps the data out of the spec, and the "none" theme,
    # for the whole process while it converts a chart: a form made in another thread meanwhile had no data, and the
    # projector's reveal raised KeyError (a browser test caught it).
    expected = altairs("en", [0.9], 0.9386, "classroom.truth_label", True, 400)
    histogram_form.clear()
    alt.data_transformers.register("elsewhere", lambda data: {"name": "kept-elsewhere"})
    with alt.data_transformers.enable("elsewhere"), alt.theme.enable("none"):
        got = histogram_spec("en", tuple(histogram([0.9])), 0.9386, "axis", "classroom.truth_label", True, 400)
    assert got == expected


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_forms_a_server_makes_at_start_are_every_form_an_opening_draws(lang, monkeypatch):
    """``serve.py`` makes ``opening_forms`` before its first request, so a process's first opening finds them made:
    they must be exactly the forms each kind's view draws for an open activity (teacher's page and projector)."""
    from ndcg_core.classroom.kinds.lists import random_list
    from ndcg_core.classroom.kinds.predict import Predict
    from ndcg_core.classroom.kinds.rank import Rank
    from ui.views.classroom import common
    from ui.views.classroom.kinds import VIEWS, predict, rank

    drawn = set()

    def recorded(lang, bins, truth, axis, marker="classroom.truth_label", screen=False, height=None, students=0):
        drawn.add((lang, truth, axis, marker, screen, height))
        return histogram_spec(lang, bins, truth, axis, marker, screen, height)

    for module in (predict, rank):
        monkeypatch.setattr(module, "histogram_spec", recorded)
    spec = random_list(3)
    for activity in (Predict(spec), Rank(spec, "")):
        for screen in (False, True):
            VIEWS[activity.kind].present(Translator(lang), activity, activity.summary([]), False, screen)
    assert drawn == set(common.opening_forms([lang]))
    made = []
    monkeypatch.setattr(common, "histogram_form", lambda *form: made.append(form))
    common.make_opening_forms([lang])
    assert made == common.opening_forms([lang])
