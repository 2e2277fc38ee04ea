"""Every kind of classroom activity is one class behind one typed protocol (``ActivityKind``), registered in
``KINDS``: its payload reads back as the same activity, the module-level helpers ask the class itself, and it
reads and writes its own fields of a lesson file (its lesson codec)."""

import importlib
import json
import sys

import pytest

import ndcg_core.classroom.kinds as core_kinds
from ndcg_core.classroom.kinds import (
    KINDS,
    answer_from_json,
    answer_to_json,
    discover,
    from_payload,
    kind_class,
    list_kinds,
    one_module_per_kind,
)
from ndcg_core.classroom.kinds.base import ActivityKind, Answer, Material, Scale
from ndcg_core.classroom.kinds.choose import choose_activity
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.kinds.lists import activity_list, preset_list
from ndcg_core.classroom.kinds.practice import ExerciseAnswer, Practice, practice_activity
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import rank_activity
from ndcg_core.classroom.lesson_fields import Field, Reader
from ndcg_core.classroom.lessons import ACTIVITY_FIELDS, Lesson, Step, describe, lesson_to_toml, read_lesson
from ndcg_core.classroom.results import marks_answers, parts_of
from ndcg_core.errors import InputError, shown
from ndcg_core.teaching.exercises import KINDS as KINDS_OF_EXERCISES

EXAMPLES = {
    "predict": Predict(preset_list("five")),
    "rank": rank_activity(preset_list("five"), "exponential"),
    "compare": compare_activity("seed003", "mrr"),
    "practice": practice_activity(2026, 3),
    "judge": Judge(activity_list(("a", "b", "c"), (2.0, 0.0, 1.0), 2), Scale(0, 2)),
    "choose": choose_activity(preset_list("five"), ["no_normalisation"], seed=7),
}


def test_there_is_an_example_of_every_registered_kind():
    assert set(EXAMPLES) == set(KINDS.names())


@pytest.mark.parametrize("name", KINDS.names())
def test_a_kind_follows_the_protocol_and_its_payload_reads_back(name):
    activity = EXAMPLES[name]
    assert isinstance(activity, kind_class(name)) and isinstance(activity, ActivityKind)
    assert activity.kind == name
    assert from_payload(name, activity.payload()) == activity
    assert kind_class(name).from_payload(activity.payload()) == activity
    assert len(activity.solutions()) == activity.parts() == parts_of(activity)
    line = activity.outline()  # the check command's line for it
    assert line and "\n" not in line and line == describe(Step(activity))


def test_an_unknown_kind_is_an_input_error_naming_the_kinds():
    with pytest.raises(InputError) as caught:
        from_payload("poll", {})
    assert caught.value.code == "activity.kind" and "judge" in str(caught.value)


def test_the_kinds_are_found_by_their_modules_in_their_order_with_their_labels_and_descriptions():
    """``discover`` registers each kind module of the package (its helpers left out) by the module's name, in its
    ``KIND``'s order, with the ``KIND``'s class and label and the class's first paragraph on one line."""
    kinds = discover()
    assert kinds.names() == ["predict", "rank", "compare", "practice", "judge", "choose"] and kinds.kind == "activity"
    for name in kinds.names():
        entry = importlib.import_module(f"ndcg_core.classroom.kinds.{name}").KIND
        assert kinds.build(name) is entry.cls and kinds[name].label == entry.label
    # Predict's first paragraph runs over two lines of its docstring.
    assert kinds["predict"].description == (
        "Predict the NDCG: each student estimates NDCG@k of one list "
        "(``ActivityKind[Estimate, PredictSummary, PredictDetail]``)."
    )
    with pytest.raises(InputError) as caught:
        kinds["poll"]
    assert caught.value.code == "activity.kind" and caught.value.fields["value"] == shown("poll")


PROBE = '''from dataclasses import dataclass

from .base import KindEntry
from .predict import Predict


@dataclass(frozen=True)
class Probe(Predict):
    """Probe the NDCG: a copy of
    Predict under its own name.

    A second paragraph, no part of its description."""

    kind: str = "{kind}"


{ending}
'''


@pytest.fixture
def kinds_folder(tmp_path, monkeypatch):
    """A folder of the kinds package beside its own, the modules written there forgotten again after the test."""
    monkeypatch.setattr(core_kinds, "__path__", [*core_kinds.__path__, str(tmp_path)])
    yield tmp_path
    # Only the modules written there: another module first imported meanwhile must stay the one every test sees.
    for name, module in list(sys.modules.items()):
        if str(tmp_path) in (getattr(module, "__file__", None) or ""):
            del sys.modules[name]


