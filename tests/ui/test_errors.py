"""One error contract: every code raised from real bad input, one English template per code, the same
fields in Chinese, and Chinese with no English left outside the user's own values."""

import ast
import base64
import json
import math
import pickle
import re
import sys
from unittest import mock

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import (
    DISCOUNTS,
    GAINS,
    EvaluationOptions,
    InputError,
    Qrels,
    Run,
    Scoring,
    breakdown,
    dcg,
    evaluate,
    ndcg_at_k,
    ndcg_from_scores,
    read_qrels,
    read_run,
    validate_grades,
    validate_k,
)
from ndcg_core.classroom import clients
from ndcg_core.classroom import rules as room_rules
from ndcg_core.classroom.joining import read_public_url
from ndcg_core.classroom.kinds import from_payload
from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.choose import choose_activity
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.kinds.lists import activity_list, random_list, result_list
from ndcg_core.classroom.kinds.practice import practice_activity
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import rank_activity
from ndcg_core.classroom.lessons import lesson_from_data, read_lesson
from ndcg_core.classroom.storage import Classroom as ClassroomStore
from ndcg_core.classroom.storage import DatabaseSettings
from ndcg_core.errors import MESSAGES as CORE_MESSAGES
from ndcg_core.errors import OUTAGES, Place, StoreUnavailable, layered, placeholders
from ndcg_core.errors import PLACES as CORE_PLACES
from ndcg_core.errors import TEMPLATES as CORE_TEMPLATES
from ndcg_core.links import LinkLimits, ShortLinks
from ndcg_core.lists.guess import read_guess
from ndcg_core.lists.items import check_grade, check_label, check_size, check_top_grade, make_items, move
from ndcg_core.lists.presets import PRESETS
from ndcg_core.lists.spec import ListSpec, link_number
from ndcg_core.teaching.catalogue import CHANGES, LIBRARIES
from ndcg_core.teaching.conventions import CONVENTIONS, Example, example_from_rows
from ndcg_core.teaching.exercises import Exercise, check, check_seed, fewest_moves, parse_number
from ndcg_core.teaching.explain import explain_list
from ndcg_core.teaching.metrics import average_precision, err, precision_at_k, recall_at_k
from ndcg_core.teaching.mistakes import diagnose, explain
from ndcg_core.teaching.worksheet import Cell
from ndcg_core.trec.cli import run as cli_run
from ndcg_core.trec.compare import compare, paired_comparison
from ndcg_core.trec.measures import Measure, parse_measure
from ndcg_core.trec.segmented import evaluate_files
from support import ROOT, TREC, plain, seed_state
from ui import errors as ui_errors
from ui.editing import apply_table_edits, grades_from_text, parse_gain_mapping, typed_queries_to_trec
from ui.errors import TEMPLATES
from ui.i18n import Translator, catalogue
from ui.phones.routes import read_submission
from ui.views.evaluate import parse_cutoffs
from ui.views.metrics import parse_ranking
from ui.widgets.sortable import apply_action, ordering

ITEMS = make_items(["a", "b"], [3, 1])
SPEC = ListSpec(tuple(ITEMS), Scoring(k=2))
JUDGE = Judge(activity_list(("a", "b"), (3, 1), 2))
CHOOSE_LIST = activity_list(("a", "b", "c"), (3, 2, 0), 2)  # nothing below k to count


def lesson_with(top=None, **activity):
    """A one-activity lesson (a Predict of two results) with some fields changed (``None``: left out)."""
    table = {"kind": "predict", "items": ["a", "b"], "grades": [3, 1], "k": 2, **activity}
    data = {"format": 1, "title": "t", **(top or {}), "activity": [{k: v for k, v in table.items() if v is not None}]}
    return lesson_from_data({k: v for k, v in data.items() if v is not None})


QRELS = str(TREC / "qrels.test")
RESULTS = str(TREC / "results.test")


def link_with(**changes):
    """A valid Playground link with some fields replaced, as a tampered link would have."""
    param = ListSpec(tuple(ITEMS), Scoring(k=2)).to_link()
    state = json.loads(base64.urlsafe_b64decode(param + "=" * (-len(param) % 4)))
    state.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del state[key]
    return base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")


def over_the_line_limit():
    from ui.views import evaluate as evaluate_view

    with mock.patch.object(evaluate_view, "MAX_ROWS", 1):
        evaluate_view._parsed_qrels.clear()
        evaluate_view._parsed_qrels("over-limit", "big.txt", b"1 0 a 1\n1 0 b 0\n")


def gap_at_an_unevaluated_k():
    evaluate(read_qrels(QRELS), read_run(RESULTS), EvaluationOptions(cutoffs=(5,))).gap(7)


