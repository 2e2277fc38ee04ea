"""Every registered kind takes an answer only for the parts it has (0 to ``parts()`` - 1): any other part is an
``InputError`` with a code the app translates, whether the kind checks it or the service does; and a class's
summary and results count each student once per part, whatever rows the store holds (issue 46: one student's
answers to parts 0 to 302 of a Predict made the projector say "303 / 4")."""

import json
from typing import get_args

import pytest
from test_every_kind_follows_one_protocol import EXAMPLES

from ndcg_core.classroom import kinds
from ndcg_core.classroom.kinds import KINDS
from ndcg_core.classroom.kinds.base import Answer
from ndcg_core.classroom.results import Member, Taken, activity_results
from ndcg_core.classroom.service import check
from ndcg_core.error_codes import Code
from ndcg_core.errors import InputError
from support import ROOT

# An answer each kind takes for every one of its parts (a new kind adds its own).
ANSWERS = {
    "predict": "0.5",
    "rank": [0, 1, 2, 3, 4],
    "compare": "same",
    "practice": "0.5",
    "judge": 1,
    "choose": "a",
}
ZH = json.loads((ROOT / "ui" / "locales" / "zh.json").read_text(encoding="utf-8"))


def test_there_is_an_answer_for_every_registered_kind():
    assert set(ANSWERS) == set(KINDS.names())


def refusal(call, *args):
    with pytest.raises(InputError) as caught:
        call(*args)
    return caught.value


@pytest.mark.parametrize("name", KINDS.names())
def test_a_kind_takes_its_own_parts_and_refuses_any_other_with_a_translated_code(name):
    activity, answer = EXAMPLES[name], ANSWERS[name]
    parts = activity.parts()
    for part in range(parts):
        activity.check(answer, part)  # taken
    for part in (parts, parts + 1, 9_999, -1):
        err = refusal(activity.check, answer, part)
        assert err.code in get_args(Code) and f"error.{err.code}" in ZH, err.code
        assert err.fields["count"] == parts
        # The service refuses it too: a whole answer (or, for a set, that part alone) is never stored for it.
        if activity.keeps_readable_parts():
            entries, refused = check(activity, [(0, answer), (part, answer)])
            assert [e.part for e in entries] == [0] and [p for p, _ in refused] == [part]
        else:
            assert refusal(check, activity, [(0, answer), (part, answer)]).code == err.code


@pytest.mark.parametrize("name", KINDS.names())
def test_the_service_refuses_a_part_a_kind_let_through(name, monkeypatch):
    """A kind that forgot its part check (a new one) still gets no answer stored for a part it does not have."""
    activity, answer = EXAMPLES[name], ANSWERS[name]
    taken = activity.check(answer, 0)
    monkeypatch.setattr(type(activity), "check", lambda self, raw, part=0: taken)
    monkeypatch.setattr(type(activity), "read_answer", lambda self, raw, part=0: (taken, None))  # reads as it checks
    parts = activity.parts()
    if activity.keeps_readable_parts():
        entries, refused = check(activity, [(0, answer), (parts, answer)])
        assert [e.part for e in entries] == [0] and [(p, e.code) for p, e in refused] == [(parts, "answer.part")]
    else:
        assert refusal(check, activity, [(0, answer), (parts, answer)]).code == "answer.part"


def answers_of_one_student(activity, answer, parts):
    value = activity.check(answer, 0)
    return [Answer(1, "Ana", part, value) for part in range(parts)]


@pytest.mark.parametrize("name", KINDS.names())
def test_a_summary_and_the_results_count_a_student_once_per_part_whatever_the_store_holds(name):
    activity, answer = EXAMPLES[name], ANSWERS[name]
    own = answers_of_one_student(activity, answer, activity.parts())
    stuffed = answers_of_one_student(activity, answer, 303)  # rows for parts 0 to 302, as stored before the checks
    assert kinds.summary(activity, stuffed) == activity.summary(own)
    assert kinds.own_answers(activity, stuffed) == tuple(own)
    rows = activity_results(Taken(1, 1, activity, tuple(stuffed), (Member(1, "Ana"),))).rows
    assert [(r.student, r.part) for r in rows] == [(1, part) for part in range(activity.parts())]