def test_a_new_kind_module_is_registered_in_its_order_and_a_private_module_is_not(kinds_folder):
    """A module found beside the package's is a kind with no other edit; one whose name starts with ``_`` is
    skipped; ``discover(path)`` looks only in ``path``."""
    ending = 'KIND = KindEntry(Probe, "Probe the NDCG", order=30)'
    (kinds_folder / "a_probe.py").write_text(PROBE.format(kind="a_probe", ending=ending), encoding="utf-8")
    (kinds_folder / "z_probe.py").write_text(
        "from .predict import Predict\nfrom .base import KindEntry\n\n\nclass Bare(Predict):\n"
        '    kind = "z_probe"\n\n\nKIND = KindEntry(Bare, "Bare", order=99)\n',
        encoding="utf-8",
    )
    (kinds_folder / "_draft.py").write_text('"""A module of the package that is no kind yet."""\n', encoding="utf-8")
    kinds = discover()
    # Order 30 is compare's too: the names break the tie, though this folder is scanned after the package's.
    assert kinds.names() == ["predict", "rank", "a_probe", "compare", "practice", "judge", "choose", "z_probe"]
    assert kinds["a_probe"].label == "Probe the NDCG" and kinds.build("a_probe").__name__ == "Probe"
    assert kinds["a_probe"].description == "Probe the NDCG: a copy of Predict under its own name."
    assert kinds["z_probe"].description == ""  # a class with no docstring
    assert discover([str(kinds_folder)]).names() == ["a_probe", "z_probe"]  # only the folders asked