class Classroom:
    """A room on a temporary SQLite file with tight limits, so each classroom error has a real cause."""

    def __init__(self):
        import tempfile

        self.url = f"sqlite:///{tempfile.mkdtemp(prefix='ndcg-lab-errors-')}/classroom.sqlite3"
        self.store = ClassroomStore(
            self.url,
            limits=room_rules.Limits(max_students=1, answer_burst=1, free_join_failures=1, rooms_per_client_hour=100),
        )
        self.links = ShortLinks(self.store.database)
        self.room, self.key = self.store.rooms.create()
        self.me = self.store.students.join(self.room.code, room_rules.new_student_id())
        self.wrong = "ZZZZZZ" if self.room.code != "ZZZZZZ" else "YYYYYY"

    def open(self, activity=None):
        return self.store.rooms.open_activity(self.room.code, self.key, activity or compare_activity("seed003", "ndcg"))

    def ended_room(self):
        room, key = self.store.rooms.create()
        self.store.rooms.end(room.code, key)
        self.store.students.join(room.code, room_rules.new_student_id())

    def too_fast(self):
        activity = self.open()
        self.store.answers.submit(self.room.code, self.me.id, activity.id, [(0, "a")])
        self.store.answers.submit(self.room.code, self.me.id, activity.id, [(0, "b")])

    def locked(self):
        activity = self.open()
        self.store.rooms.set_phase(self.room.code, self.key, "locked")
        self.store.answers.submit(self.room.code, self.me.id, activity.id, [(0, "a")])

    def not_current(self):
        old = self.open()
        self.open()
        self.store.answers.submit(self.room.code, self.me.id, old.id, [(0, "a")])

    def revealed_final(self):
        self.open()
        self.store.rooms.set_phase(self.room.code, self.key, "revealed")
        self.store.rooms.set_phase(self.room.code, self.key, "open")

    def no_activity(self):
        room, key = self.store.rooms.create()
        self.store.rooms.set_phase(room.code, key, "revealed")

    def closed(self):
        room, key = self.store.rooms.create()
        self.store.doors.set_closed(room.code, key, True)
        self.store.students.join(room.code, room_rules.new_student_id())

    def join_busy(self):
        store = ClassroomStore(self.url, limits=room_rules.Limits(join_burst=1, rooms_per_client_hour=100))
        room, _ = store.rooms.create()
        for _ in range(2):
            store.students.join(room.code, room_rules.new_student_id(), source="one campus")

    def started_many(self):
        store = ClassroomStore(self.url, limits=room_rules.Limits(rooms_per_client_hour=1))
        for _ in range(2):
            store.rooms.create(source="a busy client")

    def join_wait(self):
        for _ in range(3):
            try:
                self.store.students.join(self.wrong, room_rules.new_student_id(), source="a guesser")
            except InputError as error:
                if error.code == "room.join_wait":
                    raise

    def lesson_room(self):
        room, key = self.store.rooms.create()
        self.store.lessons.use(room.code, key, lesson_with().__class__("t", (lesson_with().steps[0],)))
        return room.code, key

    def time_up(self):
        from ndcg_core.classroom.lessons import Step

        room, key = self.store.rooms.create()
        lesson = lesson_with()
        self.store.lessons.use(room.code, key, lesson.__class__("t", (Step(lesson.steps[0].activity, time_limit=5),)))
        me = self.store.students.join(room.code, room_rules.new_student_id())
        row = self.store.lessons.step(room.code, key, 0)
        self.store.database.clock = lambda: row.opened_at + 60
        try:
            self.store.answers.submit(room.code, me.id, row.id, [(0, "0.5")])
        finally:
            self.store.database.clock = __import__("time").time

    def newer_schema(self):
        import sqlalchemy as sa

        with self.store.engine.begin() as conn:
            conn.execute(sa.text("update meta set value = 99 where name = 'schema_version'"))
        ClassroomStore(self.url)


ROOM = Classroom()


# Every code: the core's and the UI's own (ui/errors.py), one template each.
MESSAGES = {**CORE_MESSAGES, **ui_errors.MESSAGES}
PLACES = {**CORE_PLACES, **ui_errors.PLACES}


# Each code, raised by calling the code with bad input a user could give. The keys must be every code.
def spark_run(missing=None, failure=None):
    """``--engine spark`` without PySpark (``missing`` modules) or where Spark fails to start (``failure``)."""
    from pyspark.sql import SparkSession

    start = mock.patch.object(type(SparkSession.builder), "getOrCreate", side_effect=failure)
    with mock.patch.dict(sys.modules, missing or {}), start:
        cli_run(["--engine", "spark", QRELS, RESULTS])


