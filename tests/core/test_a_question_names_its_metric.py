"""Each number the mistakes' catalogue gives answers a question that names its metric (``ndcg``, ``dcg``, ``idcg``
or ``term``): left out, it is the caller's error (``TypeError``); unknown, or spelled in another case, it is refused
with ``mistake.metric`` naming the value and the metrics there are, by one mistake's ``number`` as by ``numbers``
and ``right_number``. A Which-is-right? activity asks them all for NDCG@k."""

from math import log2

import pytest

from ndcg_core import InputError
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.mistakes import METRICS, mistakes, numbers, right_number

A5 = ListSpec.from_grades(["r1", "r2", "r3", "r4", "r5"], [3, 2, 3, 0, 1], 5)  # seed 002
DCG_A5 = 3 + 2 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6)
IDCG_A5 = 3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
NO_NORMALISATION = next(m for m in mistakes() if m.code == "no_normalisation")

ASKED = {
    "a mistake's number": lambda metric: NO_NORMALISATION.number(A5, metric),
    "every mistake's number": lambda metric: numbers(A5, metric=metric),
    "the right number": lambda metric: right_number(A5, metric),
}


@pytest.mark.parametrize("asked", list(ASKED), ids=lambda name: name.replace(" ", "_").replace("'", ""))
@pytest.mark.parametrize("metric", ["NDCG", "XXndcgXX", None, "precision"])
def test_a_metric_that_is_none_of_the_catalogue_s_is_refused_by_name(asked, metric):
    with pytest.raises(InputError) as refused:
        ASKED[asked](metric)
    assert (refused.value.code, refused.value.fields) == (
        "mistake.metric",
        {"value": repr(metric), "choices": ", ".join(METRICS)},
    )


def test_a_question_without_its_metric_is_the_caller_s_error():
    with pytest.raises(TypeError):
        NO_NORMALISATION.number(A5)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        numbers(A5)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        right_number(A5)  # type: ignore[call-arg]


def test_each_named_metric_gets_its_own_number():
    assert NO_NORMALISATION.number(A5, "ndcg") == pytest.approx(DCG_A5, rel=1e-15)  # DCG given for NDCG
    assert right_number(A5, "ndcg") == pytest.approx(DCG_A5 / IDCG_A5, rel=1e-15)
    assert right_number(A5, "dcg") == pytest.approx(DCG_A5, rel=1e-15)
    assert right_number(A5, "idcg") == pytest.approx(IDCG_A5, rel=1e-15)
    assert right_number(A5, "term", 2) == pytest.approx(2 / log2(3), rel=1e-15)
    assert numbers(A5, metric="ndcg")["no_normalisation"] == pytest.approx(DCG_A5, rel=1e-15)