@pytest.fixture
def role_package(tmp_path, monkeypatch):
    """A package ``probe_role`` with one module per kind (each knowing its name) and a private ``_shared`` module,
    forgotten again after the test."""
    folder = tmp_path / "probe_role"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "_shared.py").write_text("", encoding="utf-8")
    for name in KINDS.names():
        (folder / f"{name}.py").write_text(f"NAME = {name!r}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield folder
    for name in [n for n in sys.modules if n == "probe_role" or n.startswith("probe_role.")]:
        del sys.modules[name]


def test_a_role_has_one_module_per_kind_imported_in_the_kinds_order(role_package):
    """The words and the views find their kind modules through ``one_module_per_kind``: a module named as each
    kind of the registry (a ``_`` module is the package's own), imported from the package, in the kinds' order."""
    modules = one_module_per_kind("probe_role", [str(role_package)], "words")
    assert list(modules) == ["predict", "rank", "compare", "practice", "judge", "choose"]
    assert {name: (m.__name__, m.NAME) for name, m in modules.items()} == {
        name: (f"probe_role.{name}", name) for name in modules
    }


def test_a_role_with_a_module_named_as_no_kind_or_a_kind_without_its_module_is_refused(role_package):
    """The error names the package, the role, the modules named as no kind and the kinds without a module."""
    (role_package / "rank.py").unlink()
    (role_package / "poll.py").write_text("", encoding="utf-8")
    with pytest.raises(ImportError) as caught:
        one_module_per_kind("probe_role", [str(role_package)], "views")
    assert str(caught.value) == (
        "probe_role: one views module for each kind, named as it; without a kind: ['poll'], "
        "a kind without views: ['rank']"
    )


@pytest.mark.parametrize(
    "kind, ending",
    [
        ("probe", ""),  # no KIND
        ("probe", "KIND = Probe"),  # the class, not a KindEntry
        ("predict", 'KIND = KindEntry(Probe, "Probe", order=35)'),  # its class's kind is another module's
        ("probe", 'KIND = KindEntry(KindEntry, "Probe", order=35)'),  # its class has no kind
    ],
)
def test_a_kind_module_without_its_kind_entry_stops_the_registry(kinds_folder, kind, ending):
    """A kind module must end with a ``KindEntry`` of a class whose ``kind`` is the module's name."""
    (kinds_folder / "probe.py").write_text(PROBE.format(kind=kind, ending=ending), encoding="utf-8")
    with pytest.raises(ImportError, match=r"kinds\.probe is a kind's module: end it with KIND = KindEntry"):
        discover()


@pytest.mark.parametrize("name", KINDS.names())
def test_a_kind_has_its_lesson_codec_and_its_lesson_data_reads_back(name):
    activity, scale = EXAMPLES[name], Scale(0, 3)
    fields = kind_class(name).lesson_fields()
    assert fields and all(isinstance(f, Field) for f in fields)
    assert ACTIVITY_FIELDS[name][len(ACTIVITY_FIELDS[name]) - len(fields) :] == fields
    data = activity.lesson_data(scale)
    again = kind_class(name).from_lesson(Reader(data, lambda field: field, fields), scale)
    assert isinstance(again, kind_class(name)) and again.lesson_data(scale) == data
    # A lesson keeps the list, the question and the right answers (a Rank's twist and a pair's name are the live
    # setup's, not the lesson's).
    assert again.solutions() == pytest.approx(activity.solutions())
    assert again.conventions() == activity.conventions()


def test_a_lesson_activity_of_every_kind_reads_back_from_its_file():
    steps = tuple(Step(EXAMPLES[name]) for name in KINDS.names())
    lesson = Lesson("every kind", steps)
    again = read_lesson(lesson_to_toml(lesson))
    assert [s.activity.kind for s in again.steps] == KINDS.names()
    assert [s.activity.lesson_data(lesson.scale) for s in again.steps] == [
        s.activity.lesson_data(lesson.scale) for s in steps
    ]


RAW = {"predict": "0.5", "rank": [4, 3, 2, 1, 0], "compare": "same", "practice": None, "judge": "1", "choose": "c"}


@pytest.mark.parametrize("name", KINDS.names())
def test_a_kinds_checked_answer_is_a_typed_value_kept_as_json_and_read_back(name):
    activity = EXAMPLES[name]
    raw = str(activity.solutions()[0]) if RAW[name] is None else RAW[name]
    checked = activity.check(raw, 0)
    kept = json.loads(json.dumps(answer_to_json(name, checked)))
    assert answer_from_json(name, kept) == checked
    # Marked right or wrong, except a grade of Judge: judging has no right grade.
    assert activity.result(checked, 0).right in ((True, False) if marks_answers(activity) else (None,))


def test_a_practice_answer_is_a_frozen_value_kept_as_the_same_json_as_before():
    checked = EXAMPLES["practice"].check(str(EXAMPLES["practice"].solutions()[0]), 0)
    assert checked == ExerciseAnswer(str(EXAMPLES["practice"].solutions()[0]), True)
    # A room stored before answers were typed holds this JSON: it must read back, and a resend must match it.
    assert answer_to_json("practice", checked) == {"answer": checked.answer, "right": True}


# What callers outside the kinds ask a kind, through a hook rather than ``isinstance``: the one ranked list it is
# over, whether its answers are marked, whether a set's readable answers are kept, an empty answer's problem.
OVER_A_LIST = {"predict", "rank", "judge", "choose"}


@pytest.mark.parametrize("name", KINDS.names())
def test_a_kind_answers_what_its_callers_ask_through_its_hooks(name):
    activity = EXAMPLES[name]
    assert (activity.ranked_list() is not None) == (name in OVER_A_LIST)
    if name in OVER_A_LIST:
        assert activity.ranked_list() == activity.spec
        assert activity.material().grades == activity.spec.grades and activity.material().base == activity.spec.jk_base
    assert activity.marks_answers() == (name != "judge")
    assert activity.keeps_readable_parts() == (name == "practice")
    assert activity.nothing_sent().code == ("answer.blank" if name == "predict" else "answer.no_choice")
    checked = activity.check(str(activity.solutions()[0]) if RAW[name] is None else RAW[name], 0)
    assert activity.reached(checked) == (activity.result(checked).ndcg if name == "rank" else None)
    assert activity.given(checked) == (checked.answer if name == "practice" else checked)


def test_the_kinds_over_a_list_are_made_from_any_list_and_the_others_are_not():
    assert list_kinds() == tuple(name for name in KINDS.names() if name in OVER_A_LIST)
    spec = preset_list("chengdu_trip")
    for name in KINDS.names():
        cls = kind_class(name)
        if name in OVER_A_LIST:
            made = cls.from_list(spec)
            assert (made.kind, made.ranked_list()) == (name, spec)
        else:
            with pytest.raises(TypeError, match="not made from a ranked list"):
                cls.from_list(spec)
    # Rank it best made from a list ranks it as it is: no twist, as its payload keeps it.
    assert kind_class("rank").from_list(spec).payload()["twist"] == ""


def test_the_hooks_tell_a_typed_estimate_s_reading_a_choice_s_mistake_and_a_judge_s_medians():
    predict, choose, judge = EXAMPLES["predict"], EXAMPLES["choose"], EXAMPLES["judge"]
    assert predict.note("0,5") is not None and predict.note("0.5") is None
    assert predict.group(predict.check("0.5")) == predict.verdict("0.5").group
    wrong = next(o for o in choose.options() if o.mistake is not None)
    assert choose.group(wrong.letter) == wrong.mistake and choose.group(choose.right_option().letter) == "right"
    assert EXAMPLES["rank"].group([0, 1, 2, 3, 4]) is None
    answers = [Answer(1, None, 0, 2), Answer(2, None, 0, 0), Answer(3, None, 0, 1), Answer(1, None, 2, 1)]
    assert judge.medians(answers) == (1, None, 1)
    assert predict.medians(answers) is None


def test_the_hooks_say_what_a_question_is_asked_on():
    compare = compare_activity("seed003", "mrr")
    assert compare.material() == Material()  # the seed's pair answers no query of its own
    practice = EXAMPLES["practice"]
    for part, ex in enumerate(practice.exercises()):
        grades = tuple(float(g) for g in ex.data.get("grades", ()))
        position = ex.data.get("position")  # one DCG term's: the position it asks about
        assert practice.material(part) == Material(grades=grades, exercise=part + 1, position=position)
    assert any(practice.material(part).position for part in range(practice.parts()))  # the example asks one term
    # A choice between two orders and a choice of queries are asked on no one list of grades.
    choices = Practice(7, (KINDS_OF_EXERCISES.index("better_order"), KINDS_OF_EXERCISES.index("gap")))
    assert [choices.material(part) for part in (0, 1)] == [Material(exercise=1), Material(exercise=2)]
    spec = activity_list(("a", "b", "c"), (2, 0, 1), 2, pool=(3, 1), query="a query", discount="jk")
    # A question over a list is asked on its query, its grades, the grades it missed and its discount's base.
    assert Predict(spec).material() == Material("a query", (2.0, 0.0, 1.0), (3.0, 1.0), None, spec.jk_base)