CALLS = {
    "number.not_list": [
        lambda: validate_grades("321"),
        lambda: ndcg_at_k([1], pool="32"),
        lambda: validate_grades(7, "scores"),
    ],
    "number.blank": [lambda: validate_grades(["3", " "])],
    "number.bool": [lambda: validate_grades([True])],
    "number.not_number": [
        lambda: validate_grades(["3", "x"]),
        lambda: ndcg_at_k([1], pool=[1, "x"]),
        lambda: grades_from_text(ITEMS, "3, x", 4),
        lambda: validate_grades(["a"], "scores"),
        lambda: GAINS.build("custom", mapping={"x": 1}),
    ],
    "number.complex": [lambda: ndcg_at_k([1j])],
    "number.nan": [lambda: validate_grades([math.nan])],
    "number.infinite": [lambda: validate_grades([math.inf])],
    "number.too_large": [lambda: ndcg_at_k([10**400]), lambda: ndcg_from_scores([1], [10**400])],
    "grade.negative": [
        lambda: validate_grades([2, -1]),
        lambda: example_from_rows([], [{"item": "x", "grade": -1}], 5),
    ],
    "grade.above_top": [
        lambda: check_grade(9, 4, Place("table.grade", row=2)),
        lambda: apply_action(ITEMS, {"type": "grade", "id": 1, "grade": 7}, 4),
    ],
    "top_grade.range": [lambda: check_top_grade(99)],
    "label.blank": [lambda: check_label(" ", Place("table.label", row=3))],
    "label.too_long": [lambda: check_label("x" * 500, Place("table.label", row=3))],
    "item.not_text": [lambda: ndcg_from_scores([1, 2], [1, 1], items=["a", "\ud800"])],
    "item.blank": [lambda: example_from_rows([{"item": "", "score": 1, "grade": 1}], [], 5)],
    "item.space": [lambda: example_from_rows([{"item": "a b", "score": 1, "grade": 1}], [], 5)],
    "item.repeated": [
        lambda: example_from_rows([{"item": "a", "score": 1, "grade": 1}], [{"item": "a", "grade": 1}], 5)
    ],
    "item.unknown": [lambda: apply_action(ITEMS, {"type": "move", "id": 99, "to": 0}, 4)],
    "k.not_whole": [lambda: validate_k(1.5), lambda: parse_measure("ndcg_cut.x"), lambda: parse_measure("ndcg.x=1")],
    "k.too_small": [
        lambda: validate_k(0),
        lambda: evaluate(read_qrels(QRELS), read_run(RESULTS), EvaluationOptions(max_docs=0)),
        lambda: parse_measure("ndcg_cut.0"),
    ],
    "k.too_large": [lambda: parse_cutoffs("20000")],
    "k.required": [lambda: precision_at_k([1], None)],
    "k.none": [lambda: parse_cutoffs(" ")],
    "k.too_many": [lambda: parse_cutoffs(" ".join(str(k) for k in range(1, 40)))],
    "k.not_evaluated": [gap_at_an_unevaluated_k],
    "count.items": [lambda: ndcg_from_scores([1, 2], [1, 2], items=["a"])],
    "count.scores": [lambda: ndcg_from_scores([1, 2], [1])],
    "count.labels": [lambda: breakdown([1, 2], items=["a"])],
    "list.empty": [
        lambda: apply_table_edits(make_items(["a"], [1]), {"deleted_rows": [0]}, 4),
        lambda: apply_action(make_items(["a"], [1]), {"type": "remove", "id": 1}, 4),
    ],
    "list.none_typed": [lambda: grades_from_text(ITEMS, " , ", 4), lambda: parse_ranking(" ")],
    "list.too_long": [lambda: check_size(10_000), lambda: parse_ranking("1 " * 500)],
    "list.move": [lambda: move(ITEMS, 0, 5)],
    "gain.unknown": [lambda: dcg([1], gain="cubic")],
    "discount.unknown": [lambda: dcg([1], discount="ln")],
    "ties.unknown": [lambda: ndcg_from_scores([1], [1], ties="random")],
    "ideal.unknown": [lambda: Scoring(ideal="qrels")],
    "preset.unknown": [lambda: PRESETS["nope"]],
    "results.unknown": [lambda: result_list("nope")],
    "convention.unknown": [lambda: CONVENTIONS["nope"]],
    "explain_change.unknown": [lambda: CHANGES["nope"]],
    "explain_library.unknown": [lambda: LIBRARIES["nope"]],
    "explain.whole_grades": [lambda: explain_list(Example(("a", "b"), (2.0, 1.0), (1.5, 0.0), k=2), "0.5")],
    "variant.parameter": [lambda: GAINS["linear"].build(base=2)],
    "gain.not_mapping": [lambda: GAINS.build("custom", mapping=[1, 2])],
    "discount.base": [lambda: DISCOUNTS.build("jk", base=1)],
    "ideal.lacks_grade": [lambda: ndcg_at_k([3], pool=[1])],
    "result.too_large": [lambda: dcg([1.7e308, 1.7e308])],
    "metric.n_relevant": [lambda: average_precision([1], n_relevant=-1)],
    "metric.n_relevant_small": [lambda: recall_at_k([1, 1], 1, n_relevant=1)],
    "metric.max_grade_below": [lambda: err([3], max_grade=2)],
    "seed.not_whole": [lambda: check_seed("abc")],
    "seed.range": [lambda: check_seed(-4)],
    "answer.blank": [lambda: parse_number(" ")],
    "answer.comma": [lambda: parse_number("0,6,2")],
    "answer.not_number": [lambda: parse_number("half")],
    "answer.infinite": [lambda: parse_number("inf")],
    "answer.no_choice": [lambda: check(Exercise("better_order", 1, 1, {}, "a"), None)],
    "guess.direction": [lambda: read_guess(None), lambda: read_guess("sideways", "small")],
    "guess.size": [lambda: read_guess("up"), lambda: read_guess("down", "huge")],
    "answer.part": [
        lambda: Predict(random_list(1)).check("0.5", 1),
        lambda: compare_activity("seed003", "mrr").check("a", 9_999),
    ],
    "reach.too_long": [lambda: fewest_moves([1] * 8, 3)],
    "mistake.unknown": [lambda: explain(SPEC, "forgot_k")],
    "mistake.metric": [lambda: diagnose(SPEC, "0.5", metric="mrr")],
    "mistake.no_position": [lambda: diagnose(SPEC, "0.5", metric="term")],
    "mistake.position": [lambda: diagnose(SPEC, "0.5", metric="term", position=3)],
    "mistake.not_here": [lambda: explain(SPEC, "ideal_from_list")],
    "worksheet.cell": [lambda: Cell.parse("term.0")],
    "file.missing": [lambda: read_run(ROOT / "no-such-run.txt")],
    "file.folder": [lambda: read_run(ROOT / "tests")],
    "file.unreadable": [lambda: read_run("x" * 5000)],
    "file.source": [lambda: read_run(42)],
    "file.gzip": [lambda: read_run(b"\x1f\x8bgarbage", name="run.gz")],
    "file.empty": [lambda: read_run(b"", name="run.txt")],
    "file.nul": [lambda: read_run(b"\x89PNG\r\n\x1a\n\x00\x00", name="run.txt")],
    "file.not_utf8": [lambda: read_run(b"q Q0 \xff\xfe 1 1 s\n", name="run.txt")],
    "file.too_long": [over_the_line_limit],
    "qrels.columns": [lambda: read_qrels(b"q 0 a\nq 0 b\nq 0 c\nq 0 d\nq 0 e\n", name="qrels.txt")],
    "qrels.no_lines": [lambda: read_qrels(b"# nothing\n", name="qrels.txt")],
    "qrels.grade_not_number": [lambda: read_qrels(b"q 0 a x\n", name="qrels.txt")],
    "qrels.grade_not_whole": [lambda: read_qrels(b"q 0 a 1.5\n", name="qrels.txt")],
    "qrels.grade_too_large": [lambda: read_qrels(b"q 0 a 1e300\n", name="qrels.txt")],
    "qrels.duplicate": [lambda: read_qrels(b"q 0 a 1\nq 0 a 2\n", name="qrels.txt")],
    "qrels.header_missing": [lambda: read_qrels(b"qid,docno\nq,a\n", name="qrels.csv")],
    "qrels.header_only": [lambda: read_qrels(b"qid,docno,rel\n", name="qrels.csv")],
    "run.columns": [lambda: read_run(b"q Q0 a 1\n", name="run.txt")],
    "run.no_lines": [lambda: read_run(b"# nothing\n", name="run.txt")],
    "run.score_not_number": [lambda: read_run(b"q Q0 a 1 high s\n", name="run.txt")],
    "run.score_nan": [lambda: read_run(b"q Q0 a 1 nan s\n", name="run.txt")],
    "run.rank_not_number": [lambda: read_run(b"qid,docno,rank\nq,a,first\n", name="run.csv")],
    "run.rank_not_finite": [lambda: read_run(b"qid,docno,rank\nq,a,inf\n", name="run.csv")],
    "run.duplicate": [lambda: read_run(b"q Q0 a 1 2 s\nq Q0 a 2 1 s\n", name="run.txt")],
    "run.header_missing": [lambda: read_run(b"qid,docno,weight\nq,a,1\n", name="run.csv")],
    "run.header_only": [lambda: read_run(b"qid,docno,score\n", name="run.csv")],
    "csv.columns": [lambda: read_run(b"qid,docno,score\nq,a,1\nq,b\n", name="run.csv")],
    "csv.field_empty": [lambda: read_run(b"qid,docno,score\nq,,1\n", name="run.csv")],
    "files.no_shared_query": [
        lambda: evaluate(read_qrels(b"1 0 a 1\n", name="q.txt"), read_run(b"2 Q0 a 1 1 s\n", name="r.txt"))
    ],
    "files.swapped": [lambda: evaluate_files(RESULTS, QRELS)],
    "measure.not_text": [lambda: parse_measure(5)],
    "measure.unknown": [lambda: parse_measure("map")],
    "measure.gain_pair": [lambda: parse_measure("ndcg.1")],
    "measure.level_twice": [lambda: parse_measure("ndcg.1=3,1=5")],
    "measure.not_one": [lambda: Measure.parse("ndcg_cut.5,10")],
    "flag.not_bool": [lambda: ndcg_from_scores([1, 0], [2, 1], float32_scores="yes")],
    "cli.gain_and_custom": [lambda: cli_run(["-m", "ndcg.1=3", "--gain", "exponential", QRELS, RESULTS])],
    "engine.unknown": [lambda: cli_run(["--engine", "polars", QRELS, RESULTS])],
    "engine.ties": [lambda: cli_run(["--engine", "duckdb", "--ties", "best", QRELS, RESULTS])],
    "engine.not_installed": [lambda: spark_run(missing={"pyspark.testing.utils": None, "pyspark.sql": None})],
    "engine.spark_start": [lambda: spark_run(failure=RuntimeError("[JAVA_GATEWAY_EXITED] Java gateway exited."))],
    "typed.query_blank": [lambda: typed_queries_to_trec([{"query": "", "document": "a", "grade": "1"}])],
    "typed.document_blank": [lambda: typed_queries_to_trec([{"query": "q", "document": " ", "grade": "1"}])],
    "typed.query_space": [lambda: typed_queries_to_trec([{"query": "q 1", "document": "a", "grade": "1"}])],
    "typed.document_space": [lambda: typed_queries_to_trec([{"query": "q", "document": "a b", "grade": "1"}])],
    "typed.needs_grade_or_rank": [lambda: typed_queries_to_trec([{"query": "q", "document": "a"}])],
    "typed.grade_not_number": [lambda: typed_queries_to_trec([{"query": "q", "document": "a", "grade": "x"}])],
    "typed.grade_not_whole": [lambda: typed_queries_to_trec([{"query": "q", "document": "a", "grade": "1.5"}])],
    "typed.rank_not_whole": [lambda: typed_queries_to_trec([{"query": "q", "document": "a", "rank": "1.5"}])],
    "typed.rank_too_small": [lambda: typed_queries_to_trec([{"query": "q", "document": "a", "rank": "0"}])],
    "typed.no_grades": [lambda: typed_queries_to_trec([{"query": "q", "document": "a", "rank": "1"}])],
    "typed.no_ranks": [lambda: typed_queries_to_trec([{"query": "q", "document": "a", "grade": "1"}])],
    "paired.mismatch": [lambda: paired_comparison([0.1, 0.2], [0.3])],
    "paired.too_few": [lambda: paired_comparison([0.1], [0.3])],
    "frame.not_table": [lambda: Run.from_frame([("q", "a", 1.0)])],
    "frame.column": [lambda: Run.from_frame(pd.DataFrame({"q": ["q"], "doc": ["a"], "score": [1.0]}))],
    "frame.null": [lambda: Run.from_frame(pd.DataFrame({"query": [None, "q"], "doc": ["a", "b"], "score": [1, 2]}))],
    "frame.id_type": [lambda: Qrels.from_frame(pd.DataFrame({"query": [1.5], "doc": ["a"], "grade": [1]}))],
    "compare.runs": [lambda: compare(read_qrels(QRELS), [read_run(RESULTS)])],
    "compare.names": [lambda: compare(read_qrels(QRELS), [read_run(RESULTS)] * 2, names=["one"])],
    "compare.same_name": [lambda: compare(read_qrels(QRELS), [read_run(RESULTS)] * 2)],
    "editor.row": [lambda: apply_table_edits(ITEMS, {"edited_rows": {"9": {"grade": 1}}}, 4)],
    "action.not_action": [lambda: apply_action(ITEMS, "drop table", 4)],
    "action.unknown": [
        lambda: apply_action(ITEMS, {"type": "fly", "id": 1}, 4),
        lambda: ordering({"type": "order", "kind": "best<b>"}, ("ideal", "worst")),
    ],
    "answer.malformed": [
        lambda: read_submission({"activity": 1, "values": "<b>0.7</b>"}),
        lambda: read_submission({"activity": 1, "values": [[0, "0.7", "x"]]}),
        lambda: read_submission({"activity": "1", "values": []}),
    ],
    "link.empty": [lambda: ListSpec.from_link("")],
    "link.too_long": [lambda: ListSpec.from_link("x" * 100_000)],
    "link.damaged": [lambda: ListSpec.from_link("%%%")],
    "link.not_settings": [lambda: ListSpec.from_link(base64.urlsafe_b64encode(b"[1, 2]").decode())],
    "link.version": [lambda: ListSpec.from_link(link_with(v=99))],
    "link.counts": [lambda: ListSpec.from_link(link_with(g=[1]))],
    "link.list_empty": [lambda: ListSpec.from_link(link_with(l=[], g=[]))],
    "link.k": [lambda: ListSpec.from_link(link_with(k=9))],
    "link.gain": [lambda: ListSpec.from_link(link_with(gain="cubic"))],
    "link.discount": [lambda: ListSpec.from_link(link_with(d="ln"))],
    "link.ideal": [lambda: ListSpec.from_link(link_with(i="judges"))],
    "link.custom_gain": [lambda: ListSpec.from_link(link_with(gain="custom", m={str(g): g for g in range(20)}))],
    "link.base": [lambda: ListSpec.from_link(link_with(d="jk", b=0.5))],
    "link.extra": [lambda: ListSpec.from_link(link_with(x="none"))],
    "link.extra_pair": [lambda: ListSpec.from_link(link_with(x=[["c"]]))],
    "link.lacks": [lambda: ListSpec.from_link(link_with(k=None))],
    "link.kind": [lambda: ListSpec.from_link(link_with(k="two"))],
    "link.not_whole": [
        lambda: link_number("two", ui_errors.UiPlace("link.step"), 1, 6),
        lambda: ListSpec.from_link(link_with(gain="custom", m={"x": 1})),
    ],
    "link.range": [lambda: link_number("9", ui_errors.UiPlace("link.exercise"), 1, 6)],
    "room.setting": [
        lambda: room_rules.Limits.from_environment({"NDCG_LAB_ROOM_HOURS": "soon"}),
        lambda: room_rules.Limits.from_environment({"NDCG_LAB_MAX_STUDENTS": "0"}),
    ],
    "store.setting": [
        lambda: DatabaseSettings.from_environment({"NDCG_LAB_DB_POOL_SIZE": "many"}),
        lambda: DatabaseSettings.from_environment({"NDCG_LAB_DB_MAX_OVERFLOW": "-1"}),
    ],
    "room.code_blank": [lambda: room_rules.read_code(" - ")],
    "room.code_length": [lambda: room_rules.read_code("K7P3")],
    "room.code_letters": [lambda: room_rules.read_code("K0P1QL")],
    "room.unknown": [
        lambda: ROOM.store.rooms.get(ROOM.wrong),
        lambda: ROOM.store.students.join(ROOM.wrong, room_rules.new_student_id()),
    ],
    "room.ended": [ROOM.ended_room],
    "room.full": [lambda: ROOM.store.students.join(ROOM.room.code, room_rules.new_student_id())],
    "room.too_many": [lambda: ClassroomStore(ROOM.url, limits=room_rules.Limits(max_open_rooms=1)).rooms.create()],
    "room.join_wait": [ROOM.join_wait],
    "room.closed": [ROOM.closed],
    "room.join_busy": [ROOM.join_busy],
    "room.seats": [lambda: ROOM.store.doors.set_seats(ROOM.room.code, ROOM.key, 0)],
    "room.passphrase": [
        lambda: ClassroomStore(ROOM.url, passphrase="for lecturers").rooms.create(passphrase="a guess")
    ],
    "room.started_many": [ROOM.started_many],
    "room.proxy_setting": [lambda: clients.trusted_proxies({clients.ENV_TRUSTED_PROXIES: "10.0.0.0/8, the proxy"})],
    "room.bad_key": [
        lambda: ROOM.store.rooms.set_phase(ROOM.room.code, "forged-key", "revealed"),
        lambda: ROOM.store.rooms.end(ROOM.room.code, None),
    ],
    "room.bad_student": [lambda: room_rules.read_student_id("<script>")],
    "room.nickname_long": [lambda: room_rules.read_nickname("x" * 30)],
    "room.nickname_control": [lambda: room_rules.read_nickname("abc\u202edef")],
    "room.nickname_invisible": [lambda: room_rules.read_nickname("\u0301\u0308")],
    "room.not_joined": [
        lambda: ROOM.store.answers.submit(ROOM.room.code, room_rules.new_student_id(), ROOM.open().id, [(0, "a")])
    ],
    "room.not_current": [ROOM.not_current],
    "room.locked": [ROOM.locked],
    "room.too_fast": [ROOM.too_fast],
    "room.no_activity": [ROOM.no_activity],
    "room.phase": [lambda: ROOM.store.rooms.set_phase(ROOM.room.code, ROOM.key, "paused")],
    "room.revealed_final": [ROOM.revealed_final],
    "room.schema": [ROOM.newer_schema],
    "room.public_url_scheme": [lambda: read_public_url("ndcg.example.edu")],
    "room.public_url_host": [lambda: read_public_url("https://:8080/ndcg")],
    "room.public_url_extra": [lambda: read_public_url("https://ndcg.example.edu/?room=K7P3QX")],
    "room.public_url_space": [lambda: read_public_url("https://ndcg example.edu")],
    "activity.kind": [lambda: from_payload("quiz", {})],
    "activity.gain": [lambda: activity_list(("a",), (1,), 1, "custom")],
    "activity.twist": [lambda: rank_activity(random_list(1), "upside_down")],
    "activity.pair": [lambda: compare_activity("mine", "ndcg")],
    "activity.metric": [lambda: compare_activity("seed003", "map")],
    "activity.estimate_range": [
        lambda: Predict(random_list(1)).check("1.2"),
        lambda: Predict(random_list(1)).check("1,5"),
    ],
    "activity.order": [lambda: rank_activity(random_list(1), "small_k").check([0, 0, 1])],
    "activity.vote": [lambda: compare_activity("seed003", "ndcg").check("c")],
    "activity.part": [lambda: practice_activity(1, 2).check("1", 5)],
    "activity.choice": [lambda: practice_activity(1, 4).check("left", 3)],
    "activity.scale": [lambda: Scale(3, 1)],
    "activity.off_scale": [lambda: Judge(activity_list(("a",), (5,), 1))],
    "activity.result": [lambda: JUDGE.check("2", 7)],
    "activity.grade": [lambda: JUDGE.check("2.5", 0), lambda: JUDGE.check("x", 0)],
    "activity.mistake_unknown": [lambda: choose_activity(CHOOSE_LIST, ["wrong_k"])],
    "activity.mistake_not_here": [lambda: choose_activity(CHOOSE_LIST, ["ideal_from_list"])],
    "activity.mistake_right": [lambda: choose_activity(CHOOSE_LIST, ["list_not_cut"])],
    "activity.mistake_same": [
        lambda: choose_activity(CHOOSE_LIST, ["no_normalisation", "no_normalisation"]),
        lambda: choose_activity(CHOOSE_LIST, ["no_normalisation+list_not_cut"]),
    ],
    "activity.mistakes_few": [lambda: choose_activity(activity_list(("a", "b"), (0, 0), 2))],
    "lesson.too_large": [lambda: read_lesson(b"#" * 1_000_001, "big.toml")],
    "lesson.too_deep": [lambda: read_lesson("format = 1\nx = " + "[" * 10_000, "deep.toml")],
    "lesson.nested": [lambda: _read_unscanned("x = " + "[" * 10_000)],
    "lesson.key_parts": [lambda: read_lesson("[" + ".".join("a" * 10_000) + "]", "keys.toml")],
    "lesson.syntax": [lambda: read_lesson("format = \ntitle = 'x'", "mine.toml")],
    "lesson.syntax_end": [lambda: read_lesson("title = 'x", "mine.toml")],
    "lesson.format": [lambda: lesson_with(top={"format": 2})],
    "lesson.missing": [lambda: lesson_with(top={"title": None}), lambda: lesson_with(k=None)],
    "lesson.unknown_field": [lambda: lesson_with(top={"author": "me"}), lambda: lesson_with(colour="red")],
    "lesson.not_text": [lambda: lesson_with(top={"title": 3})],
    "lesson.text_blank": [lambda: lesson_with(top={"title": " "})],
    "lesson.text_long": [lambda: lesson_with(query="q" * 201)],
    "lesson.not_whole": [lambda: lesson_with(k=2.5)],
    "lesson.out_of_range": [lambda: lesson_with(time_limit=1)],
    "lesson.not_bool": [lambda: lesson_with(top={"scores": "yes"})],
    "lesson.choice": [lambda: lesson_with(gain="cubic"), lambda: lesson_with(kind="quiz")],
    "lesson.not_list": [lambda: lesson_with(grades=3)],
    "lesson.not_table": [lambda: lesson_with(question="Why?")],
    "lesson.grade": [lambda: lesson_with(grades=[3, "x"])],
    "lesson.grade_negative": [lambda: lesson_with(grades=[3, -1])],
    "lesson.item_not_text": [lambda: lesson_with(items=["a", 2])],
    "lesson.item_blank": [lambda: lesson_with(items=["a", " "])],
    "lesson.item_long": [lambda: lesson_with(items=["a", "b" * 121])],
    "lesson.count": [lambda: lesson_with(grades=[3, 1, 2])],
    "lesson.grade_disagrees": [
        lambda: lesson_with(
            kind="compare",
            items=None,
            grades=None,
            metric="mrr",
            a={"items": ["x", "y"], "grades": [3, 0]},
            b={"items": ["y", "x"], "grades": [0, 2]},
        )
    ],
    "lesson.exercise_kind": [
        lambda: lesson_with(kind="practice", items=None, grades=None, k=None, seed=1, exercises=["dcg", "reach"])
    ],
    "lesson.scale": [lambda: lesson_with(top={"scale": [0, 2.5]})],
    "lesson.not_activity": [lambda: lesson_from_data({"format": 1, "title": "t", "activity": [3]})],
    "lesson.no_activities": [lambda: lesson_from_data({"format": 1, "title": "t"})],
    "lesson.too_many": [lambda: lesson_from_data({"format": 1, "title": "t", "activity": [{}] * 51})],
    "lesson.problem": [lambda: lesson_with(k=3), lambda: lesson_with(top={"scale": [2, 1]})],
    "lesson.unknown": [lambda: ROOM.store.lessons.load(ROOM.wrong)],
    "room.no_lesson": [lambda: ROOM.store.lessons.step(ROOM.room.code, ROOM.key, 0)],
    "room.lesson_step": [lambda: ROOM.store.lessons.step(*ROOM.lesson_room(), 1)],
    "room.time_up": [ROOM.time_up],
    "go.page": [lambda: ROOM.links.save("evaluate", {})],
    "go.unknown": [lambda: ROOM.links.load(ROOM.wrong)],
    "go.too_many": [lambda: _one_link_an_hour().save("learn", {"step": "2"}, "192.0.2.1")],
}
# Places that only some of the calls above reach; each must be reached by one.
EXTRA_PLACE_CALLS = [
    lambda: ListSpec.from_link(link_with(l=["a", ""])),
    lambda: ListSpec.from_link(link_with(g=[1, 9])),
    lambda: ListSpec.from_link(link_with(x=[["", 1]])),
    lambda: ListSpec.from_link(link_with(x=[["c", 9]])),
    lambda: ListSpec.from_link(link_with(gain="custom", m={"1": "x"})),
    lambda: example_from_rows([{"item": "a", "score": "x", "grade": 1}], [], 5),
    lambda: example_from_rows([{"item": "a", "score": 1, "grade": "x"}], [], 5),
    lambda: parse_gain_mapping({1: "x"}, 4),
    lambda: DISCOUNTS.build("jk", base="x"),
    lambda: err([1], max_grade="x"),
    lambda: recall_at_k([1], 1, n_relevant=0),
    lambda: check_seed(10**12),
    lambda: parse_measure("ndcg.1=x"),
    lambda: check_grade("x", 4, Place("new.grade")),
    lambda: check_top_grade("x"),
    lambda: read_qrels(b"q 0 a\n", name="qrels.txt"),
    lambda: example_from_rows([{"item": "a b", "score": 1, "grade": 1}], [{"item": "c d", "grade": 1}], 5),
    lambda: room_rules.read_nickname("\ud800"),
    lambda: ROOM.links.load(""),
    lambda: practice_activity(1, 0),
    lambda: ROOM.store.lessons.load(""),
]


