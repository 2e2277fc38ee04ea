"""Every kind of classroom activity is one class behind one typed protocol (``ActivityKind``), registered in
``KINDS``: its payload reads back as the same activity, and the module-level helpers ask the class itself."""

import pytest

from ndcg_core.classroom import activities as acts
from ndcg_core.classroom.activities import KINDS, ActivityKind, from_payload
from ndcg_core.errors import InputError

EXAMPLES = {
    "predict": acts.Predict(acts.preset_list("five")),
    "rank": acts.rank_activity(acts.preset_list("five"), "exponential"),
    "compare": acts.compare_activity("seed003", "mrr"),
    "practice": acts.practice_activity(2026, 3),
    "judge": acts.Judge(acts.ListSpec(("a", "b", "c"), (2.0, 0.0, 1.0), 2), acts.Scale(0, 2)),
}


def test_there_is_an_example_of_every_registered_kind():
    assert set(EXAMPLES) == set(KINDS)


@pytest.mark.parametrize("name", list(KINDS))
def test_a_kind_follows_the_protocol_and_its_payload_reads_back(name):
    activity = EXAMPLES[name]
    assert isinstance(activity, KINDS[name]) and isinstance(activity, ActivityKind)
    assert activity.kind == name
    assert from_payload(name, activity.payload()) == activity
    assert KINDS[name].from_payload(activity.payload()) == activity
    assert len(activity.solutions()) == activity.parts() == acts.parts_of(activity)


def test_an_unknown_kind_is_an_input_error_naming_the_kinds():
    with pytest.raises(InputError) as caught:
        from_payload("poll", {})
    assert caught.value.code == "activity.kind" and "judge" in str(caught.value)