def raised(call):
    try:
        call()
    except InputError as error:
        return error
    raise AssertionError("no InputError")


def _one_link_an_hour():
    links = ShortLinks(ROOM.store.database, limits=LinkLimits(short_links_per_hour=1))
    links.save("learn", {"step": "1"}, "192.0.2.1")
    return links


def _read_unscanned(text):
    """A lesson read as if the shape check let it through: tomllib's own RecursionError is refused too."""
    with mock.patch("ndcg_core.classroom.lessons.check_shape"):
        return read_lesson(text, "deep.toml")


ERRORS = {code: [raised(call) for call in calls] for code, calls in CALLS.items()}


def test_every_code_is_raised_by_real_bad_input():
    assert set(CALLS) == set(MESSAGES)
    for code, errors in ERRORS.items():
        assert [e.code for e in errors] == [code] * len(errors), code


def _places(error):
    for value in error.fields.values():
        if isinstance(value, Place):
            yield value.code
    for other in error.also:
        yield from _places(other)


def test_every_place_is_reached_by_real_bad_input():
    reached = {place for errors in ERRORS.values() for e in errors for place in _places(e)}
    reached |= {place for call in EXTRA_PLACE_CALLS for place in _places(raised(call))}
    assert reached == set(PLACES)


@pytest.mark.parametrize("key", sorted(TEMPLATES))
def test_chinese_has_a_template_with_exactly_the_english_fields(key):
    zh = catalogue("zh")[key]
    assert placeholders(zh) == placeholders(TEMPLATES[key])
    # A problem inside an activity of a lesson is only a frame: both parts are in Chinese.
    assert re.search(r"[\u4e00-\u9fff]", zh) or key in ("place.k", "place.option.max_docs", "error.lesson.problem"), zh


def test_english_error_templates_live_only_in_the_core_and_the_uis_registry():
    assert not [key for key in catalogue("en") if key.startswith(("error.", "place.", "frame."))]
    assert not set(CORE_MESSAGES) & set(ui_errors.MESSAGES) and not set(CORE_PLACES) & set(ui_errors.PLACES)
    assert all(TEMPLATES[f"error.{code}"] == text for code, text in ui_errors.MESSAGES.items())
    assert dict(TEMPLATES) == {**CORE_TEMPLATES, **TEMPLATES}  # the UI's lookup holds the core's as they are


def test_the_uis_codes_are_raised_by_the_ui_alone_and_the_cores_by_the_core():
    # The UI's own codes appear in no module of the core, so the core never depends on the UI's registry.
    core_text = "\n".join(p.read_text() for p in (ROOT / "ndcg_core").rglob("*.py") if p.name != "errors.py")
    assert [code for code in ui_errors.MESSAGES if f'"{code}"' in core_text] == []
    assert [code for code in ui_errors.PLACES if f'"{code}"' in core_text] == []
    assert not any(code.startswith(("typed.", "editor.", "action.")) for code in CORE_MESSAGES)


def test_the_uis_templates_leave_the_cores_unchanged():
    # Importing ui.errors (every test module here does) layers the UI's codes over the core's, in a lookup of its own.
    assert not [key for key in CORE_TEMPLATES if key.removeprefix("error.").removeprefix("place.") in UI_CODES]
    assert set(TEMPLATES) - set(CORE_TEMPLATES) == {f"error.{c}" for c in ui_errors.MESSAGES} | {
        f"place.{c}" for c in ui_errors.PLACES
    }
    with pytest.raises(KeyError, match="error.k.none, error.link.range, place.k"):
        layered(messages={"k.none": "another", "link.range": "another"}, places={"k": "another"})
    with pytest.raises(KeyError, match="no template for error.typed.no_grades"):
        InputError("typed.no_grades")  # type: ignore[arg-type]  # the core's class knows only the core's codes
    raised = ui_errors.UiInputError("typed.no_grades")
    assert isinstance(raised, InputError) and str(raised) == ui_errors.MESSAGES["typed.no_grades"]
    assert pickle.loads(pickle.dumps(raised)).render() == str(raised)


UI_CODES = {*ui_errors.MESSAGES, *ui_errors.PLACES}


# What may stay in Latin letters inside a Chinese message: names of metrics, formats, columns and options.
ALLOWED_LATIN = {
    "NDCG",
    "DCG",
    "IDCG",
    "CG",
    "Lab",
    "TREC",
    "UTF",
    "NUL",
    "gzip",
    "NaN",
    "LEVEL",
    "GAIN",
    "qid",
    "iter",
    "docno",
    "rel",
    "rank",
    "score",
    "tag",
    "ndcg_cut",
    "ndcg",
    "max_grade",
    "n_relevant",
    "gain",
    "engine",  # the command line's --engine duckdb --ties trec_eval, as typed
    "duckdb",
    "spark",  # --engine spark, and what it needs: Spark itself, Java, and pip install 'ndcg-lab[spark]'
    "Spark",
    "pandas",  # Qrels.from_frame takes a pandas DataFrame or a pyarrow Table: library and class names
    "pyarrow",
    "DataFrame",
    "Table",
    "Java",
    "Python",
    "pip",
    "install",
    "lab",
    "ties",
    "trec_eval",
    "k",
    "b",
    "M",
    "Q0",
    "True",
    "False",
    "A",
    "B",
    "O",
    "I",
    "L",
    "http",
    "https",
    "example",
    "edu",
    "TOML",
    "true",
    "false",
    "activity",
    "zh",
}  # systems A and B; the letters a room code leaves out; an example address (https://ndcg.example.edu)


def _user_values(error):
    for value in error.fields.values():
        if isinstance(value, InputError):
            yield from _user_values(value)
        elif isinstance(value, Place):
            yield from (str(v) for v in value.fields.values())
        else:
            yield str(value)
    if error.quote is not None:
        yield repr(error.quote)
    for other in error.also:
        yield from _user_values(other)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_a_page_shows_every_error_in_both_languages(code):
    for error in ERRORS[code]:
        # An invisible word joiner after "https" keeps Markdown from making a quoted address a live link.
        english = plain(Translator("en").explain(error)).replace("\u2060", "")
        assert english.replace("  \n", "\n").lower() == str(error).lower()  # only a capital first letter differs
        chinese = plain(Translator("zh").explain(error)).replace("\u2060", "")
        assert "{" not in chinese and re.search(r"[\u4e00-\u9fff]", chinese), chinese
        rest = chinese
        for value in sorted(_user_values(error), key=len, reverse=True):
            rest = re.sub(rf"(?<![A-Za-z]){re.escape(value)}(?![A-Za-z])", " ", rest)
        latin = set(re.findall(r"[A-Za-z][A-Za-z_0-9]*", rest)) - ALLOWED_LATIN
        assert not latin, (chinese, latin)


@pytest.mark.parametrize("code", sorted(OUTAGES))
def test_a_database_outage_is_shown_in_both_languages_and_is_no_input_error(code):
    error = StoreUnavailable(code)
    assert not isinstance(error, ValueError)  # nobody catches it as a refusal of what was typed
    assert plain(Translator("en").explain(error)).lower() == str(error).lower()
    chinese = plain(Translator("zh").explain(error))
    assert re.search(r"[\u4e00-\u9fff]", chinese) and not re.search(r"[A-Za-z]", chinese), chinese
    with pytest.raises(KeyError):
        StoreUnavailable("store.gone")


def test_a_file_error_quotes_each_bad_line_once_and_counts_the_rest():
    error = ERRORS["qrels.columns"][0]
    assert str(error).split("\n") == [
        "line 1 of qrels.txt: expected 4 columns (qid iter docno rel), got 3 (the line reads 'q 0 a')",
        "line 2 of qrels.txt: expected 4 columns (qid iter docno rel), got 3 (the line reads 'q 0 b')",
        "line 3 of qrels.txt: expected 4 columns (qid iter docno rel), got 3 (the line reads 'q 0 c')",
        "2 more bad lines",
    ]
    assert plain(Translator("zh").explain(error)).split("  \n") == [
        "qrels.txt 第 1 行：应有 4 列（qid iter docno rel），实际有 3 列（该行内容为 'q 0 a'）",
        "qrels.txt 第 2 行：应有 4 列（qid iter docno rel），实际有 3 列（该行内容为 'q 0 b'）",
        "qrels.txt 第 3 行：应有 4 列（qid iter docno rel），实际有 3 列（该行内容为 'q 0 c'）",
        "另有 2 行有误",
    ]


def test_an_error_keeps_its_code_and_fields_through_pickling():
    import pickle

    error = ERRORS["qrels.columns"][0]
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.fields, copy.quote, copy.more, str(copy)) == (
        error.code,
        error.fields,
        error.quote,
        error.more,
        str(error),
    )


def test_a_code_raised_with_other_fields_than_its_template_is_a_bug_caught_at_once():
    with pytest.raises(TypeError, match="takes the fields"):
        InputError("grade.negative", value="'-1'")


# ---------------------------------------------------------------- the same errors on real pages


def _page(path, lang):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if path != "app.py":
        at.switch_page(path)
    seed_state(at, lang=lang)
    return at.run()


@pytest.mark.parametrize(
    "lang, expected", [("en", "Grade at position 2 is 'x': not a number"), ("zh", "第 2 位的等级是 'x'：这不是数字")]
)
def test_a_bad_grade_on_the_home_page_is_explained_in_the_pages_language(lang, expected):
    at = _page("app.py", lang)
    at.text_input(key="home_grades").set_value("3, x, 2").run()
    assert not at.exception
    assert expected in plain(at.error[0].value)


@pytest.mark.parametrize(
    "lang, expected", [("en", "k must be a whole number, got 'ten'"), ("zh", "k必须是整数，现在是 'ten'")]
)
def test_a_bad_k_on_the_evaluate_page_is_explained_in_the_pages_language(lang, expected):
    at = _page("pages/2_Evaluate.py", lang)
    at.text_input(key="_w_ev_cutoffs").input("5, ten").run()
    assert not at.exception
    assert any(expected in plain(e.value) for e in at.error)


def test_no_module_raises_a_bare_value_error_for_bad_input():
    offenders = []
    for path in [*ROOT.glob("ndcg_core/**/*.py"), *ROOT.glob("ui/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and getattr(node.exc.func, "id", None) == "ValueError"
            ):
                offenders.append(f"{path.name}:{node.lineno}")
    assert not offenders


def test_no_module_imports_another_modules_private_name():
    offenders = []
    for path in [*ROOT.glob("ndcg_core/**/*.py"), *ROOT.glob("ui/**/*.py"), ROOT / "app.py", *ROOT.glob("pages/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module not in ("__future__",):
                offenders += [f"{path.name}: {a.name}" for a in node.names if a.name.startswith("_")]
    assert not offenders
